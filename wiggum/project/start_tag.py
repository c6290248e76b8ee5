"""Changing one start tag of an HTML file in place: a class added, a ``style`` set.

The style inspector knows where the selected element's start tag is (the
offset of its ``<`` in the file) and changes that tag's attributes and nothing
else of the file: the other attributes keep their order, quotes and spacing.
Hand-written, because this is smaller than any HTML library's round trip: the
standard library's parser reports attributes but not where they are, and a
serializer would rewrite the whole file.  An attribute is read as HTML's
tokenizer reads it (a name, then ``=`` and a double-quoted, single-quoted or
unquoted value); only the first of two attributes of one name counts, as in
HTML.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Attribute", "StartTagError", "add_class", "attributes", "class_uses", "set_attribute"]

_TAG = re.compile(r"<([a-zA-Z][^\s/>]*)")
_ATTR = re.compile(
    r"""[\s/]*(?P<name>[^\s"'>/=][^\s"'>/=]*)"""
    r"""(?:\s*=\s*(?:"(?P<dq>[^"]*)"|'(?P<sq>[^']*)'|(?P<uq>[^\s>]+)))?"""
)


class StartTagError(ValueError):
    """The start tag is not where it was said to be; the message says what to do."""


@dataclass(frozen=True, slots=True)
class Attribute:
    name: str
    value: str | None
    #: Offsets of the whole attribute and of its value (as written, without quotes).
    start: int
    end: int
    value_start: int
    value_end: int
    quote: str


@dataclass(frozen=True, slots=True)
class _Tag:
    name: str
    attrs: list[Attribute]
    #: Offset just after the tag's name, and of its closing ``>`` (or ``/>``).
    after_name: int
    close: int


def _tag(html: str, offset: int, tag: str | None = None) -> _Tag:
    m = _TAG.match(html, offset)
    if m is None or (tag is not None and m.group(1).lower() != tag.lower()):
        what = f"<{tag}>" if tag else "a start tag"
        raise StartTagError(
            f"the file has no {what} where the element was (it changed since it was "
            "selected). Select the element again."
        )
    pos, attrs = m.end(), []
    while True:
        a = _ATTR.match(html, pos)
        if a is None or not a.group("name") or html.startswith((">", "/>"), a.start("name")):
            break
        value, quote, vs, ve = None, "", a.end(), a.end()
        for group, q in (("dq", '"'), ("sq", "'"), ("uq", "")):
            if a.group(group) is not None:
                value, quote, vs, ve = a.group(group), q, a.start(group), a.end(group)
        name = a.group("name").lower()
        attrs.append(Attribute(name, value, a.start("name"), a.end(), vs, ve, quote))
        pos = a.end()
    close = html.find(">", pos)
    if close == -1:
        raise StartTagError("the element's start tag is not closed with '>'. Fix it in the editor.")
    if html[close - 1 : close] == "/":
        close -= 1
    return _Tag(m.group(1).lower(), attrs, m.end(), close)


def attributes(html: str, offset: int) -> dict[str, str]:
    """The attributes of the start tag at ``offset`` (the first of a name counts)."""
    out: dict[str, str] = {}
    for a in _tag(html, offset).attrs:
        out.setdefault(a.name, a.value if a.value is not None else "")
    return out


def set_attribute(html: str, offset: int, name: str, value: str, *, tag: str | None = None) -> str:
    """``html`` with the start tag at ``offset`` carrying ``name="value"`` (its
    first ``name`` attribute changed where it is, else one added after the tag's
    name).  ``value`` must not hold a double quote."""
    if '"' in value or "<" in value:
        raise StartTagError(f"{value!r} cannot be an attribute's value here.")
    parsed = _tag(html, offset, tag)
    found = next((a for a in parsed.attrs if a.name == name), None)
    if found is None:
        at = parsed.after_name
        return html[:at] + f' {name}="{value}"' + html[at:]
    if found.value is None:
        return html[: found.end] + f'="{value}"' + html[found.end :]
    if found.quote == "'" and "'" in value:
        raise StartTagError(f"{value!r} cannot be an attribute's value here.")
    if not found.quote:  # unquoted: quoted now, since the new value may hold spaces
        return html[: found.value_start] + f'"{value}"' + html[found.value_end :]
    return html[: found.value_start] + value + html[found.value_end :]


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


_CLASS_ATTR = re.compile(
    r"""<[a-zA-Z][^\s/>]*[^>]*?\sclass\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""", re.S
)


def class_uses(html: str) -> dict[str, int]:
    """How many start tags of ``html`` carry each class."""
    counts: dict[str, int] = {}
    for m in _CLASS_ATTR.finditer(html):
        value = next(g for g in m.groups() if g is not None)
        for word in set(value.split()):
            counts[word] = counts.get(word, 0) + 1
    return counts
