"""Linking a stylesheet from a page: one ``<link rel="stylesheet">`` written
into the page's head, every other character of the file kept.

The style inspector writes a page's styles to a stylesheet, never inline
unless the person asks; a page that links none (its styles in a ``<style>``
element, or none yet) gets one linked here.  The link goes last in the head,
so its rules come after the page's own ``<style>`` and win at equal
specificity, as a change the person just made should.

Where "last in the head" is, read as a browser would place it: before the
``</head>`` end tag; without one, before ``<body>`` (where the head ends; the
parser puts a ``<link>`` met there in the head); else after the ``<head>`` or
``<html>`` start tag or the doctype, else at the very start.  Tags written
inside comments, scripts, styles and other raw text are not tags, so they are
masked first.  Hand-written, because the standard library's parser reports no
positions in the source and a serializer would rewrite the whole file.
"""

from __future__ import annotations

import html as html_text
import re
from dataclasses import dataclass

from .start_tag import masked

__all__ = ["Linked", "link_stylesheet"]

_WS = "\\t\\n\\f\\r "
_HEAD_END = re.compile(rf"</head[{_WS}]*>", re.I)
_HEAD = re.compile(rf"<head(?:[{_WS}][^>]*)?>", re.I)
_BODY = re.compile(rf"<body(?:[{_WS}/][^>]*)?>", re.I)
_HTML = re.compile(rf"<html(?:[{_WS}][^>]*)?>", re.I)
_DOCTYPE = re.compile(r"<!doctype[^>]*>", re.I)


@dataclass(frozen=True, slots=True)
class Linked:
    """The page with the link written, and where: ``length`` characters inserted
    at ``offset`` (what followed moved by as many, and down ``lines`` lines)."""

    text: str
    offset: int
    length: int
    lines: int


def link_stylesheet(html: str, href: str) -> Linked:
    """``html`` with ``<link rel="stylesheet" href="…">`` last in its head."""
    tag = f'<link rel="stylesheet" href="{html_text.escape(href, quote=True)}">'
    page = masked(html)
    end = _HEAD_END.search(page)
    if end is not None:
        at = end.start()
        line_start = page.rfind("\n", 0, at) + 1
        own_indent = html[line_start:at]
        if own_indent.strip(" \t") == "":  # </head> on a line of its own
            indent = _sibling_indent(html, page, line_start)
            indent = own_indent + "  " if indent is None else indent
            return _insert(html, line_start, f"{indent}{tag}\n")
        return _insert(html, at, tag)
    for pattern, after in ((_BODY, False), (_HEAD, True), (_HTML, True), (_DOCTYPE, True)):
        m = pattern.search(page)
        if m is not None:
            if not after:
                return _insert(html, m.start(), tag)
            if html[m.end() : m.end() + 1] == "\n":
                return _insert(html, m.end() + 1, f"{tag}\n")
            return _insert(html, m.end(), tag)
    return _insert(html, 0, f"{tag}\n")


def _sibling_indent(html: str, page: str, line_start: int) -> str | None:
    """The indentation of the line before ``line_start`` when it is one of the
    head's children; ``None`` when there is none (an empty line, the head's
    start tag, the file's start)."""
    if line_start == 0:
        return None
    prev_start = html.rfind("\n", 0, line_start - 1) + 1
    line = html[prev_start : line_start - 1]
    if not line.strip() or _HEAD.search(page[prev_start : line_start - 1]):
        return None
    return line[: len(line) - len(line.lstrip(" \t"))]


def _insert(html: str, at: int, text: str) -> Linked:
    return Linked(html[:at] + text + html[at:], at, len(text), text.count("\n"))
