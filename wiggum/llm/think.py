"""Splits ``<think>…</think>`` out of streamed content into reasoning.

Some hosts deliver a reasoning model's chain of thought inline in the
content.  Tags may be split across deltas (``<thi`` + ``nk>``), so a tail
that could be the start of a tag is held back until the next delta decides.
"""

from __future__ import annotations

OPEN = "<think>"
CLOSE = "</think>"


def _partial_tag_tail(text: str, tag: str) -> int:
    """Length of the longest suffix of ``text`` that is a proper prefix of ``tag``."""
    for n in range(min(len(tag) - 1, len(text)), 0, -1):
        if text.endswith(tag[:n]):
            return n
    return 0


class ThinkSplitter:
    __slots__ = ("_held", "in_think", "seen")

    def __init__(self) -> None:
        self.in_think = False
        self._held = ""
        #: A think tag was found at least once.
        self.seen = False

    def plain(self, text: str) -> bool:
        """``text`` is content as it stands: no tag in it, none open or half-read."""
        return not self.in_think and not self._held and "<" not in text

    def feed(self, text: str) -> list[tuple[bool, str]]:
        """Pieces of ``(is_reasoning, text)`` in order."""
        if self._held:
            text = self._held + text
            self._held = ""
        elif not self.in_think and "<" not in text:
            return [(False, text)]
        out: list[tuple[bool, str]] = []
        while text:
            tag = CLOSE if self.in_think else OPEN
            at = text.find(tag)
            if at < 0:
                keep = _partial_tag_tail(text, tag)
                if keep:
                    self._held = text[-keep:]
                    text = text[:-keep]
                if text:
                    out.append((self.in_think, text))
                break
            if at:
                out.append((self.in_think, text[:at]))
            self.seen = True
            self.in_think = not self.in_think
            text = text[at + len(tag) :]
        return out

    def close(self) -> list[tuple[bool, str]]:
        """End of content: a held-back partial tag was just text after all."""
        held, self._held = self._held, ""
        return [(self.in_think, held)] if held else []
