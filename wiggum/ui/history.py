"""What the History panel says: its status line, checkpoint times, who made each,
its message in words, diff colours.

The panel (``wiggum.web.views.workspace.history``) lists the project's
checkpoints, newest first; what it reads and does is
``wiggum.session.history``'s.  Everything shown is text (file names, messages
and diffs are the model's or the person's).

A checkpoint is told by who made it (Ralph, Chief, you, GitHub, Wiggum, or a
git author's name), when in relative words ("5 min ago", the exact time in its
tooltip), its whole message, and its files as a count and names.  The messages
History writes itself name checkpoints by their git hash ("Revert to 62bb9e2
(…)"); the panel says the checkpoint's own message instead, when it is listed.
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping

__all__ = [
    "HELP",
    "LOADING",
    "REVERT_ASK",
    "REVERT_LABEL",
    "checkpoint_time",
    "count_status",
    "diff_line_class",
    "diff_title",
    "files_count",
    "readable_message",
    "relative_time",
    "who",
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


def relative_time(t: float, now: float) -> str:
    """When ``t`` was, from ``now``, as a person says it ("just now", "5 min ago",
    "3 h ago", "yesterday at 14:05", "4 days ago", then the date)."""
    ago = max(0.0, now - t)
    if ago < 45:
        return "just now"
    if ago < 90 * 60:
        return f"{max(1, round(ago / 60))} min ago"
    if ago < 12 * 3600:
        return f"{round(ago / 3600)} h ago"
    day = time.localtime(t)
    today = time.localtime(now)
    days = (
        time.mktime((*today[:3], 0, 0, 0, 0, 0, -1)) - time.mktime((*day[:3], 0, 0, 0, 0, 0, -1))
    ) / 86400
    if round(days) <= 0:
        return f"today at {time.strftime('%H:%M', day)}"
    if round(days) == 1:
        return f"yesterday at {time.strftime('%H:%M', day)}"
    if days < 7:
        return f"{round(days)} days ago"
    return time.strftime("%Y-%m-%d", day)


def who(author: str) -> str:
    """Who made a checkpoint, as a kind: ``ralph``, ``chief``, ``you``, ``github``,
    ``wiggum`` or ``other`` (a git author's name, from an imported project)."""
    if author.startswith("Ralph"):
        return "ralph"
    if author.startswith("Chief"):
        return "chief"
    return {"you": "you", "GitHub": "github", "Wiggum": "wiggum"}.get(author, "other")


def files_count(count: int) -> str:
    """How many files a checkpoint changed, in words."""
    if not count:
        return "no files changed"
    return f"{count} file{'s' if count != 1 else ''} changed"


_REVERT = re.compile(r"^Revert to ([0-9a-f]{7}) \((.*)\)$", re.DOTALL)
_RESTORE = re.compile(r"^Restore (.+) from ([0-9a-f]{7})$", re.DOTALL)


def readable_message(message: str, known: Mapping[str, str]) -> str:
    """``message`` with History's own hashes told as the checkpoints' messages.

    ``known`` maps a listed checkpoint's 7-character id to its message (its
    author's name when it has none).  A hash not listed is said as "an earlier
    checkpoint"; any other message is the person's or an agent's, shown whole.
    """
    if found := _REVERT.match(message):
        said = known.get(found[1]) or found[2]
        return f"Revert to “{said.strip()}”" if said.strip() else "Revert to an earlier checkpoint"
    if found := _RESTORE.match(message):
        said = known.get(found[2])
        return (
            f"Restore {found[1]} from “{said}”"
            if said
            else (f"Restore {found[1]} from an earlier checkpoint")
        )
    return message


def diff_title(author: str, when: str) -> str:
    """Under a diff's file name: whose checkpoint it is and when."""
    return f"as {author} changed it, {when}"
