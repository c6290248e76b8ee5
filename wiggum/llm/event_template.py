"""Stream events that repeat an earlier one but for a few strings, read without a parse.

A stream sends thousands of events of one shape: OpenAI's chunk differs from
the last one only in ``delta.content`` (and in ``obfuscation``, the random
padding it adds against size side channels), Anthropic's
``content_block_delta`` only in ``delta.text``.  In Pyodide, building the
dicts of each event with ``json`` costs more than everything else the
pipeline does with it, so the dialects learn a template from an event they
parsed whole and read the events that follow through it.

Why this is exact: the lexer's state after a run of bytes depends on those
bytes alone.  If an event starts with the template's bytes up to a string's
opening quote, then holds one valid JSON string, then the template's bytes
up to the next hole, and so on, and ends with the template's bytes, its JSON
value is the template's with only those strings replaced.  Anything else
(another key, a number that changed, an escape that runs on past the quote, a
string that is not valid JSON) fails the match and goes through ``json``.

Hand-written because no JSON library offers "this document again, with these
strings changed", and ``json.decoder.scanstring`` (C) does the only parsing.
"""

from __future__ import annotations

import re
from itertools import chain, pairwise, repeat
from json.decoder import scanstring
from typing import Any

_WHITESPACE = " \t\r\n"

#: Templates a parser tries per event (parallel tool calls need one each).
KEEP_TEMPLATES = 4
#: Templates a parser learns per stream before it stops trying: a server whose
#: chunks differ in more than the strings (a timestamp in each) gains nothing.
MAX_TEMPLATES = 16


class EventTemplate:
    """An event's text cut around its string values at ``keys``; see the module."""

    __slots__ = ("_cut", "_last", "_mids", "_prefix", "_start", "_suffix", "frame", "keys")

    def __init__(self, prefix: str, mids: tuple[str, ...], keys: tuple[str, ...]) -> None:
        self._prefix = prefix
        #: What follows each hole, from its closing quote up to the next hole's
        #: opening quote (inclusive); the last one is the event's end.
        self._mids = mids
        self._suffix = mids[-1]
        self._last = len(mids) - 1
        self._start = len(prefix)
        self._cut = len(self._suffix) - 1  # after the closing quote
        #: The keys of the holes, in the order they come in the text.
        self.keys = keys
        #: This template as SSE events, for reading whole runs of them; ``None``
        #: when its text spans lines (see :class:`Frame`).
        self.frame = None if "\n" in prefix or any("\n" in m for m in mids) else Frame(prefix, mids)

    @classmethod
    def learn(cls, text: str, values: dict[str, str]) -> EventTemplate | None:
        """Cut ``text`` (one event's JSON, already parsed) around the string
        value of each key in ``values``.  Each key must occur exactly once in
        the text, and its string must decode to the value given; otherwise
        there is no template (the events stay on the plain parse)."""
        holes: list[tuple[int, int, str]] = []
        for key, value in values.items():
            marker = f'"{key}":'
            at = text.find(marker)
            # In valid JSON a quote that is not escaped opens or closes a string,
            # so the marker is a key; once only, or it may be some other object's.
            if at < 0 or text.find(marker, at + 1) >= 0:
                return None
            start = at + len(marker)
            while start < len(text) and text[start] in _WHITESPACE:
                start += 1
            if text[start : start + 1] != '"':
                return None
            try:
                got, end = scanstring(text, start + 1)
            except ValueError:
                return None
            if got != value:
                return None
            holes.append((start + 1, end - 1, key))  # the string's body, between its quotes
        holes.sort()
        mids = []
        for (_, close, _), (opening, _, _) in pairwise(holes):
            if opening <= close:
                return None
            mids.append(text[close:opening])
        mids.append(text[holes[-1][1] :])
        return cls(text[: holes[0][0]], tuple(mids), tuple(key for _, _, key in holes))

    def match(self, text: str) -> list[str] | None:
        """The strings of ``text`` at the holes, in order, if it is this template
        but for them; else ``None``."""
        if not text.startswith(self._prefix) or not text.endswith(self._suffix):
            return None
        if not self._last:  # one hole, the common case: no loop
            try:
                value, end = scanstring(text, self._start)
            except ValueError:
                return None
            return [value] if end + self._cut == len(text) else None
        values = []
        at = len(self._prefix)
        last = self._last
        mids = self._mids
        for i, mid in enumerate(mids):
            try:
                value, end = scanstring(text, at)
            except ValueError:
                return None
            end -= 1  # the closing quote, where ``mid`` starts
            if i == last:
                if end != len(text) - len(mid):
                    return None
            elif not text.startswith(mid, end):
                return None
            values.append(value)
            at = end + len(mid)
        return values


