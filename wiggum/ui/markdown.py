"""Markdown -> a small, safe AST that the page turns into DOM nodes.

Model text is untrusted.  This parser never produces HTML: the page builds
elements with ``createElement`` / ``textContent`` from the :class:`Node`
tree, so nothing in the text can become markup.  What it recognises:

* blocks: paragraphs, ATX and setext headings, fenced code blocks (with the
  info string's first word as ``lang``), bullet and ordered lists (nested),
  blockquotes, thematic breaks, GFM tables;
* inlines: emphasis and strong (CommonMark delimiter rules, simplified),
  code spans, links ``[text](url "title")``, autolinks ``<https://…>`` and bare
  ``https://…`` URLs, backslash escapes, entities, hard and soft line breaks.

Raw HTML is text.  Images (``![alt](src)``) become links (the page never
loads a remote image on the model's say-so).  A link whose address is not
http(s), mailto or relative (``javascript:``, ``data:``, ``vbscript:``, in
any case, entity-encoded or with whitespace/control characters mixed in)
becomes an ``unsafe_link`` node: its label, shown as text, with no address.

Unclosed constructs are tolerated (a fence still open at the end is a code
block to the end), so a reply can be rendered while it streams.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

__all__ = ["SAFE_SCHEMES", "Node", "parse", "parse_inline", "plain_text", "safe_href"]

#: Link schemes the page may put into an ``href``.
SAFE_SCHEMES = frozenset({"http", "https", "mailto"})


@dataclass(slots=True)
class Node:
    """One AST node.  ``type`` is one of:

    blocks: ``document``, ``paragraph``, ``heading`` (``level``), ``code_block``
    (``text``, ``lang``), ``list`` (``ordered``, ``start``, ``tight``), ``item``,
    ``blockquote``, ``hr``, ``table`` (children: ``row``; ``align`` per column),
    ``row`` (``header``), ``cell``;
    inlines: ``text`` (``text``), ``emph``, ``strong``, ``code`` (``text``),
    ``link`` (``href``, ``title``), ``unsafe_link`` (label only), ``softbreak``,
    ``hardbreak``.
    """

    type: str
    children: list[Node] = field(default_factory=list)
    text: str = ""
    level: int = 0
    lang: str = ""
    href: str = ""
    title: str = ""
    ordered: bool = False
    start: int = 1
    tight: bool = True
    header: bool = False
    align: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        """A compact dict (only the fields that matter for the type), for tests."""
        d: dict = {"type": self.type}
        for name in ("text", "lang", "href", "title"):
            value = getattr(self, name)
            if value:
                d[name] = value
        if self.type == "heading":
            d["level"] = self.level
        if self.type == "list":
            d["ordered"], d["start"], d["tight"] = self.ordered, self.start, self.tight
        if self.children:
            d["children"] = [c.to_dict() for c in self.children]
        return d


# --------------------------------------------------------------------- links


_CONTROL_OR_SPACE = re.compile(r"[\x00-\x20\x7f-\x9f\u00a0\u1680\u2000-\u200f\u2028-\u202f\ufeff]")
_C0_AND_SPACE = "".join(chr(c) for c in range(0x21))
_SCHEME = re.compile(r"^([a-z][a-z0-9+.\-]*):")


def safe_href(raw: str) -> str | None:
    """The address to put into ``href``, or ``None`` when it must not be a link.

    Entities are decoded first (``&#106;avascript:`` is ``javascript:``), and
    the scheme is read the way a browser would after dropping whitespace and
    control characters anywhere in it (``java\\tscript:``, `` javascript:``).
    """
    url = html.unescape(raw or "")
    # Browsers strip leading/trailing C0 controls and spaces and remove tabs and
    # newlines anywhere; we drop every control/space character for the scheme test.
    url = url.strip(_C0_AND_SPACE).replace("\t", "").replace("\n", "").replace("\r", "")
    probe = _CONTROL_OR_SPACE.sub("", url).lower()
    if not probe:
        return None
    m = _SCHEME.match(probe)
    if m:
        return url if m.group(1) in SAFE_SCHEMES else None
    # No valid scheme: a ':' before any '/', '?' or '#' still smells like one.
    head = re.split(r"[/?#]", probe, maxsplit=1)[0]
    if ":" in head:
        return None
    return url


# --------------------------------------------------------------------- blocks

_FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})(.*)$")
_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_HR = re.compile(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_QUOTE = re.compile(r"^ {0,3}> ?")
_ITEM = re.compile(r"^( {0,3})([-+*]|\d{1,9}[.)])([ \t]+|$)")
_TABLE_DELIM = re.compile(r"^ {0,3}\|?[ \t]*:?-+:?[ \t]*(\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$")


def _is_blank(line: str) -> bool:
    return not line.strip()


def _starts_block(line: str) -> bool:
    """Does ``line`` interrupt a paragraph?"""
    if _FENCE.match(line) or _ATX.match(line) or _HR.match(line) or _QUOTE.match(line):
        return True
    m = _ITEM.match(line)
    if m and line[m.end() :].strip():
        marker = m.group(2)
        return marker in "-+*" or marker[:-1] == "1"
    return False


def parse(text: str) -> Node:
    """Parse markdown into a ``document`` node."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").expandtabs(4).split("\n")
    return Node("document", _blocks(lines))


