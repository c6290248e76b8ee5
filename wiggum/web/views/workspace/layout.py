"""Ralph's tab as transcript | file tree | code | preview, with splitters and sub-tabs.

The views stay what they are (``views.ralph``'s transcript scroller,
``views.files``' tree and viewer, ``views.preview``); this module only moves
their elements into panes of one row.  Between panes sit splitters: focusable
``role="separator"`` elements dragged with the pointer or moved with the arrow
keys (Shift / PageUp / PageDown for big steps, Home / End for min / max).  The
widths are remembered per project in ``localStorage`` (a layout preference,
not the person's work: losing it costs nothing, and it needs no async seam).
Below :data:`wiggum.ui.layout.NARROW_BELOW` px the row shows one pane at a time
under sub-tabs (Transcript / Files / Code / Preview).  The arithmetic is pure,
in :mod:`wiggum.ui.layout`.

Hand-written: a splitter is a few lines of pointer events; the split-pane
libraries on npm bring their own DOM and CSS for what these lines do.
"""

from __future__ import annotations

import json
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

from wiggum.ui.layout import (
    MINIMUMS,
    PANES,
    SIZED,
    clamp_sizes,
    is_narrow,
    key_step,
    max_size,
    parse_sizes,
    storage_key,
)

from ...dom import Listeners, h, is_null, log

__all__ = ["WorkspaceLayout", "mount_layout"]

LABELS = {"transcript": "Transcript", "files": "Files", "code": "Code", "preview": "Preview"}
#: The splitter right of each sized pane; the preview's splitter is on its left.
SPLITTERS = ("transcript", "files", "preview")
SPLITTER_PX = 6


