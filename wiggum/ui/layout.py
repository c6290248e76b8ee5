"""Ralph's workspace layout arithmetic: pane sizes, splitter steps, which pane shows.

The workspace is one row: transcript | files | the stage.  The stage is one
large pane that shows the preview, the code of the open file or History, one
at a time, under a switch (Preview / Code / History), as the peers' builders
share one pane between code and preview.  Why one stage rather than code and
preview side by side: at 1280 px, beside a readable transcript and file tree,
two panes get ~370 px each, too narrow for a page or a line of code; one stage
gets ~750 px, and at 2560 px it gets everything the other two do not use, so
an empty editor never takes room from the preview.  The Code switch shows only
while a file is open; opening one brings the code forward.

Transcript and files have a width the person sets with a splitter, remembered
per project; the stage takes what is left and always keeps at least
:data:`STAGE_SHARE` of the row, so it is the widest pane whatever sizes were
stored (sizes stored by the older four-pane layout are read the same way: its
preview width is ignored, its transcript and files widths are clamped).

Below :data:`NARROW_BELOW` px every pane is a sub-tab of its own.  Everything
here is pure (no DOM) so it is tested under CPython; the view
(``wiggum.web.views.workspace.layout``) measures the row and applies the result.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = [
    "BIG_STEP",
    "DEFAULTS",
    "LABELS",
    "MINIMUMS",
    "NARROW_BELOW",
    "PANES",
    "ROW",
    "SIZED",
    "SPLITTERS",
    "SPLITTER_PX",
    "STAGE",
    "STAGE_MIN",
    "STAGE_SHARE",
    "STEP",
    "clamp_sizes",
    "drag_size",
    "dump_sizes",
    "fitted",
    "is_narrow",
    "key_step",
    "max_size",
    "pane_attrs",
    "pane_element",
    "parse_sizes",
    "resized",
    "shown_tabs",
    "sized_room",
    "splitter_attrs",
    "splitter_values",
    "stage_attrs",
    "stage_pane",
    "stage_tab_element",
    "storage_key",
    "tab_element",
]

#: Every pane, in order (also the sub-tabs' order when the window is narrow).
PANES = ("transcript", "files", "preview", "code", "history")
#: Panes with a width of their own (the stage fills the rest).
SIZED = ("transcript", "files")
#: The panes the stage shows one at a time, in its switch's order.
STAGE = ("preview", "code", "history")
DEFAULTS = {"transcript": 320, "files": 200}
MINIMUMS = {"transcript": 200, "files": 140}
#: The stage never gets narrower than this, nor than this share of the row.
STAGE_MIN = 320
STAGE_SHARE = 0.5
#: Below this window width (px) the panes become sub-tabs.
NARROW_BELOW = 900
#: Keyboard steps (px) of a splitter: arrows, Shift/PageUp/PageDown.
STEP = 16
BIG_STEP = 80
#: The panes' names as the sub-tabs (and the splitters' labels) say them.
LABELS = {
    "transcript": "Transcript",
    "files": "Files",
    "preview": "Preview",
    "code": "Code",
    "history": "History",
}
#: The splitter right of each sized pane.
SPLITTERS = ("transcript", "files")
#: The row, left to right: panes, splitters (``|`` and the pane each resizes), the stage.
ROW = ("transcript", "|transcript", "files", "|files", "stage")
#: A splitter's width (px): the row's room for the panes is its width less these.
SPLITTER_PX = 6


def is_narrow(width: float) -> bool:
    return width < NARROW_BELOW


def storage_key(project_id: str) -> str:
    return f"wiggum.workspace-layout.{project_id}"


def parse_sizes(raw: Any) -> dict[str, int]:
    """Sizes remembered as JSON; anything missing or malformed falls back to the default
    (a ``preview`` width, stored by the older layout, is not read: the stage takes the rest)."""
    sizes = dict(DEFAULTS)
    if not isinstance(raw, str) or not raw:
        return sizes
    try:
        data = json.loads(raw)
    except ValueError:
        return sizes
    if not isinstance(data, dict):
        return sizes
    for name in SIZED:
        value = data.get(name)
        if isinstance(value, int | float) and not isinstance(value, bool) and value == value:
            sizes[name] = max(MINIMUMS[name], min(int(value), 10_000))
    return sizes


def sized_room(width: float) -> int:
    """How much of a row ``width`` px wide (splitters excluded) the sized panes may take:
    the stage keeps :data:`STAGE_MIN` and :data:`STAGE_SHARE` of it."""
    return int(width - max(STAGE_MIN, width * STAGE_SHARE))


def max_size(name: str, sizes: dict[str, int], width: float) -> int:
    """The widest ``name`` may be in a row ``width`` px wide, the other panes kept."""
    others = sum(sizes[n] for n in SIZED if n != name)
    return max(MINIMUMS[name], sized_room(width) - others)


def clamp_sizes(sizes: dict[str, int], width: float) -> dict[str, int]:
    """Sizes that fit a row ``width`` px wide (splitters excluded), the stage kept widest.

    When the wanted sizes do not fit, each pane gives up the same share of what
    it has above its minimum, so the person's proportions are kept; below the
    sum of minimums every pane is at its minimum (the view goes narrow first).
    """
    out = {n: max(MINIMUMS[n], int(sizes.get(n, DEFAULTS[n]))) for n in SIZED}
    room = sized_room(width)
    total = sum(out.values())
    if total <= room:
        return out
    spare = {n: out[n] - MINIMUMS[n] for n in SIZED}
    spare_total = sum(spare.values())
    excess = total - room
    if spare_total <= excess:
        return dict(MINIMUMS)
    keep = 1 - excess / spare_total
    return {n: MINIMUMS[n] + int(spare[n] * keep) for n in SIZED}


def key_step(key: str, value: int, *, shift: bool = False, grows_right: bool = True) -> int | None:
    """The size after ``key`` on a splitter, or ``None`` when the key is not the splitter's.

    ``grows_right``: the pane is left of its splitter (ArrowRight widens it);
    a pane right of its splitter widens with ArrowLeft.  Home/End are
    returned as 0 / a huge number for the caller to clamp to min / max.
    """
    step = BIG_STEP if shift else STEP
    if key in ("PageUp", "PageDown"):
        step, key = BIG_STEP, "ArrowRight" if (key == "PageUp") == grows_right else "ArrowLeft"
    if key == "ArrowRight":
        return value + (step if grows_right else -step)
    if key == "ArrowLeft":
        return value - (step if grows_right else -step)
    if key == "Home":
        return 0
    if key == "End":
        return 1_000_000
    return None


def dump_sizes(sizes: dict[str, int]) -> str:
    """The sizes as remembered (what :func:`parse_sizes` reads back)."""
    return json.dumps({n: sizes[n] for n in SIZED})


def _room(row: float) -> float:
    return row - SPLITTER_PX * len(SPLITTERS) if row else 0


def fitted(sizes: dict[str, int], row: float) -> dict[str, int]:
    """The sizes shown in a row ``row`` px wide, splitters included (0: not measured yet,
    as a hidden tab's row is: the wanted sizes as they are)."""
    room = _room(row)
    return clamp_sizes(sizes, room) if room > 0 else {n: sizes[n] for n in SIZED}


def resized(sizes: dict[str, int], name: str, value: int, row: float) -> dict[str, int]:
    """The sizes once the person set ``name`` to ``value`` px, kept within its range."""
    room = _room(row)
    shown = fitted(sizes, row)
    hi = max_size(name, shown, room) if room > 0 else value
    shown[name] = max(MINIMUMS[name], min(int(value), hi))
    return shown


def splitter_values(sizes: dict[str, int], row: float) -> dict[str, tuple[int, int, int]]:
    """Each sized pane's shown width and its range, for its splitter: ``(now, min, max)``."""
    room = _room(row)
    shown = fitted(sizes, row)
    return {n: (shown[n], MINIMUMS[n], max_size(n, shown, room)) for n in SIZED}


def drag_size(name: str, start: int, dx: float) -> int:
    """The size of ``name`` dragged ``dx`` px right from ``start`` (each sized pane is
    left of its splitter: dragging right widens it)."""
    del name  # every splitter is right of its pane
    return int(start + dx)


# ------------------------------------------------------------------ which pane shows


def shown_tabs(has_file: bool) -> tuple[str, ...]:
    """The panes with a tab now: Code only while a file is open (an empty editor has none)."""
    return tuple(n for n in PANES if n != "code" or has_file)


def stage_pane(wanted: str, has_file: bool) -> str:
    """What the stage shows when ``wanted`` was chosen last: the preview unless that
    was Code (with a file open) or History."""
    return wanted if wanted in shown_tabs(has_file) and wanted in STAGE else "preview"


# ------------------------------------------------------------------ the elements' attributes


def _flag(on: bool) -> str:
    return "true" if on else "false"


def pane_attrs(name: str, active: str, narrow: bool, stage: str) -> dict[str, str | None]:
    """A pane's state (``None``: the attribute goes).  Narrow: the pane of the sub-tab
    ``active`` shows; wide: transcript and files show, and the stage's ``stage``."""
    on = name == active if narrow else (name in SIZED or name == stage)
    in_stage = name in STAGE
    tab = f"ws-tab-{name}" if narrow else f"ws-show-{name}" if in_stage else None
    return {
        "role": "tabpanel" if tab else None,
        "aria-labelledby": tab,
        "data-active": _flag(on),
    }


def stage_attrs(active: str, narrow: bool) -> dict[str, str]:
    """The stage shows unless the window is narrow and its sub-tab is not a stage pane's."""
    return {"data-active": _flag(not narrow or active in STAGE)}


def tab_element(name: str, kind: str = "tab") -> dict[str, str]:
    """A sub-tab (a button labelled ``LABELS[name]``): it controls ``name``'s pane.
    ``kind="show"``: a tab of the stage's switch (wide windows) instead."""
    return {
        "role": "tab",
        "id": f"ws-{kind}-{name}",
        "data-testid": f"ws-{kind}-{name}",
        "data-pane": name,
        "aria-controls": f"ws-pane-{name}",
    }


def stage_tab_element(name: str) -> dict[str, str]:
    """A tab of the stage's switch (wide windows): it brings ``name``'s pane forward."""
    return tab_element(name, "show")


def pane_element(name: str) -> dict[str, str]:
    return {
        "class": f"ws-pane ws-pane-{name}",
        "id": f"ws-pane-{name}",
        "data-testid": f"ws-pane-{name}",
        "data-pane": name,
        "aria-label": LABELS[name],
    }


def splitter_attrs(name: str) -> dict[str, str]:
    """A splitter: a focusable vertical separator that resizes ``name``'s pane."""
    return {
        "class": "ws-splitter",
        "role": "separator",
        "tabindex": "0",
        "aria-orientation": "vertical",
        "aria-controls": f"ws-pane-{name}",
        "aria-label": f"Resize {LABELS[name].lower()} pane",
        "data-testid": f"ws-splitter-{name}",
        "data-pane": name,
    }
