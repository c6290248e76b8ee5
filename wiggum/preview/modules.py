"""JavaScript rewriting: relative ``import``/``export ... from``/``import("...")``
specifiers of modules become ``data:`` URLs, and code is made safe to inline.

Also notes the data files a script may ``fetch()`` (string literals that name
one), so the bundle embeds those first for the runtime's fetch shim.
"""

from __future__ import annotations

import re

from .css import Embed

__all__ = ["data_literals", "rewrite_module", "script_text"]

_JS_SPEC = re.compile(r"""(\bimport\s*\(\s*|\bimport\s*|\bfrom\s*)(["'])([^"'\n]+)\2""")
#: String literals in scripts that name a data file the script may fetch().
_DATA_LITERAL = re.compile(
    r"""["'`]([^"'`\s<>()]+\.(?:json|geojson|txt|csv|tsv|md|xml|svg|html?))(?:[?#][^"'`\s]*)?["'`]""",
    re.I,
)


async def rewrite_module(js: str, embed: Embed) -> str:
    """Module code with its relative import specifiers turned into data: URLs."""
    out: list[str] = []
    pos = 0
    for m in _JS_SPEC.finditer(js):
        spec = m.group(3)
        if not spec.startswith(("./", "../", "/")):
            continue
        url = await embed(spec)
        if url is not None:
            out.append(js[pos : m.start(3)])
            out.append(url)
            pos = m.end(3)
    out.append(js[pos:])
    return "".join(out)


def data_literals(js: str) -> set[str]:
    """The data files ``js`` may ``fetch()`` (string literals naming one)."""
    return {m.group(1) for m in _DATA_LITERAL.finditer(js)}


def script_text(js: str) -> str:
    """JS safe inside ``<script>...</script>``: nothing in it can end the element."""
    js = re.sub(r"</(script)", r"\\x3C/\1", js, flags=re.I)
    return js.replace("<!--", "\\x3C!--")
