"""HTML rewriting: one page of the project as a self-contained document.

The page is tokenized (everything not touched is kept verbatim) and each start
tag is looked at once:

* ``<link rel=stylesheet href=local>`` becomes ``<style>`` (its CSS rewritten);
* classic ``<script src=local>`` is inlined; with ``defer``/``async`` it becomes
  a ``data:`` URL instead, so the attribute keeps its meaning;
  ``<script type=module src=local>`` becomes a ``data:text/javascript`` URL of
  the rewritten module; inline ``<style>`` and module code are rewritten too;
* ``<img src/srcset>``, ``<source>``, ``<video poster>``, ``<audio>``, favicons
  and ``style=""`` backgrounds become ``data:`` URLs;
* ``<a href>`` to a project page gets ``data-wiggum-nav``; fragment links
  ``data-wiggum-fragment``; external ``http(s)`` links open in a new tab;
* the runtime script (:mod:`wiggum.preview.runtime`) goes first, with the line
  map that lets it name the file an error came from: each piece of script code
  in the document ends with a ``//# sourceURL=`` of its own, which the
  browser gives as an error's ``filename`` (with the line counted from the
  start of that script: the page is ``document.write``-n by the preview's host
  page, and Chromium numbers such scripts' lines from their own start);
* for the site checks' audit (``stamp=True``), each start tag gets
  ``data-wiggum-tag="n"``, its place among the page's start tags, so what the
  browser finds wrong with an element is told at the line it is written
  (:func:`start_tags` reads the same places from the file);
* for the preview's select mode (``point=secret``), the same stamps, and
  :attr:`PageRewriter.places` keeps where each is written (file, line, offset
  of its ``<``): :mod:`~wiggum.preview.point` says why and how.

What a reference becomes is the bundle's business (:class:`Assets`).
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from typing import Any, Protocol
from urllib.parse import quote

from wiggum.fs.paths import dirname

from .css import style_text
from .modules import script_text
from .point import SourcePlace
from .refs import Target, data_url, resolve_ref
from .runtime import runtime_script

__all__ = ["STAMP", "Assets", "PageRewriter", "line_starts", "start_tags"]

#: The attribute that carries a start tag's place in the page (``stamp=True``).
STAMP = "data-wiggum-tag"

_CLASSIC_TYPES = {"", "text/javascript", "application/javascript", "text/ecmascript"}
_JS_TYPES = _CLASSIC_TYPES | {"module"}
_ICON_RELS = {"icon", "apple-touch-icon", "apple-touch-icon-precomposed", "mask-icon"}
#: (tag, attribute) pairs whose value is one asset to turn into a data: URL.
_ASSET_ATTRS = {
    ("img", "src"),
    ("source", "src"),
    ("video", "src"),
    ("video", "poster"),
    ("audio", "src"),
    ("track", "src"),
    ("input", "src"),
    ("embed", "src"),
    ("image", "href"),
}


class Assets(Protocol):
    """What the page rewriter asks of the bundle (``wiggum.preview.bundle``)."""

    async def text(self, path: str) -> str | None: ...

    def miss(self, source: str, ref: str, reason: str = "not found") -> None: ...

    async def asset_url(self, source: str, ref: str) -> str | None:
        """The ``data:`` URL for ``ref`` written in ``source``; None to leave it."""
        ...

    async def css(self, css: str, source: str, *, stack: tuple[str, ...] = ()) -> str: ...

    async def module(self, js: str, source: str, *, stack: tuple[str, ...] = ()) -> str: ...

    def scan_js(self, js: str) -> None:
        """Note the data files ``js`` may fetch (they are embedded first)."""
        ...

    async def page_path(self, target: Target) -> str:
        """A link's target page (a folder means its index.html)."""
        ...

    async def project(self, page: str) -> dict[str, Any]:
        """The fetch shim's map of project files (known once the page is read)."""
        ...