#: Containers (quotes, lists) nested deeper than this are shown as text.
MAX_DEPTH = 24


def _blocks(lines: list[str], depth: int = 0) -> list[Node]:
    if depth > MAX_DEPTH:
        text = "\n".join(line.strip() for line in lines).strip()
        return [Node("paragraph", [_text(text)])] if text else []
    out: list[Node] = []
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        if _is_blank(line):
            i += 1
            continue
        m = _FENCE.match(line)
        if m and not (m.group(2)[0] == "`" and "`" in m.group(3)):
            i = _fence(lines, i, m, out)
            continue
        m = _ATX.match(line)
        if m:
            out.append(
                Node("heading", parse_inline((m.group(2) or "").strip()), level=len(m.group(1)))
            )
            i += 1
            continue
        if _HR.match(line):
            out.append(Node("hr"))
            i += 1
            continue
        if _QUOTE.match(line):
            i = _quote(lines, i, out, depth)
            continue
        m = _ITEM.match(line)
        if m:
            i = _list(lines, i, out, depth)
            continue
        if "|" in line and i + 1 < n and _TABLE_DELIM.match(lines[i + 1]):
            table = _table(lines, i)
            if table is not None:
                node, i = table
                out.append(node)
                continue
        i = _paragraph(lines, i, out)
    return out


def _fence(lines: list[str], i: int, m: re.Match, out: list[Node]) -> int:
    indent, fence, info = len(m.group(1)), m.group(2), m.group(3).strip()
    lang = _unescape(info.split()[0]) if info else ""
    body: list[str] = []
    j = i + 1
    closer = re.compile(r"^ {0,3}" + re.escape(fence[0]) + "{" + str(len(fence)) + r",}[ \t]*$")
    while j < len(lines):
        if closer.match(lines[j]):
            j += 1
            break
        line = lines[j]
        strip = min(indent, len(line) - len(line.lstrip(" ")))
        body.append(line[strip:])
        j += 1
    out.append(Node("code_block", text="\n".join(body) + ("\n" if body else ""), lang=lang))
    return j


def _quote(lines: list[str], i: int, out: list[Node], depth: int) -> int:
    inner: list[str] = []
    j = i
    while j < len(lines):
        line = lines[j]
        m = _QUOTE.match(line)
        if m:
            inner.append(line[m.end() :])
        elif not _is_blank(line) and inner and not _is_blank(inner[-1]) and not _starts_block(line):
            inner.append(line)  # lazy continuation of the quoted paragraph
        else:
            break
        j += 1
    out.append(Node("blockquote", _blocks(inner, depth + 1)))
    return j


