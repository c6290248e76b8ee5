"""Edit an element's text in an HTML file in place, given the offset of its start
tag's ``<`` (:class:`~wiggum.preview.point.SourcePlace`).  Its attributes are
written by :mod:`wiggum.project.start_tag`, the one writer of attributes that the
style inspector uses too.

Every other character of the file is kept: the element's own markup, its
neighbours, the whitespace around its text, comments elsewhere.  The file is
read with the standard library's ``html.parser`` (the tokenizer the bundler
uses, so the offsets agree), and an edit is refused, with the reason in the
person's words, where the source cannot be mapped: the element holds other
elements or comments (mixed markup), its end is not written (``<p>`` closed by
the next one), it has no text (``<img>``), it is code (``<script>``), or the
file changed and no longer has that tag at that place.

Hand-written because what it must keep (the file's exact bytes outside one
span) is what HTML libraries that build a tree do not keep.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from html.parser import HTMLParser

from .page import line_starts

__all__ = ["EditRefused", "Span", "element_span", "set_text", "text_of"]

#: Elements without content (their text cannot be typed).
VOID = frozenset(
    [
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "param",
        "source",
        "track",
        "wbr",
    ]
)
#: Elements whose content is code or raw text, not the page's words.
RAW = frozenset({"script", "style", "template", "textarea", "svg", "math"})


class EditRefused(ValueError):
    """The edit cannot be written; the message says why, and what to do instead."""


@dataclass(frozen=True, slots=True)
class Span:
    """Where one element is written: its start tag ``[start, open_end)``, its
    content ``[open_end, close)`` (``close`` is ``-1`` when no end tag is
    written) and the markup found inside (``nested``: tag names and comments)."""

    tag: str
    start: int
    open_end: int
    close: int
    nested: tuple[str, ...]


class _Events(HTMLParser):
    """(kind, tag, offset, length) of each token."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=False)
        self.starts = line_starts(text)
        self.events: list[tuple[str, str, int, int]] = []

    def _at(self) -> int:
        line, col = self.getpos()
        return self.starts[line - 1] + col

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.events.append(("start", tag, self._at(), len(self.get_starttag_text() or "")))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.events.append(("void", tag, self._at(), len(self.get_starttag_text() or "")))

    def handle_endtag(self, tag: str) -> None:
        self.events.append(("end", tag, self._at(), 0))

    def handle_comment(self, data: str) -> None:
        self.events.append(("comment", "", self._at(), 0))


def element_span(text: str, offset: int, tag: str) -> Span:
    """Where the element whose start tag begins at ``offset`` is written.
    Raises :class:`EditRefused` when no ``<tag`` starts there."""
    parser = _Events(text)
    parser.feed(text)
    parser.close()
    events = parser.events
    index = next(
        (i for i, ev in enumerate(events) if ev[0] in ("start", "void") and ev[2] == offset), None
    )
    if index is None or events[index][1] != tag:
        raise EditRefused(
            f"The file changed since the preview was built: there is no <{tag}> at that "
            "place any more. Refresh the preview and select it again."
        )
    kind, _, start, length = events[index]
    if kind == "void" or tag in VOID:
        return Span(tag, start, start + length, -1, ())
    depth, nested = 0, []
    for ev_kind, ev_tag, at, _ in events[index + 1 :]:
        if ev_kind == "end" and ev_tag == tag and depth == 0:
            return Span(tag, start, start + length, at, tuple(nested))
        if ev_kind == "end" and ev_tag == tag:
            depth -= 1
        elif ev_kind == "start" and ev_tag == tag:
            depth += 1
        if ev_kind == "end" and ev_tag != tag and ev_tag not in nested:
            break  # an enclosing element ends first: this one's end is not written
        if ev_kind in ("start", "void"):
            nested.append(ev_tag)
        elif ev_kind == "comment":
            nested.append("<!-- -->")
    return Span(tag, start, start + length, -1, tuple(nested))


def _text_span(text: str, offset: int, tag: str) -> Span:
    span = element_span(text, offset, tag)
    if tag in VOID:
        raise EditRefused(f"<{tag}> has no text to type; change it in the file instead.")
    if tag in RAW:
        raise EditRefused(f"<{tag}> holds code, not text; change it in the file instead.")
    if span.close < 0:
        raise EditRefused(
            f"The end of this <{tag}> is not written in the file (</{tag}> is implied), so "
            "its text cannot be told apart from what follows; edit it in the file."
        )
    if span.nested:
        inner = ", ".join(dict.fromkeys(f"<{t}>" if t[0] != "<" else t for t in span.nested))
        raise EditRefused(
            f"This <{tag}> holds other markup ({inner}), not plain text; edit it in the file, "
            "or select the inner element."
        )
    return span


def text_of(text: str, offset: int, tag: str) -> str:
    """The element's text as the page shows it (entities read), or :class:`EditRefused`."""
    span = _text_span(text, offset, tag)
    return html.unescape(text[span.open_end : span.close])


def set_text(text: str, offset: int, tag: str, new: str) -> str:
    """``text`` with the element's content replaced by ``new`` (escaped), the
    whitespace around its old content kept; :class:`EditRefused` when the
    content is not plain text in the source."""
    span = _text_span(text, offset, tag)
    old = text[span.open_end : span.close]
    body = old.strip()
    lead = old[: len(old) - len(old.lstrip())]
    trail = old[len(old.rstrip()) :] if body else ""
    written = lead + html.escape(new.strip(), quote=False) + trail
    return text[: span.open_end] + written + text[span.close :]
