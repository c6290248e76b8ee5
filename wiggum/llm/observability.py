"""Request/response observability on stdlib ``logging``.

Every record's message is its category (``llm:request``, ``llm:retry`` …)
and its metadata sits in ``record.llm``: counts, sizes, names, statuses —
never message content, tool arguments, bodies or keys.  The
:class:`FingersCrossedHandler` keeps debug records in a ring buffer and
flushes them to its target only when something goes wrong.
"""

from __future__ import annotations

import logging
from collections import deque
from typing import Any

LOGGER_NAME = "wiggum.llm"

#: Categories and the level each is logged at.
CATEGORIES = {
    "llm:request": logging.DEBUG,
    "llm:response": logging.DEBUG,
    "llm:stream-start": logging.DEBUG,
    "llm:stream-end": logging.DEBUG,
    "llm:context-pressure": logging.WARNING,
    "llm:context-overflow": logging.ERROR,
    "llm:stall-detected": logging.WARNING,
    "llm:empty-response": logging.WARNING,
    "llm:malformed-toolcall": logging.WARNING,
    "llm:json-repair": logging.DEBUG,
    "llm:retry": logging.INFO,
    "llm:error": logging.ERROR,
    "llm:aborted": logging.INFO,
    "llm:stream-idle": logging.WARNING,
    # Bytes of an answer that are not UTF-8, replaced by U+FFFD (utf8.py).
    "llm:invalid-utf8": logging.WARNING,
    # A 200 answer that holds no reply: a web page, garbage, no event at all.
    "llm:malformed-answer": logging.WARNING,
    "llm:budget-trim": logging.INFO,
    "llm:token-limit": logging.WARNING,
    "llm:fallback": logging.INFO,
    # n > 1: a reply held choices other than 0; only choice 0 was read.
    "llm:choices-ignored": logging.DEBUG,
}


def get_logger(name: str = LOGGER_NAME) -> logging.Logger:
    return logging.getLogger(name)


def log_event(logger: logging.Logger, category: str, /, **fields: Any) -> None:
    """Log one lifecycle event; the level comes from :data:`CATEGORIES`."""
    level = CATEGORIES.get(category, logging.INFO)
    if logger.isEnabledFor(level):
        logger.log(level, category, extra={"llm": fields})


class FingersCrossedHandler(logging.Handler):
    """Buffers records below ``flush_level``; a record at or above it flushes them all.

    In normal operation nothing reaches ``target``; when an error is logged,
    the trail that led to it does, followed by the error itself.
    """

    def __init__(
        self, target: logging.Handler, *, flush_level: int = logging.ERROR, capacity: int = 500
    ) -> None:
        super().__init__(logging.DEBUG)
        self.target = target
        self.flush_level = flush_level
        self.buffer: deque[logging.LogRecord] = deque(maxlen=capacity)

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno < self.flush_level:
            self.buffer.append(record)
            return
        self.drain()
        self.target.handle(record)

    def drain(self) -> int:
        """Hand every buffered record to the target now (a person asked for the trail).

        Returns how many records were handed over.  (Not ``release``: that
        name is ``logging.Handler``'s lock.)
        """
        count = 0
        while self.buffer:
            self.target.handle(self.buffer.popleft())
            count += 1
        return count

    def flush(self) -> None:
        self.target.flush()


class ListHandler(logging.Handler):
    """Keeps the newest records in memory (tests and scripts read ``records``)."""

    def __init__(self, capacity: int = 2000) -> None:
        super().__init__(logging.DEBUG)
        self.records: deque[logging.LogRecord] = deque(maxlen=capacity)

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)
