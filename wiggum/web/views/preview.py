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
shapes the host page and the bundle's runtime send (``wiggum-preview-`` ready,
nav, error, console, storage).

What is shown is :class:`~wiggum.session.preview.PreviewState`'s; the site's
storage, the console and the Checks panel under the frame are its ``site``'s
(:class:`~wiggum.session.site_panels.SitePanels`, which says how).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import js  # type: ignore[import-not-found]

from wiggum.fs import FileStore
from wiggum.preview import NAV_MESSAGE
from wiggum.session.preview import PreviewState
from wiggum.session.site_panels import SitePanels
from wiggum.ui.markup import preview as markup
from wiggum.ui.preview import NO_HOST, keep_error, read_message

from ..dom import Listeners, closest_action, mount, mount_all, plain, spawn
from ..preview_host import HOST_URL, READY_TIMEOUT, is_ready, message_type, send_page

__all__ = ["PreviewView", "mount_preview"]


class PreviewView:
    def __init__(self, container: Any, fs: FileStore, site: SitePanels | None = None) -> None:
        self.fs = fs
        self.state = PreviewState(site)
        self.site = self.state.site
        self._ready: asyncio.Future[None] | None = None  # resolved when it got it
        self.listeners = Listeners()
        #: Called with ``(path, html)`` after each page is handed to the frame
        #: (the toolbar's path box and the new-tab viewer follow it).
        self.on_loaded: list[Callable[[str, str], Any]] = []
        #: Called after each page was posted to the frame (select mode follows it).
        self.on_started: list[Callable[[], Any]] = []
        parts = mount(markup.panel())
        self.el, self.refresh_btn = parts.el, parts.refresh
        self.path_el, self.status_el = parts.path, parts.status
        self.view, self.slot = parts.view, parts.slot
        self.frame = self._new_frame()
        self.slot.appendChild(self.frame)
        self.panels = {name: mount(tree) for name, tree in self.site.panels()}
        self.site.draw = self._draw
        for name, panel in self.panels.items():
            self.el.appendChild(panel.el)
            self.listeners.on(panel.el, "click", self._pressed)
            self._draw(name)
        container.appendChild(self.el)
        self.listeners.on(self.refresh_btn, "click", lambda e: self.refresh(None))
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
        target = self.state.path if path is None else path
        return spawn(self._load(target, if_changed=if_changed), what="preview refresh")

    def set_fs(self, fs: FileStore) -> asyncio.Task:
        self.fs = fs
        return self.refresh("index.html")

    def close(self) -> None:
        self.state.begin()
        self.listeners.close()
        self.site.draw = lambda _panel: None
        self.el.remove()

    # ------------------------------------------------------------ internals

    @staticmethod
    def _new_frame() -> Any:
        return mount(markup.frame(HOST_URL)).el

    async def _load(self, path: str, *, if_changed: bool = False) -> None:
        gen = self.state.begin()
        status = self.status_el.textContent
        self.status_el.textContent = "Building…"
        page = await self.state.load(self.fs, path, gen, if_changed=if_changed)
        if page is None:
            if self.state.latest(gen):  # the frame shows it already
                self.status_el.textContent = status
            return
        self.path_el.textContent = page.shown
        self.status_el.textContent = page.status
        self.el.setAttribute("data-path", page.path)
        # A fresh frame (and a fresh global) per page, its host page's URL set
        # before it enters the DOM: re-pointing one sandboxed (out-of-process)
        # frame sometimes left Chromium never laying the document out.  The
        # page is posted when the host page says it is ready (_on_message).
        self._ready = ready = asyncio.get_running_loop().create_future()
        frame = self._new_frame()
        self.frame.replaceWith(frame)
        self.frame = frame
        for listener in list(self.on_loaded):
            listener(page.shown, self.state.html)
        try:
            await asyncio.wait_for(ready, READY_TIMEOUT)
        except TimeoutError:
            if self.state.latest(gen):
                self.status_el.textContent = NO_HOST

    def _on_message(self, event: Any) -> None:
        if is_ready(event, self.frame):
            send_page(self.frame, self.state.html)
            self.state.started = True
            for listener in list(self.on_started):
                listener()
            if self._ready is not None and not self._ready.done():
                self._ready.set_result(None)
            return
        kind, data = message_type(event, self.frame)
        if kind is None or self.site.take(kind, plain(data), self.fs, self.state.path):
            return
        msg = read_message(kind, data)
        if msg is not None and msg[0] == NAV_MESSAGE:
            self.refresh(msg[1])
        elif msg is not None:
            keep_error(self.state.errors, msg[1])  # the console shows it, with its stack

    def _draw(self, panel: str) -> None:
        rows, summary = self.site.shown(panel)
        self.panels[panel].list.replaceChildren(*mount_all(rows))
        self.panels[panel].summary.textContent = summary

    def _pressed(self, event: Any) -> None:
        found = closest_action(event)
        if found is not None:
            self.site.press(found.getAttribute("data-action"), found.getAttribute("data-index"))


def mount_preview(container: Any, fs: FileStore, site: SitePanels | None = None) -> PreviewView:
    """Mount the preview into ``container`` and start loading the entry page."""
    view = PreviewView(container, fs, site)
    view.refresh("index.html")
    return view
