"""The browser's frame for one acceptance probe (``wiggum.ralph.probe_page.ProbeFrame``).

A hidden frame on the host page (scripts and forms, never
``allow-same-origin``: ``ui.markup.probes.probe_frame``), one page at a time:
:meth:`ProbeFrame.load` shows a document (a fresh frame each time, as a reload would) and waits for
its probe script's ready; :meth:`ProbeFrame.step` posts a step to that frame
and waits for its answer.  Messages count only from the frame's own window;
everything else it posts goes to ``on_message`` (the probe's page decides).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import to_js  # type: ignore[import-not-found]

from wiggum.ralph.probe_page import READY_MESSAGE, SEEN_MESSAGE, STEP_MESSAGE
from wiggum.ui.markup.preview import CHECKER_STYLE
from wiggum.ui.markup.probes import probe_frame

from .dom import Listeners, mount, plain
from .preview_host import HOST_URL, message_type, show_page

__all__ = ["STEP_TIMEOUT", "ProbeFrame"]

#: Seconds for a page to load, and for a step's answer.
LOAD_TIMEOUT, STEP_TIMEOUT = 15.0, 5.0


class ProbeFrame:
    def __init__(self, on_message: Callable[[Any, Any], None]) -> None:
        self.on_message = on_message
        self.frame: Any = None
        self.listeners = Listeners()
        self.ready: asyncio.Future[None] | None = None
        self.answers: dict[int, asyncio.Future[Any]] = {}
        self.count = 0

    def _heard(self, event: Any) -> None:
        kind, data = message_type(event, self.frame)
        if kind == READY_MESSAGE and self.ready is not None and not self.ready.done():
            self.ready.set_result(None)
        elif kind == SEEN_MESSAGE:
            answer = plain(data)
            waiting = self.answers.pop(answer.get("id"), None) if isinstance(answer, dict) else None
            if waiting is not None and not waiting.done():
                waiting.set_result(answer)
        elif kind is not None:
            self.on_message(kind, plain(data))

    async def load(self, html: str) -> bool:
        self.close()
        self.frame = mount(probe_frame(HOST_URL)).el
        self.frame.style.cssText = CHECKER_STYLE
        self.listeners = Listeners()
        self.listeners.on(js.window, "message", self._heard)
        self.ready = asyncio.get_running_loop().create_future()
        js.document.body.appendChild(self.frame)
        try:
            await show_page(self.frame, html, LOAD_TIMEOUT)
            await asyncio.wait_for(self.ready, LOAD_TIMEOUT)
        except TimeoutError:
            return False
        return True

    async def step(self, step: dict[str, Any]) -> dict[str, Any] | None:
        if self.frame is None:
            return None
        self.count += 1
        answer: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.answers[self.count] = answer
        message = {"type": STEP_MESSAGE, "id": self.count, "step": step}
        self.frame.contentWindow.postMessage(
            to_js(message, dict_converter=js.Object.fromEntries), "*"
        )
        try:
            return await asyncio.wait_for(answer, STEP_TIMEOUT)
        except TimeoutError:
            return None

    def close(self) -> None:
        self.listeners.close()
        if self.frame is not None:
            self.frame.remove()
            self.frame = None