class _Tokens(HTMLParser):
    """HTML as a flat token list, keeping everything we do not touch verbatim."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.tokens: list[tuple[Any, ...]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        raw, (line, col) = self.get_starttag_text() or "", self.getpos()
        self.tokens.append(("start", tag, attrs, raw, False, line, col))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        raw, (line, col) = self.get_starttag_text() or "", self.getpos()
        self.tokens.append(("start", tag, attrs, raw, True, line, col))

    def handle_endtag(self, tag: str) -> None:
        self.tokens.append(("end", tag))

    def handle_data(self, data: str) -> None:
        if self.tokens and self.tokens[-1][0] == "text":
            _, text, line = self.tokens[-1]
            self.tokens[-1] = ("text", text + data, line)
        else:
            self.tokens.append(("text", data, self.getpos()[0]))

    def handle_entityref(self, name: str) -> None:
        self.tokens.append(("raw", f"&{name};"))

    def handle_charref(self, name: str) -> None:
        self.tokens.append(("raw", f"&#{name};"))

    def handle_comment(self, data: str) -> None:
        self.tokens.append(("raw", f"<!--{data}-->"))

    def handle_decl(self, decl: str) -> None:
        self.tokens.append(("decl", f"<!{decl}>"))

    def handle_pi(self, data: str) -> None:
        self.tokens.append(("raw", f"<?{data}>"))

    def unknown_decl(self, data: str) -> None:
        self.tokens.append(("raw", f"<![{data}]>"))


def line_starts(text: str) -> list[int]:
    """The offset in ``text`` where each line starts (the parser's lines: ``\\n`` ends one)."""
    return [0] + [m.end() for m in re.finditer("\n", text)]


def start_tags(text: str) -> list[tuple[str, int, str]]:
    """Each start tag of the HTML ``text`` as ``(tag, line, as written)``, in the
    order :class:`PageRewriter` numbers them with ``stamp=True``."""
    parser = _Tokens()
    parser.feed(text)
    parser.close()
    return [(t[1], t[5], t[3]) for t in parser.tokens if t[0] == "start"]


_TAG_NAME = re.compile(r"^<[^\s/>]+")


def _stamped(emitted: str, place: int) -> str:
    """``emitted`` (a start tag, maybe with the element's body after it) carrying
    its ``place`` among the page's start tags."""
    return _TAG_NAME.sub(lambda m: f'{m.group(0)} {STAMP}="{place}"', emitted, count=1)


def _tag(tag: str, attrs: list[tuple[str, str | None]], selfclosing: bool = False) -> str:
    parts = [tag]
    for name, value in attrs:
        parts.append(name if value is None else f'{name}="{html.escape(value, quote=True)}"')
    return "<" + " ".join(parts) + (" />" if selfclosing else ">")


def _get(attrs: list[tuple[str, str | None]], name: str) -> str | None:
    for key, value in attrs:
        if key == name:
            return value if value is not None else ""
    return None


def _set(attrs: list[tuple[str, str | None]], name: str, value: str | None) -> None:
    """Replace (or add) ``name``; ``value=None`` removes it."""
    kept = [(k, v) for k, v in attrs if k != name]
    if value is not None:
        kept.append((name, value))
    attrs[:] = kept


class PageRewriter:
    """Rewrites one HTML page; ``assets`` embeds what it references; ``stamp``:
    each start tag carries its place (:data:`STAMP`)."""

    def __init__(self, assets: Assets, stamp: bool = False, point: str | None = None) -> None:
        self.assets = assets
        #: The select channel's secret for this load (``None``: no select mode).
        self.point = point
        self.stamp = stamp or point is not None
        #: Where each stamped start tag is written (filled with ``point``).
        self.places: list[SourcePlace] = []
        #: The project stylesheets the page links, in document order.
        self.stylesheets: list[str] = []
        #: The file whose code the last start tag inlined (for the error line map).
        self._inlined: str | None = None

    async def srcset(self, source: str, value: str) -> str:
        parts = []
        for candidate in value.split(","):
            bits = candidate.strip().split(None, 1)
            if not bits:
                continue
            url = await self.assets.asset_url(source, bits[0])
            bits[0] = url or bits[0]
            parts.append(" ".join(bits))
        return ", ".join(parts)

    async def page(self, source: str, text: str, fragment: str) -> str:
        parser = _Tokens()
        parser.feed(text)
        parser.close()
        out: list[str] = []
        injected = False
        slot = 0  # where the runtime goes (it needs the fetch map, known at the end)
        skip_body = False  # inside a <script> whose body we replaced
        raw_kind = ""  # "style" / "module" / "script" / "data" inside such an element
        #: (index in out, file, the file's line of the code's first line)
        code: list[tuple[int, str, int]] = []
        place = 0
        starts = line_starts(text) if self.point is not None else []
        for token in parser.tokens:
            kind = token[0]
            if kind == "start":
                _, tag, attrs, raw, selfclosing, line, col = token
                if self.point is not None:
                    self.places.append(SourcePlace(source, line, starts[line - 1] + col, tag))
                attrs = list(attrs)
                if not injected and tag not in ("html", "head"):
                    slot, injected = len(out), True
                    out.append("")
                self._inlined = None
                emitted, skip_body, raw_kind = await self.start_tag(
                    source, tag, attrs, raw, selfclosing
                )
                if self._inlined is not None:
                    code.append((len(out), self._inlined, 1))
                out.append(_stamped(emitted, place) if self.stamp else emitted)
                place += 1
                if not injected and tag == "head":
                    slot, injected = len(out), True
                    out.append("")
            elif kind == "end":
                if token[1] in ("script", "style"):
                    skip_body, raw_kind = False, ""
                out.append(f"</{token[1]}>")
            elif kind == "text":
                data = token[1]
                if skip_body:
                    continue
                if raw_kind == "style":
                    data = style_text(await self.assets.css(data, source))
                elif raw_kind == "module":
                    data = script_text(await self.assets.module(data, source))
                elif raw_kind in ("script", "data"):
                    self.assets.scan_js(data)
                if raw_kind in ("module", "script"):
                    code.append((len(out), source, token[2]))
                out.append(data)
            elif kind == "decl":
                out.append(token[1])
            else:
                out.append(token[1])
        if not injected:
            slot = len(out)
            out.append("")
        project = await self.assets.project(source)
        #: sourceURL -> (file, lines before the code's first line in the file)
        lines: dict[str, tuple[str, int]] = {}
        for i, path, first in code:
            name = quote(path) + (f"#L{first}" if first > 1 else "")
            lines[name] = (path, first - 1)
            out[i] += f"\n//# sourceURL={name}"
        out[slot] = runtime_script(fragment, project, lines, point=self.point)
        return "".join(out)

    async def form(self, source: str, attrs: list[tuple[str, str | None]]) -> bool:
        """A form submits as on a static host: to the project page its ``action``
        names (this page without one), an external one in a new tab."""
        action = (_get(attrs, "action") or "").strip()
        target = resolve_ref(action, dirname(source)) if action else None
        if target is None or target.kind == "fragment":
            _set(attrs, "data-wiggum-nav", source)
        elif target.kind == "local":
            _set(attrs, "data-wiggum-nav", await self.assets.page_path(target))
        elif target.kind == "outside":
            self.assets.miss(source, action, "outside the project")
            _set(attrs, "data-wiggum-nav", source)
        elif re.match(r"^(?:https?:)?//", action, re.I):
            _set(attrs, "target", "_blank")
        else:
            return False
        return True

    async def start_tag(
        self,
        source: str,
        tag: str,
        attrs: list[tuple[str, str | None]],
        raw: str,
        selfclosing: bool,
    ) -> tuple[str, bool, str]:
        """(text to emit, skip the element's body, raw-text kind)."""
        changed = False
        style = _get(attrs, "style")
        if style and "url(" in style.lower():
            new = await self.assets.css(style, source)
            if new != style:
                _set(attrs, "style", new)
                changed = True

        if tag == "link":
            rels = set((_get(attrs, "rel") or "").lower().split())
            href = _get(attrs, "href")
            if href is not None and "stylesheet" in rels:
                target = resolve_ref(href, dirname(source))
                if target.kind == "outside":
                    self.assets.miss(source, href, "outside the project")
                elif target.kind == "local":
                    css = await self.assets.text(target.path)
                    if css is None:
                        self.assets.miss(source, href)
                    else:
                        self.stylesheets.append(target.path)
                        css = await self.assets.css(css, target.path, stack=(target.path,))
                        keep = [(k, v) for k, v in attrs if k in ("media", "title", "id")]
                        keep.append(("data-href", href))
                        return f"{_tag('style', keep)}{style_text(css)}</style>", False, ""
            elif href is not None and rels & _ICON_RELS:
                url = await self.assets.asset_url(source, href)
                if url is not None:
                    _set(attrs, "href", url)
                    changed = True

        elif tag == "script":
            src = _get(attrs, "src")
            kind = (_get(attrs, "type") or "").strip().lower()
            if src is None:
                # "data": an import map, JSON, a template: not code, never annotated.
                if kind == "module":
                    return raw, False, "module"
                return raw, False, "script" if kind in _CLASSIC_TYPES else "data"
            if kind in _JS_TYPES:
                target = resolve_ref(src, dirname(source))
                if target.kind == "outside":
                    self.assets.miss(source, src, "outside the project")
                elif target.kind == "local":
                    js = await self.assets.text(target.path)
                    if js is None:
                        self.assets.miss(source, src)
                    elif kind == "module":
                        js = await self.assets.module(js, target.path, stack=(target.path,))
                        _set(attrs, "src", data_url(js.encode("utf-8"), "text/javascript"))
                        _set(attrs, "data-src", target.path)
                        _set(attrs, "integrity", None)
                        changed = True
                    elif _get(attrs, "defer") is not None or _get(attrs, "async") is not None:
                        self.assets.scan_js(js)
                        _set(attrs, "src", data_url(js.encode("utf-8"), "text/javascript"))
                        _set(attrs, "data-src", target.path)
                        _set(attrs, "integrity", None)
                        changed = True
                    else:
                        self.assets.scan_js(js)
                        keep = [
                            (k, v)
                            for k, v in attrs
                            if k not in ("src", "integrity", "crossorigin", "defer", "async")
                        ]
                        keep.append(("data-src", target.path))
                        self._inlined = target.path
                        return f"{_tag('script', keep)}{script_text(js)}", True, ""

        elif tag in ("a", "area"):
            href = _get(attrs, "href")
            if href is not None:
                target = resolve_ref(href, dirname(source))
                if target.kind == "fragment":
                    _set(attrs, "data-wiggum-fragment", target.fragment)
                    changed = True
                elif target.kind == "external":
                    if re.match(r"^(?:https?:)?//", href.strip(), re.I):
                        _set(attrs, "target", "_blank")
                        _set(attrs, "rel", "noopener noreferrer")
                        changed = True
                elif target.kind == "local":
                    _set(attrs, "data-wiggum-nav", await self.assets.page_path(target))
                    if target.fragment:
                        _set(attrs, "data-wiggum-fragment", target.fragment)
                    changed = True
                elif target.kind == "outside":
                    self.assets.miss(source, href, "outside the project")
                    _set(attrs, "data-wiggum-nav", "")
                    changed = True

        elif tag == "form":
            changed = await self.form(source, attrs) or changed

        if tag in ("img", "source"):
            srcset = _get(attrs, "srcset")
            if srcset:
                new = await self.srcset(source, srcset)
                if new != srcset:
                    _set(attrs, "srcset", new)
                    changed = True
        for name in ("src", "poster", "href"):
            if (tag, name) in _ASSET_ATTRS:
                value = _get(attrs, name)
                if value is not None:
                    url = await self.assets.asset_url(source, value)
                    if url is not None:
                        _set(attrs, name, url)
                        changed = True

        if tag == "style":
            return _tag(tag, attrs) if changed else raw, False, "style"
        return (_tag(tag, attrs, selfclosing) if changed else raw), False, ""
