"""What the History panel does: list the checkpoints, show a diff, revert, restore.

The panel draws (``wiggum.web.views.workspace.history``); this reads the
project's :class:`~wiggum.project.service.HistoryService` (typed here as
:class:`HistorySource`, what the panel needs of it) and says, in the person's
words, what happened or why it could not.  A revert is a new checkpoint, so
nothing is lost either way.

What the person reads when something fails: the history's own words
(``wiggum.project.history_errors``: why, and what to do), the paused tab's,
a full quota's; anything else is written to the Log and said as "something
went wrong", never by an exception's class name.  A history that cannot be
read empties the list (a previous project's checkpoints, with their Revert
buttons, never stay on screen) and says why.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from wiggum.fs.errors import StorageFull
from wiggum.persist.guarded import ProjectPaused
from wiggum.project.history_errors import HistoryError
from wiggum.ui.history import count_status

__all__ = [
    "Acted",
    "HistoryLog",
    "HistorySource",
    "Listing",
    "list_checkpoints",
    "read_diff",
    "restore",
    "revert",
]

log = logging.getLogger("wiggum.session")

#: Checkpoints listed (newest first).
LIMIT = 50
#: Exceptions whose words are for the person: shown as they are.
SAID = (HistoryError, ProjectPaused, StorageFull)
#: What stands for an exception whose words are not.
UNEXPECTED = "something went wrong (the details are in the Log)"


class HistoryLog(Protocol):
    """A project's history as the panel reads it (``wiggum.project.history.History``)."""

    async def list(self, limit: int) -> Sequence[Any]: ...

    async def diff(self, checkpoint: str, path: str) -> str: ...


class HistorySource(Protocol):
    """The project's history service (``wiggum.project.service.HistoryService``)."""

    def subscribe(self, fn: Callable[[Any], Any]) -> Callable[[], None]: ...

    async def history(self) -> HistoryLog: ...

    async def revert(self, checkpoint: str) -> Any: ...

    async def restore_file(self, checkpoint: str, path: str) -> Any: ...


@dataclass(frozen=True, slots=True)
class Listing:
    """What the panel shows: its status line and the checkpoints (``None``: the
    list stays as it was; ``[]`` with a reason when the history cannot be read)."""

    status: str
    checkpoints: Sequence[Any] | None = None


NO_PROJECT = Listing("No project is open.", [])


def said(exc: BaseException, what: str) -> str:
    """``exc`` in the person's words (see the module); ``what`` failed."""
    if isinstance(exc, SAID):
        return str(exc)
    log.error("%s failed", what, exc_info=exc)
    return UNEXPECTED


async def list_checkpoints(source: HistorySource | None, limit: int = LIMIT) -> Listing:
    if source is None:
        return NO_PROJECT
    try:
        checkpoints = await (await source.history()).list(limit)
    except HistoryError as exc:
        return Listing(str(exc), [])
    except ProjectPaused as exc:  # another tab owns the project's history
        return Listing(f"History could not be read. {exc}", [])
    except Exception as exc:
        reason = said(exc, "reading the history").rstrip(".")
        return Listing(
            f"History could not be read: {reason}. Your files are untouched; reload the page "
            "to try again.",
            [],
        )
    return Listing(count_status(len(checkpoints)), checkpoints)


async def read_diff(source: HistorySource, checkpoint: str, path: str) -> str:
    """The changes to ``path`` in ``checkpoint`` as a unified diff, or why not."""
    try:
        history = await source.history()
        return await history.diff(checkpoint, path)
    except Exception as exc:
        return f"The changes could not be read: {said(exc, 'reading a diff')}"


@dataclass(frozen=True, slots=True)
class Acted:
    """A revert or a restore: whether it was done, and the status line after it."""

    done: bool
    status: str


async def act(work: Awaitable[Any], done: str) -> Acted:
    try:
        await work
    except Exception as exc:
        reason = said(exc, "a revert or restore").rstrip(".")
        return Acted(False, f"Not done: {reason}. Your files are as they were.")
    return Acted(True, done)


def revert(source: HistorySource, checkpoint: str) -> Awaitable[Acted]:
    """The whole project back to ``checkpoint`` (a new checkpoint)."""
    return act(source.revert(checkpoint), "Reverted: a new checkpoint was made.")


def restore(source: HistorySource, checkpoint: str, path: str) -> Awaitable[Acted]:
    """One file back as it was in ``checkpoint``."""
    return act(source.restore_file(checkpoint, path), f"Restored {path}.")
