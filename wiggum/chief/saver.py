"""Chief's conversation in storage: read back, and written as it changes.

A message is written when it is added and when it ends (write-through, so a
reload loses nothing acknowledged).  A streaming reply changes at every chunk;
writing the whole reply each time cost the page's main thread a serialization
and an IndexedDB transaction per chunk, so :meth:`ChatSaver.autosave` writes it
behind: one write in flight at a time, at most one per ``autosave_seconds``,
later changes folded into the next write.  A reload then loses at most what
arrived during one write, and :meth:`ChatSaver.save_now` (the page going away)
writes what is held back at once.

A write the browser refuses (a full quota, another tab owning the project)
must not lose the record: :class:`~wiggum.persist.retry.RetryingWriter` keeps
it and writes it again after the next write that lands.  What a refusal means
to the person is the chat's to say: it is told every outcome (``on_outcome``).

Pure: storage and clock are injected; tested under CPython.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from wiggum.persist import AppStorage
from wiggum.persist.retry import RetryingWriter, WriteOutcome

from .records import ChatRecord, records_from_rows

__all__ = ["ChatSaver", "WriteOutcome"]

logger = logging.getLogger("wiggum.chief")

OutcomeListener = Callable[[WriteOutcome, ChatRecord], None]


class ChatSaver:
    """One conversation's records in ``storage`` (``project_id``, ``agent``)."""

    def __init__(
        self,
        storage: AppStorage,
        project_id: str,
        agent: str,
        *,
        clock: Callable[[], float],
        autosave_seconds: float,
        on_outcome: OutcomeListener | None = None,
    ) -> None:
        self.storage = storage
        self.project_id = project_id
        self.agent = agent
        self.clock = clock
        self.autosave_seconds = autosave_seconds
        self.on_outcome = on_outcome
        self._writer: RetryingWriter[int] = RetryingWriter(self._put)
        #: Streaming records changed since their last write, and the task writing them.
        self._dirty: dict[int, ChatRecord] = {}
        self._task: asyncio.Future[None] | None = None
        self._next_write = 0.0  # clock() before which the task waits
        self._task_waits = False

    @property
    def error(self) -> BaseException | None:
        """Why the last refused write was refused; ``None`` once all is written."""
        return self._writer.error

    @property
    def unsaved(self) -> dict[int, ChatRecord]:
        """The records refused so far, by seq, oldest first."""
        return self._writer.unsaved

    async def read(self) -> list[ChatRecord]:
        rows = await self.storage.load_messages(self.project_id, self.agent)
        return records_from_rows(rows)

    async def delete_all(self) -> None:
        await self.storage.delete_messages(self.project_id, self.agent)
        # What was held back belongs to the conversation just deleted: written
        # after the next success, it would bring its messages back.
        self._dirty.clear()
        self._writer.forget(lambda _seq: False)

    async def _put(self, seq: int, record: ChatRecord) -> None:
        await self.storage.put_message(self.project_id, self.agent, seq, record.to_storage())

    async def save(self, record: ChatRecord) -> WriteOutcome:
        """Write ``record`` now (and what was refused before it, once it lands)."""
        outcome = await self._writer.write(record.seq, record)
        if outcome is WriteOutcome.REFUSED:
            error = type(self._writer.error).__name__
            logger.warning("chief: could not save message %d: %s", record.seq, error)
        if self.on_outcome is not None:
            self.on_outcome(outcome, record)
        return outcome

    def autosave(self, record: ChatRecord) -> None:
        """Write ``record`` soon, without waiting for it (see the module's docstring)."""
        self._dirty[record.seq] = record
        if self._task is None or self._task.done():
            self._task = asyncio.ensure_future(self._drain())

    async def _drain(self) -> None:
        while self._dirty:
            wait = self._next_write - self.clock()
            if wait > 0:
                self._task_waits = True
                try:
                    await asyncio.sleep(wait)
                finally:
                    self._task_waits = False
            if not self._dirty:
                return
            _, record = self._dirty.popitem()
            self._next_write = self.clock() + self.autosave_seconds
            await self.save(record)

    async def save_now(self) -> None:
        """Write at once what the autosave still holds back (the page goes away).

        Its first write is requested before its first ``await`` returns: the page
        starts it eagerly from a ``pagehide`` handler."""
        pending = list(self._dirty.values())
        self._dirty.clear()
        for record in pending:
            await self.save(record)

    async def flush(self) -> None:
        """Drop what the autosave holds back and wait for its write in flight:
        the caller's final write of the record must come after it."""
        self._dirty.clear()
        task = self._task
        if task is not None and not task.done():
            if self._task_waits:  # nothing in flight: the final write replaces it
                task.cancel()
            await asyncio.wait([task])
