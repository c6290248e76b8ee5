"""Markdown of a reply that is still streaming: finished blocks once, the open one per chunk.

:class:`MarkdownStream` keeps the offset where the still-open last top-level
block starts.  Each :meth:`~MarkdownStream.feed` parses only the text from
there (markdown-it, the same parser as :func:`wiggum.ui.markdown.render`):
every top-level block followed by another one is finished and handed out once;
the last one is handed out as it will look once closed (:func:`provisional`):
unclosed emphasis, strong, strikethrough and code spans closed (and a dangling
delimiter at the very end left out) so that a person never sees raw ``**`` that
turns bold a moment later; an open fence is already a code block to the end in
CommonMark, less a half-arrived closing fence.

A block never changes once another top-level block follows it, with one
exception: a link reference definition further down can turn earlier
``[text]`` into a link; :meth:`~MarkdownStream.needs_full_render` says so at
the end, and the page then renders the whole text once.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from typing import Any

from .markdown import Child, El, parser, tokens_to_tree

__all__ = ["STREAMING", "MarkdownStream", "close_open_inline", "provisional"]

#: Attribute on the ``pre`` of a code block still streaming in: not highlighted yet.
STREAMING = "data-streaming"


@dataclass(slots=True)
class MarkdownStream:
    done: int = 0  #: offset in the text where the open block starts
    env: dict[str, Any] = field(default_factory=dict)

    def feed(self, text: str, *, final: bool = False) -> tuple[list[list[Child]], list[Child]]:
        """(newly finished blocks, the open block's tree) for the whole ``text`` so far."""
        tail = text[self.done :]
        md = parser()
        tokens = md.parse(tail, self.env)
        starts = [i for i, t in enumerate(tokens) if t.level == 0 and t.nesting >= 0]
        finished: list[list[Child]] = []
        if len(starts) > 1:
            last = starts[-1]
            line = tokens[last].map[0] if tokens[last].map else 0
            offset = _line_offset(tail, line)
            for a, b in itertools.pairwise(starts):
                finished.append(tokens_to_tree(tokens[a:b]))
            self.done += offset
            tail = tail[offset:]
            tokens = tokens[last:]
        if not tokens:
            return finished, []
        if final:
            return finished, tokens_to_tree(tokens)
        src = provisional(tail)
        tree = tokens_to_tree(tokens if src == tail else md.parse(src, dict(self.env)))
        if tokens[0].type in ("fence", "code_block"):
            # Still growing: shown as plain text (``STREAMING``), highlighted once
            # when it is finished.  Highlighting the whole open block on every
            # chunk made each render of a long code block a long task.
            for node in tree:
                if isinstance(node, El) and node.tag == "pre":
                    node.attrs[STREAMING] = ""
        return finished, tree

    def needs_full_render(self) -> bool:
        """Whether reference definitions may have changed blocks already handed out."""
        return bool(self.env.get("references"))


def _line_offset(text: str, line: int) -> int:
    pos = 0
    for _ in range(line):
        nl = text.find("\n", pos)
        if nl < 0:
            return len(text)
        pos = nl + 1
    return pos


_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_OPEN_LINK = re.compile(r"\[[^\[\]\n]*\]\(([^()\s]*)$")


def provisional(src: str) -> str:
    """The source of the open last block, changed to look now as it will once closed.

    * a fenced code block: already a code block to the end in CommonMark; a last
      line that is the start of its closing fence (```` `` ````) is left out, so
      it never shows as code for a moment;
    * an indented code block: as it is;
    * anything else: a link whose address is still arriving closed, unclosed
      emphasis, strong, strikethrough and code spans closed, a dangling
      delimiter at the very end left out (:func:`close_open_inline`).
    """
    m = _FENCE.match(src)
    if m:
        head, nl, last = src.rpartition("\n")
        mark = last.strip()
        if nl and mark and set(mark) == {m.group(1)[0]} and len(last) - len(last.lstrip(" ")) < 4:
            return head + nl
        return src
    if src.startswith(("    ", "\t")):
        return src
    m = _OPEN_LINK.search(src)
    if m:  # ``[label](https://exa``: a link, its address still arriving (shown once whole)
        src = src[: m.start(1)] + "#)"
    return close_open_inline(src)


def close_open_inline(src: str) -> str:
    """``src`` with unclosed ``*``/``_``/``~~``/backtick runs closed at its end.

    A simplified reading of CommonMark's delimiter rules, good enough for the
    moment before the real closer arrives: a run opens when followed by a
    non-space (``_`` not inside a word), closes a same-character opener when
    preceded by a non-space; code spans hide what is inside them.
    """
    body = src.rstrip()
    trail = src[len(body) :]
    # A delimiter run at the very end is probably half of something: leave it out.
    j = len(body)
    while j > 0 and body[j - 1] in "*_~`":
        j -= 1
    if j < len(body) and (j == 0 or body[j - 1] not in "\\"):
        cut = body[j:]
        prev = body[j - 1] if j else " "
        if prev.isspace() or j == 0 or len(set(cut)) == 1:
            body = body[:j]
    stack: list[str] = []
    i, n = 0, len(body)
    while i < n:
        c = body[i]
        if c == "\\":
            i += 2
            continue
        if c not in "*_~`":
            i += 1
            continue
        k = i
        while k < n and body[k] == c:
            k += 1
        run = body[i:k]
        if stack and stack[-1][0] == "`":
            if run == stack[-1]:
                stack.pop()
            i = k
            continue
        if c == "`":
            stack.append(run)
            i = k
            continue
        if c == "~" and len(run) != 2:
            i = k
            continue
        prev = body[i - 1] if i else " "
        nxt = body[k] if k < n else " "
        if stack and stack[-1][0] == c and not prev.isspace():
            while stack and stack[-1][0] == c and run:
                top = stack.pop()
                run = run[len(top) :] if len(run) >= len(top) else ""
        elif not nxt.isspace() and not (c == "_" and prev.isalnum()):
            stack.append(run[:3])
        i = k
    if not stack:
        return body + trail if body != src.rstrip() else src
    return body + "".join(reversed(stack)) + trail
