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
    "MINIMUMS",
    "NARROW_BELOW",
    "PANES",
    "SIZED",
    "STEP",
    "clamp_sizes",
    "is_narrow",
    "key_step",
    "max_size",
    "parse_sizes",
    "storage_key",
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
