"""Chief's conversation when the browser refuses a write for space: the page is
told, everything stays in memory, and it is all stored once a write succeeds."""

from __future__ import annotations

from pydantic import SecretStr

from tests.sim import Turn
from wiggum.chief.chat import ChiefChat
from wiggum.fs import StorageFull
from wiggum.llm import ProviderConfig
from wiggum.persist import MemoryAppStorage


class FullStorage(MemoryAppStorage):
    full = False

    async def put_message(self, project_id, agent, seq, record):
        if self.full:
            raise StorageFull("", 99, 100)
        await super().put_message(project_id, agent, seq, record)


async def test_refused_saves_are_said_kept_and_written_after_the_next_success(sim, transport):
    sim.script([Turn("First answer."), Turn("Second answer.")])
    provider = ProviderConfig(
        id="quota-sim",
        name="Sim",
        kind="openai",
        base_url=sim.base_url + "/v1",
        model="gpt-4o-mini",
        api_key=SecretStr("sk-sim"),
    )
    storage = FullStorage()
    project = await storage.create_project("Test")
    chat = ChiefChat(storage, project["id"], transport=transport)
    await chat.load()
    events: list[str] = []
    chat.subscribe(lambda ev, r: events.append(ev))

    storage.full = True
    reply = await chat.send("Hi", provider)
    assert reply.content == "First answer."  # the reply streamed and is on screen
    assert isinstance(chat.save_error, StorageFull)
    assert "save-error" in events and "saved" not in events
    assert await storage.load_messages(project["id"], "chief") == []

    storage.full = False
    await chat.send("Again", provider)
    assert chat.save_error is None and events[-1] != "save-error" and "saved" in events
    again = ChiefChat(storage, project["id"], transport=transport)
    stored = await again.load()
    assert [(r.role, r.content) for r in stored] == [
        ("user", "Hi"),
        ("assistant", "First answer."),
        ("user", "Again"),
        ("assistant", "Second answer."),
    ]