def _list(lines: list[str], i: int, out: list[Node], depth: int) -> int:
    first = _ITEM.match(lines[i])
    assert first is not None
    marker = first.group(2)
    ordered = marker[-1] in ".)"
    kind = marker[-1] if ordered else marker
    node = Node("list", ordered=ordered, start=int(marker[:-1]) if ordered else 1)
    tight = True
    j = i
    n = len(lines)
    while j < n:
        m = _ITEM.match(lines[j])
        if not m:
            break
        mk = m.group(2)
        if (mk[-1] if mk[-1] in ".)" else mk) != kind:
            break
        rest = lines[j][m.end() :]
        spacing = len(m.group(3))
        if not rest.strip():
            offset = len(m.group(1)) + len(mk) + 1
        elif spacing > 4:  # content indented 5+: one space belongs to the marker
            offset = len(m.group(1)) + len(mk) + 1
            rest = " " * (spacing - 1) + rest
        else:
            offset = m.end()
        body = [rest]
        j += 1
        blank_inside = False
        while j < n:
            line = lines[j]
            if _is_blank(line):
                # A blank line continues the item only if more indented content follows.
                k = j
                while k < n and _is_blank(lines[k]):
                    k += 1
                if k < n and len(lines[k]) - len(lines[k].lstrip(" ")) >= offset:
                    body.extend([""] * (k - j))
                    blank_inside = True
                    j = k
                    continue
                break
            indent = len(line) - len(line.lstrip(" "))
            if indent >= offset:
                body.append(line[offset:])
                j += 1
                continue
            if _ITEM.match(line) or _starts_block(line):
                break
            if body and not _is_blank(body[-1]):
                body.append(line.lstrip(" "))  # lazy paragraph continuation
                j += 1
                continue
            break
        item = Node("item", _blocks(body, depth + 1))
        node.children.append(item)
        if blank_inside and len(item.children) > 1:
            tight = False
        # A blank line between this item and the next makes the list loose.
        if j < n and _is_blank(lines[j]):
            k = j
            while k < n and _is_blank(lines[k]):
                k += 1
            m2 = _ITEM.match(lines[k]) if k < n else None
            if m2 and (m2.group(2)[-1] if m2.group(2)[-1] in ".)" else m2.group(2)) == kind:
                tight = False
                j = k
                continue
            break
    node.tight = tight
    out.append(node)
    return j


def _split_row(line: str) -> list[str]:
    s = line.strip()
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|") and not s.endswith("\\|"):
        s = s[:-1]
    cells, buf, k = [], [], 0
    while k < len(s):
        ch = s[k]
        if ch == "\\" and k + 1 < len(s) and s[k + 1] == "|":
            buf.append("|")
            k += 2
            continue
        if ch == "|":
            cells.append("".join(buf).strip())
            buf = []
        else:
            buf.append(ch)
        k += 1
    cells.append("".join(buf).strip())
    return cells


def _table(lines: list[str], i: int) -> tuple[Node, int] | None:
    head = _split_row(lines[i])
    delims = _split_row(lines[i + 1])
    if len(head) != len(delims):
        return None
    align = tuple(
        "center"
        if d.startswith(":") and d.endswith(":")
        else "right"
        if d.endswith(":")
        else "left"
        if d.startswith(":")
        else ""
        for d in delims
    )
    cols = len(head)

    def row(cells: list[str], header: bool) -> Node:
        cells = (cells + [""] * cols)[:cols]
        return Node("row", [Node("cell", parse_inline(c)) for c in cells], header=header)

    table = Node("table", [row(head, True)], align=align)
    j = i + 2
    while j < len(lines) and not _is_blank(lines[j]) and not _starts_block(lines[j]):
        table.children.append(row(_split_row(lines[j]), False))
        j += 1
    return table, j


def _paragraph(lines: list[str], i: int, out: list[Node]) -> int:
    buf = [lines[i].lstrip(" ")]
    j = i + 1
    while j < len(lines):
        line = lines[j]
        if _is_blank(line):
            break
        m = _SETEXT.match(line)
        if m:
            level = 1 if m.group(1)[0] == "=" else 2
            out.append(Node("heading", parse_inline("\n".join(buf)), level=level))
            return j + 1
        if _starts_block(line):
            break
        if "|" in line and j + 1 < len(lines) and _TABLE_DELIM.match(lines[j + 1]):
            break
        buf.append(line.lstrip(" "))
        j += 1
    out.append(Node("paragraph", parse_inline("\n".join(buf).rstrip())))
    return j


# --------------------------------------------------------------------- inlines

_PUNCT = set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_AUTOLINK = re.compile(r"<((?:https?|mailto):[^\s<>]*)>", re.IGNORECASE)
_EMAIL_AUTOLINK = re.compile(
    r"<([A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*)>"
)
_BARE_URL = re.compile(r"https?://[^\s<>\"'`]+", re.IGNORECASE)


def _is_punct(ch: str) -> bool:
    return ch in _PUNCT or (not ch.isalnum() and not ch.isspace() and ch != "")


def _unescape(s: str) -> str:
    s = re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", s)
    return _ENTITY.sub(lambda m: html.unescape(m.group(0)), s)


@dataclass(slots=True)
class _Delim:
    char: str
    count: int
    orig: int
    can_open: bool
    can_close: bool


