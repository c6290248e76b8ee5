"""Markdown -> a small, safe element tree that the page turns into DOM nodes.

Parsing is markdown-it-py's (a port of the CommonMark reference parser
markdown-it; CommonMark preset, raw HTML off) with mdit-py-plugins for GFM
tables' neighbours (strikethrough is markdown-it's own rule, tables too; task
lists come from ``mdit_py_plugins.tasklists``) and linkify-it-py for bare
URLs.  What stays Wiggum's own, and why it is hand-written: turning the tokens
into an :class:`El` tree that holds *only* what the page may show.  Model text
is untrusted, so this tree is the one place that decides:

* no HTML is ever produced: the page builds elements from the tree with
  ``createElement`` / text nodes (``wiggum.web.dom``); raw HTML in the text is
  text (``html`` is off, and any html token that still appears is text);
* links only to ``http(s):``, ``mailto:`` and in-page ``#anchors``
  (:func:`safe_href` reads the scheme the way a browser would: entities,
  controls and whitespace removed), always ``rel="noopener noreferrer"``;
  any other address keeps its label as text in a ``span.unsafe-link``;
* images become links to their address (the page loads nothing from another
  origin on the model's say-so);
* task-list checkboxes are disabled ``<input type=checkbox>``: the only input
  element the tree can hold, with attributes chosen here.

:func:`to_html` serializes the tree (escaped) for the CPython tests, which hold
it to the CommonMark 0.31.2 spec's examples.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.token import Token

__all__ = [
    "SAFE_SCHEMES",
    "El",
    "code_lang",
    "code_text",
    "parser",
    "plain_text",
    "render",
    "safe_href",
    "to_html",
    "tokens_to_tree",
]

#: Link schemes the page may put into an ``href``.
SAFE_SCHEMES = frozenset({"http", "https", "mailto"})
UNSAFE_TITLE = "Link removed: its address was not safe to open"
#: Deepest nesting kept (markdown-it caps at 20 nested blocks itself).
MAX_NESTING = 20


@dataclass(slots=True)
class El:
    """One element: ``tag``, attributes chosen by this module, children (El or text)."""

    tag: str
    attrs: dict[str, str] = field(default_factory=dict)
    children: list[El | str] = field(default_factory=list)


Child = El | str


# --------------------------------------------------------------------- links

_CONTROL_OR_SPACE = re.compile(r"[\x00-\x20\x7f-\x9f\u00a0\u1680\u2000-\u200f\u2028-\u202f\ufeff]")
_C0_AND_SPACE = "".join(chr(c) for c in range(0x21))
_SCHEME = re.compile(r"^([a-z][a-z0-9+.\-]*):")


def safe_href(raw: str, *, relative: bool = False) -> str | None:
    """The address to put into ``href``, or ``None`` when it must not be a link.

    Allowed: ``http(s):``, ``mailto:`` and ``#anchor``; with ``relative`` also
    scheme-less relative addresses (used only by the spec tests, whose examples
    link to ``/uri``).  Entities are decoded first (``&#106;avascript:`` is
    ``javascript:``), and the scheme is read the way a browser would after
    dropping whitespace and control characters anywhere in it.
    """
    url = html.unescape(raw or "")
    url = url.strip(_C0_AND_SPACE).replace("\t", "").replace("\n", "").replace("\r", "")
    probe = _CONTROL_OR_SPACE.sub("", url).lower()
    if not probe:
        return "" if relative and not url else None
    m = _SCHEME.match(probe)
    if m:
        return url if m.group(1) in SAFE_SCHEMES else None
    head = re.split(r"[/?#]", probe, maxsplit=1)[0]
    if ":" in head:
        return None
    if probe.startswith("#") or relative:
        return url
    return None


# -------------------------------------------------------------------- parser


@lru_cache(maxsize=2)
def parser(gfm: bool = True) -> MarkdownIt:
    """The shared markdown-it instance (CommonMark, raw HTML off; GFM extras if ``gfm``)."""
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False})
    if gfm:
        from mdit_py_plugins.tasklists import tasklists_plugin

        md.enable(["table", "strikethrough"])
        try:  # linkify-it-py is optional: without it bare URLs stay text
            import linkify_it  # noqa: F401

            md.options["linkify"] = True
            md.enable("linkify")
        except ImportError:
            pass
        md.use(tasklists_plugin)
    # We choose hrefs ourselves (safe_href); markdown-it's own check would turn
    # refused links into literal "[x](javascript:...)" text instead of a label.
    md.validateLink = lambda url: True
    return md


def render(text: str, *, gfm: bool = True, relative_links: bool = False) -> list[Child]:
    """The element tree of the markdown ``text`` (its top-level blocks)."""
    md = parser(gfm)
    return tokens_to_tree(md.parse(text), relative_links=relative_links)


# ------------------------------------------------------------ tokens -> tree

_BLOCK_TAGS = {
    "paragraph": "p",
    "blockquote": "blockquote",
    "bullet_list": "ul",
    "ordered_list": "ol",
    "list_item": "li",
    "table": "table",
    "thead": "thead",
    "tbody": "tbody",
    "tr": "tr",
    "th": "th",
    "td": "td",
    "em": "em",
    "strong": "strong",
    "s": "del",
}
_ALIGN = re.compile(r"text-align:(left|right|center)")


def tokens_to_tree(tokens: list[Token], *, relative_links: bool = False) -> list[Child]:
    """Block tokens (``md.parse``) -> a list of elements; see the module docstring."""
    root = El("root")
    _blocks(tokens, 0, len(tokens), root, relative_links)
    return root.children


def _blocks(tokens: list[Token], i: int, end: int, parent: El, rel: bool) -> int:
    stack: list[El] = [parent]
    tight_hidden = False
    while i < end:
        tok = tokens[i]
        t = tok.type
        top = stack[-1]
        if tok.nesting == 1:
            if t == "paragraph_open" and tok.hidden:
                tight_hidden = True
                i += 1
                continue
            el = _open_block(tok)
            top.children.append(el)
            stack.append(el)
        elif tok.nesting == -1:
            if t == "paragraph_close" and tok.hidden:
                tight_hidden = False
                i += 1
                continue
            if len(stack) > 1:
                stack.pop()
        elif t == "inline":
            _inline(tok.children or [], top, rel)
        elif t in ("fence", "code_block"):
            top.children.append(_code(tok))
        elif t == "hr":
            top.children.append(El("hr"))
        elif t == "html_block":  # html is off; should it ever come, it is text
            top.children.append(El("p", {}, [tok.content]))
        i += 1
    del tight_hidden
    return i


def _open_block(tok: Token) -> El:
    t = tok.type[: -len("_open")]
    if t == "heading":
        return El(tok.tag if re.fullmatch(r"h[1-6]", tok.tag) else "h6")
    tag = _BLOCK_TAGS.get(t, "div")
    attrs: dict[str, str] = {}
    if t == "ordered_list":
        start = tok.attrGet("start")
        if start is not None and str(start) != "1":
            attrs["start"] = str(int(start))
    elif t in ("th", "td"):
        m = _ALIGN.search(str(tok.attrGet("style") or ""))
        if m:
            attrs["style"] = f"text-align:{m.group(1)}"
    elif t == "list_item" and "task-list-item" in str(tok.attrGet("class") or ""):
        attrs["class"] = "task-list-item"
    elif t in ("bullet_list", "ordered_list") and "contains-task-list" in str(
        tok.attrGet("class") or ""
    ):
        attrs["class"] = "contains-task-list"
    return El(tag, attrs)


def _code(tok: Token) -> El:
    from markdown_it.common.utils import unescapeAll

    info = unescapeAll(tok.info).strip()
    lang = info.split(None, 1)[0][:40] if info else ""
    code = El("code", {"class": f"language-{lang}"} if lang else {}, [tok.content])
    return El("pre", {}, [code])


def _inline(tokens: list[Token], parent: El, rel: bool) -> None:
    stack: list[El] = [parent]
    for tok in tokens:
        t = tok.type
        top = stack[-1]
        if t == "text":
            _text(top, tok.content)
        elif t == "softbreak":
            _text(top, "\n")
        elif t == "hardbreak":
            top.children.append(El("br"))
        elif t == "code_inline":
            top.children.append(El("code", {}, [tok.content]))
        elif t == "link_open":
            el = _link(str(tok.attrGet("href") or ""), tok.attrGet("title"), rel)
            top.children.append(el)
            stack.append(el)
        elif t == "image":
            label = _plain_tokens(tok.children or []) or tok.content or "image"
            el = _link(str(tok.attrGet("src") or ""), tok.attrGet("title"), rel)
            el.attrs.setdefault("class", "image-link")
            el.children.append(label)
            top.children.append(el)
        elif t == "html_inline" and _TASK_BOX.fullmatch(tok.content):
            # tasklists_plugin's own token (raw HTML is off, so none comes from the text)
            top.children.append(_checkbox("checked=" in tok.content))
        elif t in ("html_inline", "html_block"):  # html is off; text if it ever comes
            _text(top, tok.content)
        elif tok.nesting == 1:
            tag = _BLOCK_TAGS.get(t[: -len("_open")], "span")
            el = El(tag)
            top.children.append(el)
            stack.append(el)
        elif tok.nesting == -1 and len(stack) > 1:
            stack.pop()


_TASK_BOX = re.compile(
    r'<input class="task-list-item-checkbox" (?:checked="checked" )?'
    r'disabled="disabled" type="checkbox">'
)


def _checkbox(checked: bool) -> El:
    attrs = {"type": "checkbox", "class": "task-list-item-checkbox", "disabled": ""}
    if checked:
        attrs["checked"] = ""
    return El("input", attrs)


def _link(raw: str, title: Any, rel: bool) -> El:
    href = safe_href(raw, relative=rel)
    if href is None:
        return El("span", {"class": "unsafe-link", "title": UNSAFE_TITLE})
    attrs = {"href": href, "rel": "noopener noreferrer"}
    if not href.startswith("#"):
        attrs["target"] = "_blank"
    if title:
        attrs["title"] = str(title)
    return El("a", attrs)


def _text(parent: El, text: str) -> None:
    if not text:
        return
    kids = parent.children
    if kids and isinstance(kids[-1], str):
        kids[-1] += text
    else:
        kids.append(text)


def _plain_tokens(tokens: list[Token]) -> str:
    out = []
    for tok in tokens:
        if tok.type in ("text", "code_inline"):
            out.append(tok.content)
        elif tok.type in ("softbreak", "hardbreak"):
            out.append("\n")
        elif tok.children:
            out.append(_plain_tokens(tok.children))
    return "".join(out)


# ------------------------------------------------------------------ helpers


def plain_text(nodes: list[Child] | El | str) -> str:
    """The text a person reads in ``nodes`` (for tests and labels)."""
    if isinstance(nodes, str):
        return nodes
    if isinstance(nodes, El):
        return plain_text(nodes.children)
    return "".join(plain_text(n) for n in nodes)


_VOID = {"br", "hr", "input"}
# Where markdown-it's renderer puts a newline: after block closes, and after
# the opening tag of containers whose children are blocks.
_NL_AFTER_OPEN = {"ul", "ol", "blockquote", "table", "thead", "tbody", "tr"}
_NL_AFTER_CLOSE = {
    "p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "blockquote", "pre",
    "table", "thead", "tbody", "tr", "th", "td",
}  # fmt: skip


def to_html(nodes: list[Child]) -> str:
    """The tree as escaped HTML in markdown-it's layout (tests only; the page never uses it)."""
    out: list[str] = []
    for n in nodes:
        _html(n, out)
    return "".join(out)


