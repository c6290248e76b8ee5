"""The preview's console: what the site said, checked, grouped and counted.

The bundle's runtime posts ``{type: CONSOLE_MESSAGE, level, kind, text, file,
line, stack, page}`` for every uncaught error, unhandled rejection, ``console``
call, resource that failed to load and CSP violation, with the script's
position already mapped back to the project file and line
(``injected/runtime.js``).  :func:`read_console_message` takes a message only
in that shape (the site could post anything); :class:`SiteConsole` groups
repeats (same level, kind, text and place: one entry with a count), keeps the
recent messages in order for a Fix task's context, and is cleared when the
page reloads.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, replace
from typing import Any

__all__ = [
    "KINDS",
    "LEVELS",
    "MAX_ENTRIES",
    "ConsoleEntry",
    "Finding",
    "SiteConsole",
    "locate",
    "read_console_message",
]

#: Levels shown (``info``/``debug`` arrive as ``log``).
LEVELS = ("error", "warn", "log")
#: What produced the entry.
KINDS = ("error", "rejection", "console", "resource", "csp")
#: Distinct entries kept; later ones only count towards :attr:`SiteConsole.dropped`.
MAX_ENTRIES = 200
#: Messages kept in order for a Fix task ("the recent console").
RECENT = 20
_MAX_TEXT = 2000
_MAX_PATH = 1024


@dataclass(slots=True)
class Finding:
    """Something the site said or a check found: its text, the project file and
    line it came from (``""`` / ``0``: unknown), and the stack that led there."""

    text: str
    file: str = ""
    line: int = 0
    stack: str = ""

    def place(self, between: str = ":") -> str:
        """``app.js:12`` (``between=" line "``: ``app.js line 12``), ``app.js``, or ``""``."""
        if not self.file:
            return ""
        return f"{self.file}{between}{self.line}" if self.line else self.file


@dataclass(slots=True)
class ConsoleEntry(Finding):
    """One message of the console: its :data:`LEVELS` level and :data:`KINDS` kind,
    the page shown when it came, how many times it came."""

    level: str = "log"
    kind: str = "console"
    page: str = ""
    count: int = 1

    @property
    def key(self) -> tuple[str, str, str, str, int]:
        return (self.level, self.kind, self.text, self.file, self.line)

    @property
    def where(self) -> str:
        return self.place()

    @property
    def fixable(self) -> bool:
        """Errors and warnings get Fix and Ask Chief; logs are the site talking."""
        return self.level != "log"

    def line_text(self) -> str:
        """One line for a list of messages: ``[error] text (app.js:12)``."""
        where = f" ({self.where})" if self.where else ""
        times = f" ×{self.count}" if self.count > 1 else ""
        return f"[{self.level}] {self.text}{where}{times}"


def _text(value: Any, limit: int) -> str | None:
    return value[:limit] if isinstance(value, str) else None


def read_console_message(data: Any) -> ConsoleEntry | None:
    """The entry a console message carries (a dict), or ``None`` when it is not one."""
    if not isinstance(data, dict):
        return None
    level, kind = data.get("level"), data.get("kind")
    text = _text(data.get("text"), _MAX_TEXT)
    if level not in LEVELS or kind not in KINDS or text is None:
        return None
    file = _text(data.get("file", ""), _MAX_PATH)
    line = data.get("line", 0)
    if isinstance(line, float) and line.is_integer():
        line = int(line)
    if file is None or not isinstance(line, int) or isinstance(line, bool) or line < 0:
        return None
    stack = _text(data.get("stack", ""), _MAX_TEXT) or ""
    page = _text(data.get("page", ""), _MAX_PATH) or ""
    kept = line if file else 0
    return ConsoleEntry(text, file, kept, stack, level=str(level), kind=str(kind), page=page)


class SiteConsole:
    """The entries of the page shown, grouped, in the order they first came."""

    def __init__(self) -> None:
        self.entries: list[ConsoleEntry] = []
        self._by_key: dict[tuple[str, str, str, str, int], ConsoleEntry] = {}
        self.recent: deque[str] = deque(maxlen=RECENT)
        #: Distinct messages not kept once :data:`MAX_ENTRIES` were.
        self.dropped = 0

    def add(self, entry: ConsoleEntry) -> ConsoleEntry | None:
        """Count ``entry`` in; the entry that shows it (``None``: over the limit)."""
        self.recent.append(replace(entry, count=1).line_text())
        shown = self._by_key.get(entry.key)
        if shown is not None:
            shown.count += 1
            return shown
        if len(self.entries) >= MAX_ENTRIES:
            self.dropped += 1
            return None
        self.entries.append(entry)
        self._by_key[entry.key] = entry
        return entry

    def clear(self) -> None:
        self.entries.clear()
        self._by_key.clear()
        self.recent.clear()
        self.dropped = 0

    def counts(self) -> dict[str, int]:
        """Messages per level (repeats counted)."""
        out = dict.fromkeys(LEVELS, 0)
        for entry in self.entries:
            out[entry.level] += entry.count
        return out

    def errors(self) -> list[ConsoleEntry]:
        return [e for e in self.entries if e.level == "error"]

    def summary(self) -> str:
        """``2 errors, 1 warning`` (``""`` when there is nothing to say)."""
        counts = self.counts()
        parts = []
        for level, word in (("error", "error"), ("warn", "warning"), ("log", "message")):
            n = counts[level]
            if n:
                parts.append(f"{n} {word}{'s' if n != 1 else ''}")
        return ", ".join(parts)


def locate(text: str, needle: str) -> int:
    """The 1-based line of ``text`` where ``needle`` first appears (0: nowhere)."""
    if not needle:
        return 0
    at = text.find(needle)
    return 0 if at < 0 else text.count("\n", 0, at) + 1
