"""Editing a stylesheet's declarations in place, keeping every other byte.

The style inspector changes one property of one rule (``.cta { color: … }``)
and nothing else: comments, formatting, other rules, ``@media`` blocks and
whatever the file gets wrong stay as written.  tinycss2 (vendored, loaded on
first use: see :func:`_tinycss2`) tokenizes the file; its tokens carry a line
and column, which are turned into offsets in the original text (tinycss2 reads
``\\r\\n``, ``\\r`` and ``\\f`` as one newline, so each line's start is
counted in the original), and a token ends where the next one starts, so a
``{…}`` block ends at its ``}`` without a second scanner of our own.  The edit
is then a splice of the original text.

What it decides:

* the rule edited for a selector is the **last** rule at the top level whose
  selector list is exactly that selector (a list such as ``.a, .b`` would
  change other elements too; a rule inside ``@media`` applies only at some
  widths), so duplicate selectors resolve as the cascade does;
* a property is replaced where the rule says it last, unless a declaration
  after it overrides it (a shorthand such as ``background`` or ``font`` for a
  longhand, a longhand such as ``margin-top`` for ``margin``): then the
  property is written at the end of the rule, where it wins, and its earlier
  declarations go; ``!important`` is kept on a replaced value, and given to an
  appended one only when a declaration it must win over has it;
* a new declaration follows the rule's own layout (one per line with the same
  indent, or all on one line), and a missing ``;`` before it is added;
* a rule that does not exist is added at the end of the file, indented like
  the file's first declaration.

A file whose ``{`` has no ``}`` is refused with its line (where a new
declaration would go cannot be told).  The file is tokenized once, to find the
rule; each change then reads that rule's block alone, which must have no more
parse errors after the edit than before.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

__all__ = [
    "CssEditError",
    "Declaration",
    "StyleRule",
    "declarations",
    "find_rule",
    "parse_error_count",
    "set_rule",
    "style_rules",
]

#: At-rules whose block holds rules (looked into; ``@font-face`` and ``@keyframes`` are not).
_GROUPING = {"media", "supports", "layer", "container", "document", "scope", "starting-style"}
#: For each property the inspector writes: the declarations that set it too.
_SIDES = ("top", "right", "bottom", "left", "block", "inline")
_SIDES += tuple(f"{axis}-{end}" for axis in ("block", "inline") for end in ("start", "end"))
_ALSO_SETS: dict[str, tuple[str, ...]] = {
    "background-color": ("background",),
    "font-size": ("font",),
    "font-weight": ("font",),
    "margin": tuple(f"margin-{side}" for side in _SIDES),
    "padding": tuple(f"padding-{side}" for side in _SIDES),
}
_UNSAFE_VALUE = re.compile(r"[;{}\n\r\f\\<>]|/\*")


class CssEditError(ValueError):
    """A stylesheet the edit cannot be made in; the message says where and what to do."""


def _tinycss2() -> Any:
    """tinycss2, imported on first use: the page installs it (``load_packages``)
    only when the inspector opens, never for the first screen."""
    import tinycss2

    return tinycss2


@dataclass(frozen=True, slots=True)
class Declaration:
    """One ``name: value`` of a block, at offsets in the file's text."""

    name: str
    value: str
    important: bool
    #: Offset of the name's first character.
    start: int
    #: Offsets of the value as written (without ``!important``): start and end.
    value_span: tuple[int, int]
    #: Offset just after the declaration's last token (``!important`` included).
    end: int
    #: Offset of its ``;``, or ``None`` when it has none (the block's last).
    semicolon: int | None


@dataclass(frozen=True, slots=True)
class StyleRule:
    """A rule with a selector and a ``{…}`` block."""

    #: Each selector of its list, whitespace collapsed, comments left out.
    selectors: tuple[str, ...]
    #: The at-rules it is inside, innermost last (``("@media (max-width: 600px)",)``).
    context: tuple[str, ...]
    start: int
    #: Offset of its ``{`` and of its ``}``: the block's content is ``text[open + 1 : close]``.
    open: int
    close: int
    line: int


@dataclass(slots=True)
class _Tok:
    tok: Any
    start: int
    end: int
    #: A block's or function's own tokens.
    spans: list[_Tok] | None = None


