"""Point at the page: where each element of a bundled page is written, and the
checked channel the preview's select mode talks over.

Source positions.  The bundler (``bundle_page(point=...)``) numbers every start
tag written in the page's HTML file (``data-wiggum-tag="n"``, the stamp the site
checks already use) and keeps, for each number, a :class:`SourcePlace`: the
file, the line, and the character offset of the tag's ``<`` in that file.  The
table stays on Wiggum's side; the frame reports only a number, which is looked
up here and never read as a path.  The injected select script
(``injected/point.js``) moves each stamp into a private ``WeakMap`` as the
parser inserts the element and removes the attribute, before any of the site's
scripts runs (the parser delivers mutation records at the microtask checkpoint
before each script), so the site's DOM, its ``outerHTML`` and attribute
selectors are as written.  Elements a script creates carry the script's
file:line from a stack captured by ``createElement``/``innerHTML`` (``made``),
or nothing when it cannot be known.

The channel.  The preview frame's window also runs the site's scripts, so
``event.source`` alone cannot tell the injected script from the site.  Each load
therefore carries a fresh secret (:func:`new_secret`) in the select script,
which captures it and removes its own ``<script>`` element before the site's
first script runs; every message of the select channel must carry it
(:func:`read_point_message`), in its exact shape, or it is ignored.  Wiggum's
messages to the frame carry no secret: the frame accepts them only from its
parent window, which the site cannot be.
"""

from __future__ import annotations

import math
import re
import secrets
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "EDIT_MESSAGE",
    "EXIT_MESSAGE",
    "INSPECTED",
    "POINT_MESSAGES",
    "SELECT_MESSAGE",
    "TO_FRAME",
    "Picked",
    "SourcePlace",
    "TextCommitted",
    "new_secret",
    "read_point_message",
]

#: Frame -> Wiggum: an element was picked (clicked, or moved to with the arrows).
SELECT_MESSAGE = "wiggum-point-select"
#: Frame -> Wiggum: text typed in place, committed (Enter or leaving the element).
EDIT_MESSAGE = "wiggum-point-text"
#: Frame -> Wiggum: Esc pressed in the frame: select mode ends.
EXIT_MESSAGE = "wiggum-point-exit"
POINT_MESSAGES = (SELECT_MESSAGE, EDIT_MESSAGE, EXIT_MESSAGE)
#: Wiggum -> frame (``{type, op, ...}``), accepted there only from its parent.
TO_FRAME = "wiggum-point"

#: The computed styles the frame reports of a picked element (the inspector's).
INSPECTED = (
    "color",
    "background-color",
    "font-size",
    "font-weight",
    "font-family",
    "margin",
    "padding",
    "text-align",
    "width",
)

_MAX_TEXT = 20_000
_MAX_NAME = 100
_MAX_CLASSES = 50
_SECRET = re.compile(r"^[A-Za-z0-9_-]{20,64}$")
_TAG_NAME = re.compile(r"^[a-z][a-z0-9-]*$")
_MADE = re.compile(r"^[^\n]{0,300}$")


def new_secret() -> str:
    """A fresh secret for one load of the preview."""
    return secrets.token_urlsafe(24)


@dataclass(frozen=True, slots=True)
class SourcePlace:
    """Where a start tag is written: ``path`` (a project file), ``line`` (from 1)
    and ``offset``, the index of its ``<`` in the file's text."""

    path: str
    line: int
    offset: int
    tag: str

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"


@dataclass(frozen=True, slots=True)
class Picked:
    """An element the person picked in the frame, as the frame saw it."""

    #: Its number among the page's start tags; -1 when a script made it.
    place: int
    tag: str
    id: str = ""
    classes: tuple[str, ...] = ()
    #: Its text (the first characters), and whether it holds text only.
    text: str = ""
    plain: bool = False
    width: float = 0.0
    height: float = 0.0
    styles: dict[str, str] = field(default_factory=dict)
    #: ``href``/``src`` as written in the page (links and images).
    href: str | None = None
    src: str | None = None
    #: "app.js:12": the site's script that made it, when it could be known.
    made: str = ""
    #: The person double-clicked: they want to type in it.
    edit: bool = False


@dataclass(frozen=True, slots=True)
class TextCommitted:
    """Text typed in place in element ``place``."""

    place: int
    text: str


def _str(value: Any, limit: int) -> str | None:
    return value if isinstance(value, str) and len(value) <= limit else None


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) and 0 <= value < 1e7 else None


def _place(value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value if -1 <= value < 10_000_000 else None


def _optional(data: dict[str, Any], key: str) -> tuple[bool, str | None]:
    """(shape kept, value): a key absent or null is ``None``; else a short string."""
    value = data.get(key)
    if value is None:
        return True, None
    text = _str(value, 2_000)
    return text is not None, text


def _picked(data: dict[str, Any]) -> Picked | None:
    place, tag = _place(data.get("place")), _str(data.get("tag"), _MAX_NAME)
    ident, text = _str(data.get("id", ""), _MAX_NAME), _str(data.get("text", ""), _MAX_TEXT)
    width, height = _number(data.get("width")), _number(data.get("height"))
    made = _str(data.get("made", ""), 300)
    classes, styles = data.get("classes", []), data.get("styles", {})
    if place is None or tag is None or not _TAG_NAME.match(tag) or ident is None:
        return None
    if text is None or width is None or height is None or made is None or not _MADE.match(made):
        return None
    if not isinstance(classes, list) or len(classes) > _MAX_CLASSES:
        return None
    if not all(_str(c, _MAX_NAME) for c in classes):
        return None
    if not isinstance(styles, dict) or set(styles) - set(INSPECTED):
        return None
    if not all(_str(v, 200) is not None for v in styles.values()):
        return None
    ok_href, href = _optional(data, "href")
    ok_src, src = _optional(data, "src")
    plain, edit = data.get("plain", False), data.get("edit", False)
    if not (ok_href and ok_src and isinstance(plain, bool) and isinstance(edit, bool)):
        return None
    return Picked(
        place=place,
        tag=tag,
        id=ident,
        classes=tuple(classes),
        text=text,
        plain=plain,
        width=width,
        height=height,
        styles=dict(styles),
        href=href,
        src=src,
        made=made,
        edit=edit,
    )


def read_point_message(data: Any, secret: str) -> Picked | TextCommitted | str | None:
    """What a message of the select channel says, when it carries this load's
    ``secret`` and is in its exact shape: a :class:`Picked`, a
    :class:`TextCommitted`, or :data:`EXIT_MESSAGE`; else ``None`` (ignored)."""
    if not isinstance(data, dict) or not _SECRET.match(secret or ""):
        return None
    given = data.get("secret")
    if not isinstance(given, str) or not secrets.compare_digest(given, secret):
        return None
    kind = data.get("type")
    if kind == EXIT_MESSAGE:
        return EXIT_MESSAGE
    if kind == EDIT_MESSAGE:
        place, text = _place(data.get("place")), _str(data.get("text"), _MAX_TEXT)
        if place is None or place < 0 or text is None:
            return None
        return TextCommitted(place, text)
    if kind == SELECT_MESSAGE:
        return _picked(data)
    return None
