"""Chief's turns as the person drives them: the state machine, which buttons
show, and the session over a real ``ChiefChat`` talking HTTP to the simulator."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from fakes import FakeHost
from pydantic import SecretStr

from tests.sim import Simulator, Stall, ToolCall, Turn, http_error, rate_limited
from wiggum.chief.chat import ChatRecord, ChiefChat
from wiggum.llm import RequestOptions
from wiggum.persist import MemoryAppStorage
from wiggum.session import providers
from wiggum.session.chief import (
    Activity,
    ChatBound,
    ChiefSession,
    QueueReady,
    Refused,
    SaveState,
    SendOutcome,
    TurnChanged,
    TurnEnded,
    TurnStarted,
    Waiting,
    save_failure_text,
)
from wiggum.session.turns import (
    TRANSITIONS,
    Trigger,
    TurnActions,
    TurnError,
    TurnState,
    next_state,
    settled_state,
    turn_actions,
)
from wiggum.ui.settings import ProviderSettings, Settings

S = TurnState


def rec(seq: int, role: str, status: str = "complete", content: str = "x", **kw) -> ChatRecord:
    return ChatRecord(seq=seq, role=role, status=status, content=content, **kw)


# ------------------------------------------------------------------ the table


def test_every_state_has_its_row_and_every_target_is_a_state_or_settled():
    assert set(TRANSITIONS) == set(TurnState)
    for row in TRANSITIONS.values():
        assert all(target is None or isinstance(target, TurnState) for target in row.values())


@pytest.mark.parametrize(
    ("state", "trigger"),
    [
        (S.IDLE, Trigger.END),
        (S.IDLE, Trigger.WAIT),
        (S.FAILED, Trigger.TOOLS),
        (S.QUEUED, Trigger.START),
        (S.STREAMING, Trigger.QUEUE),
        (S.STREAMING, Trigger.START),
        (S.WAITING, Trigger.START),
        (S.TOOLS, Trigger.UNQUEUE),
    ],
)
def test_a_trigger_the_state_does_not_take_is_an_error(state, trigger):
    with pytest.raises(TurnError):
        next_state(state, trigger, [])


@pytest.mark.parametrize("state", [S.IDLE, S.STOPPED, S.FAILED])
def test_a_turn_starts_from_any_settled_state(state):
    assert next_state(state, Trigger.START, []) is S.STREAMING
    assert next_state(state, Trigger.QUEUE, []) is S.QUEUED


def test_the_client_waiting_to_retry_and_tools_running_are_states_of_a_turn():
    assert next_state(S.STREAMING, Trigger.WAIT, []) is S.WAITING
    assert next_state(S.WAITING, Trigger.RESUME, []) is S.STREAMING
    assert next_state(S.STREAMING, Trigger.TOOLS, []) is S.TOOLS
    assert next_state(S.TOOLS, Trigger.RESUME, []) is S.STREAMING
    assert next_state(S.TOOLS, Trigger.WAIT, []) is S.WAITING


@pytest.mark.parametrize(
    ("status", "settled"),
    [
        ("complete", S.IDLE),
        ("error", S.FAILED),
        ("stopped", S.STOPPED),
        ("interrupted", S.STOPPED),
    ],
)
def test_a_turn_ends_in_what_its_last_reply_says(status, settled):
    records = [rec(0, "user"), rec(1, "assistant", status)]
    for state in (S.STREAMING, S.WAITING, S.TOOLS):
        assert next_state(state, Trigger.END, records) is settled


def test_a_queued_message_taken_back_settles_on_the_records():
    assert next_state(S.QUEUED, Trigger.UNQUEUE, [rec(0, "assistant", "error")]) is S.FAILED
    assert next_state(S.QUEUED, Trigger.SETTLE, []) is S.QUEUED


def test_settled_state_skips_superseded_replies_and_tool_results():
    records = [
        rec(0, "user"),
        rec(1, "assistant", "error", superseded=True),
        rec(2, "assistant", "complete"),
        rec(3, "tool", "complete"),
    ]
    assert settled_state(records) is S.IDLE
    assert settled_state([rec(0, "user")]) is S.IDLE
    assert settled_state([]) is S.IDLE


@pytest.mark.parametrize("state", list(TurnState))
def test_busy_and_settled_split_the_states(state):
    assert state.busy != state.settled


# ------------------------------------------------------------------ which buttons show


def test_before_a_chat_is_bound_nothing_but_send_shows():
    a = turn_actions(S.IDLE, None)
    assert not a.bound and not a.busy and not a.edit
    assert (a.retry, a.resume, a.regenerate) == (None, None, None)
    assert a.manage_chats


def test_a_complete_answer_offers_regenerate_on_its_first_round():
    records = [rec(0, "user"), rec(1, "assistant", tool_calls=[]), rec(2, "assistant")]
    a = turn_actions(S.IDLE, records)
    assert a.regenerate == 1 and a.retry is None and a.resume is None and a.edit


def test_a_failed_reply_with_words_offers_retry_and_continue():
    records = [rec(0, "user"), rec(1, "assistant", "error", "half an answer")]
    a = turn_actions(S.FAILED, records)
    assert (a.retry, a.resume, a.regenerate) == (1, 1, None)


def test_a_failed_reply_without_words_offers_retry_alone():
    a = turn_actions(S.FAILED, [rec(0, "user"), rec(1, "assistant", "error", "  ")])
    assert (a.retry, a.resume) == (1, None)


def test_a_stopped_reply_that_called_tools_cannot_be_continued():
    from wiggum.llm import ParsedToolCall

    call = ParsedToolCall(id="c1", name="list_files", args={}, raw_args="{}")
    records = [rec(0, "user"), rec(1, "assistant", "stopped", "looking", tool_calls=[call])]
    a = turn_actions(S.STOPPED, records)
    assert a.retry == 1 and a.resume is None


def test_buttons_sit_on_the_first_round_of_the_last_turn():
    records = [
        rec(0, "user"),
        rec(1, "assistant"),
        rec(2, "user"),
        rec(3, "assistant"),
        rec(4, "tool"),
        rec(5, "assistant", "error", "cut"),
    ]
    assert turn_actions(S.FAILED, records).retry == 3


def test_a_note_starts_a_turn_of_its_own():
    records = [rec(0, "user"), rec(1, "assistant"), rec(2, "user", note=True), rec(3, "assistant")]
    assert turn_actions(S.IDLE, records).regenerate == 3


def test_superseded_replies_carry_no_button():
    records = [rec(0, "user"), rec(1, "assistant", "error", superseded=True), rec(2, "assistant")]
    a = turn_actions(S.IDLE, records)
    assert a.regenerate == 2 and a.retry is None


@pytest.mark.parametrize("state", [S.QUEUED, S.STREAMING, S.WAITING, S.TOOLS])
def test_while_busy_no_turn_button_and_no_edit_or_conversation_change(state):
    records = [rec(0, "user"), rec(1, "assistant", "error", "cut")]
    a = turn_actions(state, records)
    assert a.busy and not a.edit and not a.manage_chats
    assert (a.retry, a.resume, a.regenerate) == (None, None, None)


def test_an_empty_conversation_offers_nothing_to_redo():
    a = turn_actions(S.IDLE, [])
    assert a.bound and a.edit and (a.retry, a.resume, a.regenerate) == (None, None, None)


# ------------------------------------------------------------------ the session


def settings_for(sim: Simulator, **kw: Any) -> Settings:
    p = ProviderSettings(
        id="sim",
        name="Sim",
        preset="custom",
        kind="openai",
        base_url=sim.base_url + "/v1",
        model="gpt-4o-mini",
        api_key=SecretStr("sk-sim-session"),
    )
    return Settings(providers=[p], active_provider="sim", **kw)


class Context:
    """The project's side of Chief's session, over real settings."""

    def __init__(self, settings: Settings, project_id: str = "p1") -> None:
        self.settings = settings
        self.project_id = project_id
        self.paused_text: str | None = None
        self.titles: list[str] = []
        self.chats: list[tuple] = []
        self.options: list[RequestOptions] = []

    @property
    def proxy_template(self) -> str:
        return self.settings.proxy_template

    def paused(self) -> str | None:
        return self.paused_text

    def provider(self):
        return providers.provider_for(self.settings, self.project_id, "chief")

    def request_options(self, provider):
        options = providers.request_options(self.settings, provider)
        self.options.append(options)
        return options

    async def title_chat(self, text: str) -> None:
        self.titles.append(text)

    def local_fix(self) -> str | None:
        return providers.local_fix(self.settings, "http://127.0.0.1:8000")

    def images_warning(self, count: int) -> str | None:
        return providers.images_warning(self.settings, self.project_id, count, [])

    async def new_chat(self) -> None:
        self.chats.append(("new",))

    async def switch_chat(self, chat_id: str) -> None:
        self.chats.append(("switch", chat_id))

    async def rename_chat(self, chat_id: str, title: str) -> None:
        self.chats.append(("rename", chat_id, title))

    async def delete_chat(self, chat_id: str) -> None:
        self.chats.append(("delete", chat_id))


class Rig:
    def __init__(self, sim: Simulator, transport, **settings: Any) -> None:
        self.host = FakeHost()
        self.session = ChiefSession(self.host)
        self.context = Context(settings_for(sim, **settings))
        self.events: list[Any] = []
        self.session.subscribe(self.events.append)
        self.transport = transport
        self.storage = MemoryAppStorage()

    async def chat(self, **kw: Any) -> ChiefChat:
        project = await self.storage.create_project("T")
        chat = ChiefChat(self.storage, project["id"], transport=self.transport, **kw)
        await chat.load()
        return chat

    async def ready(self, **kw: Any) -> ChiefChat:
        chat = await self.chat(**kw)
        self.session.attach(self.context)
        self.session.bind(chat)
        return chat

    def states(self) -> list[TurnState]:
        return [e.actions.state for e in self.events if isinstance(e, TurnChanged)]

    def of(self, kind: type) -> list[Any]:
        return [e for e in self.events if isinstance(e, kind)]


@pytest.fixture
def rig(sim, transport) -> Rig:
    return Rig(sim, transport)


async def test_a_message_sent_before_the_app_loaded_waits_and_goes_when_the_chat_arrives(rig):
    assert rig.session.send("Hello") is SendOutcome.QUEUED
    assert rig.session.state is S.QUEUED and rig.session.actions.busy
    assert rig.host.tasks == []
    chat = await rig.chat()
    rig.session.attach(rig.context)
    rig.session.bind(chat)
    assert isinstance(rig.events[-1], QueueReady)
    assert rig.session.state is S.IDLE  # the box is sent again from IDLE
    assert any(isinstance(e, ChatBound) and e.chat is chat for e in rig.events)


async def test_stop_takes_a_queued_message_back(rig):
    rig.session.send("Hello")
    rig.session.stop()
    assert rig.session.state is S.IDLE
    rig.session.attach(rig.context)
    rig.session.bind(await rig.chat())
    assert not rig.of(QueueReady)


async def test_nothing_to_send_is_empty_and_starts_nothing(rig):
    await rig.ready()
    assert rig.session.send("   \n") is SendOutcome.EMPTY
    assert rig.host.tasks == [] and rig.session.state is S.IDLE


async def test_a_reply_streams_and_the_turn_ends_settled(sim, rig):
    sim.script([Turn("Hello there!", chunks=4)])
    chat = await rig.ready()
    rig.events.clear()
    assert rig.session.send("Hi") is SendOutcome.STARTED
    assert rig.session.busy and isinstance(rig.events[0], TurnStarted)
    assert rig.session.send("again") is SendOutcome.BUSY
    await rig.host.settle()
    assert chat.records[-1].content == "Hello there!"
    assert rig.states()[0] is S.STREAMING and rig.states()[-1] is S.IDLE
    assert isinstance(rig.of(TurnEnded)[0], TurnEnded)
    final = rig.session.actions
    assert final.regenerate == 1 and final.edit and not final.busy


async def test_the_turn_carries_the_settings_request_options(sim, transport):
    rig = Rig(sim, transport, stream_idle_seconds=33.0)
    sim.script([Turn("ok")])
    await rig.ready()
    rig.session.send("Hi")
    await rig.host.settle()
    assert [o.idle_timeout for o in rig.context.options] == [33.0]


async def test_the_first_message_names_the_conversation_and_later_ones_do_not(sim, rig):
    sim.script([Turn("one"), Turn("two")])
    await rig.ready()
    rig.session.send("  Plan a bakery site  ")
    await rig.host.settle()
    rig.session.send("and a menu")
    await rig.host.settle()
    assert rig.context.titles == ["Plan a bakery site"]


async def test_a_note_before_the_first_message_does_not_count_as_the_person_speaking(sim, rig):
    chat = await rig.ready()
    chat.records.append(rec(0, "user", content="Ralph finished", note=True))
    sim.script([Turn("ok")])
    rig.session.send("Hi")
    await rig.host.settle()
    assert rig.context.titles == ["Hi"]


async def test_in_a_paused_tab_nothing_is_sent_and_it_says_why(sim, rig):
    chat = await rig.ready()
    rig.context.paused_text = "This project is open in another tab."
    assert rig.session.send("Hi") is SendOutcome.REFUSED
    (refused,) = rig.of(Refused)
    assert refused.refusal.title == "Not sent."
    assert refused.refusal.message == "This project is open in another tab."
    assert refused.refusal.fix == "use-here"
    assert chat.records == [] and rig.host.tasks == [] and sim.chat_requests == []


async def test_without_a_provider_nothing_is_sent_and_settings_is_the_fix(sim, rig):
    await rig.ready()
    rig.context.settings = Settings()
    assert rig.session.send("Hi") is SendOutcome.REFUSED
    (refused,) = rig.of(Refused)
    assert refused.refusal.fix == "settings" and refused.refusal.title == "No provider"
    assert rig.context.titles == []


async def test_a_failed_reply_is_retried_and_the_failure_superseded(sim, rig):
    sim.script([http_error(400), Turn("second try")])
    chat = await rig.ready(sleep=_no_sleep)
    rig.session.send("Hi")
    await rig.host.settle()
    assert rig.session.state is S.FAILED and rig.session.actions.retry == 1
    assert rig.session.retry()
    await rig.host.settle()
    assert rig.session.state is S.IDLE
    assert [r.content for r in chat.records if not r.superseded] == ["Hi", "second try"]


async def test_retry_does_nothing_when_there_is_no_failed_reply(sim, rig):
    sim.script([Turn("fine")])
    await rig.ready()
    rig.session.send("Hi")
    await rig.host.settle()
    assert not rig.session.retry() and not rig.session.resume()


async def test_a_stopped_reply_is_continued_into_the_same_record(sim, rig):
    sim.script([Turn("The first half", chunks=4, fault=Stall(after=2))])
    chat = await rig.ready()
    rig.session.send("Hi")
    await _until(lambda: chat.records and chat.records[-1].content)
    rig.session.stop()
    await rig.host.settle()
    assert rig.session.state is S.STOPPED
    actions = rig.session.actions
    assert actions.retry == 1 and actions.resume == 1
    sim.script([Turn(" and the second.")])
    assert rig.session.resume()
    await rig.host.settle()
    assert rig.session.state is S.IDLE and len(chat.records) == 2
    assert chat.records[1].content.endswith("the second.")


async def test_a_rate_limited_call_is_a_wait_inside_the_turn(sim, rig):
    sim.script([rate_limited(2), Turn("after the wait")])
    await rig.ready(sleep=_no_sleep)
    rig.session.send("Hi")
    await rig.host.settle()
    assert rig.states() == [S.IDLE, S.STREAMING, S.WAITING, S.STREAMING, S.IDLE]
    waits = [e.wait for e in rig.events if isinstance(e, Waiting)]
    assert waits == [(2.0, "RateLimitError"), None]


async def test_tools_running_are_a_state_of_the_turn(sim, transport):
    rig = Rig(sim, transport)

    class Toolbox:
        def definitions(self):
            from wiggum.llm import ToolDefinition

            return [ToolDefinition(name="list_files", description="list", parameters={})]

        async def dispatch(self, call):
            from wiggum.chief.tool_round import ToolOutcome

            await asyncio.sleep(0)
            return ToolOutcome("index.html")

    sim.script([Turn(ToolCall("list_files", {})), Turn("Done.")])
    await rig.ready(toolbox=Toolbox())
    rig.session.send("look")
    await rig.host.settle()
    assert rig.states() == [S.IDLE, S.STREAMING, S.TOOLS, S.STREAMING, S.IDLE]
    assert [e.text for e in rig.events if isinstance(e, Activity)] == [
        "Chief is reading files…",
        None,
    ]


async def test_regenerate_keeps_the_old_answer_as_a_version(sim, rig):
    sim.script([Turn("first"), Turn("second")])
    chat = await rig.ready()
    assert not rig.session.regenerate()  # nothing to regenerate yet
    rig.session.send("Hi")
    await rig.host.settle()
    assert rig.session.regenerate()
    await rig.host.settle()
    latest = [r for r in chat.records if not r.superseded][-1]
    assert latest.content == "second"
    assert len(rig.session.alternatives(latest.seq)) == 2


async def test_edit_sends_the_new_text_on_a_branch(sim, rig):
    sim.script([Turn("about cats"), Turn("about dogs")])
    chat = await rig.ready()
    rig.session.send("cats")
    await rig.host.settle()
    assert not rig.session.edit(0, "   ")
    assert rig.session.edit(0, "dogs")
    await rig.host.settle()
    path = [r.content for r in chat.records if not r.superseded]
    assert path == ["dogs", "about dogs"]
    assert rig.session.alternatives(path and chat.records[-2].seq) == [0, 2]


async def test_switching_versions_is_refused_in_a_paused_tab(sim, rig):
    sim.script([Turn("a"), Turn("b")])
    await rig.ready()
    rig.session.send("Hi")
    await rig.host.settle()
    rig.session.regenerate()
    await rig.host.settle()
    rig.context.paused_text = "Open in another tab."
    tasks = len(rig.host.tasks)
    assert not rig.session.switch_version(1)
    assert len(rig.host.tasks) == tasks and rig.of(Refused)[-1].refusal.title == "Not sent."


async def test_switching_versions_settles_on_the_version_shown(sim, rig):
    sim.script([Turn("a"), Turn("b")])
    chat = await rig.ready()
    rig.session.send("Hi")
    await rig.host.settle()
    rig.session.regenerate()
    await rig.host.settle()
    rig.events.clear()
    assert rig.session.switch_version(1)
    await rig.host.settle()
    assert [r.content for r in chat.records if not r.superseded] == ["Hi", "a"]
    assert rig.of(TurnChanged)  # the buttons follow the version shown


async def test_a_note_turn_is_quiet_when_it_cannot_run(sim, rig):
    await rig.ready()
    rig.context.paused_text = "elsewhere"
    assert not rig.session.note_turn()
    rig.context.paused_text = None
    rig.context.settings = Settings()
    assert not rig.session.note_turn()
    assert not rig.of(Refused) and rig.host.tasks == []


async def test_a_note_turn_with_no_note_left_ends_quietly(sim, rig):
    chat = await rig.ready()
    assert rig.session.note_turn()
    await rig.host.settle()  # ChiefChat says "nothing to send": no failure, no record
    assert rig.session.state is S.IDLE and chat.records == []


async def test_conversations_change_only_when_no_turn_runs(sim, rig):
    sim.script([Turn("slow", chunks=3, fault=Stall(after=1))])
    await rig.ready()
    rig.session.send("Hi")
    rig.session.new_chat()
    rig.session.switch_chat("c2")
    rig.session.delete_chat("main")
    await asyncio.sleep(0)
    assert rig.context.chats == []
    rig.session.stop()
    await rig.host.settle()
    rig.session.new_chat()
    rig.session.rename_chat("main", "  ")  # a blank name is no name
    rig.session.rename_chat("main", "Menu")
    rig.session.switch_chat("c2")
    rig.session.delete_chat("c2")
    await rig.host.settle()
    assert rig.context.chats == [
        ("new",),
        ("rename", "main", "Menu"),
        ("switch", "c2"),
        ("delete", "c2"),
    ]


async def test_a_listener_that_fails_does_not_stop_the_turn(sim, rig):
    def broken(event):
        raise RuntimeError("a view's bug")

    rig.session.subscribe(broken)
    sim.script([Turn("fine")])
    chat = await rig.ready()
    rig.session.send("Hi")
    await rig.host.settle()
    assert chat.records[-1].content == "fine" and rig.session.state is S.IDLE


async def test_a_conversation_bound_while_its_reply_streams_elsewhere_reads_as_busy(sim, rig):
    chat = await rig.chat()
    chat._controller = object()  # another driver's turn in flight
    rig.session.attach(rig.context)
    rig.session.bind(chat)
    assert rig.session.busy and rig.session.actions.state is S.STREAMING


async def test_the_turn_of_a_conversation_left_does_not_end_the_one_shown(sim, rig):
    sim.script([Turn("slow", chunks=3, fault=Stall(after=1))])
    first = await rig.ready()
    rig.session.send("Hi")
    await _until(lambda: first.busy)
    second = await rig.chat()
    rig.session.bind(second)
    first.stop("switched conversation")
    await rig.host.settle()
    assert rig.session.chat is second and rig.session.state is S.IDLE
    assert not rig.of(TurnEnded)


async def test_a_conversation_read_back_in_a_failed_state_offers_retry(sim, rig):
    chat = await rig.chat()
    chat.records = [rec(0, "user"), rec(1, "assistant", "interrupted", "cut")]
    rig.session.attach(rig.context)
    rig.session.bind(chat)
    assert rig.session.state is S.STOPPED and rig.session.actions.resume == 1


async def test_the_session_asks_the_project_for_the_local_fix_and_images_warning(sim, rig):
    assert rig.session.local_fix() is None and rig.session.images_warning(1) is None
    await rig.ready()
    assert rig.session.local_fix() is not None  # a custom endpoint on 127.0.0.1
    rig.context.settings.providers[0].model = "gpt-3.5-turbo"
    assert "gpt-3.5-turbo" in (rig.session.images_warning(1) or "")


def test_turn_actions_are_values():
    assert TurnActions(S.IDLE) == TurnActions(S.IDLE)


async def _no_sleep(seconds: float) -> None:
    await asyncio.sleep(0)


async def _until(check, timeout: float = 5.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not check():
        if loop.time() > end:
            raise AssertionError("timed out")
        await asyncio.sleep(0.01)


def test_a_refused_write_says_why_in_the_words_of_its_cause():
    from wiggum.fs import StorageFull
    from wiggum.persist.guarded import ProjectPaused

    full = StorageFull()
    assert save_failure_text(full) == str(full)
    assert save_failure_text(ProjectPaused("p1")) == str(ProjectPaused("p1"))
    text = save_failure_text(OSError("disk"))
    assert "refused to store the conversation (OSError)" in text
    assert "stored again with the next message" in text


async def test_a_refused_write_and_the_recovery_are_told(sim, transport):
    from wiggum.persist import MemoryAppStorage

    class Flaky(MemoryAppStorage):
        refuse = False

        async def put_message(self, *a):
            if self.refuse:
                raise OSError("disk")
            await super().put_message(*a)

    rig = Rig(sim, transport)
    rig.storage = Flaky()
    sim.script([Turn("one"), Turn("two")])
    await rig.ready()
    rig.storage.refuse = True
    rig.session.send("Hi")
    await rig.host.settle()
    rig.storage.refuse = False
    rig.session.send("again")
    await rig.host.settle()
    states = [e.text for e in rig.events if isinstance(e, SaveState)]
    assert states[0] and "OSError" in states[0] and states[-1] is None


async def test_unsubscribed_listeners_hear_nothing_more(sim, rig):
    heard = []
    stop = rig.session.subscribe(heard.append)
    stop()
    stop()  # twice is harmless
    await rig.ready()
    assert heard == []


async def test_retry_in_a_paused_tab_is_refused_and_says_so(sim, rig):
    chat = await rig.chat()
    chat.records = [rec(0, "user"), rec(1, "assistant", "error", "cut")]
    rig.session.attach(rig.context)
    rig.session.bind(chat)
    rig.context.paused_text = "Open in another tab."
    assert not rig.session.retry() and not rig.session.resume()
    assert not rig.session.regenerate() and not rig.session.edit(0, "new")
    assert len(rig.of(Refused)) == 3  # regenerate is not offered on a failed reply
    assert rig.host.tasks == [] and rig.session.state is S.FAILED
