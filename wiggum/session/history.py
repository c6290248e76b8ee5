"""What the History panel does: list the checkpoints, show a diff, revert, restore.

The panel draws (``wiggum.web.views.workspace.history``); this reads the
project's :class:`~wiggum.project.service.HistoryService` (typed here as
:class:`HistorySource`, what the panel needs of it) and says, in the person's
words, what happened or why it could not.  A revert is a new checkpoint, so
nothing is lost either way.

Errors are told apart by their type's name: ``wiggum.project.history`` (whose
``NothingToRevert`` says what to do) imports dulwich, which the page loads
only when the history is first used.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

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

#: Checkpoints listed (newest first).
LIMIT = 50
#: Errors whose own words say what to do: shown as they are.
SAID = ("NothingToRevert", "ProjectPaused")


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
    """What the panel shows: its status line and, when they could be read, the
    checkpoints (``None``: the list stays as it was)."""

    status: str
    checkpoints: Sequence[Any] | None = None


NO_PROJECT = Listing("No project is open.")


async def list_checkpoints(source: HistorySource | None, limit: int = LIMIT) -> Listing:
    if source is None:
        return NO_PROJECT
    try:
        checkpoints = await (await source.history()).list(limit)
    except Exception as exc:
        if type(exc).__name__ == "ProjectPaused":  # another tab owns the project's history
            return Listing(f"History could not be read. {exc}")
        return Listing(
            f"History could not be read ({type(exc).__name__}). Your files are "
            "untouched; reload the page to try again."
        )
    return Listing(count_status(len(checkpoints)), checkpoints)


async def read_diff(source: HistorySource, checkpoint: str, path: str) -> str:
    """The changes to ``path`` in ``checkpoint`` as a unified diff, or why not."""
    history = await source.history()
    try:
        return await history.diff(checkpoint, path)
    except Exception as exc:
        return f"The changes could not be read ({type(exc).__name__})."


@dataclass(frozen=True, slots=True)
class Acted:
    """A revert or a restore: whether it was done, and the status line after it."""

    done: bool
    status: str


async def act(work: Awaitable[Any], done: str) -> Acted:
    try:
        await work
    except Exception as exc:
        reason = str(exc) if type(exc).__name__ in SAID else type(exc).__name__
        return Acted(False, f"Not done: {reason}. Your files are as they were.")
    return Acted(True, done)


def revert(source: HistorySource, checkpoint: str) -> Awaitable[Acted]:
    """The whole project back to ``checkpoint`` (a new checkpoint)."""
    return act(source.revert(checkpoint), "Reverted: a new checkpoint was made.")


def restore(source: HistorySource, checkpoint: str, path: str) -> Awaitable[Acted]:
    """One file back as it was in ``checkpoint``."""
    return act(source.restore_file(checkpoint, path), f"Restored {path}.")
