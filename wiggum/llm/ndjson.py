"""An incremental NDJSON (newline-delimited JSON) line splitter (Ollama's stream)."""

from __future__ import annotations


class NDJSONDecoder:
    __slots__ = ("_pending",)

    def __init__(self) -> None:
        self._pending: list[bytes] = []

    def feed(self, chunk: bytes) -> list[bytes]:
        """Complete, non-blank lines so far (bytes, CR stripped)."""
        if b"\n" not in chunk:
            if chunk:
                self._pending.append(chunk)
            return []
        if self._pending:
            self._pending.append(chunk)
            chunk = b"".join(self._pending)
            self._pending = []
        lines = chunk.split(b"\n")
        tail = lines.pop()
        if tail:
            self._pending.append(tail)
        return [s for line in lines if (s := line.strip())]

    def close(self) -> list[bytes]:
        rest = b"".join(self._pending).strip()
        self._pending = []
        return [rest] if rest else []
