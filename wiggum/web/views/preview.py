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
``wiggum-preview-nav`` / ``wiggum-preview-error`` / ``wiggum-preview-console`` /
``wiggum-preview-storage``).

The site's own storage (``localStorage``, ``sessionStorage``, cookies) is the
project's :class:`~wiggum.session.site_storage.SiteStorage`: each page is sent
with a snapshot of it (:func:`wiggum.preview.storage.with_storage`, where the
module says why a shim and not an origin), and the changes the site posts come
back here.  The console under the frame (:mod:`wiggum.web.views.console`)
shows what the site said, cleared on every reload.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import js  # type: ignore[import-not-found]

from wiggum.fs import FileStore
from wiggum.preview import NAV_MESSAGE
from wiggum.preview.console import SiteConsole, locate, read_console_message
from wiggum.preview.runtime import CONSOLE_MESSAGE
from wiggum.preview.storage import STORAGE_MESSAGE, with_storage
from wiggum.session.preview import load_page, unchanged
from wiggum.session.site_storage import SiteStorage
from wiggum.ui.markup import preview as markup
from wiggum.ui.preview import NO_HOST, keep_error, read_message

from ..dom import Listeners, mount, spawn
from ..preview_host import HOST_URL, READY_TIMEOUT, is_ready, message_type, send_page
from .checks import ChecksView
from .console import ConsoleView, ProblemActions

__all__ = ["PreviewView", "mount_preview"]


class PreviewView:
    def __init__(
        self,
        container: Any,
        fs: FileStore,
        storage: SiteStorage | None = None,
        actions: ProblemActions | None = None,
        run_checks: Callable[[], Any] | None = None,
    ) -> None:
        self.fs = fs
        self.storage = storage or SiteStorage(None, None)
        self.path = "index.html"
        self.errors: list[str] = []
        self.missing: list[str] = []
        self._gen = 0
        self._html = ""  # the page (with its storage) the current frame gets when ready
        self._bundle = ""  # the bundled page alone (what "unchanged" compares)
        self._ready: asyncio.Future[None] | None = None  # resolved when it got it
        self.listeners = Listeners()
        #: Called with ``(path, html)`` after each page is handed to the frame
        #: (the toolbar's path box and the new-tab viewer follow it).
        self.on_loaded: list[Callable[[str, str], Any]] = []
        parts = mount(markup.panel())
        self.el, self.refresh_btn = parts.el, parts.refresh
        self.path_el, self.status_el = parts.path, parts.status
        self.frame = self._new_frame()
        self.el.appendChild(self.frame)
        self.console = SiteConsole()
        self.console_view = ConsoleView(self.console, actions)
        self.el.appendChild(self.console_view.el)
        self.checks_view = ChecksView(run_checks, actions)
        self.el.appendChild(self.checks_view.el)
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

    def set_fs(self, fs: FileStore, storage: SiteStorage | None = None) -> asyncio.Task:
        self.fs = fs
        self.storage = storage or SiteStorage(None, None)
        return self.refresh("index.html")

    def close(self) -> None:
        self._gen += 1
        self.listeners.close()
        self.console_view.close()
        self.checks_view.close()
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
        snapshot = await self.storage.snapshot()
        if gen != self._gen:
            return
        if if_changed and unchanged(page, self._shown()):
            self.status_el.textContent = status
            return
        self.path = page.path
        self.errors = []
        self.missing = list(page.missing)
        self.path_el.textContent = page.shown
        self.status_el.textContent = page.status
        self.el.setAttribute("data-path", page.path)
        # A fresh frame (and a fresh global) per page, its host page's URL set
        # before it enters the DOM: re-pointing one sandboxed (out-of-process)
        # frame sometimes left Chromium never laying the document out.  The
        # page is posted when the host page says it is ready (_on_message).
        self.console.clear()
        self.console_view.draw()
        self._bundle = page.html
        self._html = with_storage(page.html, snapshot)
        self._ready = ready = asyncio.get_running_loop().create_future()
        frame = self._new_frame()
        self.frame.replaceWith(frame)
        self.frame = frame
        for listener in list(self.on_loaded):
            listener(page.shown, self._html)
        try:
            await asyncio.wait_for(ready, READY_TIMEOUT)
        except TimeoutError:
            if gen == self._gen:
                self.status_el.textContent = NO_HOST

    def _shown(self) -> tuple[str, str] | None:
        """The ``(path, html)`` the frame shows, once it started."""
        ready = self._ready
        started = ready is not None and ready.done() and not ready.cancelled()
        return (self.path, self._bundle) if started else None

    def _on_message(self, event: Any) -> None:
        if is_ready(event, self.frame):
            send_page(self.frame, self._html)
            if self._ready is not None and not self._ready.done():
                self._ready.set_result(None)
            return
        kind, data = message_type(event, self.frame)
        if kind == STORAGE_MESSAGE:
            self.storage.apply(getattr(data, "area", None), _plain(getattr(data, "items", None)))
            return
        if kind == CONSOLE_MESSAGE:
            self._console(_plain(data))
            return
        msg = read_message(kind, data)
        if msg is not None and msg[0] == NAV_MESSAGE:
            self.refresh(msg[1])
        elif msg is not None:
            keep_error(self.errors, msg[1])  # the console shows it, with its stack

    def _console(self, data: Any) -> None:
        entry = read_console_message(data)
        if entry is None:
            return
        if entry.kind == "resource" and not entry.file:
            # A reference the page makes: its line is where the page writes it.
            spawn(self._place(entry, self._gen), what="place a console message")
            return
        if self.console.add(entry) is not None:
            self.console_view.added()

    async def _place(self, entry: Any, gen: int) -> None:
        ref = entry.text.partition("> ")[2]
        page = entry.page or self.path
        try:
            source = await self.fs.read_text(page)
        except Exception:  # the page is gone: the message keeps no place
            source = ""
        line = locate(source, ref)
        if line:
            entry.file, entry.line = page, line
        if gen == self._gen and self.console.add(entry) is not None:
            self.console_view.added()


def _plain(value: Any) -> Any:
    """A message's data as plain Python (JSON-shaped), whatever the site put in it."""
    try:
        return json.loads(str(js.JSON.stringify(value)))
    except Exception:  # a cycle, a BigInt, undefined: not a message of ours
        return None


def mount_preview(
    container: Any,
    fs: FileStore,
    storage: SiteStorage | None = None,
    actions: ProblemActions | None = None,
    run_checks: Callable[[], Any] | None = None,
) -> PreviewView:
    """Mount the preview into ``container`` and start loading the entry page."""
    view = PreviewView(container, fs, storage, actions, run_checks)
    view.refresh("index.html")
    return view
