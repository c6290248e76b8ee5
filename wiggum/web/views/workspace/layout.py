"""Ralph's tab as transcript | file tree | stage (preview, code or History), with
splitters and sub-tabs.

The views stay what they are (``views.ralph``'s transcript scroller,
``views.files``' tree and viewer, ``views.preview``, the History panel); this
module only moves their elements into panes of one row.  The stage shows one of
preview, code and History under its switch; the Code switch shows while the
viewer holds a file (its ``hidden`` attribute, followed by a
``MutationObserver``).  Right of the transcript and the file tree sit splitters: focusable
``role="separator"`` elements dragged with the pointer or moved with the arrow
keys (Shift / PageUp / PageDown for big steps, Home / End for min / max).  The
widths are remembered per project in ``localStorage`` (a layout preference,
not the person's work: losing it costs nothing, and it needs no async seam).
Below :data:`wiggum.ui.layout.NARROW_BELOW` px the row shows one pane at a time
under sub-tabs (Transcript / Files / Preview / Code / History).  The arithmetic
and the choices are pure, in :mod:`wiggum.ui.layout` (sizes, steps, which pane
shows).

Hand-written: a splitter is a few lines of pointer events; the split-pane
libraries on npm bring their own DOM and CSS for what these lines do.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypedDict

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_proxy, to_js  # type: ignore[import-not-found]

from wiggum.ui.layout import (
    PANES,
    SPLITTERS,
    STAGE,
    drag_size,
    dump_sizes,
    fitted,
    is_narrow,
    key_step,
    pane_attrs,
    parse_sizes,
    resized,
    shown_tabs,
    splitter_values,
    stage_attrs,
    stage_pane,
    storage_key,
)
from wiggum.ui.markup import workspace as markup
from wiggum.ui.tabs import tab_attrs

from ...dom import Listeners, NextFrame, is_null, log, mount, set_attrs, tab_list
from ..files import FilesView
from ..preview import PreviewView
from .history import HistoryPanel

__all__ = ["RalphPanes", "WorkspaceLayout", "WorkspaceViews", "mount_layout"]


class RalphPanes(Protocol):
    """What the layout takes from Ralph's view: his workspace slot and his transcript."""

    workspace: Any
    scroller: Any