#: A JSON string's body, escapes and all (unrolled, so a regex never backtracks
#: in it); no quote, backslash or control character outside an escape.
_BODY = rb'[^"\\\x00-\x1f]*(?:\\.[^"\\\x00-\x1f]*)*'


class Frame:
    """Bytes patterns of SSE events whose data is a template but for its strings.

    An event here is an optional ``event:`` line, one ``data: `` line and a
    blank line, the shape every provider sends; any other shape (a comment,
    an ``id:``, a CR line end) does not match and goes the decoder's way.
    A template whose text spans lines (its event had several ``data:``
    lines) has no frame: its lines would not be ``data:`` lines here.
    """

    __slots__ = ("_literal", "_patterns", "one_hole", "pieces")

    def __init__(self, prefix: str, mids: tuple[str, ...]) -> None:
        #: The template's fixed bytes: before the first hole, between, after.
        self.pieces = [prefix.encode(), *(mid.encode() for mid in mids)]
        #: ``findall`` gives bytes for one hole, tuples for more.
        self.one_hole = len(mids) == 1
        self._patterns: tuple[re.Pattern[bytes], ...] | None = None
        self._literal: dict[bytes, Literal] = {}

    @property
    def run(self) -> re.Pattern[bytes]:
        """A run of such events starting right here."""
        return self._compiled()[0]

    @property
    def next_run(self) -> re.Pattern[bytes]:
        """The next run that starts where an event does (after a blank line)."""
        return self._compiled()[1]

    @property
    def holes(self) -> re.Pattern[bytes]:
        """One event, its holes' bodies captured (still JSON-escaped)."""
        return self._compiled()[2]

    def _compiled(self) -> tuple[re.Pattern[bytes], ...]:
        # Compiled when first needed: a stream whose events all have one head
        # may never need them (``literal``).
        if self._patterns is None:
            head = rb"(?:event:[^\n]*\n)?data: "
            fixed = [re.escape(p) for p in self.pieces]
            captured = head + (b"(" + _BODY + b")").join(fixed) + rb"\n\n"
            plain = head + _BODY.join(fixed) + rb"\n\n"
            self._patterns = (
                re.compile(b"(?:" + plain + b")+"),
                re.compile(rb"(?<=\n\n)(?:" + plain + b")+"),
                re.compile(captured),
            )
        return self._patterns

    def literal(self, head: bytes) -> Literal:
        """This frame's events that all start with ``head`` (``data: ``, or an
        ``event:`` line and ``data: ``), as literal bytes around the holes."""
        found = self._literal.get(head)
        if found is None:
            found = Literal(head, self.pieces)
            if len(self._literal) < 4:  # one head per stream, in practice
                self._literal[head] = found
        return found

    def text(self, bodies: tuple[bytes, ...]) -> str:
        """The data of the event with these holes' bodies."""
        out = [self.pieces[0]]
        for body, piece in zip(bodies, self.pieces[1:], strict=True):
            out += (body, piece)
        return b"".join(out).decode()


class Literal:
    """A frame's events with one head, as literal bytes: ``first``, then the
    holes' bodies with the template's bytes between, then ``tail``.  A run of
    them is ``first`` + what :meth:`between` gives + ``tail``."""

    __slots__ = ("_mids", "_sep", "first", "pattern", "tail")

    def __init__(self, head: bytes, pieces: list[bytes]) -> None:
        self.first = head + pieces[0]
        self.tail = pieces[-1] + b"\n\n"
        #: One event, its holes' bodies captured.  It starts with a literal,
        #: which ``re`` finds and compares in one C loop, not op by op.
        self.pattern = re.compile(
            re.escape(self.first)
            + b"".join(b"(" + _BODY + b")" + re.escape(p) for p in pieces[1:-1])
            + b"("
            + _BODY
            + b")"
            + re.escape(self.tail)
        )
        self._mids = pieces[1:-1]
        self._sep = self.tail + self.first  # from one event's last hole to the next's first

    def between(self, found: list[Any]) -> bytes:
        """The bytes of a run of events from the end of its ``first`` to the
        start of its ``tail``, given ``pattern.findall``'s list for them."""
        if not self._mids:
            return self._sep.join(found)
        # every event's holes and the bytes between them, in C: no loop here
        columns = list(zip(*found, strict=True))
        parts = [columns[0]]
        for mid, column in zip(self._mids, columns[1:], strict=True):
            parts += (repeat(mid), column)
        parts.append(repeat(self._sep))
        joined = b"".join(chain.from_iterable(zip(*parts, strict=False)))  # repeat() is endless
        return joined[: len(joined) - len(self._sep)]
