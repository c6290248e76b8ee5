"""Every ``wiggum`` logger into the page: a fingers-crossed buffer that flushes
into the Log panel (and the project's stored log) when an error is logged;
warnings and errors also reach the browser console.  Known keys, and anything
shaped like one, are scrubbed again by the sinks before an entry is shown or
stored (``wiggum.ui.debuglog``)."""

from __future__ import annotations

import logging
from collections.abc import Callable

import js  # type: ignore[import-not-found]

from wiggum.llm.observability import FingersCrossedHandler
from wiggum.ui.debuglog import DebugEntry, DebugSink, format_entry

__all__ = ["PageLogging", "to_console"]


def to_console(entry: DebugEntry) -> None:
    line = format_entry(entry)
    if entry.level in ("ERROR", "CRITICAL"):
        js.console.error(line)
    else:
        js.console.warn(line)


class PageLogging:
    """Installs the handlers on ``wiggum``'s logger; ``close()`` removes them."""

    def __init__(
        self, on_entry: Callable[[DebugEntry], None], secrets: Callable[[], list[str]]
    ) -> None:
        root = logging.getLogger("wiggum")
        root.setLevel(logging.DEBUG)
        self.fingers = FingersCrossedHandler(DebugSink(on_entry, secrets=secrets))
        console = DebugSink(to_console, secrets=secrets, level=logging.WARNING)
        self._handlers: list[logging.Handler] = [self.fingers, console]
        for handler in self._handlers:
            root.addHandler(handler)

    def drain(self) -> int:
        """Flush the quiet buffer on request ("Show recent activity")."""
        return self.fingers.drain()

    def close(self) -> None:
        root = logging.getLogger("wiggum")
        for handler in self._handlers:
            root.removeHandler(handler)
        self._handlers = []
