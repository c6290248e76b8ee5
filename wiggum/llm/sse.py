"""An incremental, byte-exact Server-Sent Events decoder.

Feed it the body's bytes as they arrive, in pieces of any size; it returns
the events completed so far.  Line ends may be LF, CRLF or a bare CR, and a
CRLF may be split between two reads.  Lines are kept as bytes until they
are complete, so a multi-byte UTF-8 character split across reads is never
decoded in halves.  Comment lines (keep-alives such as OpenRouter's
``: OPENROUTER PROCESSING``) are dropped;
``data:`` takes an optional single space; ``event:`` names the event.
"""

from __future__ import annotations

from typing import NamedTuple

from .lines import LineBuffer


class SSEEvent(NamedTuple):
    #: The ``event:`` name, or ``None`` for the default ("message").
    event: str | None
    #: The ``data:`` lines joined with LF, still UTF-8 bytes.
    data: bytes


_new = tuple.__new__
_UNSEEN = object()

#: The most a stream parser hands the decoder at once.  A read of hundreds of
#: KB (a fast local server, a reply that arrived while the page was busy) is
#: cut into slices this size: in Pyodide a 660 KB read decoded whole took 10 ms,
#: in 64 KB slices 6 ms (bench/browser.py), the working set staying small.
READ_SLICE = 64 * 1024


class SSEDecoder:
    __slots__ = ("_data", "_event", "_lines", "_names", "_skip_lf")

    def __init__(self) -> None:
        self._lines = LineBuffer()
        self._data: list[bytes] = []
        self._event: str | None = None
        self._names: dict[bytes, str | None] = {}  # an ``event:`` line -> its name
        self._skip_lf = False  # the last read ended in CR: a leading LF belongs to it

    @property
    def at_event_start(self) -> bool:
        """Nothing of an unfinished event is held: the next byte begins one."""
        return not (self._lines.holding or self._data or self._skip_lf) and self._event is None

    def feed(self, chunk: bytes) -> list[SSEEvent]:
        if self._skip_lf and chunk:
            self._skip_lf = False
            if chunk[0] == 10:
                chunk = chunk[1:]
        if b"\r" in chunk:
            self._skip_lf = chunk[-1] == 13
            chunk = chunk.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        lines = self._lines.lines(chunk)
        return self._events(lines) if lines else []

    def close(self) -> list[SSEEvent]:
        """End of body: a last event without its blank line still counts."""
        rest = self._lines.rest()
        return self._events([b""] if rest is None else [rest, b""])

    def _events(self, lines: list[bytes]) -> list[SSEEvent]:
        # The state in locals while the loop runs (and ``startswith``, not
        # slices): this runs for every line of the stream.
        events: list[SSEEvent] = []
        data = self._data
        event = self._event
        names = self._names
        for line in lines:
            if not line:
                if data:
                    # tuple.__new__: a NamedTuple's own constructor is a Python
                    # function, and this runs once per event
                    events.append(
                        _new(SSEEvent, (event, data[0] if len(data) == 1 else b"\n".join(data)))
                    )
                    data = []
                event = None
            elif line.startswith(b"data: "):
                data.append(line[6:])
            elif line.startswith(b"data:"):
                data.append(line[5:])
            elif line.startswith(b"event:"):  # Anthropic names every event
                event = names.get(line, _UNSEEN)
                if event is _UNSEEN:
                    value = line[7:] if line[6:7] == b" " else line[6:]
                    event = value.decode("utf-8", "replace") or None
                    if len(names) < 64:  # a few names, thousands of times each
                        names[line] = event
            elif line[0] == 58:  # ":" comment / keep-alive
                continue
            else:
                self._data, self._event = data, event
                self._field(line)
                data, event = self._data, self._event
        self._data, self._event = data, event
        return events

    def _field(self, line: bytes) -> None:
        name, sep, value = line.partition(b":")
        if value[:1] == b" ":
            value = value[1:]
        if name == b"event":
            self._event = value.decode("utf-8", "replace") or None
        elif name == b"data":  # "data" with no colon: an empty data line
            self._data.append(b"" if not sep else value)
        # id / retry / unknown fields mean nothing to an LLM stream
