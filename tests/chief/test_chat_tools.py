"""ChiefChat with tools: rounds, tool records, ui events, the provider lock, notices."""

from __future__ import annotations

import asyncio
import itertools
import json

import pytest
from pydantic import SecretStr

from tests.coordinator.helpers import Clock, FakeRunner
from tests.sim import Simulator, ToolCall, Turn
from wiggum.chief.chat import ChatRecord, ChiefChat, records_to_messages
from wiggum.chief.prompt import chief_system_prompt
from wiggum.chief.tools import ChiefToolbox
from wiggum.coordinator import Coordinator, ProviderLocks
from wiggum.coordinator.files import PLAN_PATH
from wiggum.fs import MemoryFileStore
from wiggum.llm import ProviderConfig
from wiggum.persist import MemoryAppStorage
from wiggum.skills import SkillLibrary

_ids = itertools.count()


@pytest.fixture(scope="module")
def skills() -> SkillLibrary:
    return SkillLibrary.load()


def provider(sim: Simulator) -> ProviderConfig:
    return ProviderConfig(
        id=f"tools-{next(_ids)}",
        name="Sim",
        kind="openai",
        base_url=sim.base_url + "/v1",
        model="gpt-4o-mini",
        api_key=SecretStr("sk-sim-tools"),
    )


class Setup:
    def __init__(self, transport, skills, *, runner=None, max_tool_rounds=8) -> None:
        self.storage = MemoryAppStorage()
        self.fs = MemoryFileStore({"index.html": "<h1>hi</h1>\n"}, clock=Clock())
        self.runner = runner or FakeRunner()
        self.locks = ProviderLocks()
        self.coordinator = Coordinator(
            self.fs, ralph_runner=self.runner, clock=Clock(), locks=self.locks
        )
        self.events: list[dict] = []
        self.transport = transport
        self.skills = skills
        self.max_tool_rounds = max_tool_rounds

    async def chat(self) -> ChiefChat:
        project = await self.storage.create_project("T")
        chat = ChiefChat(
            self.storage,
            project["id"],
            system_prompt=chief_system_prompt(),
            transport=self.transport,
            toolbox=ChiefToolbox(self.coordinator, self.skills, self.fs),
            coordinator=self.coordinator,
            on_ui_event=self.events.append,
            max_tool_rounds=self.max_tool_rounds,
        )
        await chat.load()
        return chat


async def test_tool_rounds_records_and_persistence(sim, transport, skills):
    s = Setup(transport, skills)
    chat = await s.chat()
    activities: list[str | None] = []
    chat.subscribe(lambda ev, r: activities.append(chat.activity) if ev == "activity" else None)
    sim.script(
        [
            Turn("Let me look.", ToolCall("list_files", {"path": "."})),
            Turn(ToolCall("write_plan", {"content": "# Plan\n- one page"})),
            Turn("Saved. Say go when ready."),
        ]
    )
    p = provider(sim)
    reply = await chat.send("A one-page site please", p)
    assert reply.status == "complete" and reply.content == "Saved. Say go when ready."
    roles = [(r.role, r.name) for r in chat.records]
    assert roles == [
        ("user", None),
        ("assistant", None),
        ("tool", "list_files"),
        ("assistant", None),
        ("tool", "write_plan"),
        ("assistant", None),
    ]
    assert "index.html" in chat.records[2].content
    assert chat.records[2].tool_call_id == chat.records[1].tool_calls[0].id
    assert await s.fs.read_text(PLAN_PATH) == "# Plan\n- one page\n"
    assert s.events == [{"type": "plan_saved", "path": PLAN_PATH}]
    assert "Chief is reading files…" in activities and activities[-1] is None
    assert chat.activity is None and not chat.busy
    # tools were offered with every call; the tool results went back to the model
    bodies = [r.json for r in sim.chat_requests]
    assert all({t["function"]["name"] for t in b["tools"]} >= {"send_to_ralph"} for b in bodies)
    last = bodies[-1]["messages"]
    assert [m["role"] for m in last[-4:]] == ["assistant", "tool", "assistant", "tool"]
    # persisted: a reload sees the same records (and valid history)
    again = ChiefChat(s.storage, chat.saver.project_id)
    records = await again.load()
    assert [(r.role, r.name) for r in records] == roles
    assert len(records_to_messages(records)) == 6