class _Text:
    """A stylesheet's tokens with offsets in the original text."""

    def __init__(self, css: str) -> None:
        self.css = css
        starts = [0]
        for m in re.finditer(r"\r\n|[\r\n\f]", css):
            starts.append(m.end())
        self._line_starts = starts
        tokens = _tinycss2().parse_component_value_list(css, skip_comments=False)
        self.unclosed: list[int] = []
        self.top = self._spans(tokens, len(css))

    def offset(self, tok: Any) -> int:
        return self._line_starts[tok.source_line - 1] + tok.source_column - 1

    def line(self, offset: int) -> int:
        return self.css.count("\n", 0, offset) + 1

    def _spans(self, tokens: list[Any], limit: int) -> list[_Tok]:
        out = [_Tok(t, self.offset(t), limit) for t in tokens]
        for here, after in pairwise(out):
            here.end = after.start
        for item in out:
            if item.tok.type in ("{} block", "[] block", "() block", "function"):
                closer = {"{} block": "}", "[] block": "]"}.get(item.tok.type, ")")
                closed = item.end - 1 > item.start and self.css[item.end - 1] == closer
                if not closed and item.tok.type == "{} block":
                    self.unclosed.append(item.start)
                inner = item.end - 1 if closed else item.end
                item.spans = self._spans(_contents(item.tok), inner)
        return out


def _contents(tok: Any) -> list[Any]:
    return list(tok.arguments if tok.type == "function" else tok.content)


def _significant(items: list[_Tok]) -> list[_Tok]:
    return [i for i in items if i.tok.type not in ("whitespace", "comment")]


def _is(item: _Tok, literal: str) -> bool:
    return item.tok.type == "literal" and item.tok.value == literal


def _serialized(items: list[_Tok]) -> str:
    text = _tinycss2().serialize([i.tok for i in items if i.tok.type != "comment"])
    return re.sub(r"\s+", " ", text).strip()


def _selectors(prelude: list[_Tok]) -> tuple[str, ...]:
    parts: list[list[_Tok]] = [[]]
    for item in prelude:
        if _is(item, ","):
            parts.append([])
        else:
            parts[-1].append(item)
    return tuple(_serialized(p) for p in parts)


def _rules(text: _Text, items: list[_Tok], context: tuple[str, ...]) -> Iterator[StyleRule]:
    i, n = 0, len(items)
    while i < n:
        item = items[i]
        kind = item.tok.type
        if kind in ("whitespace", "comment") or _is(item, "<!--") or _is(item, "-->"):
            i += 1
            continue
        j = i + 1
        if kind == "at-keyword":
            while j < n and not _is(items[j], ";") and items[j].tok.type != "{} block":
                j += 1
            if j < n and items[j].tok.type == "{} block" and item.tok.lower_value in _GROUPING:
                inner = (*context, "@" + item.tok.lower_value + " " + _serialized(items[i + 1 : j]))
                yield from _rules(text, items[j].spans or [], inner)
            i = j + 1
            continue
        j = i
        while j < n and items[j].tok.type != "{} block":
            j += 1
        if j == n:
            return
        block = items[j]
        yield StyleRule(
            _selectors(items[i:j]),
            context,
            item.start,
            block.start,
            block.end - 1 if text.css[block.end - 1 : block.end] == "}" else block.end,
            text.line(item.start),
        )
        i = j + 1


def _checked(css: str) -> _Text:
    text = _Text(css)
    if text.unclosed:
        line = text.line(text.unclosed[0])
        raise CssEditError(
            f"line {line} opens a block with '{{' that is never closed with '}}'. "
            "Close it in the editor, then apply again."
        )
    return text


def style_rules(css: str) -> list[StyleRule]:
    """Every rule with a selector, in file order (inside ``@media`` and the like too)."""
    return list(_all_rules(css))


@functools.lru_cache(maxsize=8)
def _all_rules(css: str) -> tuple[StyleRule, ...]:
    # The inspector asks of the same few stylesheets for each class and each plan.
    text = _checked(css)
    return tuple(_rules(text, text.top, ()))


def find_rule(css: str, selector: str) -> StyleRule | None:
    """The rule edited for ``selector``: the last top-level one that is exactly it."""
    wanted = re.sub(r"\s+", " ", selector).strip()
    found = [r for r in style_rules(css) if not r.context and r.selectors == (wanted,)]
    return found[-1] if found else None


