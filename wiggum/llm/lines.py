"""Complete lines from a body read in pieces, the SSE and NDJSON decoders' shared first step.

A read may end in the middle of a line; the unfinished line is held (as
bytes, in pieces: joined once, when its end arrives) until the read that
ends it.  Lines are split on LF only: the SSE decoder has turned its CRs into
LFs before, and NDJSON lines are stripped of a CR after.
"""

from __future__ import annotations


class LineBuffer:
    __slots__ = ("_pending",)

    def __init__(self) -> None:
        self._pending: list[bytes] = []  # an unfinished line, in pieces

    @property
    def holding(self) -> bool:
        """Part of a line is held."""
        return bool(self._pending)

    def lines(self, chunk: bytes) -> list[bytes]:
        """The lines ``chunk`` completes, without their LF (empty ones included)."""
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
        return lines

    def rest(self) -> bytes | None:
        """The end of the body: the unfinished line, if any (and nothing held after)."""
        if not self._pending:
            return None
        rest = b"".join(self._pending)
        self._pending = []
        return rest
