"""A reply's markdown in the page, rendered as it streams (see wiggum.ui.markdown_stream).

Finished top-level blocks are turned into DOM once and never rebuilt; only the
nodes of the open last block are replaced per chunk (and not even those when
its tree did not change).  :meth:`StreamingMarkdown.finish` renders the open
block without the provisional closers; if reference definitions appeared it
renders the whole text once, so the end result always equals
``render_markdown(text)``.
"""

from __future__ import annotations

from typing import Any

from wiggum.ui.markdown import Child
from wiggum.ui.markdown_stream import MarkdownStream

from .dom import render_markdown, render_nodes

__all__ = ["StreamingMarkdown"]


class StreamingMarkdown:
    def __init__(self, host: Any) -> None:
        self.host = host
        self._stream = MarkdownStream()
        self._open_tree: list[Child] | None = None
        self._open_nodes: list[Any] = []
        self._text = ""
        self.renders = 0

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

    def finish(self, text: str) -> None:
        self.update(text, final=True)
