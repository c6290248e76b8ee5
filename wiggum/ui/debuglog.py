"""The debug log: log records as entries a person can read, copy and keep.

The ``wiggum`` loggers feed a fingers-crossed handler
(:class:`wiggum.llm.observability.FingersCrossedHandler`); what it flushes
when an error is logged reaches a :class:`DebugSink`, which turns each
record into a :class:`DebugEntry`.  The page shows the entries in its debug
panel and keeps them with the project through :class:`ProjectLog`.

Records never carry message content, bodies or keys by design (see
``observability``).  Entries are still scrubbed here, because they are
stored, shown and copied to the clipboard: every known API key, anything
shaped like a bearer token or an ``sk-…`` key, and the values of fields
named like secrets become ``[redacted]``.  That guards against a future log
call that forgets the rule.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Iterable
from typing import Any

from pydantic import BaseModel, Field

from wiggum.persist import AppStorage

__all__ = [
    "LOG_AGENT",
    "MAX_SHOWN",
    "DebugEntry",
    "DebugSink",
    "LogShown",
    "ProjectLog",
    "badge_text",
    "button_label",
    "copied_text",
    "drained_text",
    "entry_from_record",
    "format_entries",
    "format_entry",
    "format_fields",
    "format_time",
    "redact",
]

#: The conversation slot a project's debug log is stored under (``AppStorage``
#: messages), so that deleting a project deletes its log with it.
LOG_AGENT = "debug"

REDACTED = "[redacted]"
#: Longest text kept for one message, field value or traceback.
MAX_TEXT = 4000

_TOKEN_PATTERNS = (
    re.compile(r"(?i)(bearer\s+)[A-Za-z0-9._~+/=-]{8,}"),
    re.compile(r"\b(sk-)[A-Za-z0-9_-]{12,}"),
)
_SECRET_FIELD = re.compile(r"(?i)(api[_-]?key|authorization|secret|password|token)$")


def redact(text: str, secrets: Iterable[str] = ()) -> str:
    """``text`` with every known secret and anything shaped like a key replaced."""
    for secret in sorted({s for s in secrets if s and len(s) >= 6}, key=len, reverse=True):
        text = text.replace(secret, REDACTED)
    for pattern in _TOKEN_PATTERNS:
        text = pattern.sub(lambda m: m.group(1) + REDACTED, text)
    return text


def _clip(text: str) -> str:
    return text if len(text) <= MAX_TEXT else text[:MAX_TEXT] + f"… [{len(text) - MAX_TEXT} more]"


def _clean(value: Any, secrets: tuple[str, ...], depth: int = 0) -> Any:
    """A JSON-able, scrubbed copy of a field value."""
    if value is None or isinstance(value, bool | int | float):
        return value
    if isinstance(value, str):
        return _clip(redact(value, secrets))
    if depth < 4 and isinstance(value, dict):
        return {
            str(k): REDACTED if _SECRET_FIELD.search(str(k)) else _clean(v, secrets, depth + 1)
            for k, v in value.items()
        }
    if depth < 4 and isinstance(value, list | tuple | set | frozenset):
        return [_clean(v, secrets, depth + 1) for v in value]
    return _clip(redact(repr(value), secrets))


class DebugEntry(BaseModel):
    """One log record as the debug panel shows and stores it."""

    time: float
    level: str
    logger: str
    message: str
    fields: dict[str, Any] = Field(default_factory=dict)
    exception: str | None = None

    @property
    def is_problem(self) -> bool:
        return self.level in ("WARNING", "ERROR", "CRITICAL")


def entry_from_record(record: logging.LogRecord, secrets: Iterable[str] = ()) -> DebugEntry:
    keys = tuple(secrets)
    try:
        message = record.getMessage()
    except Exception:  # bad %-args must not lose the record
        message = f"{record.msg!r} {record.args!r}"
    fields = getattr(record, "llm", None)
    exception = None
    if record.exc_info:
        exception = logging.Formatter().formatException(record.exc_info)
    elif record.exc_text:
        exception = record.exc_text
    return DebugEntry(
        time=record.created,
        level=record.levelname,
        logger=record.name,
        message=_clip(redact(message, keys)),
        fields=_clean(dict(fields), keys) if isinstance(fields, dict) else {},
        exception=_clip(redact(exception, keys)) if exception else None,
    )


def format_fields(fields: dict[str, Any]) -> str:
    """``key=value`` pairs, strings quoted only when they contain spaces."""
    parts = []
    for key, value in fields.items():
        if isinstance(value, str) and (not value or any(c.isspace() for c in value)):
            shown = repr(value)
        elif isinstance(value, str):
            shown = value
        elif isinstance(value, float):
            shown = format(value, ".6g")  # a cost of 0.00024269999999999996 reads as 0.0002427
        else:
            shown = _compact(value)
        parts.append(f"{key}={shown}")
    return " ".join(parts)


def _compact(value: Any) -> str:
    import json

    try:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def format_time(stamp: float, *, utc: bool = False) -> str:
    """``HH:MM:SS.mmm`` (local), or an ISO-8601 UTC timestamp."""
    ms = int((stamp - int(stamp)) * 1000)
    if utc:
        return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(stamp)) + f".{ms:03d}Z"
    return time.strftime("%H:%M:%S", time.localtime(stamp)) + f".{ms:03d}"


def format_entry(entry: DebugEntry) -> str:
    """One entry as a line of text (plus its traceback, indented)."""
    line = f"{format_time(entry.time, utc=True)} {entry.level:<7} {entry.logger} {entry.message}"
    if entry.fields:
        line += " " + format_fields(entry.fields)
    if entry.exception:
        line += "\n" + "\n".join("    " + row for row in entry.exception.splitlines())
    return line


def format_entries(entries: Iterable[DebugEntry]) -> str:
    """The log as plain text, oldest first: what Copy puts on the clipboard."""
    return "\n".join(format_entry(e) for e in entries)


class DebugSink(logging.Handler):
    """A handler that hands each record, as a scrubbed :class:`DebugEntry`, to ``on_entry``.

    ``secrets`` is asked at every record, so keys entered after the sink was
    installed are scrubbed too.
    """

    def __init__(
        self,
        on_entry: Callable[[DebugEntry], None],
        *,
        secrets: Callable[[], Iterable[str]] = tuple,
        level: int = logging.DEBUG,
    ) -> None:
        super().__init__(level)
        self.on_entry = on_entry
        self.secrets = secrets

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.on_entry(entry_from_record(record, self.secrets()))
        except Exception:
            self.handleError(record)


class ProjectLog:
    """A project's debug log in :class:`~wiggum.persist.AppStorage`, at most ``capacity`` entries.

    Entries sit in the project's ``debug`` conversation as a ring: entry
    number ``n`` goes to slot ``n % capacity``, replacing the oldest once the
    ring is full, so the log never grows and no write needs a delete.
    """

    def __init__(self, storage: AppStorage, project_id: str, *, capacity: int = 500) -> None:
        self.storage = storage
        self.project_id = project_id
        self.capacity = capacity
        self._next = 0

    async def load(self) -> list[DebugEntry]:
        """The stored entries, oldest first (unreadable records are skipped)."""
        records = await self.storage.load_messages(self.project_id, LOG_AGENT)
        numbered: list[tuple[int, DebugEntry]] = []
        for record in records:
            try:
                numbered.append((int(record["n"]), DebugEntry.model_validate(record["entry"])))
            except Exception:
                continue
        numbered.sort(key=lambda item: item[0])
        self._next = numbered[-1][0] + 1 if numbered else 0
        return [entry for _, entry in numbered[-self.capacity :]]

    async def append(self, entry: DebugEntry) -> None:
        n = self._next
        self._next += 1
        record = {"n": n, "entry": entry.model_dump(mode="json")}
        await self.storage.put_message(self.project_id, LOG_AGENT, n % self.capacity, record)

    async def clear(self) -> None:
        self._next = 0
        await self.storage.delete_messages(self.project_id, LOG_AGENT)


# ------------------------------------------------------------------ the panel's words

#: Entries the panel shows at most (the stored log is a ring of the same size).
MAX_SHOWN = 500


class LogShown:
    """The entries the panel shows, and how many problems came in unseen."""

    def __init__(self) -> None:
        self.entries: list[DebugEntry] = []
        self.unseen = 0

    def replace(self, entries: list[DebugEntry]) -> None:
        """Another project's log: its newest :data:`MAX_SHOWN` entries, all seen."""
        self.entries = list(entries[-MAX_SHOWN:])
        self.unseen = 0

    def add(self, entry: DebugEntry, *, open_: bool) -> bool:
        """One more entry (a problem counts while the panel is closed); whether the
        oldest was dropped to keep :data:`MAX_SHOWN`."""
        self.entries.append(entry)
        if entry.is_problem and not open_:
            self.unseen += 1
        if len(self.entries) > MAX_SHOWN:
            del self.entries[0]
            return True
        return False


def badge_text(unseen: int) -> str:
    """The header button's count of problems logged since the panel was last open."""
    return str(unseen) if unseen < 100 else "99+"


def button_label(unseen: int) -> str:
    """The header button's accessible name."""
    if not unseen:
        return "Debug log"
    return f"Debug log ({unseen} new problem{'s' if unseen != 1 else ''})"


def drained_text(count: int) -> str:
    """What "Show recent activity" says after adding ``count`` entries."""
    if not count:
        return "Nothing new since the last entry"
    return f"{count} recent entr{'y' if count == 1 else 'ies'} added"


def copied_text(copied: bool, count: int) -> str:
    return (
        f"Copied {count} entries"
        if copied
        else "Copy failed: this browser did not allow the clipboard"
    )
