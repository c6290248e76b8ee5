"""Partial JSON for *display* while tool-call arguments stream.

Chief's drafting view and the transcript show a half-written ``write_file``
(its ``path``, the ``content`` so far) before the call is complete.  What is
executed is never decided here: the finished arguments go through
:func:`wiggum.llm.repair.parse_tool_arguments`, which says whether they were
repaired or cut off.  This module only turns a prefix into the best value it
can show, cheaply enough to run on every delta.
"""

from __future__ import annotations

from typing import Any

import pydantic_core

from .repair import parse_tool_arguments

__all__ = ["PartialJsonParser", "parse_partial_json"]


def parse_partial_json(text: str) -> Any:
    """Best-effort value of a JSON prefix, for display only; never raises.

    ``pydantic_core``'s partial parser first (fast, keeps a half-written
    string); when that fails (single quotes, raw newlines, prose...) the
    repair path.  ``None`` when nothing can be made of the text.
    """
    try:
        return pydantic_core.from_json(text, allow_partial="trailing-strings")
    except ValueError:
        pass
    if not text or "{" not in text:
        return None
    result = parse_tool_arguments(text, truncated=True)
    return None if result.error else result.args


class PartialJsonParser:
    """Accumulates argument deltas; gives the current value cheaply.

    Reparsing the whole buffer on every delta is O(n^2) over a long
    ``content`` argument.  Up to ``eager_bytes`` the buffer is reparsed on
    every :meth:`value` call (that is when the short arguments, like
    ``path``, appear); beyond it only once the buffer has grown by ``ratio``
    of what was parsed last, and the cached value is returned in between.
    Total parsing work is then O(n / ratio).  ``value(force=True)`` reparses
    now (call it when the stream ends).
    """

    __slots__ = ("_chunks", "_len", "_parsed_len", "_value", "eager_bytes", "ratio")

    def __init__(self, *, eager_bytes: int = 2048, ratio: float = 0.25) -> None:
        self._chunks: list[str] = []
        self._len = 0
        self._parsed_len = -1
        self._value: Any = None
        self.eager_bytes = eager_bytes
        self.ratio = ratio

    def feed(self, delta: str) -> None:
        if delta:
            self._chunks.append(delta)
            self._len += len(delta)

    @property
    def text(self) -> str:
        if len(self._chunks) > 1:
            self._chunks[:] = ["".join(self._chunks)]
        return self._chunks[0] if self._chunks else ""

    def __len__(self) -> int:
        return self._len

    def value(self, *, force: bool = False) -> Any:
        grown = self._len - self._parsed_len
        if grown <= 0:
            return self._value
        if force or self._len <= self.eager_bytes or grown >= self._parsed_len * self.ratio:
            self._value = parse_partial_json(self.text)
            self._parsed_len = self._len
        return self._value
