"""Ralph's workspace layout arithmetic: pane sizes, splitter steps, the narrow breakpoint.

The workspace is one row: transcript | files | code | preview.  Transcript, files
and preview have a width the person sets with a splitter; code takes what is
left.  Everything here is pure (no DOM) so it is tested under CPython; the view
(``wiggum.web.views.workspace.layout``) measures the row and applies the result.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = [
    "BIG_STEP",
    "CODE_MIN",
    "DEFAULTS",
    "LABELS",
    "MINIMUMS",
    "NARROW_BELOW",
    "PANES",
    "ROW",
    "SIZED",
    "SPLITTERS",
    "SPLITTER_PX",
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
    "splitter_attrs",
    "splitter_values",
    "storage_key",
    "tab_element",
]

#: Every pane, in order (also the sub-tabs' order when the window is narrow).
PANES = ("transcript", "files", "code", "preview")
#: Panes with a width of their own (code fills the rest).
SIZED = ("transcript", "files", "preview")
DEFAULTS = {"transcript": 320, "files": 200, "preview": 380}
MINIMUMS = {"transcript": 200, "files": 140, "preview": 220}
#: The code pane never gets narrower than this while the panes are side by side.
CODE_MIN = 260
#: Below this window width (px) the panes become sub-tabs.
NARROW_BELOW = 900
#: Keyboard steps (px) of a splitter: arrows, Shift/PageUp/PageDown.
STEP = 16
BIG_STEP = 80
#: The panes' names as the sub-tabs (and the splitters' labels) say them.
LABELS = {"transcript": "Transcript", "files": "Files", "code": "Code", "preview": "Preview"}
#: The splitter right of each sized pane; the preview's splitter is on its left.
SPLITTERS = ("transcript", "files", "preview")
#: The row, left to right: panes, and splitters (``|`` and the pane each resizes).
ROW = ("transcript", "|transcript", "files", "|files", "code", "|preview", "preview")
#: A splitter's width (px): the row's room for the panes is its width less these.
SPLITTER_PX = 6


def is_narrow(width: float) -> bool:
    return width < NARROW_BELOW


def storage_key(project_id: str) -> str:
    return f"wiggum.workspace-layout.{project_id}"


def parse_sizes(raw: Any) -> dict[str, int]:
    """Sizes remembered as JSON; anything missing or malformed falls back to the default."""
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


def max_size(name: str, sizes: dict[str, int], width: float) -> int:
    """The widest ``name`` may be in a row ``width`` px wide, the other panes kept."""
    others = sum(sizes[n] for n in SIZED if n != name)
    return max(MINIMUMS[name], int(width - CODE_MIN - others))


def clamp_sizes(sizes: dict[str, int], width: float) -> dict[str, int]:
    """Sizes that fit a row ``width`` px wide (splitters excluded) with code ≥ CODE_MIN.

    When the wanted sizes do not fit, each pane gives up the same share of what
    it has above its minimum, so the person's proportions are kept; below the
    sum of minimums every pane is at its minimum (the view goes narrow first).
    """
    out = {n: max(MINIMUMS[n], int(sizes.get(n, DEFAULTS[n]))) for n in SIZED}
    room = width - CODE_MIN
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
    for the preview, right of its splitter, ArrowLeft widens it.  Home/End are
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


def fitted(sizes: dict[str, int], row: float) -> dict[str, int]:
    """The sizes shown in a row ``row`` px wide, splitters included (0: not measured yet,
    as a hidden tab's row is: the wanted sizes as they are)."""
    room = row - SPLITTER_PX * len(SPLITTERS) if row else 0
    return clamp_sizes(sizes, room) if room > 0 else dict(sizes)


def resized(sizes: dict[str, int], name: str, value: int, row: float) -> dict[str, int]:
    """The sizes once the person set ``name`` to ``value`` px, kept within its range."""
    room = row - SPLITTER_PX * len(SPLITTERS) if row else 0
    shown = fitted(sizes, row)
    hi = max_size(name, shown, room) if room > 0 else value
    shown[name] = max(MINIMUMS[name], min(int(value), hi))
    return shown


def splitter_values(sizes: dict[str, int], row: float) -> dict[str, tuple[int, int, int]]:
    """Each sized pane's shown width and its range, for its splitter: ``(now, min, max)``."""
    room = row - SPLITTER_PX * len(SPLITTERS) if row else 0
    shown = fitted(sizes, row)
    return {n: (shown[n], MINIMUMS[n], max_size(n, shown, room)) for n in SIZED}


def drag_size(name: str, start: int, dx: float) -> int:
    """The size of ``name`` dragged ``dx`` px right from ``start`` (the preview,
    right of its splitter, grows when dragged left)."""
    return int(start + (dx if name != "preview" else -dx))


# ------------------------------------------------------------------ the elements' attributes


def _flag(on: bool) -> str:
    return "true" if on else "false"


def pane_attrs(name: str, active: str, narrow: bool) -> dict[str, str | None]:
    """A pane's state (``None``: the attribute goes): a tab panel only under the sub-tabs."""
    return {
        "role": "tabpanel" if narrow else None,
        "aria-labelledby": f"ws-tab-{name}" if narrow else None,
        "data-active": _flag(name == active),
    }


def tab_element(name: str) -> dict[str, str]:
    """A sub-tab (a button labelled ``LABELS[name]``): it controls ``name``'s pane."""
    return {
        "role": "tab",
        "id": f"ws-tab-{name}",
        "data-testid": f"ws-tab-{name}",
        "data-pane": name,
        "aria-controls": f"ws-pane-{name}",
    }


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