class WorkspaceLayout:
    """Arranges ``slot`` (Ralph's workspace element) into panes.

    ``parts`` maps a pane name to the elements it holds, moved in as they are.
    """

    def __init__(self, slot: Any, parts: dict[str, list[Any]], project_id: str | None) -> None:
        self.slot = slot
        self.project_id = project_id
        self.listeners = Listeners()
        self.sizes = parse_sizes(self._load())
        self.active = "transcript"
        self.narrow = False
        self._drag: tuple[str, float, int] | None = None

        self.tabs: dict[str, Any] = {}
        for name in PANES:
            self.tabs[name] = h(
                "button",
                {
                    "type": "button",
                    "role": "tab",
                    "class": "ws-tab",
                    "id": f"ws-tab-{name}",
                    "data-testid": f"ws-tab-{name}",
                    "data-pane": name,
                    "aria-controls": f"ws-pane-{name}",
                    "text": LABELS[name],
                },
            )
        self.tabbar = h(
            "div",
            {"class": "ws-tabs", "role": "tablist", "aria-label": "Workspace"},
            list(self.tabs.values()),
        )
        self.panes: dict[str, Any] = {}
        for name in PANES:
            self.panes[name] = h(
                "div",
                {
                    "class": f"ws-pane ws-pane-{name}",
                    "id": f"ws-pane-{name}",
                    "data-testid": f"ws-pane-{name}",
                    "data-pane": name,
                    "aria-label": LABELS[name],
                },
                parts.get(name, []),
            )
        self.splitters: dict[str, Any] = {}
        for name in SPLITTERS:
            self.splitters[name] = h(
                "div",
                {
                    "class": "ws-splitter",
                    "role": "separator",
                    "tabindex": "0",
                    "aria-orientation": "vertical",
                    "aria-controls": f"ws-pane-{name}",
                    "aria-label": f"Resize {LABELS[name].lower()} pane",
                    "data-testid": f"ws-splitter-{name}",
                    "data-pane": name,
                },
            )
        p, s = self.panes, self.splitters
        self.row = h(
            "div",
            {"class": "ws-row", "data-testid": "ws-row"},
            p["transcript"],
            s["transcript"],
            p["files"],
            s["files"],
            p["code"],
            s["preview"],
            p["preview"],
        )
        slot.classList.add("ws-layout")
        slot.append(self.tabbar, self.row)

        self.listeners.on(self.tabbar, "click", self._on_tab)
        self.listeners.on(self.tabbar, "keydown", self._on_tab_key)
        for splitter in self.splitters.values():
            self.listeners.on(splitter, "keydown", self._on_key)
            self.listeners.on(splitter, "pointerdown", self._on_down)
            self.listeners.on(splitter, "pointermove", self._on_move)
            self.listeners.on(splitter, "pointerup", self._on_up)
            self.listeners.on(splitter, "pointercancel", self._on_up)
        # The row's width changes with the window and when Ralph's tab is shown
        # (hidden, it measures 0): re-fit the panes whenever it does.
        self._observer_fn = create_proxy(lambda entries, observer: self.apply())
        self._observer = js.ResizeObserver.new(self._observer_fn)
        self._observer.observe(self.row)
        self.apply()

    # ------------------------------------------------------------ public

    def set_project(self, project_id: str | None) -> None:
        self.project_id = project_id
        self.sizes = parse_sizes(self._load())
        self.apply()

    def show(self, name: str) -> None:
        """Bring ``name`` to the front (only matters when the panes are sub-tabs)."""
        self.active = name
        self.apply()

    def apply(self) -> None:
        """Lay the panes out for the current window width."""
        self.narrow = is_narrow(float(js.window.innerWidth))
        self.row.setAttribute("data-narrow", "true" if self.narrow else "false")
        self.slot.setAttribute("data-narrow", "true" if self.narrow else "false")
        for name, tab in self.tabs.items():
            selected = name == self.active
            tab.setAttribute("aria-selected", "true" if selected else "false")
            tab.setAttribute("tabindex", "0" if selected else "-1")
            pane = self.panes[name]
            if self.narrow:
                pane.setAttribute("role", "tabpanel")
                pane.setAttribute("aria-labelledby", f"ws-tab-{name}")
            else:
                pane.removeAttribute("role")
                pane.removeAttribute("aria-labelledby")
            pane.setAttribute("data-active", "true" if selected else "false")
        width = self._row_width()
        shown = clamp_sizes(self.sizes, width) if width > 0 else dict(self.sizes)
        for name in SIZED:
            self.panes[name].style.setProperty("--ws-size", f"{shown[name]}px")
            splitter = self.splitters[name]
            splitter.setAttribute("aria-valuenow", str(shown[name]))
            splitter.setAttribute("aria-valuemin", str(MINIMUMS[name]))
            splitter.setAttribute("aria-valuemax", str(max_size(name, shown, width)))

    def close(self) -> None:
        self.listeners.close()
        self._observer.disconnect()
        self._observer_fn.destroy()

    # ------------------------------------------------------------ sizes

    def _row_width(self) -> float:
        width = float(self.row.clientWidth or 0)
        return width - SPLITTER_PX * len(SPLITTERS) if width else 0

    def _set(self, name: str, value: int, *, save: bool) -> None:
        width = self._row_width()
        current = clamp_sizes(self.sizes, width) if width > 0 else dict(self.sizes)
        hi = max_size(name, current, width) if width > 0 else value
        current[name] = max(MINIMUMS[name], min(int(value), hi))
        self.sizes = current
        self.apply()
        if save:
            self._save()

    def _load(self) -> str | None:
        if self.project_id is None:
            return None
        try:
            raw = js.window.localStorage.getItem(storage_key(self.project_id))
        except Exception:  # storage disabled: the defaults do
            return None
        return None if is_null(raw) else str(raw)

    def _save(self) -> None:
        if self.project_id is None:
            return
        try:
            js.window.localStorage.setItem(
                storage_key(self.project_id), json.dumps({n: self.sizes[n] for n in SIZED})
            )
        except Exception:
            log.warning("workspace layout: sizes could not be remembered")

    # ------------------------------------------------------------ events

    def _on_key(self, event: Any) -> None:
        name = str(event.currentTarget.getAttribute("data-pane"))
        width = self._row_width()
        current = clamp_sizes(self.sizes, width) if width > 0 else self.sizes
        value = key_step(
            str(event.key),
            current[name],
            shift=bool(event.shiftKey),
            grows_right=name != "preview",
        )
        if value is None:
            return
        event.preventDefault()
        self._set(name, value, save=True)

    def _on_down(self, event: Any) -> None:
        if self.narrow or event.button != 0:
            return
        target = event.currentTarget
        name = str(target.getAttribute("data-pane"))
        width = self._row_width()
        current = clamp_sizes(self.sizes, width) if width > 0 else self.sizes
        self._drag = (name, float(event.clientX), current[name])
        target.setPointerCapture(event.pointerId)
        target.setAttribute("data-dragging", "true")
        event.preventDefault()

    def _on_move(self, event: Any) -> None:
        if self._drag is None:
            return
        name, x0, start = self._drag
        dx = float(event.clientX) - x0
        self._set(name, int(start + (dx if name != "preview" else -dx)), save=False)

    def _on_up(self, event: Any) -> None:
        if self._drag is None:
            return
        self._drag = None
        event.currentTarget.removeAttribute("data-dragging")
        self._save()

    def _on_tab(self, event: Any) -> None:
        tab = event.target.closest("[data-pane]")
        if is_null(tab):
            return
        self.show(str(tab.getAttribute("data-pane")))

    def _on_tab_key(self, event: Any) -> None:
        key = str(event.key)
        if key not in ("ArrowLeft", "ArrowRight", "Home", "End"):
            return
        i = PANES.index(self.active)
        i = {"ArrowLeft": i - 1, "ArrowRight": i + 1, "Home": 0, "End": len(PANES) - 1}[key]
        name = PANES[i % len(PANES)]
        event.preventDefault()
        self.show(name)
        self.tabs[name].focus()


def mount_layout(ralph_view: Any, views: dict[str, Any], project_id: str | None) -> WorkspaceLayout:
    """Move Ralph's transcript and the workspace views into panes of his workspace slot.

    ``views``: ``{"files": FilesView, "preview": PreviewView, "history": HistoryPanel}``
    (any may be missing when it failed to mount; its pane then stays empty).
    """
    slot = ralph_view.workspace
    parts: dict[str, list[Any]] = {"transcript": [ralph_view.scroller]}
    files = views.get("files")
    if files is not None:
        hint = h(
            "p",
            {
                "class": "ws-hint",
                "data-testid": "ws-code-hint",
                "text": "Choose a file in Files to see it here.",
            },
        )
        parts["files"] = [files.tree_el]
        parts["code"] = [hint, files.viewer]
    history = views.get("history")
    if history is not None:  # the person's checkpoints, under the tree they apply to
        parts.setdefault("files", []).append(history.el)
    preview = views.get("preview")
    if preview is not None:
        parts["preview"] = [preview.el]
    for box in list(slot.children):  # the mount boxes, emptied by the moves below
        box.remove()
    layout = WorkspaceLayout(slot, parts, project_id)
    if files is not None:
        previous = files.on_open

        def opened(path: str) -> Any:
            layout.show("code")  # at phone width the file would open out of sight
            return previous(path) if previous is not None else None

        files.on_open = opened
    return layout
