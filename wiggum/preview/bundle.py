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

Files loaded at run time
------------------------
Scripts that load project files while they run (a menu from JSON, a quiz from
a questions file) cannot reach them from the frame, so the injected script,
the first script of the document (before any of the page's), also carries a
map of the project's files and answers such requests from it:

* ``window.fetch``: a relative URL, or one under the page's own project URL,
  is resolved against the page's folder (``./``, ``../``, ``/`` = project root;
  ``..`` stops at the root as in a URL; query and fragment ignored; a folder
  means its ``index.html``) and answered with a real ``Response``: 200 with
  ``Content-Type`` by extension (``json()``, ``text()``, ``blob()``,
  ``arrayBuffer()`` work), 404 when no such file exists, 405 for methods
  other than GET/HEAD.  Anything else (``http(s)`` to other hosts, ``data:``,
  ``blob:``) goes to the browser's ``fetch`` untouched.
* ``XMLHttpRequest``: the same for ``open``/``send`` (async or sync),
  ``readyState``/``onreadystatechange``, ``onload``/``addEventListener("load")``,
  ``loadstart``/``progress``/``loadend``, ``abort``, ``status``/``statusText``,
  ``responseText``, ``response`` for ``responseType`` ``""``/``text``/``json``/
  ``arraybuffer``/``blob``/``document``, ``responseXML``, response headers.
  Other URLs use the real XHR.
