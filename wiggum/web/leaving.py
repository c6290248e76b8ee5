"""What is not yet written when the page goes away is written now.

A streaming reply is written at most every 0.25 s; a reload, a closed tab or
a switch to another app (``pagehide``, a hidden ``visibilitychange``) writes
the rest at once.  The write is started eagerly: it is requested before the
event's handler returns (a task scheduled for later would never run in a page
being unloaded), and unfenced, so its transaction commits at once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

import js  # type: ignore[import-not-found]

from .dom import Listeners

__all__ = ["write_on_leave"]

#: The writes started as the page went away, kept until done.
_leaving: set[asyncio.Task] = set()


def write_on_leave(
    listeners: Listeners,
    save_now: Callable[[], Coroutine[Any, Any, None] | None],
    unfenced: Callable[[], Any],
) -> None:
    """On leaving, run ``save_now()`` (``None``: nothing to write) inside ``unfenced()``."""

    def leave(event: Any) -> None:
        if event.type == "visibilitychange" and js.document.visibilityState != "hidden":
            return
        with unfenced():
            save = save_now()
            if save is None:
                return
            task = asyncio.Task(save, loop=asyncio.get_event_loop(), eager_start=True)
        _leaving.add(task)
        task.add_done_callback(_leaving.discard)

    listeners.on(js.window, "pagehide", leave)
    listeners.on(js.document, "visibilitychange", leave)