class WorkspaceViews(TypedDict, total=False):
    """The workspace's views (any may be missing when it failed to mount)."""

    files: FilesView
    preview: PreviewView
    history: HistoryPanel


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
        #: The stage pane chosen last (Code may wait for its file: opening one asks
        #: for the code before the viewer shows it); ``shown_stage`` is what shows.
        self.stage = "preview"
        self.has_file = False
        self.narrow = False
        #: Called with the pane's name each time a pane is brought forward.
        self.on_show: list[Callable[[str], Any]] = []
        self._drag: tuple[str, float, int] | None = None
        bar, row = mount(markup.tabs()), mount(markup.panes())
        self.tabbar, self.row = bar.el, row.el
        self.tabs = {name: getattr(bar, f"tab_{name}") for name in PANES}
        self.panes = {name: getattr(row, f"pane_{name}") for name in PANES}
        self.splitters = {name: getattr(row, f"split_{name}") for name in SPLITTERS}
        self.stage_el, self.stage_bar = row.stage, row.stage_tabs
        self.stage_tabs = {name: getattr(row, f"show_{name}") for name in STAGE}
        for name, pane in self.panes.items():
            pane.append(*parts.get(name, []))
        slot.classList.add("ws-layout")
        slot.append(self.tabbar, self.row)

        # The tab lists' names are the tabs shown (Code only with a file open): kept
        # in these lists, changed in place, so the keys skip a hidden tab.
        self._tab_names: list[str] = list(shown_tabs(False))
        self._stage_names: list[str] = [n for n in self._tab_names if n in STAGE]
        tab_list(
            self.listeners, self.tabbar, self._tab_names, lambda: self.shown_active, self._select
        )
        tab_list(
            self.listeners,
            self.stage_bar,
            self._stage_names,
            lambda: self.shown_stage,
            self._select,
        )
        handlers = {
            "keydown": self._on_key,
            "pointerdown": self._on_down,
            "pointermove": self._on_move,
            "pointerup": self._on_up,
            "pointercancel": self._on_up,
        }
        for splitter in self.splitters.values():
            for event, handler in handlers.items():
                self.listeners.on(splitter, event, handler)
        # The row's width changes with the window and when Ralph's tab is shown
        # (hidden, it measures 0): re-fit the panes whenever it does, in the next frame.
        self._refit = NextFrame(self.apply)
        self._observer_fn = create_proxy(self._refit.ask)
        self._observer = js.ResizeObserver.new(self._observer_fn)
        self._observer.observe(self.row)
        self._viewer_watch: Any = None
        self._viewer_path: str | None = None
        #: A path whose next opening stays behind the stage (:meth:`open_behind`).
        self._behind: str | None = None
        self.apply()

    def follow_viewer(self, viewer: Any) -> None:
        """Give the code pane a tab and room while ``viewer`` shows a file."""
        self._viewer_fn = create_proxy(lambda records, observer: self._viewer_changed(viewer))
        self._viewer_watch = js.MutationObserver.new(self._viewer_fn)
        wanted = {"attributes": True, "attributeFilter": ["hidden", "data-path"]}
        options = to_js(wanted, dict_converter=js.Object.fromEntries)
        self._viewer_watch.observe(viewer, options)
        self._viewer_changed(viewer)

    def _viewer_changed(self, viewer: Any) -> None:
        """A file shown that was not (opened by a click, a new file, a conflict to
        resolve) comes forward; the viewer closed, the code pane goes."""
        path = None if viewer.hidden else str(viewer.getAttribute("data-path") or "")
        opened = path is not None and path != self._viewer_path
        self._viewer_path = path
        self.set_has_file(path is not None)
        if opened:
            behind, self._behind = self._behind, None
            if path != behind:
                self.show("code")

    def open_behind(self, path: str | None) -> None:
        """The next opening of ``path`` leaves the stage as it is (select mode opens
        the source of what the person points at while they keep looking at the page).
        A file already shown makes no opening, so nothing is kept for a later one."""
        self._behind = None if path == self._viewer_path else path

    # ------------------------------------------------------------ public

    def set_project(self, project_id: str | None) -> None:
        self.project_id = project_id
        self.sizes = parse_sizes(self._load())
        self.apply()

    def show(self, name: str) -> None:
        """Bring ``name`` to the front (the sub-tab; and the stage's, for a stage pane)."""
        self.active = name
        if name in STAGE:
            self.stage = name
        self.apply()
        for fn in self.on_show:
            fn(name)

    @property
    def shown_active(self) -> str:
        """The sub-tab in front: the one chosen last, or Files while Code waits for a file."""
        return self.active if self.active in shown_tabs(self.has_file) else "files"

    @property
    def shown_stage(self) -> str:
        return stage_pane(self.stage, self.has_file)

    def set_has_file(self, has_file: bool) -> None:
        """Whether the code pane holds a file (without one it has no tab and no room)."""
        if has_file != self.has_file:
            self.has_file = has_file
            self.apply()

    def apply(self) -> None:
        """Lay the panes out for the current window width."""
        self.narrow = is_narrow(float(js.window.innerWidth))
        for el in (self.row, self.slot):
            el.setAttribute("data-narrow", "true" if self.narrow else "false")
        names = shown_tabs(self.has_file)
        self._tab_names[:] = names
        self._stage_names[:] = [n for n in names if n in STAGE]
        active, stage = self.shown_active, self.shown_stage
        for name, tab in self.tabs.items():
            set_attrs(tab, tab_attrs(name, active))
            tab.hidden = name not in names
            set_attrs(self.panes[name], pane_attrs(name, active, self.narrow, stage))
        for name, tab in self.stage_tabs.items():
            set_attrs(tab, tab_attrs(name, stage))
            tab.hidden = name not in names
        set_attrs(self.stage_el, stage_attrs(active, self.narrow))
        for name, (now, low, high) in splitter_values(self.sizes, self._row()).items():
            self.panes[name].style.setProperty("--ws-size", f"{now}px")
            values = {"aria-valuenow": now, "aria-valuemin": low, "aria-valuemax": high}
            set_attrs(self.splitters[name], {k: str(v) for k, v in values.items()})

    def close(self) -> None:
        self.listeners.close()
        self._observer.disconnect()
        if self._viewer_watch is not None:
            self._viewer_watch.disconnect()
            self._viewer_fn.destroy()
        self._refit.close()
        self._observer_fn.destroy()

    # ------------------------------------------------------------ sizes

    def _row(self) -> float:
        return float(self.row.clientWidth or 0)

    def _set(self, name: str, value: int, *, save: bool) -> None:
        self.sizes = resized(self.sizes, name, value, self._row())
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
            js.window.localStorage.setItem(storage_key(self.project_id), dump_sizes(self.sizes))
        except Exception:
            log.warning("workspace layout: sizes could not be remembered")

    # ------------------------------------------------------------ events

    def _on_key(self, event: Any) -> None:
        name = str(event.currentTarget.getAttribute("data-pane"))
        now = fitted(self.sizes, self._row())[name]
        value = key_step(str(event.key), now, shift=bool(event.shiftKey))
        if value is not None:
            event.preventDefault()
            self._set(name, value, save=True)

    def _on_down(self, event: Any) -> None:
        if self.narrow or event.button != 0:
            return
        target = event.currentTarget
        name = str(target.getAttribute("data-pane"))
        self._drag = (name, float(event.clientX), fitted(self.sizes, self._row())[name])
        target.setPointerCapture(event.pointerId)
        target.setAttribute("data-dragging", "true")
        event.preventDefault()

    def _on_move(self, event: Any) -> None:
        if self._drag is not None:
            name, x0, start = self._drag
            self._set(name, drag_size(name, start, float(event.clientX) - x0), save=False)

    def _on_up(self, event: Any) -> None:
        if self._drag is not None:
            self._drag = None
            event.currentTarget.removeAttribute("data-dragging")
            self._save()

    def _select(self, name: str, focus: bool) -> None:
        self.show(name)
        if focus:
            self.tabs[name].focus()


