"""CSS rewriting: ``url(...)`` and ``@import`` references become ``data:`` URLs.

The caller says what a reference becomes (``embed``: the ``data:`` URL, or
``None`` to leave it as written), so the bundle can resolve it relative to the
CSS file and recurse into imported stylesheets.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

__all__ = ["Embed", "rewrite_css", "style_text"]

#: ``embed(ref)``: the ``data:`` URL for a reference, or ``None`` to keep it.
Embed = Callable[[str], Awaitable[str | None]]

_CSS_URL = re.compile(r"""url\(\s*(?:"([^"]*)"|'([^']*)'|([^)\s"']*))\s*\)""", re.I)
_CSS_IMPORT = re.compile(r"""@import\s+(["'])([^"']*)\1""", re.I)


async def rewrite_css(css: str, embed: Embed) -> str:
    """``css`` with its url()/@import refs as data: URLs."""
    out: list[str] = []
    pos = 0
    for m in _CSS_URL.finditer(css):
        ref = next((g for g in m.groups() if g is not None), "")
        url = await embed(ref)
        if url is not None:
            out.append(css[pos : m.start()])
            out.append(f'url("{url}")')
            pos = m.end()
    out.append(css[pos:])
    css = "".join(out)
    out, pos = [], 0
    for m in _CSS_IMPORT.finditer(css):
        url = await embed(m.group(2))
        if url is not None:
            out.append(css[pos : m.start()])
            out.append(f'@import url("{url}")')
            pos = m.end()
    out.append(css[pos:])
    return "".join(out)


def style_text(css: str) -> str:
    """CSS safe inside ``<style>...</style>``: nothing in it can end the element."""
    return re.sub(r"</(style)", r"\\3C/\1", css, flags=re.I)
