"""An incremental NDJSON (newline-delimited JSON) line splitter (Ollama's stream)."""

from __future__ import annotations

from .lines import LineBuffer


class NDJSONDecoder:
    __slots__ = ("_lines",)

    def __init__(self) -> None:
        self._lines = LineBuffer()

    def feed(self, chunk: bytes) -> list[bytes]:
        """Complete, non-blank lines so far (bytes, CR stripped)."""
        return [s for line in self._lines.lines(chunk) if (s := line.strip())]

    def close(self) -> list[bytes]:
        rest = (self._lines.rest() or b"").strip()
        return [rest] if rest else []