def _declarations(items: list[_Tok]) -> list[Declaration]:
    out: list[Declaration] = []
    segment: list[_Tok] = []
    for item in [*items, None]:
        if item is not None and not _is(item, ";") and item.tok.type != "{} block":
            segment.append(item)
            continue
        if item is not None and item.tok.type == "{} block":  # a nested rule: not ours
            segment = []
            continue
        decl = _declaration(segment, None if item is None else item.start)
        if decl is not None:
            out.append(decl)
        segment = []
    return out


def _declaration(segment: list[_Tok], semicolon: int | None) -> Declaration | None:
    sig = _significant(segment)
    if len(sig) < 2 or sig[0].tok.type != "ident" or not _is(sig[1], ":"):
        return None
    value = sig[2:]
    important = (
        len(value) >= 2
        and _is(value[-2], "!")
        and value[-1].tok.type == "ident"
        and value[-1].tok.lower_value == "important"
    )
    written = value[:-2] if important else value
    end = value[-1].end if value else sig[1].end
    span = (written[0].start, written[-1].end) if written else (end, end)
    name = sig[0].tok.lower_value
    return Declaration(name, "", important, sig[0].start, span, end, semicolon)


def _block_declarations(content: str) -> list[Declaration]:
    """The declarations of a block's ``content`` (offsets in ``content``)."""
    return [_with_value(content, d) for d in _declarations(_Text(content).top)]


def declarations(css: str, rule: StyleRule) -> list[Declaration]:
    """The declarations of ``rule`` in ``css``, in order (nested rules left out)."""
    at = rule.open + 1
    return [
        Declaration(
            d.name,
            d.value,
            d.important,
            d.start + at,
            (d.value_span[0] + at, d.value_span[1] + at),
            d.end + at,
            None if d.semicolon is None else d.semicolon + at,
        )
        for d in _block_declarations(css[at : rule.close])
    ]


def _with_value(css: str, d: Declaration) -> Declaration:
    value = css[d.value_span[0] : d.value_span[1]].strip()
    return Declaration(d.name, value, d.important, d.start, d.value_span, d.end, d.semicolon)


def _safe(prop: str, value: str) -> None:
    if not re.fullmatch(r"-?[a-z][a-z0-9-]*", prop) or _UNSAFE_VALUE.search(value):
        raise CssEditError(f"'{prop}: {value}' cannot be written into a stylesheet as it is.")


def _line_start(css: str, offset: int) -> int:
    return max(css.rfind("\n", 0, offset), css.rfind("\r", 0, offset)) + 1


def _indent(css: str, offset: int) -> str:
    start = _line_start(css, offset)
    return re.match(r"[ \t]*", css[start:offset]).group(0)


def _removed(content: str, d: Declaration) -> str:
    """A block's ``content`` without ``d`` (its ``;`` too), and its line when it
    was alone on it (not on the line of the block's ``{``)."""
    stop = d.semicolon + 1 if d.semicolon is not None else d.end
    line_start = _line_start(content, d.start)
    rest = re.match(r"[ \t]*(\r\n|\r|\n)?", content[stop:])
    alone = line_start > 0 and not content[line_start : d.start].strip()
    if alone and rest.group(1):
        return content[:line_start] + content[stop + rest.end() :]
    begin = d.start
    while begin > 0 and content[begin - 1] in " \t":
        begin -= 1
    return content[:begin] + content[stop:]


@dataclass(frozen=True, slots=True)
class _Layout:
    """How the file writes a new line: its line break, and the indent of a
    declaration on a line of its own in the rule edited."""

    newline: str
    indent: str