* ``new URL(x, location.href)``: ``location.href`` is ``about:srcdoc`` there, so
  ``URL`` (and ``URL.canParse``/``URL.parse``) resolve against the page's
  project URL ``wiggum-preview://project/<page>`` instead, which ``fetch``/XHR
  understand.  URLs the browser resolved against the frame's inherited base
  (Wiggum's own page: ``new Request("x.json")``, ``a.href``) are mapped back
  to the page's folder.
* images and media set from script: the ``src`` setters of ``<img>``
  (``new Image()``), ``<audio>``/``<video>``/``<source>``, ``poster``, and
  ``new Audio(src)`` turn project paths into ``blob:`` URLs of the embedded
  file; a ``MutationObserver`` does the same for such elements that scripts add
  as markup (``innerHTML``) or change with ``setAttribute``.

What is embedded: every project file outside dot folders (``.ralph/``,
``.chief/`` are the agents' state; static hosts skip them too), up to
:data:`MAX_FETCHABLE` (4 MiB) of file content: first the files that string
literals in the page's scripts name, then text files (json, txt, md, csv, svg,
html, css, js, xml, ...), then the rest, smallest first within each group.
UTF-8 files are embedded as strings, others as base64.  A file that does not
fit is listed in :attr:`Bundle.over_cap`; the shim answers it 404 and logs a
``console.warn`` that names the file, its size and the cap.  The data is JSON
with ``<``, ``>``, ``&``, U+2028 and U+2029 escaped, so no file content can end
or confuse the ``<script>`` element.

Limits (not rewritten): ``url(...)`` in styles set from script
(``el.style.backgroundImage``), ``srcset`` set from script, ``new Worker`` /
``importScripts``, ``import()`` of computed specifiers, ``new URL(x,
import.meta.url)`` in modules (their URL is a ``data:`` URL), ``EventSource``,
``navigator.sendBeacon``, links that scripts add (they do not navigate the
preview), and ``Request``/``a.href`` URLs that climb above Wiggum's own folder
or start with ``/`` (the browser already resolved them against Wiggum's page,
so the shim reads them relative to the page's folder).  Image/media paths set
from script that are not embedded stay as written and fail to load.
``Response.clone()`` loses the response's project ``url``.  Writes are never
possible: the preview is read-only, like a static host.
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
#: Bytes of project files embedded for the runtime's fetch/XHR shim, at most (4 MiB).
MAX_FETCHABLE = 4 * 1024 * 1024
#: Extensions embedded before other files (after those named in scripts).
_TEXT_EXTS = frozenset(
    {"json", "geojson", "txt", "md", "markdown", "csv", "tsv", "svg", "html", "htm", "css", "js"}
    | {"mjs", "cjs", "xml", "yaml", "yml", "vtt", "map"}
)
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


def _ext(path: str) -> str:
    name = path.rsplit("/", 1)[-1]
    return name.rsplit(".", 1)[-1].lower() if "." in name else ""


def _embedded(path: str, data: bytes) -> list[Any]:
    """``[path, mime, base64?, data]``: UTF-8 text as a string, anything else base64."""
    try:
        return [path, mime_type(path), 0, data.decode("utf-8")]
    except UnicodeDecodeError:
        return [path, mime_type(path), 1, base64.b64encode(data).decode("ascii")]


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
    #: Project files left out of the fetch/XHR shim's map by :data:`MAX_FETCHABLE`.
    over_cap: list[str] = field(default_factory=list)


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


_SHIM = r"""(function () {
  "use strict";
  // Project files answered in-frame: the frame's origin is opaque and the files
  // live only in Wiggum's IndexedDB, so no request could reach them.
  var P = __WIGGUM_PROJECT__;
  var BASE = "wiggum-preview://project/";
  var files = Object.create(null), over = Object.create(null), i;
  for (i = 0; i < P.files.length; i++) files[P.files[i][0]] = P.files[i];
  for (i = 0; i < P.over.length; i++) over[P.over[i][0]] = P.over[i][1];
  var pageDir = P.page.split("/").slice(0, -1);
  var pageURL = BASE + encodeURI(P.page);
  // A srcdoc document's base URL is its parent's (Wiggum's own page), so
  // relative URLs the browser resolved itself (Request, a.href, import.meta.url
  // of inline modules) arrive absolute under that folder.
  var parentDir = "";
  try {
    var b = String(document.baseURI || "");
    if (/^https?:/i.test(b)) parentDir = b.replace(/[?#].*$/, "").replace(/[^\/]*$/, "");
  } catch (e) {}
  var size = function (n) {
    return n >= 1048576 ? (n / 1048576).toFixed(1) + " MiB" : Math.ceil(n / 1024) + " KiB";
  };
  var warn = function (m) { try { console.warn("[wiggum preview] " + m); } catch (e) {} };

  // The project path a URL names, or null when it is not the project's.
  var resolve = function (input) {
    var u = String(input).trim(), rel, n = parentDir.length;
    if (u.slice(0, BASE.length).toLowerCase() === BASE) rel = "/" + u.slice(BASE.length);
    else if (n && u.slice(0, n) === parentDir) rel = u.slice(n);
    else if (/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(u) || /^[\/\\]{2}/.test(u)) return null;
    else rel = u;
    rel = rel.replace(/\\/g, "/").split("#")[0].split("?")[0];
    var parts = rel.charAt(0) === "/" ? [] : pageDir.slice(), segs = rel.split("/"), s = "";
    for (var k = 0; k < segs.length; k++) {
      s = segs[k];
      try { s = decodeURIComponent(s); } catch (e) {}
      if (s === "..") parts.pop(); else if (s !== "." && s !== "") parts.push(s);
    }
    var path = parts.join("/");
    if (s === "" || s === "." || s === "..") return path ? path + "/index.html" : "index.html";
    return path;
  };
  var find = function (path) {
    if (files[path]) return path;
    // A static host answers a folder with its index.html.
    if (files[path + "/index.html"]) return path + "/index.html";
    return null;
  };
  var cache = Object.create(null);
  var bytes = function (path) {
    if (!cache[path]) {
      var e = files[path], a;
      if (e[2]) {
        var s = atob(e[3]);
        a = new Uint8Array(s.length);
        for (var k = 0; k < s.length; k++) a[k] = s.charCodeAt(k);
      } else {
        a = new TextEncoder().encode(e[3]);
      }
      cache[path] = a;
    }
    return cache[path];
  };
  var text = function (path) {
    return files[path][2] ? new TextDecoder().decode(bytes(path)) : files[path][3];
  };
  var STATUS = {200: "OK", 404: "Not Found", 405: "Method Not Allowed"};
  // What a static host would answer: {status, path, mime}.
  var answer = function (path, method) {
    method = String(method || "GET").toUpperCase();
    if (method !== "GET" && method !== "HEAD") {
      warn(method + " " + path + ": 405, the preview serves project files read-only");
      return {status: 405, path: path, mime: "text/plain"};
    }
    var hit = find(path);
    if (hit !== null) return {status: 200, path: hit, mime: files[hit][1]};
    if (over[path] !== undefined) {
      warn(path + " (" + size(over[path]) + "): 404 in the preview only. The preview " +
           "embeds at most " + size(P.cap) + " of project files for requests made by " +
           "scripts and this one did not fit; a real web server would serve it.");
    } else {
      warn(method + " " + path + ": 404, no such file in the project");
    }
    return {status: 404, path: path, mime: "text/plain"};
  };
  var body = function (a) {
    return a.status === 200 ? bytes(a.path) : new TextEncoder().encode(STATUS[a.status]);
  };

  var realFetch = window.fetch;
  if (realFetch) {
    window.fetch = function fetch(input, init) {
      var req = typeof Request === "function" && input instanceof Request;
      var path = resolve(req ? input.url : input);
      if (path === null) return realFetch.apply(window, arguments);
      var method = String((init && init.method) || (req ? input.method : "GET")).toUpperCase();
      var signal = (init && init.signal) || (req ? input.signal : null);
      if (signal && signal.aborted) {
        return Promise.reject(signal.reason !== undefined ? signal.reason
          : new DOMException("The operation was aborted.", "AbortError"));
      }
      try {
        var a = answer(path, method), data = body(a);
        var r = new Response(method === "HEAD" ? null : data, {
          status: a.status,
          statusText: STATUS[a.status],
          headers: {"Content-Type": a.mime, "Content-Length": String(data.length)}
        });
        try { Object.defineProperty(r, "url", {value: BASE + encodeURI(a.path)}); } catch (e) {}
        return Promise.resolve(r);
      } catch (e) {
        return Promise.reject(e);
      }
    };
  }

  var RealXHR = window.XMLHttpRequest;
  if (RealXHR) {
    // Per-request state of the XHRs this shim answers (none for the others).
    var S = new WeakMap();
    var fire = function (x, type, n) {
      x.dispatchEvent(type === "readystatechange" ? new Event(type)
        : new ProgressEvent(type, {lengthComputable: n > 0, loaded: n || 0, total: n || 0}));
    };
    var invalid = function (m) { return new DOMException(m, "InvalidStateError"); };
    var ProjectXHR = class XMLHttpRequest extends RealXHR {
      open(method, url, async) {
        var path = resolve(url);
        if (path === null) {
          S.delete(this);
          return super.open.apply(this, arguments);
        }
        if (super.readyState !== 0) super.abort();
        S.set(this, {
          method: String(method).toUpperCase(), path: path, async: arguments.length < 3 || !!async,
          state: 1, sent: false, a: null, value: undefined
        });
        fire(this, "readystatechange");
      }
      send(data) {
        var s = S.get(this);
        if (!s) return super.send.apply(this, arguments);
        if (s.state !== 1 || s.sent) throw invalid("The object's state must be OPENED.");
        s.sent = true;
        var x = this;
        var done = function () {
          if (S.get(x) !== s || !s.sent) return;
          s.a = answer(s.path, s.method);
          var n = s.method === "HEAD" ? 0 : body(s.a).length;
          s.state = 2;
          fire(x, "readystatechange");
          s.state = 3;
          fire(x, "readystatechange");
          fire(x, "progress", n);
          s.state = 4;
          fire(x, "readystatechange");
          fire(x, "load", n);
          fire(x, "loadend", n);
        };
        if (s.async) {
          fire(this, "loadstart");
          setTimeout(done, 0);
        } else {
          done();
        }
      }
      abort() {
        var s = S.get(this);
        if (!s) return super.abort();
        var pending = s.sent && s.state !== 4;
        s.sent = false;
        s.a = null;
        if (pending) {
          s.state = 4;
          fire(this, "readystatechange");
          fire(this, "abort");
          fire(this, "loadend");
        }
        s.state = 0;
      }
      setRequestHeader(name, value) {
        var s = S.get(this);
        if (!s) return super.setRequestHeader(name, value);
        if (s.state !== 1 || s.sent) throw invalid("The object's state must be OPENED.");
      }
      getResponseHeader(name) {
        var s = S.get(this);
        if (!s) return super.getResponseHeader(name);
        if (!s.a) return null;
        name = String(name).toLowerCase();
        if (name === "content-type") return s.a.mime;
        if (name === "content-length") return String(body(s.a).length);
        return null;
      }
      getAllResponseHeaders() {
        var s = S.get(this);
        if (!s) return super.getAllResponseHeaders();
        if (!s.a) return "";
        return "content-length: " + body(s.a).length + "\r\ncontent-type: " + s.a.mime + "\r\n";
      }
      get readyState() { var s = S.get(this); return s ? s.state : super.readyState; }
      get status() { var s = S.get(this); return s ? (s.a ? s.a.status : 0) : super.status; }
      get statusText() {
        var s = S.get(this);
        return s ? (s.a ? STATUS[s.a.status] : "") : super.statusText;
      }
      get responseURL() {
        var s = S.get(this);
        return s ? (s.a ? BASE + encodeURI(s.a.path) : "") : super.responseURL;
      }
      get responseText() {
        var s = S.get(this);
        if (!s) return super.responseText;
        var t = this.responseType;
        if (t !== "" && t !== "text") {
          throw invalid("responseText needs responseType '' or 'text' (was '" + t + "').");
        }
        if (!s.a || s.state < 3 || s.method === "HEAD") return "";
        return s.a.status === 200 ? text(s.a.path) : STATUS[s.a.status];
      }
      get response() {
        var s = S.get(this);
        if (!s) return super.response;
        var t = this.responseType;
        if (t === "" || t === "text") return this.responseText;
        if (!s.a || s.state !== 4) return null;
        if (s.value === undefined) {
          var raw = s.method === "HEAD" ? new Uint8Array(0) : body(s.a);
          var str = function () { return new TextDecoder().decode(raw); };
          if (t === "json") {
            try { s.value = JSON.parse(str()); } catch (e) { s.value = null; }
          } else if (t === "arraybuffer") {
            s.value = raw.slice().buffer;
          } else if (t === "blob") {
            s.value = new Blob([raw], {type: s.a.mime});
          } else if (t === "document") {
            s.value = parse(str(), s.a.mime, true);
          } else {
            s.value = null;
          }
        }
        return s.value;
      }
      get responseXML() {
        var s = S.get(this);
        if (!s) return super.responseXML;
        var t = this.responseType;
        if (t === "document") return this.response;
        if (t !== "" || !s.a || s.state !== 4 || s.a.status !== 200) return null;
        return parse(text(s.a.path), s.a.mime, false);
      }
    };
    var parse = function (str, mime, html) {
      var xml = /[\/+]xml$/.test(mime);
      if (!xml && !(html && mime === "text/html")) return null;
      try { return new DOMParser().parseFromString(str, xml ? "application/xml" : "text/html"); }
      catch (e) { return null; }
    };
    window.XMLHttpRequest = ProjectXHR;
  }

  // new URL("x.json", location.href): location.href is about:srcdoc, which
  // nothing resolves against, so the page's project URL stands in for it.
  var RealURL = window.URL;
  if (RealURL) {
    var base = function (b) {
      var s = String(b);
      return s === "about:srcdoc" || /^about:srcdoc[?#]/.test(s) ? pageURL : b;
    };
    var ProjectURL = function URL(url, b) {
      if (!new.target) throw new TypeError("Failed to construct 'URL': use the 'new' operator.");
      return b === undefined ? new RealURL(url) : new RealURL(url, base(b));
    };
    Object.setPrototypeOf(ProjectURL, RealURL);
    ProjectURL.prototype = RealURL.prototype;
    ["canParse", "parse"].forEach(function (name) {
      var f = RealURL[name];
      if (f) {
        ProjectURL[name] = function (url, b) {
          return b === undefined ? f.call(RealURL, url) : f.call(RealURL, url, base(b));
        };
      }
    });
    window.URL = ProjectURL;
  }

  // Images and media whose src is set from script: a blob: URL of the
  // embedded file (the bundle only rewrote the ones written in the HTML).
  var blobs = Object.create(null);
  var asset = function (value) {
    var path = resolve(value);
    if (path === null) return null;
    var hit = find(path);
    if (hit === null) {
      if (over[path] !== undefined) answer(path, "GET");
      return null;
    }
    if (!blobs[hit]) {
      blobs[hit] = RealURL.createObjectURL(new Blob([bytes(hit)], {type: files[hit][1]}));
    }
    return blobs[hit];
  };
  var hook = function (proto, name) {
    var d = proto && Object.getOwnPropertyDescriptor(proto, name);
    if (!d || !d.set) return;
    Object.defineProperty(proto, name, {
      configurable: true,
      enumerable: d.enumerable,
      get: d.get,
      set: function (v) { d.set.call(this, asset(v) || v); }
    });
  };
  hook(window.HTMLImageElement && HTMLImageElement.prototype, "src");
  hook(window.HTMLMediaElement && HTMLMediaElement.prototype, "src");
  hook(window.HTMLSourceElement && HTMLSourceElement.prototype, "src");
  hook(window.HTMLVideoElement && HTMLVideoElement.prototype, "poster");
  var RealAudio = window.Audio;
  if (RealAudio) {
    var ProjectAudio = function Audio(src) {
      return src === undefined ? new RealAudio() : new RealAudio(asset(src) || src);
    };
    ProjectAudio.prototype = RealAudio.prototype;
    window.Audio = ProjectAudio;
  }
  // Markup added later (innerHTML, setAttribute) goes through the parser, not
  // the setters above.
  var realSet = Element.prototype.setAttribute;
  var ATTRS = {img: ["src"], audio: ["src"], video: ["src", "poster"], source: ["src"]};
  var fix = function (el) {
    var names = ATTRS[el.localName];
    if (!names) return;
    for (var k = 0; k < names.length; k++) {
      var v = el.getAttribute(names[k]);
      var u = v === null ? null : asset(v);
      if (u) realSet.call(el, names[k], u);
    }
  };
  if (window.MutationObserver) {
    new MutationObserver(function (records) {
      for (var r = 0; r < records.length; r++) {
        var rec = records[r];
        if (rec.type === "attributes") { fix(rec.target); continue; }
        for (var n = 0; n < rec.addedNodes.length; n++) {
          var node = rec.addedNodes[n];
          if (node.nodeType !== 1) continue;
          fix(node);
          var inner = node.querySelectorAll("img, audio, video, source");
          for (var q = 0; q < inner.length; q++) fix(inner[q]);
        }
      }
    }).observe(document, {
      childList: true, subtree: true, attributes: true, attributeFilter: ["src", "poster"]
    });
  }
})();"""

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
})();"""


_JS_UNSAFE = str.maketrans(
    {
        "<": "\\u003c",
        ">": "\\u003e",
        "&": "\\u0026",
        "\u2028": "\\u2028",
        "\u2029": "\\u2029",
    }
)


def _js_value(value: Any) -> str:
    """``value`` as a JS literal that is inert inside ``<script>``: no ``<``, ``>``
    or ``&`` (so no ``</script>`` or ``<!--``), no raw line separators."""
    return json.dumps(value, ensure_ascii=False).translate(_JS_UNSAFE)


def _runtime(
    fragment: str,
    project: dict[str, Any] | None = None,
    lines: list[tuple[int, int, str, int]] | None = None,
) -> str:
    project = project or {"page": "", "files": [], "over": [], "cap": MAX_FETCHABLE}
    shim = _SHIM.replace("__WIGGUM_PROJECT__", _js_value(project))
    code = _RUNTIME % {
        "lines": _js_value(lines or []),
        "error": ERROR_MESSAGE,
        "nav": NAV_MESSAGE,
        "start": _js_value(fragment),
    }
    return f'<script data-wiggum-preview="runtime">{shim}\n{code}</script>'


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
        self.over_cap: list[str] = []

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

    async def project(self, page: str) -> dict[str, Any]:
        """The files the runtime's fetch/XHR shim answers from, as embedded data.

        ``{"page", "files": [[path, mime, base64?, data]], "over": [[path, size]],
        "cap"}``.  Up to :data:`MAX_FETCHABLE` bytes of file content, filled in
        this order: files named by string literals in the page's scripts, then
        text files, then the rest; smallest first within each group.  Files that
        do not fit are listed in ``over`` (the shim answers them 404 and says why).
        """
        try:
            paths = await self.fs.list("")
        except (FileStoreError, PathError):
            paths = []
        named = set()
        for literal in self._literals:
            target = resolve_ref(literal, dirname(page))
            if target.kind == "local":
                named.add(target.path)
        ranked = []
        for path in paths:
            # Dot folders are Wiggum's and the agents' state (.ralph/, .chief/),
            # not the site; static hosts such as GitHub Pages skip them too.
            if any(part.startswith(".") for part in path.split("/")):
                continue
            size = await self.size(path)
            if size is None:
                continue
            group = 0 if path in named else 1 if _ext(path) in _TEXT_EXTS else 2
            ranked.append((group, size, path))
        ranked.sort()
        files: list[list[Any]] = []
        over: list[list[Any]] = []
        budget = MAX_FETCHABLE
        for _, size, path in ranked:
            if size > budget:
                over.append([path, size])
                continue
            data = await self.read(path)
            if data is None:
                continue
            budget -= len(data)
            files.append(_embedded(path, data))
        self.over_cap = sorted(path for path, _ in over)
        return {"page": page, "files": files, "over": over, "cap": MAX_FETCHABLE}

    async def size(self, path: str) -> int | None:
        cached = self._files.get(path)
        if cached is not None:
            return len(cached)
        try:
            stat = await self.fs.stat(path)
        except (FileStoreError, PathError):
            return None
        return None if stat.is_dir else stat.size

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
        project = await self.project(source)
        # The runtime's line count does not depend on its data (JSON has no raw newlines).
        out[slot] = _runtime(fragment, project)
        before, newlines = [], 0
        for part in out:
            before.append(newlines)
            newlines += part.count("\n")
        lines = [
            (1 + before[i] + skip, out[i].count("\n") + 1 - skip, path, first)
            for i, path, first, skip in code
        ]
        out[slot] = _runtime(fragment, project, lines)
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
        doc = await bundler.page(path, text, fragment)
        return Bundle(path, doc, bundler.missing, over_cap=bundler.over_cap)
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
