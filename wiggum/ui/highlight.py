"""Syntax highlighting of code blocks, as element-tree spans (``wiggum.ui.markdown.El``).

Engine: Pygments, a pure-Python wheel (vendored by build.py, ~1.2 MB) that runs
under Pyodide and highlights in Python straight into the element tree, so the
page's one safe path (tree -> DOM, no HTML) holds for highlighted code too.
The workspace editor uses CodeMirror 6's own highlighter (it has to: it
highlights as you type); the two share one colour theme through the short
token classes (``hl-k`` keyword, ``hl-s`` string, ``hl-c`` comment, ...)
styled in ``static/app.css``.  Why not CodeMirror's lezer highlighter in chat
too: it lives in JavaScript on another branch's import map, and calling it per
streamed chunk would cross the Python/JS boundary once per token; Pygments is
loaded lazily (``wiggum.web.packages.load_packages("pygments")`` once a reply has a
code block), so the first screen pays nothing for it.

:func:`highlight` returns ``None`` while the language's lexer is not loaded
(or for an unknown language, or very long code): the block shows as plain
text and is coloured in place once the lexer has loaded (``wiggum.web``).
Measured in Chromium/Pyodide: loading the wheel ~180-240 ms, importing
``pygments.lexers`` ~145 ms, one lexer 80-210 ms; highlighting a block then
costs about 1 ms per 1 KB.  So the page loads Pygments and the common lexers
one per task while idle after boot, and any other lexer in a task of its own.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import Any

from .markdown import El

__all__ = [
    "COMMON",
    "MAX_CHARS",
    "LexerRequests",
    "available",
    "highlight",
    "highlight_steps",
    "lexer_pending",
    "load_lexer",
]

#: Languages whose lexers the page loads ahead, while idle after boot.
COMMON = ("python", "javascript", "typescript", "html", "css", "json", "sh")

#: Longer code is shown plain: highlighting it would cost more than a frame.
MAX_CHARS = 20_000


def available() -> bool:
    """Whether Pygments is importable right now (never imports it itself in the page)."""
    if "pygments" in sys.modules:
        return True
    from importlib.util import find_spec

    return find_spec("pygments") is not None


class LexerRequests:
    """Which languages' lexers to start loading: each once, whatever asks for it."""

    def __init__(self) -> None:
        self.requested: set[str] = set()

    def claim(self, langs: Iterable[str]) -> tuple[str, ...]:
        """The languages of ``langs`` (any case, in order) not asked for before."""
        new = tuple(dict.fromkeys(lang.lower() for lang in langs if lang))
        new = tuple(lang for lang in new if lang not in self.requested)
        self.requested.update(new)
        return new

    def wanted(self, langs: Iterable[str]) -> bool:
        """Whether any of ``langs`` has not been asked for yet."""
        return any(lang and lang.lower() not in self.requested for lang in langs)


_LEXERS: dict[str, Any] = {}  # lang -> lexer, or None for an unknown language


def load_lexer(lang: str) -> Any:
    """Import (once) the lexer of ``lang``: 80-210 ms in Pyodide, so never during a render."""
    lang = lang.lower()
    if lang not in _LEXERS:
        from pygments.lexers import get_lexer_by_name
        from pygments.util import ClassNotFound

        try:
            lexer = get_lexer_by_name(lang, stripnl=False, ensurenl=False)
            lexer.get_tokens("x")  # compiles its regular expressions now
            _LEXERS[lang] = lexer
        except ClassNotFound:
            _LEXERS[lang] = None
    return _LEXERS[lang]


def lexer_pending(lang: str) -> bool:
    """Whether ``lang`` could be highlighted once :func:`load_lexer` has run for it."""
    return bool(lang) and lang.lower() not in _LEXERS and available()


def highlight(code: str, lang: str) -> list[El | str] | None:
    """``code`` as text and ``span.hl-<short>`` children, or ``None`` to show it plain.

    Only with a lexer already loaded (:func:`load_lexer`): a render never imports one.
    """
    spans = highlight_steps(code, lang)
    return None if spans is None else list(spans)


def highlight_steps(code: str, lang: str) -> Iterator[El | str] | None:
    """:func:`highlight` a node at a time: the same nodes, each handed out once final.

    Pygments lexes lazily, so a caller that takes a few nodes per task spreads
    the highlighting of a long block over several tasks (the page does).
    """
    if not lang or len(code) > MAX_CHARS:
        return None
    lexer = _LEXERS.get(lang.lower())
    if lexer is None:
        return None
    return _spans(lexer, code)


def _spans(lexer: Any, code: str) -> Iterator[El | str]:
    from pygments.token import STANDARD_TYPES

    last: El | str | None = None  # held back: the next token may still join it
    for ttype, value in lexer.get_tokens(code):
        short = ""
        while ttype is not None and not (short := STANDARD_TYPES.get(ttype, "")):
            ttype = ttype.parent
        if short in ("", "w"):
            if isinstance(last, str):
                last += value
                continue
            node: El | str = value
        elif isinstance(last, El) and last.attrs["class"] == f"hl-{short}":
            last.children[0] += value  # type: ignore[operator]
            continue
        else:
            node = El("span", {"class": f"hl-{short}"}, [value])
        if last is not None:
            yield last
        last = node
    if last is not None:
        yield last
