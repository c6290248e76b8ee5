"""Show a bundled page in a sandboxed frame through our host page, ``static/preview.html``.

Wiggum's own page runs under a strict Content-Security-Policy (no inline
script runs).  An ``<iframe srcdoc>`` (or ``blob:``/``about:blank``) inherits
its parent's policy, so the person's site, whose scripts are inline once
bundled, would not run in it.  So every frame that shows a person's page (the
preview, the new-tab viewer, Ralph's preview and JavaScript checkers) loads
``static/preview.html`` from its URL (a document with rules of its own) in a
sandbox without ``allow-same-origin`` (an opaque origin: no access to Wiggum's
storage or keys), waits for its "ready" message and posts it the page, which
it writes over itself.

Messages are accepted only from the frame's own ``contentWindow`` (its origin
is the opaque ``"null"``, so the origin says nothing); the page is posted to
that window with target ``"*"`` for the same reason, right after it said it is
our host page and before anything else could run in it.
"""

from __future__ import annotations

import asyncio
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import to_js  # type: ignore[import-not-found]

from .dom import Listeners, is_null

__all__ = ["HOST_URL", "PAGE", "READY", "message_from", "show_page"]

#: The host page, relative to index.html.
HOST_URL = "static/preview.html"
READY, PAGE = "wiggum-preview-ready", "wiggum-preview-page"
#: Seconds to wait for the host page to say it is ready.
READY_TIMEOUT = 15.0


def message_from(event: Any, window: Any) -> Any:
    """The message ``event`` carries when ``window`` posted it and it is an object
    (the only shape our pages send), else ``None``."""
    data = event.data
    if is_null(window) or is_null(event.source) or is_null(data):
        return None
    if not getattr(js.Object, "is")(event.source, window):
        return None
    return None if isinstance(data, str | int | float | bool) else data


def message_type(event: Any, frame: Any) -> tuple[Any, Any]:
    """``(type, message)`` of what the document in ``frame`` posted (``(None, None)``:
    nothing of ours)."""
    data = message_from(event, frame.contentWindow)
    return (None, None) if data is None else (getattr(data, "type", None), data)


def is_ready(event: Any, frame: Any) -> bool:
    """``event`` is the host page in ``frame`` saying it waits for its page."""
    return message_type(event, frame)[0] == READY


def send_page(frame: Any, html: str) -> None:
    message = to_js({"type": PAGE, "html": html}, dict_converter=js.Object.fromEntries)
    frame.contentWindow.postMessage(message, "*")


async def show_page(frame: Any, html: str, timeout: float = READY_TIMEOUT) -> None:
    """Hand ``html`` to ``frame`` (a frame on :data:`HOST_URL`, already in the document)
    once its host page is ready.  Raises ``TimeoutError`` when it never is."""
    done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    listeners = Listeners()

    def on_message(event: Any) -> None:
        if not done.done() and is_ready(event, frame):
            send_page(frame, html)
            done.set_result(None)

    listeners.on(js.window, "message", on_message)
    try:
        await asyncio.wait_for(done, timeout)
    finally:
        listeners.close()
