"""One conversation with Chief as it stands: its records, who listens, where it is kept.

:class:`Conversation` is the state the turn engine
(:class:`~wiggum.chief.chat.ChiefChat`) works on, and what the page reads
between turns: the records in ``seq`` order, the listeners told of every
change (:data:`ChatEvent`), reading and writing them through a
:class:`~wiggum.chief.saver.ChatSaver`, moving along the conversation's
branches (:mod:`wiggum.chief.branches`) and what a call would send
(:mod:`wiggum.chief.request`).  Nothing here calls a model.

Pure Python: storage and clock are injected.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from typing import Any, Literal

from wiggum._listeners import Listeners
from wiggum.llm import AbortController, Message, ProviderConfig, ToolDefinition
from wiggum.llm.budget import BudgetResult
from wiggum.persist import CHIEF, AppStorage

from . import branches, request
from .prompt import CHIEF_SYSTEM_PROMPT
from .records import ChatRecord
from .saver import ChatSaver, WriteOutcome

__all__ = ["AGENT", "AUTOSAVE_SECONDS", "ChatEvent", "Conversation", "Listener"]

logger = logging.getLogger("wiggum.chief")

#: The default conversation's slot in storage.
AGENT = CHIEF

#: Seconds between two writes of a streaming reply.  Its end is written when it
#: ends, and the page writes what is left at once when it goes away
#: (:meth:`Conversation.save_now` on ``pagehide``), so a reload loses nothing.
AUTOSAVE_SECONDS = 0.25

#: What listeners are told, with the record concerned (``None``: the whole list).
#: ``added`` a record; the streaming reply grew (``delta``); a record ``updated``
#: (a reply ended, or Continue reopened it); a failed reply ``superseded`` by
#: Retry; the current path moved to another branch (``reloaded``, with its new
#: leaf); the records were read again as another tab wrote them (``reread``);
#: ``activity`` or ``retry_wait`` changed (``activity``, ``retry-wait``); a write
#: was refused (``save-error``; ``save_error`` says why); every refused write
#: has been written since (``saved``).
ChatEvent = Literal[
    "added",
    "delta",
    "updated",
    "superseded",
    "reloaded",
    "reread",
    "activity",
    "retry-wait",
    "save-error",
    "saved",
]
Listener = Callable[[ChatEvent, ChatRecord | None], Any]


class Conversation:
    """One project's conversation with Chief, between and during turns."""

    def __init__(
        self,
        storage: AppStorage,
        project_id: str,
        *,
        system_prompt: str = CHIEF_SYSTEM_PROMPT,
        clock: Callable[[], float] = time.monotonic,
        agent: str = AGENT,
        autosave_seconds: float = AUTOSAVE_SECONDS,
    ) -> None:
        self.system_prompt = system_prompt
        self.records: list[ChatRecord] = []
        self._listeners: Listeners[[ChatEvent, ChatRecord | None]] = Listeners(
            logger, "chief: listener"
        )
        #: The running turn's, which :meth:`stop` aborts; ``None`` between turns.
        self._controller: AbortController | None = None
        #: Where the records are kept (``storage``, ``project_id``, ``agent``), and
        #: what it holds back or had refused.
        self.saver = ChatSaver(
            storage,
            project_id,
            agent,
            clock=clock,
            autosave_seconds=autosave_seconds,
            on_outcome=self._saved,
        )

    @property
    def agent(self) -> str:
        """The conversation's slot in storage (``chief`` for the default one)."""
        return self.saver.agent

    @property
    def busy(self) -> bool:
        """A turn is running (``ChiefChat``): the records are its own to change."""
        return self._controller is not None

    def stop(self, reason: str = "stopped by the person") -> bool:
        """Abort the reply in flight; ``True`` when there was one."""
        controller = self._controller
        if controller is None:
            return False
        controller.abort(reason)
        return True

    def _last(self) -> ChatRecord | None:
        """The last record on the current path."""
        return next((r for r in reversed(self.records) if not r.superseded), None)

    def can_retry(self) -> bool:
        """The last reply failed, was stopped or interrupted: Retry may run it again."""
        last = self._last()
        return (
            not self.busy
            and last is not None
            and last.role == "assistant"
            and last.status in ("error", "stopped", "interrupted")
        )

    def can_continue(self) -> bool:
        """The last reply was cut off with some words in it (a reload mid-stream,
        Stop, a dropped stream): Continue may ask the model to write on."""
        last = self._last()
        return self.can_retry() and bool(last.content.strip()) and not last.tool_calls

    @property
    def save_error(self) -> BaseException | None:
        """Why a write was refused, while one still is (the chat goes on meanwhile)."""
        return self.saver.error

    # ------------------------------------------------------------ listeners

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        return self._listeners.subscribe(listener)

    def _emit(self, event: ChatEvent, record: ChatRecord | None) -> None:
        self._listeners.emit(event, record)

    def _append(self, record: ChatRecord) -> ChatRecord:
        if record.parent is None:
            record.parent = branches.leaf(self.records)
        self.records.append(record)
        return record

    async def _add(self, record: ChatRecord) -> ChatRecord:
        """Append ``record``, tell the listeners and write it."""
        self._append(record)
        self._emit("added", record)
        await self._save(record)
        return record

    # ------------------------------------------------------------ storage

    async def load(self, *, recover: bool = True) -> list[ChatRecord]:
        """Read the conversation back; a reply that was streaming when the page
        went away is marked ``interrupted``.  ``recover=False`` (a tab that
        may not write the project: another tab owns it, and may be streaming
        that reply now) reads it as it is, and writes nothing."""
        records = await self.saver.read()
        if recover:
            for r in records:
                if r.status == "streaming":
                    r.status = "interrupted"
                    await self._save(r)
            # seq is the position: keep it dense even if rows were skipped.
            for i, r in enumerate(records):
                if r.seq != i:
                    r.seq = i
                    await self._save(r)
        self.records = records
        return records

    async def reread(self) -> bool:
        """Read the conversation again, as another tab wrote it (this tab may
        not write it; nothing is written).  ``False``, and nothing read, while
        this chat is busy."""
        if self.busy:
            return False
        records = await self.saver.read()
        if self.busy:  # started while reading: what it shows wins
            return False
        self.records = records
        self._emit("reread", None)
        return True

    async def clear(self) -> None:
        self.stop()
        await self.saver.delete_all()
        self.records = []

    async def _save(self, record: ChatRecord) -> None:
        """Write ``record``; a refused write keeps it in memory and on screen, and
        it is written again after the next write that succeeds."""
        await self.saver.save(record)

    def _saved(self, outcome: WriteOutcome, record: ChatRecord) -> None:
        if outcome is WriteOutcome.REFUSED:
            self._emit("save-error", record)
        elif outcome is WriteOutcome.CAUGHT_UP:
            self._emit("saved", record)

    def _autosave(self, record: ChatRecord) -> None:
        """Write the streaming ``record`` soon, without waiting for it."""
        self.saver.autosave(record)

    async def save_now(self) -> None:
        """Write at once what the autosave still holds back (the page goes away)."""
        await self.saver.save_now()

    async def _flush(self) -> None:
        """Wait for the pending autosaves (the final write must come after them)."""
        await self.saver.flush()

    # ------------------------------------------------------------ branches

    def alternatives(self, seq: int) -> list[int]:
        """``seq``'s alternatives, itself included (see :mod:`wiggum.chief.branches`)."""
        return branches.alternatives(self.records, seq)

    def last_turn_start(self) -> int | None:
        """The person's message (or note) the current path's last answer follows."""
        return branches.last_turn_start(self.records)

    async def switch(self, seq: int) -> None:
        """Show the alternative ``seq`` (with the newest branch under it)."""
        if self.busy:
            raise RuntimeError("Chief is answering")
        await self._move_path(branches.leaf_under(self.records, seq))

    async def _move_path(self, leaf: int) -> None:
        for record in branches.set_path(self.records, leaf):
            await self._save(record)
        self._emit("reloaded", self.records[leaf] if 0 <= leaf < len(self.records) else None)

    # ------------------------------------------------------------ requests

    def history(self) -> list[Message]:
        """System prompt + the conversation as messages (before budgeting)."""
        return request.history(self.system_prompt, self.records)

    def prepare(
        self,
        provider: ProviderConfig,
        tools: Sequence[ToolDefinition] | None = None,
        max_tokens: int | None = None,
    ) -> tuple[list[Message], BudgetResult]:
        """The messages to send: the history trimmed to the model's budget, with
        a note when anything was left out (:func:`wiggum.chief.request.prepare`)."""
        return request.prepare(self.system_prompt, self.records, provider, tools, max_tokens)