@dataclass(slots=True)
class _Bracket:
    image: bool
    active: bool = True


def _text(s: str) -> Node:
    return Node("text", text=s)


def parse_inline(src: str) -> list[Node]:
    """Parse one paragraph's (or heading's, or cell's) inline content."""
    tokens: list = []
    buf: list[str] = []
    i, n = 0, len(src)

    def flush() -> None:
        if buf:
            tokens.append(_text("".join(buf)))
            buf.clear()

    while i < n:
        ch = src[i]
        if ch == "\\":
            nxt = src[i + 1] if i + 1 < n else ""
            if nxt == "\n":
                flush()
                tokens.append(Node("hardbreak"))
                i += 2
                continue
            if nxt and nxt in _PUNCT:
                buf.append(nxt)
                i += 2
                continue
            buf.append(ch)
            i += 1
            continue
        if ch == "`":
            j = i
            while j < n and src[j] == "`":
                j += 1
            run = j - i
            k = j
            close = -1
            while k < n:
                if src[k] == "`":
                    e = k
                    while e < n and src[e] == "`":
                        e += 1
                    if e - k == run:
                        close = k
                        break
                    k = e
                else:
                    k += 1
            if close < 0:
                buf.append(src[i:j])
                i = j
                continue
            code = src[j:close].replace("\n", " ")
            if len(code) >= 2 and code[0] == " " and code[-1] == " " and code.strip():
                code = code[1:-1]
            flush()
            tokens.append(Node("code", text=code))
            i = close + run
            continue
        if ch == "&":
            m = _ENTITY.match(src, i)
            if m:
                buf.append(html.unescape(m.group(0)))
                i = m.end()
                continue
            buf.append(ch)
            i += 1
            continue
        if ch == "<":
            m = _AUTOLINK.match(src, i) or _EMAIL_AUTOLINK.match(src, i)
            if m:
                target = m.group(1)
                href = target if ":" in target else "mailto:" + target
                flush()
                tokens.append(_link(href, "", [_text(target)]))
                i = m.end()
                continue
            buf.append(ch)  # raw HTML is text
            i += 1
            continue
        if ch in "hH" and (i == 0 or not src[i - 1].isalnum()):
            m = _BARE_URL.match(src, i)
            if m:
                url = m.group(0)
                # Trailing punctuation is not part of the URL; nor is an unbalanced ')'.
                while url and url[-1] in ".,:;!?*_~'\"":
                    url = url[:-1]
                while url.endswith(")") and url.count(")") > url.count("("):
                    url = url[:-1]
                if len(url) > len("https://"):
                    flush()
                    tokens.append(_link(url, "", [_text(url)]))
                    i += len(url)
                    continue
        if ch in "*_":
            j = i
            while j < n and src[j] == ch:
                j += 1
            before = src[i - 1] if i > 0 else " "
            after = src[j] if j < n else " "
            left = not after.isspace() and (
                not _is_punct(after) or before.isspace() or _is_punct(before)
            )
            right = not before.isspace() and (
                not _is_punct(before) or after.isspace() or _is_punct(after)
            )
            if ch == "*":
                can_open, can_close = left, right
            else:
                can_open = left and (not right or _is_punct(before))
                can_close = right and (not left or _is_punct(after))
            flush()
            tokens.append(_Delim(ch, j - i, j - i, can_open, can_close))
            i = j
            continue
        if ch == "!" and i + 1 < n and src[i + 1] == "[":
            flush()
            tokens.append(_Bracket(image=True))
            i += 2
            continue
        if ch == "[":
            flush()
            tokens.append(_Bracket(image=False))
            i += 1
            continue
        if ch == "]":
            flush()
            i = _close_bracket(src, i, tokens)
            continue
        if ch == "\n":
            # Two trailing spaces make a hard break; otherwise a soft one.
            hard = False
            if buf and "".join(buf[-2:]).endswith("  "):
                hard = True
            while buf and buf[-1] == " ":
                buf.pop()
            flush()
            tokens.append(Node("hardbreak" if hard else "softbreak"))
            i += 1
            while i < n and src[i] == " ":
                i += 1
            continue
        buf.append(ch)
        i += 1
    flush()
    return _resolve(tokens)


