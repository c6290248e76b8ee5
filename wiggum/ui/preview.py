"""What the live preview and its toolbar decide about pages, messages and widths.

The preview's frame (and the new-tab viewer, and the gates' checker frames)
talk to the page only by ``postMessage``; a message is taken only in the
shapes the bundle's runtime sends, checked here: a navigation's path (a
string of sane length), an error's text (cut to a readable length).  The
toolbar's path box takes what a person types (``/about.html``, nothing at
all) to a page of the site; its widths are a phone's, a tablet's, the pane's.

A phone's or a tablet's frame keeps the device's size (the site sees exactly
that viewport) and is scaled down, as a picture, to fit the pane when the pane
is smaller; the toolbar says the scale ("Phone 390 × 844 · 62%").
"""

from __future__ import annotations

import math

from wiggum.fs.paths import PathError, normalize_path
from wiggum.preview import ERROR_MESSAGE, INDEX, NAV_MESSAGE

__all__ = [
    "DEVICES",
    "MAX_ERRORS",
    "MIN_SCALE",
    "NO_HOST",
    "POPUP_BLOCKED",
    "WIDTHS",
    "device_label",
    "device_scale",
    "error_text",
    "is_root",
    "keep_error",
    "nav_path",
    "read_message",
    "typed_page",
    "width_title",
]

#: Longest navigation path taken from a frame.
MAX_PATH = 2048
#: Longest error text kept, and how many errors a page keeps.
MAX_ERROR = 2000
MAX_ERRORS = 50

#: (name, label, frame width in px or None for the pane's width)
WIDTHS = (("phone", "Phone", 390), ("tablet", "Tablet", 768), ("desktop", "Desktop", None))

#: A device's viewport (px): width, height.
DEVICES = {"phone": (390, 844), "tablet": (768, 1024)}
#: The smallest a device frame is drawn (below it the pane scrolls instead).
MIN_SCALE = 0.25

NO_HOST = (
    "The preview could not start: its page static/preview.html did not load. Reload Wiggum; "
    "if this stays, publish static/preview.html with the rest of the page."
)
POPUP_BLOCKED = "The browser blocked the new tab: allow pop-ups for this page and try again."


def nav_path(value: object) -> str | None:
    """The path of a navigation message, or ``None`` when it is not one."""
    return value if isinstance(value, str) and 0 < len(value) <= MAX_PATH else None


def error_text(value: object) -> str | None:
    """The text of an error message (cut to :data:`MAX_ERROR`), or ``None``."""
    return value[:MAX_ERROR] if isinstance(value, str) else None


#: What a message carries, by its type: the navigation's path, the error's text.
_READERS = {NAV_MESSAGE: ("path", nav_path), ERROR_MESSAGE: ("message", error_text)}


def read_message(kind: object, data: object) -> tuple[str, str] | None:
    """``(type, value)`` of a navigation (its path) or an error (its text) a
    frame posted, or ``None`` when it is neither, in its shape."""
    if kind not in _READERS:
        return None
    field, read = _READERS[str(kind)]
    value = read(getattr(data, field, None))
    return None if value is None else (str(kind), value)


def keep_error(errors: list[str], value: object, *, once: bool = False) -> bool:
    """Add an error's text to ``errors`` (at most :data:`MAX_ERRORS`; ``once``: not
    twice the same); whether it was added."""
    text = error_text(value)
    if text is None or len(errors) >= MAX_ERRORS or (once and text in errors):
        return False
    errors.append(text)
    return True


def is_root(page: str) -> bool:
    """``page`` is the site's root: ``""``, ``/``, ``./`` or ``index.html``."""
    try:
        return normalize_path(page.lstrip("/")) in ("", INDEX)
    except PathError:
        return False


def typed_page(text: str) -> str:
    """The page a person typed into the path box (nothing: the site's root)."""
    return text.strip().lstrip("/") or INDEX


def width_title(px: int | None) -> str:
    return f"Show the site {px} px wide" if px else "Show the site full width"


def device_scale(device: str, width: float, height: float) -> float:
    """How much ``device``'s frame is scaled to fit a box ``width`` × ``height`` px:
    1 when it fits (or the box is not measured yet, 0), never below :data:`MIN_SCALE`,
    rounded down to a whole percent so the label never says more than is drawn."""
    if device not in DEVICES or width <= 0 or height <= 0:
        return 1.0
    w, h = DEVICES[device]
    fit = min(1.0, width / w, height / h)
    return max(MIN_SCALE, math.floor(fit * 100 + 1e-9) / 100)


#: A preview pane narrower than this is a phone's screen (px): a device frame there is
#: fitted to the width alone.
NARROW_PANE = 600


def device_room(width: float, height: float) -> tuple[float, float]:
    """The box a device frame is fitted to, in a pane's room ``width`` × ``height``.

    On a phone's screen the width alone: fitted to the height too, a Phone frame
    there was drawn at under half its size; as wide as the screen allows, it is
    read at once and the pane scrolls to its foot."""
    return (width, math.inf) if 0 < width < NARROW_PANE else (width, height)


def device_label(device: str, scale: float) -> str:
    """What the toolbar says of a device frame: its size and its scale ("" for the pane's
    own width)."""
    if device not in DEVICES:
        return ""
    w, h = DEVICES[device]
    label = dict((name, text) for name, text, _ in WIDTHS)[device]
    return f"{label} {w} × {h} · {round(scale * 100)}%"
