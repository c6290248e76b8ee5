"""What a reply of Chief's shows that is Wiggum's own, not the model's: a code
block's frame (its language, a Copy button, code that scrolls sideways) and
the Sources list of a reply that searched the web.  ``wiggum.web.dom`` and
``wiggum.web.views.sources`` mount these.

The model's words stay text: a code block holds the code as text or as the
highlighter's spans, a source is a link only when :mod:`wiggum.ui.sources`
found its address safe.
"""

from __future__ import annotations

from ..markdown import Child, El
from ..tree import btn, e

__all__ = ["code_block", "sources"]


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
