"""Bundle one project page into a self-contained HTML document for the preview.

The preview runs the site in an ``<iframe sandbox="allow-scripts" srcdoc=...>``:
an opaque origin that cannot read Wiggum's storage, and therefore cannot fetch
the project's files either.  So everything a page needs is put into the
document itself:

* ``<link rel=stylesheet href=local>`` becomes ``<style>``; the CSS's
  ``url(...)`` and ``@import`` references become ``data:`` URLs (resolved
  relative to the CSS file, recursively);
* classic ``<script src=local>`` is inlined (``</script`` and ``<!--`` in the
  code are written ``\\x3C/script`` / ``\\x3C!--`` so they cannot end or
  confuse the element); with ``defer``/``async`` it becomes a ``data:`` URL
  instead, so the attribute keeps its meaning;
* ``<script type=module src=local>`` becomes a ``data:text/javascript`` URL;
  relative ``import``/``export ... from``/``import("...")`` specifiers in
  modules are rewritten to ``data:`` URLs of their (rewritten) targets;
* ``<img src/srcset>``, ``<source>``, ``<video poster>``, ``<audio>``, favicons,
  ``style=""`` and ``<style>`` backgrounds become ``data:`` URLs with the MIME
  type of the file's extension;
* ``<a href>`` to a project file gets ``data-wiggum-nav="<path>"``; a tiny
  injected script turns the click into ``parent.postMessage({type:
  "wiggum-preview-nav", path})``.  Fragment links scroll inside the frame;
  external ``http(s)`` links get ``target=_blank rel="noopener noreferrer"``;
* the same injected script reports uncaught errors and unhandled rejections
  as ``{type: "wiggum-preview-error", message}``.

References are resolved relative to the file they are written in (``./``,
``../``, ``/`` = project root; query strings and fragments are ignored for the
lookup) and never outside the project.  References that cannot be resolved are
left as written and listed in :attr:`Bundle.missing`.
"""

from __future__ import annotations

import base64
import html
import json
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any
from urllib.parse import unquote

from wiggum.fs import FileStore, FileStoreError
from wiggum.fs.paths import PathError, dirname, join_path, normalize_path

__all__ = [
    "ERROR_MESSAGE",
    "NAV_MESSAGE",
    "Bundle",
    "Missing",
    "Target",
    "bundle_page",
    "data_url",
    "mime_type",
    "resolve_ref",
]

NAV_MESSAGE = "wiggum-preview-nav"
ERROR_MESSAGE = "wiggum-preview-error"

_MIME = {
    "html": "text/html",
    "htm": "text/html",
    "css": "text/css",
    "js": "text/javascript",
    "mjs": "text/javascript",
    "cjs": "text/javascript",
    "json": "application/json",
    "map": "application/json",
    "txt": "text/plain",
    "md": "text/markdown",
    "csv": "text/csv",
    "xml": "application/xml",
    "vtt": "text/vtt",
    "png": "image/png",
    "jpg": "image/jpeg",
    "jpeg": "image/jpeg",
    "gif": "image/gif",
    "webp": "image/webp",
    "avif": "image/avif",
    "bmp": "image/bmp",
    "ico": "image/x-icon",
    "svg": "image/svg+xml",
    "woff": "font/woff",
    "woff2": "font/woff2",
    "ttf": "font/ttf",
    "otf": "font/otf",
    "eot": "application/vnd.ms-fontobject",
    "mp3": "audio/mpeg",
    "wav": "audio/wav",
    "ogg": "audio/ogg",
    "oga": "audio/ogg",
    "m4a": "audio/mp4",
    "flac": "audio/flac",
    "mp4": "video/mp4",
    "webm": "video/webm",
    "ogv": "video/ogg",
    "pdf": "application/pdf",
    "wasm": "application/wasm",
}
IMAGE_EXTS = frozenset({"png", "jpg", "jpeg", "gif", "webp", "avif", "bmp", "ico", "svg"})