async def test_handoff_event_and_chief_speaks_before_ralph(sim, transport, skills):
    s = Setup(transport, skills)
    chat = await s.chat()
    sim.script(
        [
            Turn(ToolCall("send_to_ralph", {"prompt": "Build it", "plan_summary": "One page"})),
            Turn("Ralph is on it."),
        ]
    )
    order: list[str] = []
    real_acquire = s.locks._acquire

    async def spy(provider_id, who):
        await real_acquire(provider_id, who)
        order.append(who)

    s.locks._acquire = spy  # type: ignore[method-assign]
    p = provider(sim)
    # Ralph's first call wants the same provider as soon as he starts.
    s.runner.iterations = 0

    async def ralph_call():
        await s.runner.started.wait()
        async with s.coordinator.llm_lock(p.id, "ralph"):
            order.append("ralph-call")

    ralph = asyncio.ensure_future(ralph_call())
    reply = await chat.send("go", p)
    await asyncio.wait_for(ralph, 5)
    assert reply.content == "Ralph is on it."
    assert s.events[0]["type"] == "handoff"
    assert order.index("chief") < order.index("ralph")
    assert order.count("chief") == 2
    assert not s.locks.is_busy(p.id)
    s.runner.release.set()
    await s.coordinator.wait()


async def test_post_build_notice_is_a_note_once(sim, transport, skills):
    s = Setup(transport, skills)
    chat = await s.chat()
    s.runner.iterations = 1
    await s.coordinator.send_to_ralph("Build it")
    await s.runner.started.wait()
    s.runner.release.set()
    await s.coordinator.wait()
    assert s.coordinator.pending_notice is not None
    sim.script([Turn("Ralph built your page."), Turn("Sure.")])
    p = provider(sim)
    reply = await chat.send(None, p)  # a turn of notes only
    assert reply.content == "Ralph built your page."
    note = chat.records[0]
    assert note.role == "user" and note.note and "Ralph" in note.content
    assert s.coordinator.pending_notice is None
    await chat.send("thanks", p)
    notes = [r for r in chat.records if r.note]
    assert len(notes) == 1
    sent = sim.chat_requests[0].json["messages"]
    assert sent[-1]["role"] == "user" and "Ralph" in json.dumps(sent[-1])
    with pytest.raises(ValueError):
        await chat.send(None, p)  # nothing to tell


async def test_tool_rounds_are_capped(sim, transport, skills):
    s = Setup(transport, skills, max_tool_rounds=2)
    chat = await s.chat()
    sim.script(
        [Turn(ToolCall("list_files", {"path": "."})) for _ in range(2)] + [Turn("Done looking.")]
    )
    reply = await chat.send("look", provider(sim))
    assert reply.content == "Done looking."
    assert len(sim.chat_requests) == 3
    assert sim.chat_requests[-1].json.get("tool_choice") == "none"


async def test_stop_during_tools_keeps_history_valid(sim, transport, skills):
    s = Setup(transport, skills)
    chat = await s.chat()
    sim.script([Turn(ToolCall("list_files", {"path": "."}))])
    chat.subscribe(lambda ev, r: chat.stop() if ev == "activity" and chat.activity else None)
    reply = await chat.send("look", provider(sim))
    assert reply.tool_calls and len(sim.chat_requests) == 1
    assert [r.role for r in chat.records] == ["user", "assistant", "tool"]
    msgs = records_to_messages(chat.records)
    assert [m.role for m in msgs] == ["user", "assistant", "tool"]
    assert isinstance(chat.records[-1], ChatRecord)


async def test_chief_says_when_he_waits_for_ralphs_call(sim, transport, skills):
    s = Setup(transport, skills)
    chat = await s.chat()
    p = provider(sim)
    activities: list[str | None] = []
    chat.subscribe(lambda ev, r: activities.append(chat.activity) if ev == "activity" else None)
    sim.script([Turn("Here now.")])
    lease = s.coordinator.llm_lock(p.id, "ralph")
    await lease.__aenter__()
    turn = asyncio.ensure_future(chat.send("hello?", p))
    for _ in range(50):
        if activities:
            break
        await asyncio.sleep(0.01)
    assert activities == ["Waiting for Sim: Ralph is using it…"]
    assert not sim.chat_requests  # not sent while Ralph holds the provider
    await lease.__aexit__(None, None, None)
    reply = await asyncio.wait_for(turn, 5)
    assert reply.content == "Here now."
    assert activities == ["Waiting for Sim: Ralph is using it…", None]
