"""A provider's SSE stream read through event templates, whole runs at a time.

The stream parsers of the OpenAI and Anthropic dialects hand their bytes to
a :class:`TemplatedSSE`; it gives back, through ``slow``, every event that no
template (:mod:`~wiggum.llm.event_template`) matches, and applies the strings
of the others itself, a run of one template's events joined into one call.

Three ways in, the same result:

* a read at an event's start whose events have one head (``data: ``, or the
  same ``event:`` line and ``data: ``) is read as literal bytes: a pattern
  that starts with the template's bytes takes the holes, and comparing the
  bytes those holes make with the read's proves the run;
* otherwise the newest template's frame (a regex, in C) finds a run of
  events it matches, and its holes are taken in one more pass; either way a
  run's strings are decoded once;
* everything else (the rest of an event begun in the last read, events of
  another shape, the strings a frame cannot vouch for) goes through the
  byte-exact :class:`~wiggum.llm.sse.SSEDecoder`, and each event through the
  templates, or the parser's own ``slow`` path.

Why it is exact is said in :mod:`~wiggum.llm.event_template`: a frame matches
only an event that is its template but for JSON strings, which are decoded as
``json`` decodes them (escapes split across events decoded apart, as a parse
of each event would).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from . import event_template
from .event_template import KEEP_TEMPLATES, EventTemplate, Frame
from .sse import READ_SLICE, SSEDecoder, SSEEvent
from .utf8 import Utf8

if TYPE_CHECKING:
    from .accumulator import ResponseAccumulator
    from .call import Call

#: The least a read must hold for the frames to be tried: in a smaller one a
#: run is a few events, and finding its ends costs more than it saves (in the
#: page: 1 KB reads of text deltas took 7.4 ms with frames, 4 KB 3.5 ms,
#: 16 KB 2.7 ms; event by event, 7.2 ms whatever the size).
_RUN_READ = 8 * 1024
#: Reads in a row in which the newest template's frame found no run: then the
#: stream is read event by event until a template is learned again.
_DRY_READS = 3
#: The most of a big first read that is read event by event to learn templates.
_TEACH_MOST = 8 * 1024
#: Literal runs (``TemplatedSSE._literal_run``) that failed before a stream
#: stops trying them: its events of one template come between others'.
_FAST_MISSES = 3


def _event_head(chunk: bytes, pos: int) -> bytes | None:
    """The bytes of the event at ``pos`` up to its data: ``data: ``, or its
    ``event:`` line and ``data: ``; ``None`` for any other shape."""
    if chunk.startswith(b"data: ", pos):
        return b"data: "
    if chunk.startswith(b"event:", pos):
        line = chunk.find(b"\n", pos, pos + 256)
        if line > 0 and chunk.startswith(b"data: ", line + 1):
            return chunk[pos : line + 7]
    return None


class TemplatedSSE:
    """See the module.  ``slow(event, text)`` gets each event no template
    matches (``text``: its data, invalid UTF-8 replaced as ``utf8`` says)."""

    __slots__ = ("_acc", "_dry", "_fast_misses", "_items", "_learned", "_slow", "_sse", "_utf8")

    def __init__(
        self, slow: Callable[[SSEEvent, str], Any], acc: ResponseAccumulator, utf8: Utf8
    ) -> None:
        self._slow = slow
        self._acc = acc
        self._utf8 = utf8
        self._sse = SSEDecoder()
        #: (template, what its string does, that hole's place), newest first
        self._items: list[tuple[EventTemplate, Callable[[str], Any], int]] = []
        self._learned = 0
        self._dry = 0
        self._fast_misses = 0

    @property
    def learning(self) -> bool:
        return self._learned < event_template.MAX_TEMPLATES

    def add(self, template: EventTemplate, apply: Callable[[str], Any], key: str) -> None:
        self._learned += 1
        self._dry = 0
        self._items.insert(0, (template, apply, template.keys.index(key)))
        del self._items[KEEP_TEMPLATES:]

    # ------------------------------------------------------------- bytes in

    def feed(self, chunk: bytes) -> None:
        if len(chunk) > READ_SLICE:
            for at in range(0, len(chunk), READ_SLICE):
                self.feed(chunk[at : at + READ_SLICE])
            return
        if len(chunk) < _RUN_READ or self._dry >= _DRY_READS or b"\r" in chunk:
            self._decode(chunk)
            return
        if not self._items:
            # A big first read: its first events teach the templates, a KB at
            # a time, and the rest is read with them (not event by event).
            taught = 0
            while not self._items and taught < _TEACH_MOST:
                cut = chunk.find(b"\n\n", taught + 1024, len(chunk) - _RUN_READ)
                if cut < 0:
                    break
                self._decode(chunk[taught : cut + 2])
                taught = cut + 2
            chunk = chunk[taught:]
            if not self._items:
                self._decode(chunk)
                return
        pos = 0
        if not self._sse.at_event_start:
            # the end of an event begun in the last read
            first = chunk.find(b"\n\n")
            if first < 0:
                self._decode(chunk)
                return
            pos = first + 2
            self._decode(chunk[:pos])
        found = False
        end = len(chunk)
        acc = self._acc
        while pos < end and not acc.ended:  # nothing after the end marker counts
            template, apply, at = self._items[0]
            frame = template.frame
            if frame is None:
                break
            if self._fast_misses < _FAST_MISSES:
                stop = self._literal_run(frame, apply, at, chunk, pos)
                if stop:
                    found = True
                    pos = stop
                    continue
            run = frame.run.match(chunk, pos)
            if run is None:
                run = frame.next_run.search(chunk, pos)
                if run is None:
                    break
                self._decode(chunk[pos : run.start()])  # whole events, up to the run
            found = True
            found_holes = frame.holes.findall(chunk, run.start(), run.end())
            if not self._apply(frame, apply, at, found_holes):
                self._decode(chunk[run.start() : run.end()])
            pos = run.end()
        self._dry = 0 if found else self._dry + 1
        if pos < end and not acc.ended:
            self._decode(chunk[pos:])

    def _literal_run(
        self, frame: Frame, apply: Callable[[str], Any], at: int, chunk: bytes, pos: int
    ) -> int:
        """Where a run of the frame's events, starting at ``pos`` with one
        head each, ends once applied; 0 when there is none.

        The holes are taken with a pattern that starts with a literal, and the
        run is proved by comparing bytes: ``chunk`` holds, from ``pos``, exactly
        the events with those holes, so it is those events, whatever else the
        pattern found.  In the page this is half the time of the frame's run
        pattern and its ``findall``.
        """
        head = _event_head(chunk, pos)
        if head is None:
            return 0
        literal = frame.literal(head)
        if not chunk.startswith(literal.first, pos):
            return 0
        found = literal.pattern.findall(chunk, pos)
        if not found:  # the read ends inside this event
            return 0
        between = literal.between(found)
        start = pos + len(literal.first)
        stop = start + len(between) + len(literal.tail)
        if not (
            chunk.startswith(between, start)
            and chunk.startswith(literal.tail, stop - len(literal.tail))
        ):
            # another event between two of these, or another head: the frame's
            # patterns take it, and a stream that keeps doing so stops trying
            self._fast_misses += 1
            return 0
        if not self._apply(frame, apply, at, found):
            self._decode(chunk[pos:stop])
        return stop

    def close(self) -> None:
        self._read(self._sse.close())

    def _decode(self, data: bytes) -> None:
        events = self._sse.feed(data)
        if events:
            self._read(events)

    def _apply(self, frame: Frame, apply: Callable[[str], Any], at: int, found: list[Any]) -> bool:
        """Apply the strings of a run (``findall``'s list: bodies, or tuples of
        them for more holes); ``False`` when they are not what ``json`` would
        take (invalid UTF-8, a bad escape)."""
        if frame.one_hole:
            bodies = found
            last = (found[-1],)
        else:
            bodies = list(zip(*found, strict=True))[at]
            last = found[-1]
        try:
            value = b"".join(bodies).decode()
            if "\\" in value:
                if "\\u" not in value:
                    # One-character escapes cannot run across two strings: decode once.
                    value = json.loads('"' + value + '"')
                else:
                    # A surrogate pair split between two events stays two halves,
                    # as a parse of each event leaves it.
                    value = "".join([json.loads('"' + body.decode() + '"') for body in bodies])
            text = frame.text(last)
        except ValueError:
            return False
        apply(value)
        self._acc.last_event = text  # parsed only if ``raw`` is read
        return True

    # ------------------------------------------------------------- events in

    def _read(self, events: list[SSEEvent]) -> None:
        """Each event through the templates, or to ``slow``; a run of one
        template's events is applied once, its strings joined."""
        items = self._items
        slow = self._slow
        run: list[str] = []
        run_apply: Callable[[str], Any] | None = None
        last = None  # the text of the last event read through a template
        acc = self._acc
        for event in events:
            if acc.ended:
                break  # the reply ended: a second end marker, and what follows, is not of it
            try:
                text = event.data.decode()
            except ValueError:
                text = self._utf8.decode(event.data)  # replaced, and said
            hit = None
            for template, apply, at in items:
                values = template.match(text)
                if values is not None:
                    hit, value = apply, values[at]
                    break
            if hit is not None:
                if hit is not run_apply:
                    if run:
                        run_apply("".join(run))
                        run = []
                    run_apply = hit
                run.append(value)
                last = text
                continue
            if run:
                run_apply("".join(run))
                run = []
                run_apply = None
            if last is not None:
                # before ``slow``: an event it skips ([DONE], garbage) sets none
                self._acc.last_event = last
                last = None
            slow(event, text)
        if run:
            run_apply("".join(run))
        if last is not None:
            self._acc.last_event = last  # parsed only if ``raw`` is read


class TemplatedParser:
    """What the OpenAI and Anthropic stream parsers share: their bytes go to a
    :class:`TemplatedSSE`, which hands :meth:`_event` each event no template
    matched (``text``: its data, invalid UTF-8 replaced)."""

    __slots__ = ("_acc", "_call", "_stream")

    def __init__(self, acc: ResponseAccumulator, call: Call) -> None:
        self._acc = acc
        self._call = call
        self._stream = TemplatedSSE(self._event, acc, Utf8(call.label))

    def feed(self, chunk: bytes) -> None:
        self._stream.feed(chunk)

    def close(self) -> None:
        self._stream.close()

    def _event(self, event: SSEEvent, text: str) -> None:
        raise NotImplementedError