_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
_CLASSIC_TYPES = {"", "text/javascript", "application/javascript", "text/ecmascript"}
_JS_TYPES = _CLASSIC_TYPES | {"module"}
_CSS_URL = re.compile(r"""url\(\s*(?:"([^"]*)"|'([^']*)'|([^)\s"']*))\s*\)""", re.I)
_CSS_IMPORT = re.compile(r"""@import\s+(["'])([^"']*)\1""", re.I)
_JS_SPEC = re.compile(r"""(\bimport\s*\(\s*|\bimport\s*|\bfrom\s*)(["'])([^"'\n]+)\2""")
#: String literals in scripts that name a data file the script may fetch().
_DATA_LITERAL = re.compile(
    r"""["'`]([^"'`\s<>()]+\.(?:json|geojson|txt|csv|tsv|md|xml|svg|html?))(?:[?#][^"'`\s]*)?["'`]""",
    re.I,
)
#: Bytes of such files embedded for the fetch shim, at most.
MAX_FETCHABLE = 2_000_000
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


def mime_type(path: str) -> str:
    """The MIME type of ``path``'s extension (``application/octet-stream`` if unknown)."""
    ext = path.rsplit(".", 1)[-1].lower() if "." in path.rsplit("/", 1)[-1] else ""
    return _MIME.get(ext, "application/octet-stream")


def data_url(data: bytes, mime: str) -> str:
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"


@dataclass(frozen=True, slots=True)
class Target:
    """What a reference points at.

    ``kind``: ``local`` (``path`` in the project), ``fragment`` (same page),
    ``external`` (a URL with a scheme or ``//host``), ``empty``, or ``outside``
    (climbs above the project root, or not a valid project path).
    """

    kind: str
    path: str = ""
    fragment: str = ""
    trailing_slash: bool = False


def resolve_ref(ref: str, base_dir: str) -> Target:
    """Resolve ``ref`` as written in a file of the directory ``base_dir``."""
    ref = ref.strip()
    if not ref:
        return Target("empty")
    if ref.startswith("#"):
        return Target("fragment", fragment=unquote(ref[1:]))
    if ref.startswith("//") or _SCHEME.match(ref):
        return Target("external")
    path, _, fragment = ref.partition("#")
    path = path.split("?", 1)[0]
    if not path:  # "?q" alone: the page itself
        return Target("fragment", fragment=unquote(fragment))
    path = unquote(path)
    try:
        if path.startswith("/"):
            resolved = normalize_path(path.lstrip("/"))
        else:
            resolved = join_path(base_dir, path)
    except PathError:
        return Target("outside")
    return Target("local", resolved, unquote(fragment), path.endswith("/"))


@dataclass(frozen=True, slots=True)
class Missing:
    """A reference the bundle left as written."""

    #: The file the reference is written in.
    source: str
    #: The reference as written.
    ref: str
    reason: str = "not found"

    def __str__(self) -> str:
        return f"{self.source}: {self.ref} ({self.reason})"


@dataclass(slots=True)
class Bundle:
    #: The page bundled (a project path).
    path: str
    #: The self-contained document, for ``iframe.srcdoc``.
    html: str
    missing: list[Missing] = field(default_factory=list)
    #: False when ``path`` does not exist (``html`` then says so).
    found: bool = True


# --------------------------------------------------------------------- html


