"""The preview's toolbar: page path (editable), phone/tablet/desktop widths, new tab.

Added to a :class:`~wiggum.web.views.preview.PreviewView`: its read-only path
becomes a form (type ``about.html``, Enter, the preview goes there), three
width buttons set ``data-width`` on the preview (CSS narrows the frame), and
"Open in new tab" opens ``static/viewer.html``.

The new tab is a page of ours that hosts the site in the same sandboxed frame
as the preview (``allow-scripts``, never ``allow-same-origin``), so the site
still cannot reach Wiggum's storage or keys; a ``blob:`` or ``about:blank`` tab
would run the site at Wiggum's origin.  The two pages talk only by
``postMessage`` between Wiggum's own windows: the viewer says it is ready or
that the site navigated, the preview answers with the bundled page.  Messages
are accepted only from that viewer window and from Wiggum's origin (the site's
frame has the opaque origin ``"null"``), and the open viewer follows every
reload of the preview, so it shows Ralph's and the person's changes live.
"""

from __future__ import annotations

from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import to_js  # type: ignore[import-not-found]

from wiggum.ui.markup import preview as markup
from wiggum.ui.preview import POPUP_BLOCKED, nav_path, typed_page

from ...dom import Listeners, is_null, mount
from ...preview_host import message_from
from ..preview import PreviewView
from .device_frame import DeviceFit

__all__ = ["VIEWER_URL", "PreviewTools"]

VIEWER_URL = "static/viewer.html"
READY, NAV, PAGE = "wiggum-viewer-ready", "wiggum-viewer-nav", "wiggum-viewer-page"


class PreviewTools:
    """The path box, widths and "Open in new tab", added to ``preview``'s bar."""

    def __init__(self, preview: PreviewView) -> None:
        self.preview = preview
        self.listeners = Listeners()
        self.viewer: Any = None
        self._html = ""
        path, widths = mount(markup.path_form()), mount(markup.widths())
        self.form, self.input = path.el, path.input
        self.input.value = preview.state.path
        self.width_btns = list(widths.el.children)
        self.open_btn = mount(markup.open_tab()).el
        preview.path_el.hidden = True
        preview.path_el.after(self.form)
        preview.status_el.after(widths.el)
        preview.status_el.parentNode.appendChild(self.open_btn)
        preview.el.setAttribute("data-width", "desktop")
        self.fit = DeviceFit(preview.el, preview.status_el.parentNode, widths.el, preview.slot)
        preview.on_loaded.append(self._loaded)
        self.listeners.on(self.form, "submit", self._on_submit)
        for btn in self.width_btns:
            self.listeners.on(btn, "click", self._on_width)
        self.listeners.on(self.open_btn, "click", self._on_open)
        self.listeners.on(js.window, "message", self._on_message)

    def close(self) -> None:
        self.listeners.close()
        self.fit.close()
        if self._loaded in self.preview.on_loaded:
            self.preview.on_loaded.remove(self._loaded)

    # ------------------------------------------------------------ toolbar

    def _loaded(self, path: str, html: str) -> None:
        self._html = html
        if js.document.activeElement != self.input:  # never overwrite what is being typed
            self.input.value = path
        self._send()

    def _on_submit(self, event: Any) -> None:
        event.preventDefault()
        self.preview.refresh(typed_page(str(self.input.value)))
        self.input.blur()

    def _on_width(self, event: Any) -> None:
        name = str(event.currentTarget.getAttribute("data-width"))
        self.preview.el.setAttribute("data-width", name)
        for btn in self.width_btns:
            pressed = btn.getAttribute("data-width") == name
            btn.setAttribute("aria-pressed", "true" if pressed else "false")

    # ------------------------------------------------------------ new tab

    def _on_open(self, _event: Any) -> None:
        if self._viewer_open():
            self.viewer.focus()
            return
        win = js.window.open(VIEWER_URL, "wiggum-viewer")
        self.viewer = None if is_null(win) else win
        if self.viewer is None:
            self.preview.status_el.textContent = POPUP_BLOCKED

    def _viewer_open(self) -> bool:
        return self.viewer is not None and not bool(self.viewer.closed)

    def _send(self) -> None:
        if self._viewer_open():
            message = {"type": PAGE, "path": str(self.preview.state.path), "html": self._html}
            data = to_js(message, dict_converter=js.Object.fromEntries)
            self.viewer.postMessage(data, js.location.origin)

    def _on_message(self, event: Any) -> None:
        data = message_from(event, self.viewer) if self._viewer_open() else None
        if data is None or str(event.origin) != str(js.location.origin):
            return
        kind = getattr(data, "type", None)
        if kind == READY:
            self._send()
        elif kind == NAV and (path := nav_path(getattr(data, "path", None))) is not None:
            self.preview.refresh(path)
