"""One project's history service: what the app calls to take checkpoints.

Checkpoints are taken one at a time (a lock), so a person's save and the end
of a Ralph iteration never interleave their reads of the files.  dulwich is
loaded on first use through ``load`` (in the page, the vendored wheel via
``wiggum.web.packages.load_packages``; under CPython it is simply imported).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from wiggum._listeners import Listeners
from wiggum.fs.store import FileStore

if TYPE_CHECKING:
    from .archive import ExportLayout
    from .history import Checkpoint, History

__all__ = ["AGENT_MEMORY", "HistoryService", "is_agent_memory"]

#: The agents' memory folders (see ``wiggum.tools.policy``).
AGENT_MEMORY = (".chief", ".ralph")

log = logging.getLogger("wiggum.project.history")


def is_agent_memory(path: str) -> bool:
    """Chief's and Ralph's notes (``.chief/``, ``.ralph/``): not the site's files."""
    return any(path.startswith(folder + "/") for folder in AGENT_MEMORY)


async def _no_load() -> None:
    return None


class HistoryService:
    def __init__(self, fs: FileStore, *, load: Callable[[], Awaitable[None]] = _no_load) -> None:
        self.fs = fs
        self._load = load
        self._history: History | None = None
        self._lock = asyncio.Lock()
        self._listeners: Listeners[[Checkpoint]] = Listeners(log, "history listener")
        #: Seconds the first load of dulwich took (None until loaded).
        self.load_seconds: float | None = None

    def subscribe(self, fn: Callable[[Checkpoint], Any]) -> Callable[[], None]:
        """``fn(checkpoint)`` after each new checkpoint; returns an unsubscribe."""
        return self._listeners.subscribe(fn)

    async def history(self) -> History:
        if self._history is None:
            import time

            start = time.perf_counter()
            await self._load()
            from .history import History

            self.load_seconds = time.perf_counter() - start
            self._history = History(self.fs)
        return self._history

    async def checkpoint(
        self, author: str, message: str, *, leave_out: tuple[str, ...] = ()
    ) -> Checkpoint | None:
        """A checkpoint of the files as they are now (``None`` when nothing changed)."""
        history = await self.history()
        async with self._lock:
            cp = await history.commit(author, message, leave_out=leave_out)
        if cp is not None:
            self._listeners.emit(cp)
        return cp

    async def saved(self, paths: list[str]) -> Checkpoint | None:
        """The person saved ``paths``: the editor's save calls this after writing."""
        names = ", ".join(paths[:3]) + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")
        # The agents' memory (.chief/, .ralph/) is theirs, not the person's: it
        # goes into Ralph's checkpoints (his last one is taken after the run's
        # end is written), what Chief writes between runs into Ralph's next.
        return await self.checkpoint(
            "you", f"Edit {names}" if names else "Edit", leave_out=AGENT_MEMORY
        )

    async def ralph_iteration(self, iteration: int, intent: str = "") -> Checkpoint | None:
        """Ralph's iteration ``iteration`` ended (only a change makes a checkpoint).

        ``intent`` is what he said he would do in it; its first line is the
        checkpoint's message, so History reads as what happened, not a number twice."""
        who = f"Ralph iteration {iteration}"
        first = next((line.strip() for line in intent.splitlines() if line.strip()), "")
        if len(first) > 100:
            first = first[:99].rstrip() + "…"
        return await self.checkpoint(who, first or who)

    async def restore_file(self, checkpoint: str, path: str) -> Checkpoint | None:
        """The person restores one file; a memory file restored is theirs to record."""
        history = await self.history()
        mine = tuple(f for f in AGENT_MEMORY if not path.startswith(f + "/"))
        async with self._lock:
            cp = await history.restore_file(checkpoint, path, leave_out=mine)
        if cp is not None:
            self._listeners.emit(cp)
        return cp

    async def adopt(self) -> bool:
        """An imported ``.git/``: read, its index made for the files as imported
        (see ``History.adopt``); raises ``HistoryUnreadable`` with the reason."""
        history = await self.history()
        async with self._lock:
            return await history.adopt()

    async def before_export(self, *, writable: bool) -> ExportLayout | None:
        """What a download needs for git to find it clean: whatever is not yet in
        History checkpointed (``writable``: this tab may write the project), then
        the layout of the last checkpoint; ``None`` when the history cannot be read
        (the files are downloaded all the same)."""
        try:
            history = await self.history()
            if writable:
                await self.checkpoint("you", "Before download", leave_out=AGENT_MEMORY)
                await self.checkpoint("Wiggum", "Chief's and Ralph's notes, before download")
            return await history.layout()
        except Exception:
            log.exception("history: nothing checkpointed before the download")
            return None

    async def revert(self, checkpoint: str) -> Checkpoint:
        """The person reverts the project's files; the agents' memory stays as it
        is (theirs, and nothing of it is lost or checkpointed as the person's)."""
        history = await self.history()
        async with self._lock:
            cp = await history.revert(checkpoint, leave_out=AGENT_MEMORY)
        self._listeners.emit(cp)
        return cp
