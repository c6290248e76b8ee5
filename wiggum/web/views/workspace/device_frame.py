"""A phone's or a tablet's frame, scaled to fit the preview's pane.

The frame keeps the device's size (the site lays itself out for exactly that
viewport) and is drawn scaled with a CSS transform when the pane is smaller;
the toolbar says the scale ("Phone 390 × 844 · 62%").  The scale is
:func:`wiggum.ui.preview.device_scale`'s; this module measures the preview
(its box less the toolbar) and sets ``--device-scale``, ``--device-w`` and
``--device-h`` on it, which ``static/app.css`` reads.  A transformed frame
still gets each click at the element drawn under the pointer: the browser maps
pointer events through the transform.

The room is the frame's slot's width, and its height: the preview's less the
toolbar, or in select mode the slot's own (select mode shares one screen of the
pane between the page and its panel, beside or under it: ``--preview-room``,
set here, is that screen's height).  On a phone's screen the width alone
(:func:`wiggum.ui.preview.device_room`).

It follows the toolbar's ``data-width`` and the preview's ``data-selecting`` (a
``MutationObserver``, fitting at once: its callback runs before the next paint,
so the new device is never drawn with the last one's size) and the sizes of the
preview, its toolbar and the slot (a ``ResizeObserver``, re-fitting in the next
frame: changing a size inside the observer's callback would make the browser
warn of a loop).
"""

from __future__ import annotations

from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_proxy, to_js  # type: ignore[import-not-found]

from wiggum.ui.markup import preview as markup
from wiggum.ui.preview import DEVICES, device_label, device_room, device_scale

from ...dom import NextFrame, mount

__all__ = ["DeviceFit"]

#: The preview's padding and the gap under its toolbar (px), as ``static/app.css`` has them.
INSET = 16
#: The frame's border (px): the slot's room less it is what the device is drawn in.
BORDER = 2


class DeviceFit:
    """Scales ``preview``'s device frame to its ``slot``; says the scale after ``widths``."""

    def __init__(self, preview_el: Any, bar: Any, widths: Any, slot: Any) -> None:
        self.el, self.bar, self.slot = preview_el, bar, slot
        self.label = mount(markup.device_scale()).el
        widths.after(self.label)
        self._refit = NextFrame(self.fit)
        self._soon_fn = create_proxy(self._refit.ask)
        self._resize = js.ResizeObserver.new(self._soon_fn)
        self._resize.observe(self.el)
        # The toolbar's height is taken from the room: it grows when a button is added
        # to it or it wraps to a second line, with the pane's own size unchanged.
        self._resize.observe(self.bar)
        # Select mode's panel under the frame takes height from the slot as it grows.
        self._resize.observe(self.slot)
        self._now_fn = create_proxy(lambda *_: self.fit())
        self._mutation = js.MutationObserver.new(self._now_fn)
        wanted = {"attributes": True, "attributeFilter": ["data-width", "data-selecting"]}
        self._mutation.observe(self.el, to_js(wanted, dict_converter=js.Object.fromEntries))
        self.fit()

    def fit(self) -> None:
        # Showing the scale's label may wrap the toolbar onto a second line, which
        # takes height from the frame: measured again at once, so one fit is final
        # (never a first scale drawn and a second one a frame later).
        for _ in range(2):
            bar = float(self.bar.clientHeight or 0)
            if not self._fit(bar) or float(self.bar.clientHeight or 0) == bar:
                return

    def _fit(self, bar: float) -> bool:
        device = str(self.el.getAttribute("data-width") or "")
        if float(self.el.clientWidth or 0) <= 0:
            return False  # hidden (another pane in front): keep the last fit until shown
        style = self.el.style
        room = float(self.el.clientHeight or 0) - bar - INSET
        style.setProperty("--preview-room", f"{max(0.0, room)}px")
        if self.el.getAttribute("data-selecting") == "true":
            room = float(self.slot.clientHeight or 0)  # laid out anew by the line above
        width, height = device_room(float(self.slot.clientWidth or 0) - BORDER, room - BORDER)
        scale = device_scale(device, width, height)
        w, h = DEVICES.get(device, (0, 0))
        style.setProperty("--device-scale", str(scale))
        style.setProperty("--device-w", f"{w}px")
        style.setProperty("--device-h", f"{h}px")
        self.label.textContent = device_label(device, scale)
        self.label.hidden = device not in DEVICES
        return True

    def close(self) -> None:
        self._resize.disconnect()
        self._mutation.disconnect()
        self._refit.close()
        self._soon_fn.destroy()
        self._now_fn.destroy()
