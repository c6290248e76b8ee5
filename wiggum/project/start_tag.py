"""Changing one start tag of an HTML file in place: an attribute set, a class added.

This is the one writer of attributes into a page's source: the style inspector
sets ``style`` and adds classes, point-and-edit sets a link's ``href`` and an
image's ``src``.  The caller knows where the element's start tag is (the
offset of its ``<`` in the file); only that tag's one attribute changes, and
every other character of the file is kept: the tag's other attributes keep
their order, case, quotes and spacing.

Hand-written, because this is smaller than any HTML library's round trip: the
standard library's parser reports attributes but not where they are, and a
serializer would rewrite the whole file.  An attribute is read as the HTML
standard's tokenizer reads it, so that what is changed is what a browser
sees: a name (anything up to whitespace, ``/``, ``>`` or ``=``; matched in any
case), then optionally ``=`` and a double-quoted, single-quoted or unquoted
value (a quoted value may hold ``>`` and newlines; an unquoted one runs to
whitespace or ``>``, so ``href=a/`` keeps its ``/``); values are read with their
character references decoded; of two attributes of one name only the first
counts, the second is ignored (as in HTML).

What is written: ``name="value"``, always double-quoted, the value escaped
(``&`` as ``&amp;``, ``"`` as ``&quot;``), so that any value reads back as it
was given (``font-family: "Open Sans"`` in a ``style``; an address with
``&``), and no value can end the attribute or the tag.  An attribute already
written is changed where it is (its name kept as written); a new one goes
right after the tag's name: that place means the same whatever the rest of
the tag holds, where the end of the tag does not (before ``/>``, an unquoted
value ending in ``/`` would lose it, ``<a href=x/>``).
"""

from __future__ import annotations

import html as html_text
import re
from dataclasses import dataclass

__all__ = [
    "Attribute",
    "StartTagError",
    "add_class",
    "attributes",
    "class_uses",
    "masked",
    "set_attribute",
]

#: HTML's whitespace (not Python's ``\s``, which holds more).
_WS = "\\t\\n\\f\\r "
_TAG = re.compile(rf"<([a-zA-Z][^{_WS}/>]*)")
_ATTR = re.compile(
    rf"""[{_WS}/]*(?P<name>[^{_WS}/>][^{_WS}/>=]*)"""
    rf"""(?:[{_WS}]*=[{_WS}]*(?:"(?P<dq>[^"]*)"|'(?P<sq>[^']*)'|(?P<uq>[^{_WS}>]*)))?"""
)
_TAG_END = re.compile(rf"[{_WS}/]*>")
#: The attribute names written here (``style``, ``data-x``, ``xlink:href``).
_NAME = re.compile(r"[A-Za-z_:][-A-Za-z0-9_:.]*")


class StartTagError(ValueError):
    """The start tag is not where it was said to be; the message says what to do."""


@dataclass(frozen=True, slots=True)
class Attribute:
    #: Lower case; ``value`` as written (character references not decoded),
    #: ``None`` for a name without ``=``.
    name: str
    value: str | None
    #: Offsets of the whole attribute, of the end of its name, and of its value
    #: (as written, without quotes).
    start: int
    name_end: int
    end: int
    value_start: int
    value_end: int


@dataclass(frozen=True, slots=True)
class _Tag:
    name: str
    attrs: list[Attribute]
    #: Offset just after the tag's name.
    after_name: int


def _tag(html: str, offset: int, tag: str | None = None) -> _Tag:
    m = _TAG.match(html, offset)
    if m is None or (tag is not None and m.group(1).lower() != tag.lower()):
        what = f"<{tag}>" if tag else "a start tag"
        raise StartTagError(
            f"the file has no {what} where the element was (it changed since it was "
            "selected). Select the element again."
        )
    pos, attrs = m.end(), []
    while (a := _ATTR.match(html, pos)) is not None:
        value, vs, ve = None, a.end(), a.end()
        for group in ("dq", "sq", "uq"):
            if a.group(group) is not None:
                value, vs, ve = a.group(group), a.start(group), a.end(group)
        name = a.group("name").lower()
        attrs.append(Attribute(name, value, a.start("name"), a.end("name"), a.end(), vs, ve))
        pos = a.end()
    if _TAG_END.match(html, pos) is None:
        raise StartTagError("the element's start tag is not closed with '>'. Fix it in the editor.")
    return _Tag(m.group(1).lower(), attrs, m.end())


def attributes(html: str, offset: int) -> dict[str, str]:
    """The attributes of the start tag at ``offset`` as a browser reads them
    (character references decoded; the first of a name counts)."""
    out: dict[str, str] = {}
    for a in _tag(html, offset).attrs:
        out.setdefault(a.name, html_text.unescape(a.value) if a.value is not None else "")
    return out


def _quoted(value: str) -> str:
    return '"' + value.replace("&", "&amp;").replace('"', "&quot;") + '"'


def set_attribute(html: str, offset: int, name: str, value: str, *, tag: str | None = None) -> str:
    """``html`` with the start tag at ``offset`` (a ``<tag>`` when ``tag`` is
    given) carrying ``name="value"``, escaped: its first ``name`` attribute
    changed where it is, else one added right after the tag's name."""
    if not _NAME.fullmatch(name):
        raise StartTagError(f"{name!r} is not an attribute name.")
    parsed = _tag(html, offset, tag)
    found = next((a for a in parsed.attrs if a.name == name.lower()), None)
    if found is None:
        at = parsed.after_name
        return html[:at] + f" {name}={_quoted(value)}" + html[at:]
    return html[: found.name_end] + "=" + _quoted(value) + html[found.end :]


def add_class(html: str, offset: int, name: str, *, tag: str | None = None) -> str:
    """``html`` with the class ``name`` added to the start tag at ``offset`` (kept
    as it is when the tag has it already)."""
    if not re.fullmatch(r"-?[_a-zA-Z][_a-zA-Z0-9-]*", name):
        raise StartTagError(f"{name!r} is not a class name.")
    classes = attributes(html, offset).get("class")
    if classes is None:
        return set_attribute(html, offset, "class", name, tag=tag)
    if name in classes.split():
        _tag(html, offset, tag)
        return html
    joined = f"{classes.rstrip()} {name}" if classes.strip() else name
    return set_attribute(html, offset, "class", joined, tag=tag)


#: Comments, and elements whose content is text (or, for a template, not shown).
_RAW = re.compile(
    r"<!--.*?(?:-->|$)"
    rf"|(<(script|style|textarea|title|template|noscript)(?:[{_WS}/][^>]*)?>)(.*?)(</\2[{_WS}]*>|$)",
    re.I | re.S,
)


def _blank(text: str) -> str:
    return re.sub(r"[^\n]", " ", text)


def masked(html: str) -> str:
    """``html`` with what holds no tags of the page blanked: comments, and the
    insides of scripts, styles and other raw text (a ``"<div class=x>"`` in a
    script is not an element).  Same length and lines, so offsets still hold."""

    def blank(m: re.Match[str]) -> str:
        if m.group(1) is None:
            return _blank(m.group(0))
        return m.group(1) + _blank(m.group(3)) + m.group(4)

    return _RAW.sub(blank, html)


def class_uses(html: str) -> dict[str, int]:
    """How many start tags of ``html`` carry each class (read as
    :func:`attributes` reads them; tags in comments and scripts are not tags)."""
    counts: dict[str, int] = {}
    page = masked(html)
    for m in _TAG.finditer(page):
        try:
            value = attributes(page, m.start()).get("class")
        except StartTagError:
            continue
        for word in set((value or "").split()):
            counts[word] = counts.get(word, 0) + 1
    return counts