def _parse_destination(src: str, i: int) -> tuple[str, str, int] | None:
    """``(dest, title, end)`` of ``(dest "title")`` starting at ``src[i] == '('``."""
    n = len(src)
    j = i + 1
    while j < n and src[j] in " \n":
        j += 1
    if j < n and src[j] == "<":
        k = src.find(">", j + 1)
        if k < 0 or "\n" in src[j:k]:
            return None
        dest = src[j + 1 : k]
        j = k + 1
    else:
        depth = 0
        k = j
        while k < n:
            c = src[k]
            if c == "\\" and k + 1 < n:
                k += 2
                continue
            if c == "(":
                depth += 1
            elif c == ")":
                if depth == 0:
                    break
                depth -= 1
            elif c.isspace() or ord(c) < 0x20:
                break
            k += 1
        dest = src[j:k]
        j = k
    while j < n and src[j] in " \n":
        j += 1
    title = ""
    if j < n and src[j] in "\"'(":
        close = ")" if src[j] == "(" else src[j]
        k = j + 1
        while k < n and src[k] != close:
            k += 2 if src[k] == "\\" else 1
        if k >= n:
            return None
        title = src[j + 1 : k]
        j = k + 1
        while j < n and src[j] in " \n":
            j += 1
    if j >= n or src[j] != ")":
        return None
    return _unescape(dest), _unescape(title), j + 1


def _link(href: str, title: str, children: list[Node]) -> Node:
    safe = safe_href(href)
    if safe is None:
        return Node("unsafe_link", children)
    return Node("link", children, href=safe, title=title)


def _close_bracket(src: str, i: int, tokens: list) -> int:
    """Handle ``]`` at ``src[i]``; returns the index to continue from."""
    opener = -1
    for k in range(len(tokens) - 1, -1, -1):
        if isinstance(tokens[k], _Bracket):
            opener = k
            break
    if opener < 0:
        tokens.append(_text("]"))
        return i + 1
    br: _Bracket = tokens[opener]
    parsed = None
    if br.active and i + 1 < len(src) and src[i + 1] == "(":
        parsed = _parse_destination(src, i + 1)
    if parsed is None:
        tokens[opener] = _text("![" if br.image else "[")
        tokens.append(_text("]"))
        return i + 1
    dest, title, end = parsed
    children = _resolve(tokens[opener + 1 :])
    del tokens[opener:]
    tokens.append(_link(dest, title, children))
    if not br.image:  # no links inside links
        for t in tokens[:opener]:
            if isinstance(t, _Bracket) and not t.image:
                t.active = False
    return end


def _resolve(tokens: list) -> list[Node]:
    """Match emphasis delimiters, turn leftovers into text, merge adjacent text."""
    i = 0
    while i < len(tokens):
        t = tokens[i]
        if not (isinstance(t, _Delim) and t.can_close and t.count > 0):
            i += 1
            continue
        found = -1
        for j in range(i - 1, -1, -1):
            o = tokens[j]
            if not (isinstance(o, _Delim) and o.char == t.char and o.can_open and o.count > 0):
                continue
            if (
                (o.can_close or t.can_open)
                and (o.orig + t.orig) % 3 == 0
                and not (o.orig % 3 == 0 and t.orig % 3 == 0)
            ):
                continue
            found = j
            break
        if found < 0:
            i += 1
            continue
        o = tokens[found]
        use = 2 if o.count >= 2 and t.count >= 2 else 1
        node = Node("strong" if use == 2 else "emph", _finish(tokens[found + 1 : i]))
        o.count -= use
        t.count -= use
        tokens[found + 1 : i] = [node]
        i = found + 2
    return _finish(tokens)


def _finish(tokens: list) -> list[Node]:
    out: list[Node] = []
    for t in tokens:
        if isinstance(t, _Delim):
            if t.count <= 0:
                continue
            t = _text(t.char * t.count)
        elif isinstance(t, _Bracket):
            t = _text("![" if t.image else "[")
        if t.type == "text" and out and out[-1].type == "text":
            out[-1] = _text(out[-1].text + t.text)
        elif t.type != "text" or t.text:
            out.append(t)
    return out


def plain_text(node: Node | list[Node]) -> str:
    """The text a reader sees, roughly (``textContent`` of the rendered nodes)."""
    if isinstance(node, list):
        return "".join(plain_text(c) for c in node)
    if node.type in ("text", "code", "code_block"):
        return node.text
    if node.type in ("softbreak", "hardbreak"):
        return "\n"
    return "".join(plain_text(c) for c in node.children)
