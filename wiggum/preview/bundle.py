"""Bundle one project page into a self-contained HTML document for the preview.

The preview runs the site in an ``<iframe sandbox="allow-scripts">`` whose host
page (``static/preview.html``) is posted this document and writes it over
itself: an opaque origin that cannot read Wiggum's storage, and therefore
cannot fetch the project's files either.  So everything a page needs is put
into the document itself:

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
* ``new URL(x, location.href)``: ``location.href`` is the host page's URL
  there, so ``URL`` (and ``URL.canParse``/``URL.parse``) resolve against the
  page's project URL ``wiggum-preview://project/<page>`` instead, which
  ``fetch``/XHR understand.  URLs the browser resolved against the frame's
  base (the host page, in Wiggum's ``static/``: ``new Request("x.json")``,
  ``a.href``) are mapped back to the page's folder.
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
preview), and ``Request``/``a.href`` URLs that climb above the host page's
folder (``static/``) or start with ``/`` (the browser already resolved them
against the host page, so the shim reads them relative to the page's folder).  Image/media paths set
from script that are not embedded stay as written and fail to load.
``Response.clone()`` loses the response's project ``url``.  Writes are never
possible: the preview is read-only, like a static host.

Where each job lives
--------------------
This module reads the files (once each), resolves and embeds what they
reference (recursively, with circular references cut) and chooses the files of
the fetch map.  The rewriting is done by :mod:`~wiggum.preview.page` (HTML),
:mod:`~wiggum.preview.css` (stylesheets), :mod:`~wiggum.preview.modules`
(JavaScript modules); :mod:`~wiggum.preview.refs` resolves references;
:mod:`~wiggum.preview.runtime` builds the injected script from
``injected/fetch_shim.js`` and ``injected/runtime.js``.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import Any

from wiggum.fs import FileStore, FileStoreError
from wiggum.fs.paths import PathError, dirname, join_path, normalize_path

from .css import rewrite_css
from .modules import data_literals, rewrite_module
from .page import PageRewriter
from .point import SourcePlace
from .refs import IMAGE_EXTS, Missing, Target, data_url, file_ext, mime_type, resolve_ref
from .runtime import ERROR_MESSAGE, NAV_MESSAGE, embedded_file, runtime_script

__all__ = [
    "ERROR_MESSAGE",
    "IMAGE_EXTS",
    "MAX_FETCHABLE",
    "NAV_MESSAGE",
    "Bundle",
    "Missing",
    "Target",
    "bundle_page",
    "data_url",
    "mime_type",
    "no_page_yet",
    "resolve_ref",
]

#: Bytes of project files embedded for the runtime's fetch/XHR shim, at most (4 MiB).
MAX_FETCHABLE = 4 * 1024 * 1024
#: Extensions embedded before other files (after those named in scripts).
_TEXT_EXTS = frozenset(
    {"json", "geojson", "txt", "md", "markdown", "csv", "tsv", "svg", "html", "htm", "css", "js"}
    | {"mjs", "cjs", "xml", "yaml", "yml", "vtt", "map"}
)


@dataclass(slots=True)
class Bundle:
    #: The page bundled (a project path).
    path: str
    #: The self-contained document, for the preview's host page (or ``srcdoc``).
    html: str
    missing: list[Missing] = field(default_factory=list)
    #: False when ``path`` does not exist (``html`` then says so).
    found: bool = True
    #: Project files left out of the fetch/XHR shim's map by :data:`MAX_FETCHABLE`.
    over_cap: list[str] = field(default_factory=list)
    #: With ``point``: where each numbered start tag is written (``data-wiggum-tag``).
    places: list[SourcePlace] = field(default_factory=list)
    #: The project stylesheets the page links, in document order.
    stylesheets: list[str] = field(default_factory=list)


def _message_page(title: str, body: str, fragment: str = "") -> str:
    empty = {"page": "", "files": [], "over": [], "cap": MAX_FETCHABLE}
    return (
        '<!DOCTYPE html><html><head><meta charset="utf-8">'
        f"{runtime_script(fragment, empty)}<title>{html.escape(title)}</title></head>"
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
        if mime in ("text/css", "text/javascript"):
            # Stylesheets and modules reference files in turn: rewrite them first.
            code = await self.text(path)
            if code is None:
                self.miss(source, ref)
                return None
            rewrite = self.css if mime == "text/css" else self.module
            code = await rewrite(code, path, stack=(*stack, path))
            url = data_url(code.encode("utf-8"), mime)
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
        return await rewrite_css(css, lambda ref: self.asset_url(source, ref, stack=stack))

    async def module(self, js: str, source: str, *, stack: tuple[str, ...] = ()) -> str:
        """Module code with its relative import specifiers turned into data: URLs."""
        self.scan_js(js)
        return await rewrite_module(js, lambda ref: self.asset_url(source, ref, stack=stack))

    def scan_js(self, js: str) -> None:
        """Note the data files ``js`` may ``fetch()`` (string literals naming one)."""
        self._literals.update(data_literals(js))

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
            group = 0 if path in named else 1 if file_ext(path) in _TEXT_EXTS else 2
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
            files.append(embedded_file(path, data))
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


#: What the preview says of a project with no page at all (a fresh one, or
#: before Ralph's first file): what will be here, and how it gets here.
NO_PAGE_YET = (
    "<h1>No page yet</h1><p>This project has no web page yet. Agree on a plan with Chief "
    "and hand it to Ralph, and his first page shows here as he writes it; or add "
    "<code>index.html</code> in Files.</p>"
)


def no_page_yet() -> Bundle:
    """The preview's page for a project without any page (:data:`NO_PAGE_YET`)."""
    return Bundle("index.html", _message_page("No page yet", NO_PAGE_YET), found=False)


async def bundle_page(
    fs: FileStore, path: str = "index.html", stamp: bool = False, point: str | None = None
) -> Bundle:
    """The page at ``path`` (may carry a ``#fragment``) as one self-contained document
    (``stamp``: each start tag carries its place in the page, for the site checks;
    ``point``: the select channel's secret, with the select script and the table
    of where each start tag is written, :attr:`Bundle.places`)."""
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
        rewriter = PageRewriter(bundler, stamp, point)
        doc = await rewriter.page(path, text, fragment)
        return Bundle(
            path,
            doc,
            bundler.missing,
            over_cap=bundler.over_cap,
            places=rewriter.places,
            stylesheets=rewriter.stylesheets,
        )
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
