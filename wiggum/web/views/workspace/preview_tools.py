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

from ...dom import Listeners, h, is_null

__all__ = ["VIEWER_URL", "WIDTHS", "PreviewTools", "mount_preview_tools"]

VIEWER_URL = "static/viewer.html"
#: (name, label, frame width in px or None for the pane's width)
WIDTHS = (("phone", "Phone", 390), ("tablet", "Tablet", 768), ("desktop", "Desktop", None))
READY, NAV, PAGE = "wiggum-viewer-ready", "wiggum-viewer-nav", "wiggum-viewer-page"


class PreviewTools:
    def __init__(self, preview: Any) -> None:
        self.preview = preview
        self.listeners = Listeners()
        self.viewer: Any = None
        self._html = ""
        self.input = h(
            "input",
            {
                "type": "text",
                "class": "preview-path-input",
                "data-testid": "preview-path-input",
                "aria-label": "Page to show",
                "spellcheck": "false",
                "value": preview.path,
            },
        )
        self.form = h("form", {"class": "preview-path-form"}, self.input)
        self.width_btns = [
            h(
                "button",
                {
                    "type": "button",
                    "class": "file-op preview-width",
                    "data-testid": f"preview-width-{name}",
                    "data-width": name,
                    "aria-pressed": "true" if name == "desktop" else "false",
                    "title": f"Show the site {px} px wide" if px else "Show the site full width",
                    "text": label,
                },
            )
            for name, label, px in WIDTHS
        ]
        self.open_btn = h(
            "button",
            {
                "type": "button",
                "class": "file-op preview-open",
                "data-testid": "preview-open-tab",
                "title": "Open the site in a new tab (still sandboxed: it cannot see Wiggum)",
                "text": "Open in new tab",
            },
        )
        preview.path_el.hidden = True
        preview.path_el.after(self.form)
        preview.status_el.after(h("span", {"class": "preview-widths"}, self.width_btns))
        preview.status_el.parentNode.appendChild(self.open_btn)
        preview.el.setAttribute("data-width", "desktop")
        preview.on_loaded.append(self._loaded)
        self.listeners.on(self.form, "submit", self._on_submit)
        for btn in self.width_btns:
            self.listeners.on(btn, "click", self._on_width)
        self.listeners.on(self.open_btn, "click", self._on_open)
        self.listeners.on(js.window, "message", self._on_message)

    def close(self) -> None:
        self.listeners.close()
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
        typed = str(self.input.value).strip().lstrip("/") or "index.html"
        self.preview.refresh(typed)
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
            self.preview.status_el.textContent = (
                "The browser blocked the new tab: allow pop-ups for this page and try again."
            )

    def _viewer_open(self) -> bool:
        return self.viewer is not None and not bool(self.viewer.closed)

    def _send(self) -> None:
        if not self._viewer_open():
            return
        message = to_js(
            {"type": PAGE, "path": str(self.preview.path), "html": self._html},
            dict_converter=js.Object.fromEntries,
        )
        self.viewer.postMessage(message, js.location.origin)

    def _on_message(self, event: Any) -> None:
        if not self._viewer_open() or is_null(event.source):
            return
        if not bool(getattr(js.Object, "is")(event.source, self.viewer)):
            return
        if str(event.origin) != str(js.location.origin):
            return
        data = event.data
        if is_null(data) or isinstance(data, str | int | float | bool):
            return
        kind = getattr(data, "type", None)
        if kind == READY:
            self._send()
        elif kind == NAV:
            path = getattr(data, "path", None)
            if isinstance(path, str) and 0 < len(path) <= 2048:
                self.preview.refresh(path)


def mount_preview_tools(preview: Any) -> PreviewTools:
    """Add the path box, widths and "Open in new tab" to ``preview``'s bar."""
    return PreviewTools(preview)