class _Tokens(HTMLParser):
    """HTML as a flat token list, keeping everything we do not touch verbatim."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.tokens: list[tuple[Any, ...]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tokens.append(("start", tag, attrs, self.get_starttag_text() or "", False))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tokens.append(("start", tag, attrs, self.get_starttag_text() or "", True))

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


def _script_text(js: str) -> str:
    """JS safe inside ``<script>...</script>``: nothing in it can end the element."""
    js = re.sub(r"</(script)", r"\\x3C/\1", js, flags=re.I)
    return js.replace("<!--", "\\x3C!--")


def _style_text(css: str) -> str:
    return re.sub(r"</(style)", r"\\3C/\1", css, flags=re.I)


_RUNTIME = """(function () {
  "use strict";
  var send = function (m) { try { parent.postMessage(m, "*"); } catch (e) {} };
  var lines = %(lines)s;
  var where = function (e) {
    var n = e.lineno | 0, f = String(e.filename || ""), i;
    if (!n) return "";
    if (f.slice(0, 5) === "data:") {
      var els = document.querySelectorAll("script[data-src]");
      for (i = 0; i < els.length; i++) {
        if (els[i].src === f) return " (" + els[i].getAttribute("data-src") + " line " + n + ")";
      }
      return " (line " + n + ")";
    }
    for (i = 0; i < lines.length; i++) {
      var L = lines[i];
      if (n >= L[0] && n < L[0] + L[1]) return " (" + L[2] + " line " + (n - L[0] + L[3]) + ")";
    }
    return "";
  };
  addEventListener("error", function (e) {
    var m = e && e.message ? String(e.message) : String(e && e.error || "error");
    m += where(e);
    send({type: "%(error)s", message: m.slice(0, 2000)});
  });
  addEventListener("unhandledrejection", function (e) {
    var r = e && e.reason, m;
    try { m = r && r.message ? String(r.message) : String(r); } catch (x) { m = "?"; }
    send({type: "%(error)s", message: ("Unhandled promise rejection: " + m).slice(0, 2000)});
  });
  var go = function (f) {
    if (!f) { scrollTo(0, 0); return; }
    var el = document.getElementById(f) || document.getElementsByName(f)[0];
    if (el) el.scrollIntoView(); else if (f === "top") scrollTo(0, 0);
  };
  document.addEventListener("click", function (e) {
    if (e.defaultPrevented || e.button !== 0) return;
    var a = e.target && e.target.closest ? e.target.closest("a[href], area[href]") : null;
    if (!a) return;
    var nav = a.getAttribute("data-wiggum-nav"), frag = a.getAttribute("data-wiggum-fragment");
    if (nav !== null) {
      e.preventDefault();
      if (nav) send({type: "%(nav)s", path: frag ? nav + "#" + frag : nav});
    } else if (frag !== null) {
      e.preventDefault();
      go(frag);
    }
  });
  var start = %(start)s;
  if (start) addEventListener("load", function () { go(start); });
  var files = %(files)s, dir = %(dir)s, realFetch = window.fetch;
  var local = function (u) {
    if (/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(u) || u.slice(0, 2) === "//") return null;
    u = u.split("#")[0].split("?")[0];
    var parts = u.charAt(0) === "/" ? [] : dir.split("/").filter(Boolean);
    u.split("/").forEach(function (s) {
      if (s === "..") parts.pop(); else if (s && s !== ".") parts.push(s);
    });
    try { return decodeURIComponent(parts.join("/")); } catch (x) { return parts.join("/"); }
  };
  if (realFetch) window.fetch = function (input, init) {
    if (typeof input === "string" || input instanceof URL) {
      var p = local(String(input));
      if (p !== null && Object.prototype.hasOwnProperty.call(files, p)) {
        return realFetch.call(window, files[p], init && {method: init.method, signal: init.signal});
      }
    }
    return realFetch.apply(window, arguments);
  };
})();"""


def _js_value(value: Any) -> str:
    return json.dumps(value).replace("<", "\\u003c")


def _runtime(
    fragment: str,
    files: dict[str, str] | None = None,
    base_dir: str = "",
    lines: list[tuple[int, int, str, int]] | None = None,
) -> str:
    code = _RUNTIME % {
        "lines": _js_value(lines or []),
        "error": ERROR_MESSAGE,
        "nav": NAV_MESSAGE,
        "start": _js_value(fragment),
        "files": _js_value(files or {}),
        "dir": _js_value(base_dir),
    }
    return f'<script data-wiggum-preview="runtime">{code}</script>'


def _message_page(title: str, body: str, fragment: str = "") -> str:
    return (
        '<!DOCTYPE html><html><head><meta charset="utf-8">'
        f"{_runtime(fragment)}<title>{html.escape(title)}</title></head>"
        '<body style="font:14px system-ui,sans-serif;margin:2rem;color:#444">'
        f"{body}</body></html>"
    )


class _Bundler:
    def __init__(self, fs: FileStore) -> None:
        self.fs = fs
        self.missing: list[Missing] = []
        self._files: dict[str, bytes | None] = {}
        self._urls: dict[str, str] = {}
        self._literals: set[str] = set()
        self._inlined: str | None = None

    # -- files

    async def read(self, path: str) -> bytes | None:
        if path not in self._files:
            try:
                self._files[path] = await self.fs.read_bytes(path)
            except (FileStoreError, PathError):
                self._files[path] = None
        return self._files[path]

    async def text(self, path: str) -> str | None:
        data = await self.read(path)
        return None if data is None else data.decode("utf-8", errors="replace")

    def miss(self, source: str, ref: str, reason: str = "not found") -> None:
        item = Missing(source, ref, reason)
        if item not in self.missing:
            self.missing.append(item)

    # -- assets

    async def asset_url(self, source: str, ref: str, *, stack: tuple[str, ...] = ()) -> str | None:
        """The data: URL for ``ref`` written in ``source``; None to leave it as written."""
        target = resolve_ref(ref, dirname(source))
        if target.kind == "outside":
            self.miss(source, ref, "outside the project")
            return None
        if target.kind != "local":
            return None
        path = target.path
        if path in stack:
            self.miss(source, ref, "circular reference")
            return None
        if path in self._urls:
            return self._urls[path]
        mime = mime_type(path)
        if mime == "text/css":
            css = await self.text(path)
            if css is None:
                self.miss(source, ref)
                return None
            css = await self.css(css, path, stack=(*stack, path))
            url = data_url(css.encode("utf-8"), mime)
        elif mime == "text/javascript":
            js = await self.text(path)
            if js is None:
                self.miss(source, ref)
                return None
            js = await self.module(js, path, stack=(*stack, path))
            url = data_url(js.encode("utf-8"), mime)
        else:
            data = await self.read(path)
            if data is None:
                self.miss(source, ref)
                return None
            url = data_url(data, mime)
        if not stack:
            self._urls[path] = url
        return url

    async def css(self, css: str, source: str, *, stack: tuple[str, ...] = ()) -> str:
        """``css`` (written in ``source``) with its url()/@import refs as data: URLs."""
        out: list[str] = []
        pos = 0
        for m in _CSS_URL.finditer(css):
            ref = next((g for g in m.groups() if g is not None), "")
            url = await self.asset_url(source, ref, stack=stack)
            if url is not None:
                out.append(css[pos : m.start()])
                out.append(f'url("{url}")')
                pos = m.end()
        out.append(css[pos:])
        css = "".join(out)
        out, pos = [], 0
        for m in _CSS_IMPORT.finditer(css):
            url = await self.asset_url(source, m.group(2), stack=stack)
            if url is not None:
                out.append(css[pos : m.start()])
                out.append(f'@import url("{url}")')
                pos = m.end()
        out.append(css[pos:])
        return "".join(out)

    async def module(self, js: str, source: str, *, stack: tuple[str, ...] = ()) -> str:
        """Module code with its relative import specifiers turned into data: URLs."""
        self.scan_js(js)
        out: list[str] = []
        pos = 0
        for m in _JS_SPEC.finditer(js):
            spec = m.group(3)
            if not spec.startswith(("./", "../", "/")):
                continue
            url = await self.asset_url(source, spec, stack=stack)
            if url is not None:
                out.append(js[pos : m.start(3)])
                out.append(url)
                pos = m.end(3)
        out.append(js[pos:])
        return "".join(out)

    def scan_js(self, js: str) -> None:
        """Note the data files ``js`` may ``fetch()`` (string literals naming one)."""
        self._literals.update(m.group(1) for m in _DATA_LITERAL.finditer(js))

    async def fetchable(self, page: str) -> dict[str, str]:
        """Project path -> data: URL of the files the page's scripts name, for the
        runtime's ``fetch`` shim (an opaque-origin frame cannot fetch them)."""
        files: dict[str, str] = {}
        budget = MAX_FETCHABLE
        for literal in sorted(self._literals):
            target = resolve_ref(literal, dirname(page))
            if target.kind != "local" or target.path in files:
                continue
            data = await self.read(target.path)
            if data is None or len(data) > budget:
                continue
            budget -= len(data)
            files[target.path] = data_url(data, mime_type(target.path))
        return files

    async def srcset(self, source: str, value: str) -> str:
        parts = []
        for candidate in value.split(","):
            bits = candidate.strip().split(None, 1)
            if not bits:
                continue
            url = await self.asset_url(source, bits[0])
            bits[0] = url or bits[0]
            parts.append(" ".join(bits))
        return ", ".join(parts)

    async def page_path(self, target: Target) -> str:
        """A link's target page: a folder (or ``x/``) means its index.html."""
        path = target.path
        if target.trailing_slash or path == "":
            return join_path(path, "index.html")
        try:
            if await self.fs.is_dir(path):
                return join_path(path, "index.html")
        except (FileStoreError, PathError):
            pass
        return path

    # -- html

    async def page(self, source: str, text: str, fragment: str) -> str:
        parser = _Tokens()
        parser.feed(text)
        parser.close()
        out: list[str] = []
        injected = False
        slot = 0  # where the runtime goes (it needs the fetch map, known at the end)
        skip_body = False  # inside a <script> whose body we replaced
        raw_kind = ""  # "style" / "module" while inside such an element
        #: (index in out, file, its first line, newlines before the code in out[index])
        code: list[tuple[int, str, int, int]] = []
        for token in parser.tokens:
            kind = token[0]
            if kind == "start":
                _, tag, attrs, raw, selfclosing = token
                attrs = list(attrs)
                if not injected and tag not in ("html", "head"):
                    slot, injected = len(out), True
                    out.append("")
                self._inlined = None
                emitted, skip_body, raw_kind = await self.start_tag(
                    source, tag, attrs, raw, selfclosing
                )
                if self._inlined is not None:
                    skip = emitted[: emitted.index(">")].count("\n")
                    code.append((len(out), self._inlined, 1, skip))
                out.append(emitted)
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
                    data = _style_text(await self.css(data, source))
                elif raw_kind == "module":
                    data = _script_text(await self.module(data, source))
                elif raw_kind == "script":
                    self.scan_js(data)
                if raw_kind in ("module", "script"):
                    code.append((len(out), source, token[2], 0))
                out.append(data)
            elif kind == "decl":
                out.append(token[1])
            else:
                out.append(token[1])
        if not injected:
            slot = len(out)
            out.append("")
        files = await self.fetchable(source)
        # The runtime's line count does not depend on its data (JSON has no raw newlines).
        out[slot] = _runtime(fragment, files, dirname(source))
        before, newlines = [], 0
        for part in out:
            before.append(newlines)
            newlines += part.count("\n")
        lines = [
            (1 + before[i] + skip, out[i].count("\n") + 1 - skip, path, first)
            for i, path, first, skip in code
        ]
        out[slot] = _runtime(fragment, files, dirname(source), lines)
        return "".join(out)

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
            new = await self.css(style, source)
            if new != style:
                _set(attrs, "style", new)
                changed = True

        if tag == "link":
            rels = set((_get(attrs, "rel") or "").lower().split())
            href = _get(attrs, "href")
            if href is not None and "stylesheet" in rels:
                target = resolve_ref(href, dirname(source))
                if target.kind == "outside":
                    self.miss(source, href, "outside the project")
                elif target.kind == "local":
                    css = await self.text(target.path)
                    if css is None:
                        self.miss(source, href)
                    else:
                        css = await self.css(css, target.path, stack=(target.path,))
                        keep = [(k, v) for k, v in attrs if k in ("media", "title", "id")]
                        keep.append(("data-href", href))
                        return f"{_tag('style', keep)}{_style_text(css)}</style>", False, ""
            elif href is not None and rels & _ICON_RELS:
                url = await self.asset_url(source, href)
                if url is not None:
                    _set(attrs, "href", url)
                    changed = True

        elif tag == "script":
            src = _get(attrs, "src")
            kind = (_get(attrs, "type") or "").strip().lower()
            if src is None:
                return raw, False, "module" if kind == "module" else "script"
            if kind in _JS_TYPES:
                target = resolve_ref(src, dirname(source))
                if target.kind == "outside":
                    self.miss(source, src, "outside the project")
                elif target.kind == "local":
                    js = await self.text(target.path)
                    if js is None:
                        self.miss(source, src)
                    elif kind == "module":
                        js = await self.module(js, target.path, stack=(target.path,))
                        _set(attrs, "src", data_url(js.encode("utf-8"), "text/javascript"))
                        _set(attrs, "data-src", target.path)
                        _set(attrs, "integrity", None)
                        changed = True
                    elif _get(attrs, "defer") is not None or _get(attrs, "async") is not None:
                        self.scan_js(js)
                        _set(attrs, "src", data_url(js.encode("utf-8"), "text/javascript"))
                        _set(attrs, "data-src", target.path)
                        _set(attrs, "integrity", None)
                        changed = True
                    else:
                        self.scan_js(js)
                        keep = [
                            (k, v)
                            for k, v in attrs
                            if k not in ("src", "integrity", "crossorigin", "defer", "async")
                        ]
                        keep.append(("data-src", target.path))
                        self._inlined = target.path
                        return f"{_tag('script', keep)}{_script_text(js)}", True, ""

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
                    _set(attrs, "data-wiggum-nav", await self.page_path(target))
                    if target.fragment:
                        _set(attrs, "data-wiggum-fragment", target.fragment)
                    changed = True
                elif target.kind == "outside":
                    self.miss(source, href, "outside the project")
                    _set(attrs, "data-wiggum-nav", "")
                    changed = True

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
                    url = await self.asset_url(source, value)
                    if url is not None:
                        _set(attrs, name, url)
                        changed = True

        if tag == "style":
            return _tag(tag, attrs) if changed else raw, False, "style"
        return (_tag(tag, attrs, selfclosing) if changed else raw), False, ""