def _html(n: Child, out: list[str]) -> None:
    if isinstance(n, str):
        out.append(html.escape(n, quote=False).replace('"', "&quot;"))
        return
    shown = {k: v for k, v in n.attrs.items() if k not in ("rel", "target")}  # always set
    attrs = "".join(f' {k}="{html.escape(v)}"' for k, v in shown.items())
    if n.tag in _VOID:
        out.append(f"<{n.tag}{attrs} />")
        if n.tag in ("hr", "br"):
            out.append("\n")
        return
    out.append(f"<{n.tag}{attrs}>")
    if n.tag in _NL_AFTER_OPEN or (n.tag == "li" and n.children and _is_block(n.children[0])):
        out.append("\n")
    prev: Child | None = None
    for c in n.children:
        if prev is not None and _is_block(c) and not _is_block(prev):
            out.append("\n")  # a block after a tight item's text
        _html(c, out)
        prev = c
    out.append(f"</{n.tag}>")
    if n.tag in _NL_AFTER_CLOSE:
        out.append("\n")


def _is_block(c: Child) -> bool:
    return isinstance(c, El) and c.tag in _NL_AFTER_CLOSE | {"hr"}


def _code_of(pre: El) -> El:
    return pre.children[0] if pre.children and isinstance(pre.children[0], El) else El("code")


def code_lang(pre: El) -> str:
    """The language of a code block (its ``pre``), from its fence's info string."""
    cls = _code_of(pre).attrs.get("class", "")
    return cls[len("language-") :] if cls.startswith("language-") else ""


def code_text(pre: El) -> str:
    """The code of a code block (its ``pre``), as text."""
    return plain_text(_code_of(pre))
