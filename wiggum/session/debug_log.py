"""The open project's debug log: what the logging flushed, kept with the project.

An entry logged before a project's log was open (the first seconds of the
page) is held and stored when it opens.  An entry that cannot be stored goes
to the browser's console, never back into the log: a logged storage error
would be flushed here and stored again, forever.  In a paused tab (another tab
keeps the project's log) the entry stays on screen only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from wiggum.persist.guarded import ProjectPaused
from wiggum.ui.debuglog import DebugEntry, ProjectLog
from wiggum.ui.settings import Settings

__all__ = ["DebugLog"]


class DebugLog:
    """``show(entries)`` shows the project's log anew, ``add(entry)`` one more;
    ``console(text)`` is where storage trouble goes."""

    def __init__(
        self,
        host: Any,
        storage: Any,
        settings: Callable[[], Settings],
        *,
        show: Callable[[list[DebugEntry]], None],
        add: Callable[[DebugEntry], None],
        console: Callable[[str], None],
    ) -> None:
        self.host = host
        self.storage = storage
        self._settings = settings
        self._show, self._add, self._console = show, add, console
        self.log: ProjectLog | None = None
        #: Entries logged before a project's log was open; stored when it opens.
        self.pending: list[DebugEntry] = []

    def entry(self, entry: DebugEntry) -> None:
        """The logging flushed ``entry``: show it, and keep it with the project."""
        # The client logs the provider's internal id; a person reads its name.
        known = self._settings().provider(str(entry.fields.get("provider", "")))
        if known is not None:
            entry.fields["provider"] = known.label
        self._add(entry)
        if self.log is None:
            self.pending.append(entry)
        else:
            self.host.spawn(self._keep(self.log, entry), what="store debug entry")

    def say(self, text: str) -> None:
        """A line in the Log itself (not only in the quiet buffer)."""
        self.entry(
            DebugEntry(time=self.host.now(), level="WARNING", logger="wiggum.web", message=text)
        )

    async def open(self, project_id: str) -> None:
        log_ = ProjectLog(self.storage, project_id)
        self.log = None
        try:
            entries = await log_.load()
        except Exception as exc:
            self._console(f"wiggum: debug log could not be read: {type(exc).__name__}")
            entries = []
        pending, self.pending = self.pending, []
        self.log = log_
        self._show(entries + pending)
        for entry in pending:
            await self._keep(log_, entry)

    async def clear(self) -> None:
        if self.log is not None:
            await self.log.clear()

    async def _keep(self, log_: ProjectLog, entry: DebugEntry) -> None:
        try:
            await log_.append(entry)
        except ProjectPaused:
            pass  # another tab keeps the project's log now; the entry stays on screen
        except Exception as exc:
            self._console(f"wiggum: debug entry not stored: {type(exc).__name__}")
