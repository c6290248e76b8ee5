"""Chief's saver: refused writes kept and written again, streaming writes folded, the
page's last write at once."""

from __future__ import annotations

import asyncio

from wiggum.chief.records import ChatRecord
from wiggum.chief.saver import ChatSaver, WriteOutcome
from wiggum.fs import StorageFull
from wiggum.persist import MemoryAppStorage


class Storage(MemoryAppStorage):
    """Records every write as ``(seq, content)``; refuses them while ``full``;
    a write takes ``delay`` seconds when it is set."""

    def __init__(self) -> None:
        super().__init__()
        self.full = False
        self.delay = 0.0
        self.writes: list[tuple[int, str]] = []

    async def put_message(self, project_id, agent, seq, record):
        if self.full:
            raise StorageFull("", 99, 100)
        if self.delay:
            await asyncio.sleep(self.delay)
        self.writes.append((seq, record.get("content", "")))
        await super().put_message(project_id, agent, seq, record)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def saver(storage: Storage, autosave_seconds: float = 60.0) -> ChatSaver:
    return ChatSaver(storage, "p", "chief", clock=Clock(), autosave_seconds=autosave_seconds)


async def written(storage: Storage, count: int) -> None:
    while len(storage.writes) < count:
        await asyncio.sleep(0.005)


def record(seq: int, content: str = "", **kw) -> ChatRecord:
    return ChatRecord(seq=seq, role="assistant", content=content, **kw)


async def stored(storage: Storage) -> list[tuple[int, str]]:
    return [(r["seq"], r.get("content", "")) for r in await storage.load_messages("p", "chief")]


async def test_a_refused_write_is_kept_told_and_written_after_the_next_success():
    storage = Storage()
    s = saver(storage)
    told: list[tuple[WriteOutcome, int]] = []
    s.on_outcome = lambda outcome, r: told.append((outcome, r.seq))

    storage.full = True
    assert await s.save(record(0, "kept")) is WriteOutcome.REFUSED
    assert isinstance(s.error, StorageFull)
    assert list(s.unsaved) == [0]
    assert await stored(storage) == []

    storage.full = False
    assert await s.save(record(1, "next")) is WriteOutcome.CAUGHT_UP
    assert await stored(storage) == [(0, "kept"), (1, "next")]
    assert s.error is None and s.unsaved == {}
    assert told == [(WriteOutcome.REFUSED, 0), (WriteOutcome.CAUGHT_UP, 1)]
    assert await s.save(record(1, "again")) is WriteOutcome.SAVED


async def test_a_held_record_is_written_as_it_stands_at_the_retry():
    """A streaming reply refused, then changed: the retry writes its latest text."""
    storage = Storage()
    s = saver(storage)
    reply = record(0, "part")
    storage.full = True
    await s.save(reply)
    reply.content = "part and more"
    storage.full = False
    await s.save(record(1, "other"))
    assert (0, "part and more") in await stored(storage)


async def test_deleting_the_conversation_forgets_what_was_held():
    storage = Storage()
    s = saver(storage)
    storage.full = True
    await s.save(record(0, "old conversation"))
    storage.full = False
    await s.delete_all()
    assert s.error is None and s.unsaved == {}
    await s.save(record(0, "new conversation"))
    assert await stored(storage) == [(0, "new conversation")]


async def test_autosave_writes_at_once_then_folds_changes_into_the_next_write():
    storage = Storage()
    s = saver(storage, autosave_seconds=0.05)
    reply = record(0)
    for part in ("one ", "two ", "three"):
        reply.content += part
        s.autosave(reply)
        await asyncio.sleep(0)
    assert storage.writes == [(0, "one ")]  # the first at once; later ones wait their turn
    await asyncio.wait_for(written(storage, 2), 1)
    await asyncio.sleep(0.1)
    assert storage.writes == [(0, "one "), (0, "one two three")]  # two changes, one write


async def test_a_slow_write_folds_what_arrives_meanwhile():
    storage = Storage()
    storage.delay = 0.05
    s = saver(storage, autosave_seconds=0.0)
    reply = record(0, "a")
    s.autosave(reply)
    await asyncio.sleep(0.01)  # that write is in flight
    for more in "bcd":
        reply.content += more
        s.autosave(reply)
    await asyncio.wait_for(written(storage, 2), 1)
    await asyncio.sleep(0.1)
    assert storage.writes == [(0, "a"), (0, "abcd")]


async def test_save_now_writes_what_the_autosave_holds_back_at_once():
    storage = Storage()
    s = saver(storage, autosave_seconds=60)
    reply = record(0, "first")
    s.autosave(reply)
    await asyncio.sleep(0)
    reply.content = "first and last"
    s.autosave(reply)
    await asyncio.sleep(0)
    assert storage.writes == [(0, "first")]  # held back for a minute
    await s.save_now()
    assert storage.writes == [(0, "first"), (0, "first and last")]
    await s.flush()  # the waiting writer ends without writing again
    assert storage.writes == [(0, "first"), (0, "first and last")]


async def test_flush_waits_for_the_write_in_flight():
    storage = Storage()
    storage.delay = 0.05
    s = saver(storage)
    s.autosave(record(0, "streaming"))
    await asyncio.sleep(0.01)
    await s.flush()
    assert storage.writes == [(0, "streaming")]  # landed before flush returned


async def test_read_skips_an_unreadable_row():
    storage = Storage()
    await storage.put_message("p", "chief", 0, record(0, "fine").to_storage())
    await storage.put_message("p", "chief", 1, {"seq": 1, "role": "nobody"})
    assert [r.content for r in await saver(storage).read()] == ["fine"]
