"""What the History panel says: its status line, checkpoint times, diff colours.

The panel (``wiggum.web.views.workspace.history``) lists the project's
checkpoints, newest first; what it reads and does is
``wiggum.session.history``'s.  Everything shown is text (file names, messages
and diffs are the model's or the person's).
"""

from __future__ import annotations

import time

__all__ = [
    "HELP",
    "LOADING",
    "REVERT_ASK",
    "REVERT_LABEL",
    "checkpoint_time",
    "count_status",
    "diff_line_class",
]

HELP = (
    "A checkpoint after each of Ralph's iterations and each of your saves. Reverting "
    "makes a new checkpoint, so nothing is lost; Chief's and Ralph's notes (.chief/, "
    ".ralph/) stay as they are."
)
LOADING = "Loading history…"
#: The revert button, and what it says once pressed (a second press reverts).
REVERT_LABEL = "Revert project to here"
REVERT_ASK = "Yes, revert the whole project"


def count_status(count: int) -> str:
    """The status line over a list of ``count`` checkpoints."""
    if not count:
        return "No checkpoints yet: one is made when Ralph changes files or you save."
    return f"{count} checkpoint{'s' if count != 1 else ''}"


def checkpoint_time(t: float) -> str:
    """A checkpoint's time in the person's time zone, to the second."""
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(t))


def diff_line_class(line: str) -> str:
    """The colour class of one line of a unified diff."""
    if line.startswith("+") and not line.startswith("+++"):
        return "diff-add"
    if line.startswith("-") and not line.startswith("---"):
        return "diff-del"
    return "diff-hunk" if line.startswith("@@") else "diff-ctx"
