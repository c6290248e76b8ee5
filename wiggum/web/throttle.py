"""Run a piece of view work at most once per period, however often it is asked for.

A streaming reply asks for some work on every delta (dozens a second) that
only needs to follow it loosely, such as the context meter, which counts the
whole conversation again (about 20 ms in the page).  Done per delta, that work
held back each chunk's text on screen; :class:`Throttle` folds the requests of
one period into one run at its end.

Hand-written: a timer and a flag.
"""

from __future__ import annotations

from collections.abc import Callable

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_once_callable  # type: ignore[import-not-found]

from .guard import guarded

__all__ = ["Throttle"]


class Throttle:
    def __init__(self, fn: Callable[[], None], seconds: float, *, what: str) -> None:
        self._fn = guarded(fn, what)
        self._ms = max(0, int(seconds * 1000))
        self._pending = False
        self._timer = False

    def soon(self) -> None:
        """Run the work at the end of the current period (once, however often asked)."""
        self._pending = True
        if not self._timer:
            self._timer = True
            js.setTimeout(create_once_callable(self._fire), self._ms)

    def now(self) -> None:
        """Run the work at once; a pending run is no longer needed."""
        self._pending = False
        self._fn()

    def _fire(self) -> None:
        self._timer = False
        if self._pending:
            self._pending = False
            self._fn()
