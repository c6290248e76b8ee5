"""A reply's markdown in the page, rendered as it streams, in time slices.

What a chunk costs is cut into small steps (:mod:`wiggum.ui.slices`) run in
tasks of their own, a few milliseconds each, so that the page never holds the
main thread for long while a reply streams in:

* chunks that arrive before the next render are coalesced (renders are at
  least ``RENDER_INTERVAL`` apart, one a frame): one parse of the latest
  text (``wiggum.ui.markdown_stream``: only the still-open last block is
  parsed again, finished top-level blocks are handed out once);
* the DOM of the finished blocks and of the open one (shown provisionally, as
  it will look once closed) is built one element per step, off-screen, then
  put in place at once, replacing the open block's previous nodes;
* code blocks are built as plain text and coloured afterwards, a few tokens
  per step (Pygments lexes lazily), the coloured code swapped in whole.

Pygments and the common lexers load while the page is idle after boot
(:func:`prefetch_highlighter`, called by the boot); a code block in another
language loads its lexer in a task of its own; blocks shown before their
lexer are coloured in place once it has loaded.  :meth:`StreamingMarkdown.finish`
renders the open block without the provisional closers, at once; if reference
definitions appeared it renders the whole text again, so the end result
always equals ``render_markdown(text)`` (once the last code blocks are
coloured: the host carries ``data-rendering`` until then).
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Callable, Iterator
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_once_callable  # type: ignore[import-not-found]

from wiggum.ui.highlight import (
    COMMON,
    LexerRequests,
    highlight,
    highlight_steps,
    lexer_pending,
    load_lexer,
)
from wiggum.ui.highlight import available as highlight_available
from wiggum.ui.markdown import Child, El, code_lang, code_text, render
from wiggum.ui.markdown_stream import MarkdownStream
from wiggum.ui.markup.reply import dressed
from wiggum.ui.slices import Pacer, Slices
from wiggum.ui.tree import walk

from .dom import is_null, mount_steps, now_ms, post_task, render_nodes, set_attrs, spawn

__all__ = ["StreamingMarkdown"]

#: Seconds between two renders of a streaming reply's text (chunks in between coalesce):
#: one a frame. 30 ms held a chunk's text back ~15 ms (the aim: <= 5 ms, median);
#: the slices keep every render's task short either way.
RENDER_INTERVAL = 0.016
#: A render step this long (seconds) is logged to the console (figures; the e2e test).
SLOW_STEP = 0.02
#: Highlighted nodes made per step when colouring a code block.
SPANS_PER_STEP = 24


class StreamingMarkdown:
    def __init__(
        self,
        host: Any,
        *,
        on_render: Callable[[], None] | None = None,
        interval: float = RENDER_INTERVAL,
    ) -> None:
        self.host = host
        #: Called after a slice changed what is shown (the chat follows the reply's end).
        self.on_render = on_render
        self._stream = MarkdownStream()
        self._open_tree: list[Child] | None = None
        self._open_nodes: list[Any] = []
        self._open_codes: list[tuple[Any, El]] = []  # the open block's code blocks (plain)
        self._text = ""
        #: When the latest text fed is rendered (``interval`` 0: every slice; the bench).
        self._pace = Pacer(interval, clock=lambda: now_ms() / 1000)
        self._scheduled = False
        self._busy = False
        self._slices = Slices(refill=self._next_render)
        self.renders = 0

    # ------------------------------------------------------------ streaming

    def feed(self, text: str) -> None:
        """Show ``text`` (the whole reply so far) soon, in slices; chunks fed before
        the next slice are rendered once, as the latest text."""
        self._pace.latest = text
        if not self._pace.waiting:
            self._schedule()

    def _schedule(self) -> None:
        if not self._scheduled:
            self._scheduled = True
            post_task(self._slice, what="render the reply")
        self._sync_busy()

    def _slice(self) -> None:
        self._scheduled = False
        # A User Timing entry per slice: devtools and the e2e test see what it costs.
        js.performance.mark("wiggum:markdown-start")
        more = self._slices.run()
        js.performance.measure("wiggum:markdown", "wiggum:markdown-start")
        seconds, where = self._slices.longest
        if seconds > SLOW_STEP:
            js.console.debug(f"wiggum: a render step took {seconds * 1000:.0f} ms ({where})")
        if more or self._pace.ready:
            self._schedule()
        self._sync_busy()
        if self.on_render is not None:
            self.on_render()

    def _next_render(self) -> Iterator[None] | None:
        got = self._pace.next()  # text on screen at most once a frame
        if isinstance(got, float):
            js.setTimeout(create_once_callable(self._wake), max(1, int(got * 1000)))
            return None
        return None if got is None else self._render(got, final=False)

    def _wake(self) -> None:
        if self._pace.woke():
            self._schedule()

    def _sync_busy(self) -> None:
        busy = bool(self._slices) or self._pace.latest is not None
        if busy != self._busy:
            self._busy = busy
            set_attrs(self.host, {"data-rendering": "" if busy else None})

    # ----------------------------------------------------------- at once

    def update(self, text: str, *, final: bool = False) -> None:
        """Show ``text`` now (the whole reply so far; a text that does not extend it
        starts over).  Code blocks are still coloured in later slices."""
        self._pace.latest = None
        self._slices.drain()  # a render half built goes in first
        for _ in self._render(text, final=final):
            pass
        if self._slices:
            self._schedule()
        self._sync_busy()

    def finish(self, text: str) -> None:
        """Show the whole, final ``text`` now (a pending render is dropped)."""
        self.update(text, final=True)

    # ------------------------------------------------------------ the work

    def _render(self, text: str, *, final: bool) -> Iterator[None]:
        """One render of ``text``, a step at a time (the first step parses)."""
        doc = self.host.ownerDocument
        if not text.startswith(self._text):
            self._stream = MarkdownStream()
            self._open_tree, self._open_nodes, self._open_codes = None, [], []
            self.host.replaceChildren()
        self._text = text
        finished, open_ = self._stream.feed(text, final=final)
        whole = final and self._stream.needs_full_render()
        if whole:  # reference definitions may have changed blocks already shown
            finished, open_ = [render(text)], []
        elif not finished and open_ == self._open_tree:
            if final:  # shown already, as it is: its code is final now
                self._colour_later(self._open_codes)
            return
        yield
        frag = doc.createDocumentFragment()
        for block in finished:
            yield from _build(block, frag)
        open_frag = doc.createDocumentFragment()
        yield from _build(open_, open_frag)
        codes = _codes(frag, [node for block in finished for node in block])
        open_codes = _codes(open_frag, open_)
        # In place at once: the open block's old nodes give way to what replaces them.
        if whole:
            self.host.replaceChildren()
        for node in self._open_nodes:
            node.remove()
        self.host.appendChild(frag)
        self._open_nodes = list(open_frag.childNodes)
        self.host.appendChild(open_frag)
        self._open_tree = open_
        self.renders += 1
        # The open block is built again with the next chunk: only finished code is coloured.
        self._open_codes = open_codes
        self._colour_later(codes + open_codes if final else codes)

    def _colour_later(self, codes: list[tuple[Any, El]]) -> None:
        """Colour these (finished) code blocks in later slices; load their lexers.

        Never for the open block: its fence's info string may still be arriving
        (``pytho``), and looking up a name that is no lexer costs ~25 ms."""
        for block, node in codes:
            self._slices.add(_colour(block, node), urgent=False)
        langs = {code_lang(node) for _, node in codes}
        if _lexers.wanted(langs):
            ensure_highlighter(self.host.ownerDocument, (*COMMON, *sorted(filter(None, langs))))


def _build(nodes: list[Child], parent: Any) -> Iterator[None]:
    """Append the DOM of ``nodes`` to ``parent``, a step per element; the same DOM as
    ``dom.render_nodes``, except that code blocks are plain (coloured later)."""
    for node in nodes:
        yield from mount_steps(dressed(node, colour=False), parent)


def _codes(built: Any, nodes: list[Child]) -> list[tuple[Any, El]]:
    """The code blocks ``built`` holds, each with its ``pre`` of ``nodes`` (both in
    document order: no other element has the class ``codeblock``)."""
    pres = [pre for node in nodes for pre in walk(node) if pre.tag == "pre"]
    return list(zip(built.querySelectorAll(".codeblock"), pres, strict=True))


def _colour(block: Any, node: El) -> Iterator[None]:
    """Highlight the plain code of ``block`` (built from ``node``), a few tokens per step,
    and swap the coloured code in whole (as ``dom.code_block`` would have built it)."""
    spans = highlight_steps(code_text(node), code_lang(node))
    if spans is None:  # no lexer yet: colour_code_blocks does it once it has loaded
        return
    frag = block.ownerDocument.createDocumentFragment()
    batch: list[Child] = []
    for span in spans:
        batch.append(span)
        if len(batch) >= SPANS_PER_STEP:
            render_nodes(batch, frag)
            batch = []
            yield
    render_nodes(batch, frag)
    code = block.querySelector("pre > code")
    if not is_null(code) and code.className != "hl":
        code.replaceChildren(frag)
        code.className = "hl"


_WARM_UP = (
    "# h\n\n*a* **b** ~~c~~ `d` [e](https://example.com/\u00e9) https://example.org "
    "www.example.net a@b.co &amp;\n\n| a | b |\n|:--|--:|\n| 1 | 2 |\n\n- [ ] t\n- [x] u\n\n"
    "1. x\n\n> q\n\n```py\nx = 1\n```\n"
)
#: Whether the idle prefetch is done (parser warm, common lexers loaded, heap frozen).
prefetched = False
_lexers = LexerRequests()  # languages whose lexer load has been started (once each)


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
    new = _lexers.claim(langs)
    if new:
        spawn(_load_lexers(document, new), what="load the code highlighter")


def prefetch_highlighter(document: Any, delay: float = 1.0) -> None:
    """After ``delay`` seconds: build the markdown parser, load Pygments and the
    common lexers, one per task (so none of it lands inside a streamed reply),
    then freeze what the app has built so far out of the garbage collector's sight."""

    async def later() -> None:
        await asyncio.sleep(delay)
        # The first use of each rule costs (imports, compiled patterns; ~190 ms in
        # all): pay it now, not in the middle of a streamed reply.
        stream = MarkdownStream()
        stream.feed(_WARM_UP[:60])
        stream.feed(_WARM_UP, final=True)
        await _load_lexers(document, _lexers.claim(COMMON))
        # A full collection walks every object of the app (modules, pydantic's
        # schemas, Pygments' tables): 50-60 ms in the page, a long task whenever
        # it falls inside a streamed reply.  What exists now lives as long as the
        # page does; frozen, collections only walk what came after.
        await asyncio.sleep(0.05)
        gc.freeze()
        global prefetched
        prefetched = True

    spawn(later(), what="prefetch the code highlighter")
