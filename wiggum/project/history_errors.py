"""Why the history could not do what was asked, said in the person's words.

Every error here carries the sentence the History panel shows (``str(exc)``),
with its cause and what to do.  The module imports nothing else, so the
session layer tells these apart without loading dulwich, which the page
loads only when the history is first used.
"""

from __future__ import annotations

__all__ = [
    "CannotRestore",
    "HistoryError",
    "HistoryUnreadable",
    "NothingToRevert",
    "unreadable",
]


class HistoryError(Exception):
    """A history operation that did not happen; its text is for the person."""


class NothingToRevert(HistoryError):
    """The project already matches the checkpoint."""


class CannotRestore(HistoryError):
    """A checkpoint holds something that may not be written into the project
    (a name outside it, git's own folder, a symbolic link): nothing was changed."""


class HistoryUnreadable(HistoryError):
    """The project's ``.git/`` cannot be read (a missing object, a format Wiggum
    does not read); the files themselves are untouched.  ``reason``: the cause
    alone, for a sentence of the caller's."""

    def __init__(self, text: str, reason: str = "") -> None:
        super().__init__(text)
        self.reason = reason or text


def unreadable(what: str) -> HistoryUnreadable:
    """History that cannot be read because of ``what``, with what to do."""
    return HistoryUnreadable(
        f"History could not be read: {what}. Your files are untouched; repair .git/ with "
        "git, or import the project again without its history.",
        what,
    )
