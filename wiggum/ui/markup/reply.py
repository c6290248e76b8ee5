"""What a reply of Chief's shows that is Wiggum's own, not the model's: a code
block's frame (its language, a Copy button, code that scrolls sideways) and
the Sources list of a reply that searched the web.  ``wiggum.web.dom`` and
``wiggum.web.views.chat.turn`` mount these.

The model's words stay text: a code block holds the code as text or as the
highlighter's spans, a source is a link only when :mod:`wiggum.ui.sources`
found its address safe.
"""

from __future__ import annotations

from ..highlight import highlight
from ..markdown import Child, El, code_lang, code_text
from ..markdown_stream import STREAMING
from ..tree import btn, e

__all__ = ["code_block", "dressed", "framed_code", "sources"]


def code_block(lang: str, code: list[Child], *, coloured: bool) -> El:
    """The block of code in ``lang`` (``""``: not said): ``code`` is its text, or
    the highlighter's spans when ``coloured``."""
    head = e(
        "div",
        "codeblock-head",
        e("span", "codeblock-lang", text=lang or "text"),
        btn(
            "Copy",
            action="copy-code",
            cls="codeblock-copy",
            aria_label=f"Copy {lang} code" if lang else "Copy code",
        ),
    )
    pre = e("pre", None, e("code", "hl" if coloured else None, code), tabindex="0")
    return e("div", "codeblock", head, pre, data_lang=lang or None)


def framed_code(pre: El, *, colour: bool = True) -> El:
    """The code block of the markdown tree's ``pre`` in its frame, its code coloured
    unless ``colour`` is false (to be coloured later, in slices), it is still
    streaming in, or its language has no lexer (yet)."""
    lang, text = code_lang(pre), code_text(pre)
    spans = None if STREAMING in pre.attrs or not colour else highlight(text, lang)
    if spans is not None:
        return code_block(lang, spans, coloured=True)
    return code_block(lang, [text] if text else [], coloured=False)


def dressed(node: Child, *, colour: bool = True) -> Child:
    """A node of a markdown tree as the page shows it: each code block in its
    frame (:func:`framed_code`), each table in a box that scrolls sideways."""
    if isinstance(node, str):
        return node
    if node.tag == "pre":
        return framed_code(node, colour=colour)
    inside = El(node.tag, node.attrs, [dressed(child, colour=colour) for child in node.children])
    return e("div", "table-wrap", inside) if node.tag == "table" else inside


def sources(links: list[tuple[str, str]]) -> list[El]:
    """The heading and the list of ``(url, label)`` links, each opened in a new tab
    that is told nothing of Wiggum."""
    items = [
        e(
            "li",
            None,
            e(
                "a",
                href=url,
                text=label,
                title=url,
                target="_blank",
                rel="noopener noreferrer",
                referrerpolicy="no-referrer",
            ),
        )
        for url, label in links
    ]
    return [e("p", "msg-sources-title", text="Sources"), e("ol", None, items)]