async def bundle_page(fs: FileStore, path: str = "index.html") -> Bundle:
    """The page at ``path`` (may carry a ``#fragment``) as one self-contained document."""
    path, _, fragment = path.partition("#")
    try:
        path = normalize_path(path)
    except PathError:
        return Bundle(path, _message_page("Not found", "<p>Not a project path.</p>"), found=False)
    bundler = _Bundler(fs)
    if path == "" or (await _is_dir(fs, path)):
        path = join_path(path, "index.html")
    data = await bundler.read(path)
    if data is None:
        body = f"<h1>Not found</h1><p><code>{html.escape(path)}</code> is not in the project.</p>"
        return Bundle(path, _message_page("Not found", body), found=False)
    mime = mime_type(path)
    if mime == "text/html":
        text = data.decode("utf-8", errors="replace")
        return Bundle(path, await bundler.page(path, text, fragment), bundler.missing)
    name = html.escape(path)
    if mime.startswith("image/"):
        body = f'<h1>{name}</h1><img alt="{name}" src="{data_url(data, mime)}">'
    else:
        try:
            body = f"<h1>{name}</h1><pre>{html.escape(data.decode('utf-8'))}</pre>"
        except UnicodeDecodeError:
            body = f"<h1>{name}</h1><p>{len(data)} bytes, binary ({html.escape(mime)}).</p>"
    return Bundle(path, _message_page(path, body))


async def _is_dir(fs: FileStore, path: str) -> bool:
    try:
        return bool(await fs.is_dir(path))
    except (FileStoreError, PathError):
        return False
