"""A reply's markdown in the page, rendered as it streams (see wiggum.ui.markdown_stream).

Finished top-level blocks are turned into DOM once and never rebuilt; only the
nodes of the open last block are replaced per chunk (and not even those when
its tree did not change).  Pygments and the common lexers load while the page is idle after boot
(:func:`prefetch_highlighter`, called by the boot); a code block in another
language loads its lexer in a task of its own; blocks shown before their
lexer are coloured in place once it has loaded.  :meth:`StreamingMarkdown.finish` renders the open
block without the provisional closers; if reference definitions appeared it
renders the whole text once, so the end result always equals
``render_markdown(text)``.  :meth:`StreamingMarkdown.feed` coalesces the
chunks that arrive within one task into one render, at that task's end.
"""

from __future__ import annotations

import asyncio
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_once_callable  # type: ignore[import-not-found]

from wiggum.ui.highlight import COMMON, highlight, lexer_pending, load_lexer
from wiggum.ui.highlight import available as highlight_available
from wiggum.ui.markdown import Child
from wiggum.ui.markdown_stream import MarkdownStream

from .dom import is_null, render_markdown, render_nodes, spawn

__all__ = ["StreamingMarkdown"]


class StreamingMarkdown:
    def __init__(self, host: Any) -> None:
        self.host = host
        self._stream = MarkdownStream()
        self._open_tree: list[Child] | None = None
        self._open_nodes: list[Any] = []
        self._text = ""
        self._pending: str | None = None
        self.renders = 0

    def feed(self, text: str) -> None:
        """Show ``text`` soon: chunks that arrive in one task are rendered once, after it.

        A fast stream hands over many chunks without returning to the event
        loop; rendering each at once would add up to one long task.  The
        render runs from a microtask, at the end of the task that fed it (the
        task of one network read), so the page can paint and take input
        between renders; a ``setTimeout(0)`` here cost a task hop (2-5 ms)
        between a chunk's arrival and its text on screen.
        """
        if self._pending is None:
            js.queueMicrotask(create_once_callable(self._flush))
        self._pending = text

    def _flush(self) -> None:
        text, self._pending = self._pending, None
        if text is None:
            return
        # The chat's scroller: keep following the reply's end if the person was there.
        scroller = self.host.closest(".messages-scroll")
        follow = not is_null(scroller) and (
            scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 80
        )
        # A User Timing entry per render: devtools and the e2e test see what it costs.
        js.performance.mark("wiggum:markdown-start")
        self.update(text)
        js.performance.measure("wiggum:markdown", "wiggum:markdown-start")
        if follow:
            scroller.scrollTop = scroller.scrollHeight

    def update(self, text: str, *, final: bool = False) -> None:
        """Show ``text`` (the whole reply so far; a text that does not extend it starts over)."""
        if not text.startswith(self._text):
            self._stream = MarkdownStream()
            self._open_tree, self._open_nodes = None, []
            self.host.replaceChildren()
        self._text = text
        finished, open_ = self._stream.feed(text, final=final)
        if final and self._stream.needs_full_render():
            self.host.replaceChildren(render_markdown(text))
            self._open_nodes, self._open_tree = [], None
            self.renders += 1
            return
        if not finished and open_ == self._open_tree:
            return
        doc = self.host.ownerDocument
        for node in self._open_nodes:
            node.remove()
        if finished:
            frag = doc.createDocumentFragment()
            for block in finished:
                render_nodes(block, frag)
            self.host.appendChild(frag)
        frag = doc.createDocumentFragment()
        render_nodes(open_, frag)
        self._open_nodes = list(frag.childNodes)
        self.host.appendChild(frag)
        self._open_tree = open_
        self.renders += 1
        for code in self.host.querySelectorAll(".codeblock code:not(.hl)"):
            lang = code.closest(".codeblock").getAttribute("data-lang") or ""
            if lang and lang.lower() not in _requested:
                ensure_highlighter(doc, (*COMMON, lang))

    def finish(self, text: str) -> None:
        """Show the whole, final ``text`` now (a pending render is dropped)."""
        self._pending = None
        self.update(text, final=True)


_WARM_UP = (
    "# h\n\n*a* **b** ~~c~~ `d` [e](https://example.com/\u00e9) https://example.org "
    "www.example.net a@b.co &amp;\n\n| a | b |\n|:--|--:|\n| 1 | 2 |\n\n- [ ] t\n- [x] u\n\n"
    "1. x\n\n> q\n\n```py\nx = 1\n```\n"
)
_requested: set[str] = set()  # languages whose lexer load has been started (once each)


async def _load_lexers(document: Any, langs: tuple[str, ...]) -> None:
    from .packages import load_packages

    if not highlight_available():
        await load_packages("pygments")
    for lang in langs:
        await asyncio.sleep(0.05)  # one lexer per task: each costs 80-210 ms
        if lexer_pending(lang):
            load_lexer(lang)
            colour_code_blocks(document)


def colour_code_blocks(document: Any) -> None:
    """Highlight, in place, the code blocks shown before their lexer was loaded."""
    for code in document.querySelectorAll(".codeblock code:not(.hl)"):
        block = code.closest(".codeblock")
        spans = highlight(code.textContent, block.getAttribute("data-lang") or "")
        if spans is not None:
            code.replaceChildren()
            render_nodes(spans, code)
            code.className = "hl"


def ensure_highlighter(document: Any, langs: tuple[str, ...] = COMMON) -> None:
    """Load Pygments and the lexers of ``langs`` in the background (each language once)."""
    new = tuple(lang.lower() for lang in langs if lang and lang.lower() not in _requested)
    if new:
        _requested.update(new)
        spawn(_load_lexers(document, new), what="load the code highlighter")


def prefetch_highlighter(document: Any, delay: float = 1.0) -> None:
    """After ``delay`` seconds: build the markdown parser, load Pygments and the
    common lexers, one per task (so none of it lands inside a streamed reply)."""

    async def later() -> None:
        await asyncio.sleep(delay)
        # The first use of each rule costs (imports, compiled patterns; ~190 ms in
        # all): pay it now, not in the middle of a streamed reply.
        stream = MarkdownStream()
        stream.feed(_WARM_UP[:60])
        stream.feed(_WARM_UP, final=True)
        ensure_highlighter(document)

    spawn(later(), what="prefetch the code highlighter")