def _appended(content: str, decls: list[Declaration], line: str, layout: _Layout) -> str:
    """A block's ``content`` with the declaration ``line`` (``name: value``) at its end."""
    multi = "\n" in content or "\r" in content
    if decls:
        last = decls[-1]
        if last.semicolon is None:
            content = content[: last.end] + ";" + content[last.end :]
            at = last.end + 1
        else:
            at = last.semicolon + 1
        on_own_line = _line_start(content, last.start) > 0
        indent = _indent(content, last.start) if on_own_line else layout.indent
    else:
        at, indent = 0, layout.indent
    if not multi:
        tail = "" if content[at:].startswith((" ", "\t")) else " "
        return content[:at] + f" {line};" + tail + content[at:]
    # after a comment that ends the last declaration's line, not between the two
    rest = re.match(r"(?:[ \t]*/\*(?:[^*]|\*(?!/))*\*/)*[ \t]*(?=\r\n|\r|\n)", content[at:])
    if rest is not None:
        at += rest.end()
    return content[:at] + layout.newline + indent + f"{line};" + content[at:]


def _unit(css: str) -> str:
    """The file's indent for a declaration (its first indented line's), else two spaces."""
    m = re.search(r"\{[^{}]*?(?:\r\n|\r|\n)([ \t]+)[-a-zA-Z]", css)
    return m.group(1) if m else "  "


def _edited(content: str, prop: str, value: str | None, layout: _Layout) -> str:
    """A block's ``content`` with ``prop`` set to ``value`` (``None``: removed)."""
    decls = _block_declarations(content)
    own = [d for d in decls if d.name == prop]
    if value is None:
        for d in reversed(own):
            content = _removed(content, d)
        return content
    touching = [d for d in decls if d.name == prop or d.name in _ALSO_SETS.get(prop, ())]
    if touching and touching[-1].name == prop:
        start, end = touching[-1].value_span
        return content[:start] + value + content[end:]
    important = any(d.important for d in touching if d.name != prop)
    for d in reversed(own):
        content = _removed(content, d)
    line = f"{prop}: {value}" + (" !important" if important else "")
    return _appended(content, _block_declarations(content), line, layout)


def _block_errors(content: str) -> int:
    return sum(d.type == "error" for d in _tinycss2().parse_blocks_contents(content))


def _check_selector(selector: str) -> None:
    tokens = _tinycss2().parse_component_value_list(selector)
    if not selector.strip() or any(
        t.type in ("{} block", "error", "at-keyword") or (t.type == "literal" and t.value == ";")
        for t in tokens
    ):
        raise CssEditError(f"'{selector}' cannot be written as a selector.")


def set_rule(css: str, selector: str, changes: Mapping[str, str | None]) -> str:
    """``css`` with ``changes`` made in the rule for ``selector`` (added at the end
    when there is none).  Raises :class:`CssEditError` with what to do.

    The file is tokenized once (to find the rule); each change then reads the
    rule's block alone, so an edit costs the same in a long stylesheet."""
    for prop, value in changes.items():
        if value is not None:
            _safe(prop, value)
    newline = "\r\n" if "\r\n" in css else "\n"
    rule = find_rule(css, selector)
    if rule is None:
        _check_selector(selector)
        wanted = {p: v for p, v in changes.items() if v is not None}
        if not wanted:
            return css
        unit = _unit(css)
        body = "".join(f"{unit}{p}: {v};{newline}" for p, v in wanted.items())
        block = f"{selector} {{{newline}{body}}}{newline}"
        if not css.strip():
            return css + block
        return css + ("" if css.endswith(("\n", "\r")) else newline) + newline + block
    content = css[rule.open + 1 : rule.close]
    before = _block_errors(content)
    layout = _Layout(newline, _indent(css, rule.start) + _unit(css))
    for prop, value in changes.items():
        content = _edited(content, prop, value, layout)
    if _block_errors(content) > before:
        raise CssEditError("the change would make the stylesheet unreadable; nothing was written.")
    return css[: rule.open + 1] + content + css[rule.close :]


def parse_error_count(css: str) -> int:
    """How many parse errors tinycss2 finds in ``css`` (rules and declarations)."""
    tc = _tinycss2()
    count = 0

    def rules(nodes: list[Any]) -> None:
        nonlocal count
        for node in nodes:
            if node.type == "error":
                count += 1
            elif node.type == "qualified-rule" and node.content is not None:
                for d in tc.parse_blocks_contents(node.content):
                    count += d.type == "error"
            elif (
                node.type == "at-rule"
                and node.content is not None
                and node.lower_at_keyword in _GROUPING
            ):
                rules(tc.parse_rule_list(node.content))

    rules(tc.parse_stylesheet(css))
    return count
