"""One pass over an HTML document: structure problems, ids, references, inline code.

Built on the stdlib ``html.parser`` (it runs under Pyodide with nothing to
install).  The structure check is deliberately narrower than the HTML spec:
it reports what really breaks pages a model writes — an element left open,
a close tag that matches nothing, the same id twice — and accepts what every
browser accepts (void elements with or without ``/>``, optional end tags of
``p``/``li``/``td``..., self-closed SVG elements, any case).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

__all__ = ["HtmlScan", "Ref", "StructureIssue", "css_refs", "scan_html"]

VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param"}
    | {"source", "track", "wbr", "basefont", "bgsound", "frame", "keygen"}
)
#: End tags browsers infer; leaving them out is valid HTML.
OPTIONAL_END = frozenset(
    {"p", "li", "dt", "dd", "option", "optgroup", "tr", "td", "th", "thead", "tbody"}
    | {"tfoot", "colgroup", "caption", "rp", "rt", "rb", "rtc", "html", "head", "body"}
)

#: (tag, attribute) pairs that point at another file.
_REF_ATTRS = {
    ("a", "href"),
    ("area", "href"),
    ("link", "href"),
    ("script", "src"),
    ("img", "src"),
    ("iframe", "src"),
    ("embed", "src"),
    ("source", "src"),
    ("track", "src"),
    ("audio", "src"),
    ("video", "src"),
    ("video", "poster"),
    ("input", "src"),
    ("object", "data"),
    ("use", "href"),
    ("use", "xlink:href"),
    ("image", "href"),
    ("image", "xlink:href"),
}
_SRCSET_TAGS = {"img", "source"}
_SCRIPT_TYPES = {"", "text/javascript", "application/javascript", "module", "text/ecmascript"}

_CSS_URL = re.compile(r"""url\(\s*(?:"([^"]*)"|'([^']*)'|([^)\s]*))\s*\)""", re.I)
_CSS_IMPORT = re.compile(r"""@import\s+(?:"([^"]*)"|'([^']*)')""", re.I)
_CSS_COMMENT = re.compile(r"/\*.*?\*/", re.S)


@dataclass(frozen=True, slots=True)
class Ref:
    """A reference to another resource, as written, and where it was written."""

    target: str
    line: int
    #: How it was written, for messages: ``<link href>``, ``url()``, ``@import``.
    via: str


@dataclass(frozen=True, slots=True)
class StructureIssue:
    line: int
    message: str
    hint: str = ""


@dataclass(slots=True)
class InlineScript:
    line: int
    source: str
    module: bool


@dataclass(slots=True)
class HtmlScan:
    issues: list[StructureIssue] = field(default_factory=list)
    refs: list[Ref] = field(default_factory=list)
    scripts: list[InlineScript] = field(default_factory=list)
    ids: dict[str, int] = field(default_factory=dict)


def _blank_comments(css: str) -> str:
    # Keep the newlines so line numbers stay right.
    return _CSS_COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), css)


def css_refs(css: str, first_line: int = 1) -> list[Ref]:
    """``url(...)`` and ``@import "..."`` targets of a stylesheet, with their lines."""
    css = _blank_comments(css)
    found: list[tuple[int, str, str]] = []
    for m in _CSS_URL.finditer(css):
        target = next((g for g in m.groups() if g is not None), "")
        found.append((m.start(), target, "url()"))
    for m in _CSS_IMPORT.finditer(css):
        found.append((m.start(), m.group(1) if m.group(1) is not None else m.group(2), "@import"))
    found.sort()
    return [Ref(t.strip(), first_line + css.count("\n", 0, pos), via) for pos, t, via in found]


class _Scanner(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.scan = HtmlScan()
        self.stack: list[tuple[str, int]] = []
        self._style_line: int | None = None
        self._script: InlineScript | None = None

    # -- tags

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        line = self.getpos()[0]
        self._attrs(tag, attrs, line)
        if tag in VOID:
            return
        self.stack.append((tag, line))
        if tag == "style":
            self._style_line = line
        elif tag == "script":
            values = {k: v for k, v in attrs}
            kind = (values.get("type") or "").strip().lower()
            if "src" not in values and kind in _SCRIPT_TYPES:
                self._script = InlineScript(line, "", kind == "module")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        # <div/> is an open tag to a browser, but self-closed SVG/MathML is
        # common and fine; accept both rather than guess the namespace.
        self._attrs(tag, attrs, self.getpos()[0])

    def handle_endtag(self, tag: str) -> None:
        line = self.getpos()[0]
        if tag in VOID:
            return
        if tag == "style":
            self._style_line = None
        if tag == "script" and self._script is not None:
            if self._script.source.strip():
                self.scan.scripts.append(self._script)
            self._script = None
        if not any(open_tag == tag for open_tag, _ in self.stack):
            self._unmatched(
                tag,
                line,
                f"</{tag}> at line {line} closes nothing: no <{tag}> is open there",
                f"remove the stray </{tag}> or add the missing <{tag}> before it",
            )
            return
        while self.stack:
            open_tag, open_line = self.stack.pop()
            if open_tag == tag:
                break
            self._unmatched(
                open_tag,
                open_line,
                f"<{open_tag}> opened at line {open_line} is never closed "
                f"(</{tag}> at line {line} closes the element around it)",
                f"add </{open_tag}> before line {line}",
            )

    def handle_data(self, data: str) -> None:
        if self._script is not None:
            self._script.source += data
        elif self._style_line is not None:
            self.scan.refs.extend(css_refs(data, self.getpos()[0]))

    def close(self) -> None:
        super().close()
        for open_tag, open_line in self.stack:
            self._unmatched(
                open_tag,
                open_line,
                f"<{open_tag}> opened at line {open_line} is never closed",
                f"add </{open_tag}> where the element should end",
            )
        self.stack.clear()

    def _unmatched(self, tag: str, line: int, message: str, hint: str) -> None:
        """A start or end tag of ``tag`` without its pair: an issue, unless HTML
        lets that end tag be left out (``<p>``, ``<li>``…)."""
        if tag not in OPTIONAL_END:
            self.scan.issues.append(StructureIssue(line, message, hint))

    # -- attributes

    def _attrs(self, tag: str, attrs: list[tuple[str, str | None]], line: int) -> None:
        for name, value in attrs:
            if value is None:
                continue
            if name == "id":
                ident = value.strip()
                if ident in self.scan.ids:
                    first = self.scan.ids[ident]
                    self.scan.issues.append(
                        StructureIssue(
                            line,
                            f'id="{ident}" at line {line} is already used at line {first}',
                            "ids must be unique: rename one (a class can be shared)",
                        )
                    )
                else:
                    self.scan.ids[ident] = line
            elif (tag, name) in _REF_ATTRS:
                self.scan.refs.append(Ref(value.strip(), line, f"<{tag} {name}>"))
            elif name == "srcset" and tag in _SRCSET_TAGS:
                for candidate in value.split(","):
                    url = candidate.strip().split(" ")[0]
                    if url:
                        self.scan.refs.append(Ref(url, line, f"<{tag} srcset>"))
            elif name == "style":
                self.scan.refs.extend(
                    Ref(r.target, line, f'style="{r.via}"') for r in css_refs(value, line)
                )


def scan_html(text: str) -> HtmlScan:
    scanner = _Scanner()
    try:
        scanner.feed(text)
        scanner.close()
    except Exception as err:  # html.parser is lenient; anything else is a real breakage
        scanner.scan.issues.append(
            StructureIssue(scanner.getpos()[0], f"the HTML could not be parsed: {err}")
        )
    return scanner.scan