def mount_layout(
    ralph: RalphPanes, views: WorkspaceViews, project_id: str | None
) -> WorkspaceLayout:
    """Move Ralph's transcript and the workspace views into panes of his workspace slot.

    A view missing from ``views`` (it failed to mount) leaves its pane empty.
    """
    slot = ralph.workspace
    parts: dict[str, list[Any]] = {"transcript": [ralph.scroller], "files": []}
    files = views.get("files")
    if files is not None:
        hint = mount(markup.code_hint()).el
        parts["files"].append(files.tree_el)
        parts["code"] = [hint, files.viewer]
    history = views.get("history")
    if history is not None:  # the person's checkpoints, a pane of the stage's
        parts["history"] = [history.el]
    preview = views.get("preview")
    if preview is not None:
        parts["preview"] = [preview.el]
    for box in list(slot.children):  # the mount boxes, emptied by the moves below
        box.remove()
    layout = WorkspaceLayout(slot, parts, project_id)
    if history is not None:
        layout.on_show.append(lambda name: history.set_shown(name == "history"))
    if files is not None:
        layout.follow_viewer(files.viewer)
        previous = files.on_open

        def opened(path: str) -> Any:
            layout.show("code")  # the same file again: still brought forward
            return previous(path) if previous is not None else None

        files.on_open = opened
    return layout
