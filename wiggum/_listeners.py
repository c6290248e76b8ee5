"""Who is told of a change: callbacks subscribed to an object that changes.

Chief's conversation and his session, Ralph's transcript, the Coordinator's
state, a project's History and the app's sessions each tell the page what
changed through a :class:`Listeners`.  A listener that fails is logged and
never raised: a view's bug must not stop the agent or the session that told
it, nor keep the listeners after it from hearing.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Generic, ParamSpec

__all__ = ["Listeners"]

P = ParamSpec("P")


class Listeners(Generic[P]):
    """Callbacks told of every change, in the order they subscribed; a failure
    is logged to ``log`` as ``"<what> failed on <change>"``."""

    def __init__(self, log: logging.Logger, what: str = "listener") -> None:
        self._callbacks: list[Callable[P, object]] = []
        self._log = log
        self._what = what

    def subscribe(self, callback: Callable[P, object]) -> Callable[[], None]:
        """Tell ``callback`` of every change; returns the function that stops it."""
        self._callbacks.append(callback)

        def unsubscribe() -> None:
            if callback in self._callbacks:
                self._callbacks.remove(callback)

        return unsubscribe

    def emit(self, *args: P.args, **kwargs: P.kwargs) -> None:
        """Call every listener with the change (a copy of the list: one may unsubscribe)."""
        for callback in list(self._callbacks):
            try:
                callback(*args, **kwargs)
            except Exception:
                change = args[0] if args else None
                name = change if isinstance(change, str) else type(change).__name__
                self._log.exception("%s failed on %s", self._what, name)
