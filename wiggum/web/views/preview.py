"""The live preview: the project's site running in a sandboxed, opaque-origin iframe.

The frame's sandbox (:data:`wiggum.ui.markup.preview.SANDBOX`) never has
``allow-same-origin``: the site's scripts run, but in an opaque origin that
cannot reach Wiggum's IndexedDB, localStorage, settings, API keys or
``parent.document``; ``allow-popups(-to-escape-sandbox)`` only lets external
links (rewritten to ``target=_blank``) open in a new tab.  The page is bundled
by :func:`wiggum.preview.bundle_page` into one document, which the frame's
host page (``static/preview.html``, :mod:`wiggum.web.preview_host`) receives
by ``postMessage`` and writes over itself: not ``srcdoc``, which would inherit
Wiggum's Content-Security-Policy and stop the site's scripts.  The site's root
(``index.html``, ``""``) opens the project's entry page
(:func:`wiggum.preview.entry_page`): ``index.html``, else the one page the
entry-page gate accepts.  The frame talks back only through ``postMessage``;
messages are accepted only from this frame's ``contentWindow`` and only in the
shapes the host page and the bundle's runtime send (``wiggum-preview-ready`` /
``wiggum-preview-nav`` / ``wiggum-preview-error``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import js  # type: ignore[import-not-found]

from wiggum.fs import FileStore
from wiggum.preview import NAV_MESSAGE
from wiggum.session.preview import load_page, unchanged
from wiggum.ui.markup import preview as markup
from wiggum.ui.preview import NO_HOST, keep_error, read_message

from ..dom import Listeners, mount, mount_all, spawn
from ..preview_host import HOST_URL, READY_TIMEOUT, is_ready, message_type, send_page

__all__ = ["PreviewView", "mount_preview"]


class PreviewView:
    def __init__(self, container: Any, fs: FileStore) -> None:
        self.fs = fs
        self.path = "index.html"
        self.errors: list[str] = []
        self.missing: list[str] = []
        self._gen = 0
        self._html = ""  # the bundled page the current frame gets when ready
        self._ready: asyncio.Future[None] | None = None  # resolved when it got it
        self.listeners = Listeners()
        #: Called with ``(path, html)`` after each page is handed to the frame
        #: (the toolbar's path box and the new-tab viewer follow it).
        self.on_loaded: list[Callable[[str, str], Any]] = []
        parts = mount(markup.panel())
        self.el, self.refresh_btn, self.errors_el = parts.el, parts.refresh, parts.errors
        self.path_el, self.status_el = parts.path, parts.status
        self.frame = self._new_frame()
        self.el.appendChild(self.frame)
        container.appendChild(self.el)
        self.listeners.on(self.refresh_btn, "click", lambda e: self.refresh(self.path))
        self.listeners.on(js.window, "message", self._on_message)

    # ------------------------------------------------------------ public

    def refresh(self, path: str | None = "index.html", *, if_changed: bool = False) -> asyncio.Task:
        """Bundle ``path`` (``None``: the current page) and show it.

        ``if_changed``: the files changed somewhere (a run ended, a checkpoint
        was taken); a page whose bundle is what the frame shows is left as it
        is, its scripts' state and scroll with it, instead of flashing a reload.
        The Refresh button and navigations always reload.

        Returns the task; await it to know the new document has been handed to
        the frame's host page (the site's scripts run afterwards).
        """
        target = self.path if path is None else path
        return spawn(self._load(target, if_changed=if_changed), what="preview refresh")

    def set_fs(self, fs: FileStore) -> asyncio.Task:
        self.fs = fs
        return self.refresh("index.html")

    def close(self) -> None:
        self._gen += 1
        self.listeners.close()
        self.el.remove()

    # ------------------------------------------------------------ internals

    @staticmethod
    def _new_frame() -> Any:
        return mount(markup.frame(HOST_URL)).el

    async def _load(self, path: str, *, if_changed: bool = False) -> None:
        self._gen += 1
        gen = self._gen
        status = self.status_el.textContent
        self.status_el.textContent = "Building…"
        page = await load_page(self.fs, path)
        if gen != self._gen:
            return
        if if_changed and unchanged(page, self._shown()):
            self.status_el.textContent = status
            return
        self.path = page.path
        self.errors = []
        self.missing = list(page.missing)
        self._render_errors()
        self.path_el.textContent = page.shown
        self.status_el.textContent = page.status
        self.el.setAttribute("data-path", page.path)
        # A fresh frame (and a fresh global) per page, its host page's URL set
        # before it enters the DOM: re-pointing one sandboxed (out-of-process)
        # frame sometimes left Chromium never laying the document out.  The
        # page is posted when the host page says it is ready (_on_message).
        self._html = page.html
        self._ready = ready = asyncio.get_running_loop().create_future()
        frame = self._new_frame()
        self.frame.replaceWith(frame)
        self.frame = frame
        for listener in list(self.on_loaded):
            listener(page.shown, page.html)
        try:
            await asyncio.wait_for(ready, READY_TIMEOUT)
        except TimeoutError:
            if gen == self._gen:
                self.status_el.textContent = NO_HOST

    def _shown(self) -> tuple[str, str] | None:
        """The ``(path, html)`` the frame shows, once it started."""
        ready = self._ready
        started = ready is not None and ready.done() and not ready.cancelled()
        return (self.path, self._html) if started else None

    def _on_message(self, event: Any) -> None:
        if is_ready(event, self.frame):
            send_page(self.frame, self._html)
            if self._ready is not None and not self._ready.done():
                self._ready.set_result(None)
            return
        msg = read_message(*message_type(event, self.frame))
        if msg is not None and msg[0] == NAV_MESSAGE:
            self.refresh(msg[1])
        elif msg is not None and keep_error(self.errors, msg[1]):
            self._render_errors()

    def _render_errors(self) -> None:
        self.errors_el.replaceChildren(*mount_all(markup.errors(self.errors)))
        self.errors_el.hidden = not self.errors


def mount_preview(container: Any, fs: FileStore) -> PreviewView:
    """Mount the preview into ``container`` and start loading the entry page."""
    view = PreviewView(container, fs)
    view.refresh("index.html")
    return view
