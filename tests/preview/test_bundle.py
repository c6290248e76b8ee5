"""The preview bundler under CPython: one page in, one self-contained document out."""

from __future__ import annotations

import base64
import json
import re
from html.parser import HTMLParser

from wiggum.fs import MemoryFileStore
from wiggum.preview import Missing, bundle_page, data_url, mime_type, resolve_ref

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)


async def store(files: dict[str, str | bytes]) -> MemoryFileStore:
    fs = MemoryFileStore()
    for path, content in files.items():
        if isinstance(content, bytes):
            await fs.write_bytes(path, content)
        else:
            await fs.write_text(path, content)
    return fs


class Elements(HTMLParser):
    """(tag, attrs dict) of every start tag, and each element's text by tag."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.texts: list[tuple[str, str]] = []
        self._open: str | None = None

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        # The runtime embeds the project's files, so it would match searches
        # meant for the page's own scripts.
        runtime = tag == "script" and dict(attrs).get("data-wiggum-preview") == "runtime"
        self._open = "runtime" if runtime else tag

    def handle_endtag(self, tag):
        self._open = None

    def handle_data(self, data):
        if self._open:
            self.texts.append((self._open, data))


def parse(doc: str) -> Elements:
    p = Elements()
    p.feed(doc)
    p.close()
    return p


def decode(url: str) -> tuple[str, bytes]:
    m = re.match(r"data:([^;,]+);base64,(.*)$", url, re.S)
    assert m, url[:80]
    return m.group(1), base64.b64decode(m.group(2))


def test_mime_and_data_url():
    assert mime_type("a/b.PNG") == "image/png"
    assert mime_type("x.svg") == "image/svg+xml"
    assert mime_type("x.mjs") == "text/javascript"
    assert mime_type("README") == "application/octet-stream"
    assert decode(data_url(b"hi", "text/plain")) == ("text/plain", b"hi")


def test_resolve_ref():
    assert resolve_ref("../img/a.png?v=2#x", "css").path == "img/a.png"
    assert resolve_ref("./a.html#top", "").fragment == "top"
    assert resolve_ref("/img/a.png", "deep/er").path == "img/a.png"
    assert resolve_ref("%20a.png", "").path == " a.png"
    assert resolve_ref("#sec", "").kind == "fragment"
    assert resolve_ref("https://x.org/a.png", "").kind == "external"
    assert resolve_ref("//cdn.x.org/a.js", "").kind == "external"
    assert resolve_ref("data:image/png;base64,AA", "").kind == "external"
    assert resolve_ref("../../etc/passwd", "css").kind == "outside"
    assert resolve_ref("/../secret", "").kind == "outside"
    assert resolve_ref("  ", "").kind == "empty"


async def test_css_inlined_with_nested_urls_rewritten():
    fs = await store(
        {
            "index.html": '<!DOCTYPE html><html><head><link rel="stylesheet" href="css/site.css" media="screen"></head><body><h1>Hi</h1></body></html>',
            "css/site.css": '@import "parts/base.css";\nbody { background: url(../img/a.png) no-repeat; }\n'
            "@font-face { font-family: F; src: url('../fonts/f.woff2') format('woff2'); }",
            "css/parts/base.css": 'h1 { background-image: url("../../img/a.png"); }',
            "img/a.png": PNG,
            "fonts/f.woff2": b"wOF2fake",
        }
    )
    b = await bundle_page(fs, "index.html")
    assert b.found and b.missing == []
    assert b.html.startswith("<!DOCTYPE html>")
    doc = parse(b.html)
    assert not any(t == "link" for t, _ in doc.tags)
    style_tag = next(a for t, a in doc.tags if t == "style")
    assert style_tag["media"] == "screen"
    css = next(text for tag, text in doc.texts if tag == "style")
    urls = re.findall(r'url\("([^"]+)"\)', css)
    assert ("image/png", PNG) in [decode(u) for u in urls]
    assert ("font/woff2", b"wOF2fake") in [decode(u) for u in urls]
    imported = decode(re.search(r'@import url\("([^"]+)"\)', css).group(1))
    assert imported[0] == "text/css"
    inner = imported[1].decode()
    assert decode(re.search(r'url\("([^"]+)"\)', inner).group(1)) == ("image/png", PNG)


async def test_images_srcset_sources_favicon_and_style_attributes():
    fs = await store(
        {
            "pages/p.html": '<html><head><link rel="icon" href="../favicon.ico"></head><body>'
            '<img src="../img/a.png" alt="a"><img srcset="../img/a.png 1x, ../img/b.svg 2x">'
            '<picture><source srcset="../img/b.svg" type="image/svg+xml"></picture>'
            '<div style="background:url(../img/a.png)"></div>'
            "<style>.x{background:url('../img/b.svg')}</style></body></html>",
            "img/a.png": PNG,
            "img/b.svg": "<svg xmlns='http://www.w3.org/2000/svg'/>",
            "favicon.ico": b"\x00\x00\x01\x00",
        }
    )
    b = await bundle_page(fs, "pages/p.html")
    assert b.missing == []
    doc = parse(b.html)
    icon = next(a for t, a in doc.tags if t == "link")
    assert decode(icon["href"])[0] == "image/x-icon"
    img = [a for t, a in doc.tags if t == "img"]
    assert decode(img[0]["src"]) == ("image/png", PNG)
    entries = [e.strip().split() for e in re.split(r",\s+(?=data:)", img[1]["srcset"])]
    assert [decode(u)[0] for u, _ in entries] == ["image/png", "image/svg+xml"]
    assert [d for _, d in entries] == ["1x", "2x"]
    source = next(a for t, a in doc.tags if t == "source")
    assert decode(source["srcset"])[0] == "image/svg+xml"
    div = next(a for t, a in doc.tags if t == "div")
    assert "data:image/png;base64," in div["style"]
    css = next(text for tag, text in doc.texts if tag == "style")
    assert "data:image/svg+xml;base64," in css


async def test_classic_scripts_inlined_and_defer_kept_as_data_url():
    fs = await store(
        {
            "index.html": '<html><head><script src="js/a.js"></script>'
            '<script src="js/b.js" defer></script></head><body></body></html>',
            "js/a.js": "document.title = 'A';",
            "js/b.js": "window.b = 1;",
        }
    )
    b = await bundle_page(fs)
    doc = parse(b.html)
    scripts = [a for t, a in doc.tags if t == "script"]
    runtime, a, deferred = scripts
    assert runtime.get("data-wiggum-preview") == "runtime"
    assert "src" not in a and a["data-src"] == "js/a.js"
    assert ("script", "document.title = 'A';\n//# sourceURL=js/a.js") in doc.texts
    assert "defer" in deferred
    assert decode(deferred["src"]) == ("text/javascript", b"window.b = 1;")


async def test_module_scripts_become_data_urls_with_imports_rewritten():
    fs = await store(
        {
            "index.html": '<script type="module" src="./js/main.js"></script>'
            '<script type="module">import {x} from "./js/util.js"; console.log(x);</script>',
            "js/main.js": 'import { x } from "./util.js";\nimport "./lib/side.js";\n'
            'import cfg from "../data.json" with { type: "json" };\n'
            'const m = await import("./util.js");\nimport * as three from "three";\nexport { x };',
            "js/util.js": "export const x = 1;",
            "js/lib/side.js": 'export * from "../util.js";',
            "data.json": '{"a": 1}',
        }
    )
    b = await bundle_page(fs)
    assert b.missing == []
    doc = parse(b.html)
    mod = next(a for t, a in doc.tags if t == "script" and a.get("src"))
    assert mod["type"] == "module"
    mime, code = decode(mod["src"])
    assert mime == "text/javascript"
    code = code.decode()
    assert '"three"' in code  # bare specifiers untouched
    specs = re.findall(r'"(data:[^"]+)"', code)
    assert len(specs) == 4
    assert {decode(s)[0] for s in specs} == {"text/javascript", "application/json"}
    side = next(decode(s)[1].decode() for s in specs if b"export *" in decode(s)[1])
    assert decode(re.search(r'"(data:[^"]+)"', side).group(1))[1] == b"export const x = 1;"
    inline = next(text for tag, text in doc.texts if tag == "script" and "console.log" in text)
    assert "./js/util.js" not in inline and "data:text/javascript;base64," in inline


async def test_import_cycle_is_reported_not_looped():
    fs = await store(
        {
            "index.html": '<script type="module" src="a.js"></script>',
            "a.js": 'import "./b.js";',
            "b.js": 'import "./a.js";',
        }
    )
    b = await bundle_page(fs)
    assert [m.reason for m in b.missing] == ["circular reference"]


async def test_missing_refs_left_as_written_and_reported():
    fs = await store(
        {
            "index.html": '<link rel="stylesheet" href="nope.css"><img src="img/none.png">'
            '<script src="gone.js"></script><a href="../../outside.html">x</a>'
            '<img src="../escape.png">',
            "img/.keep": "",
        }
    )
    b = await bundle_page(fs)
    assert set(b.missing) == {
        Missing("index.html", "nope.css"),
        Missing("index.html", "img/none.png"),
        Missing("index.html", "gone.js"),
        Missing("index.html", "../../outside.html", "outside the project"),
        Missing("index.html", "../escape.png", "outside the project"),
    }
    doc = parse(b.html)
    assert ("link", {"rel": "stylesheet", "href": "nope.css"}) in doc.tags
    assert ("img", {"src": "img/none.png"}) in doc.tags
    assert ("script", {"src": "gone.js"}) in doc.tags
    a = next(a for t, a in doc.tags if t == "a")
    assert a["data-wiggum-nav"] == ""  # blocked: never navigates outside
    assert str(b.missing[0]) == "index.html: nope.css (not found)"


async def test_no_escape_outside_the_project():
    class Spy(MemoryFileStore):
        def __init__(self) -> None:
            super().__init__()
            self.reads: list[str] = []

        async def read_bytes(self, path: str) -> bytes:
            self.reads.append(path)
            return await super().read_bytes(path)

    fs = Spy()
    await fs.write_text(
        "site/index.html",
        '<img src="../../../etc/passwd"><link rel=stylesheet href="/../x.css"><img src="../ok.png">',
    )
    await fs.write_bytes("ok.png", PNG)
    b = await bundle_page(fs, "site/index.html")
    assert all(not p.startswith("..") and not p.startswith("/") for p in fs.reads)
    assert "ok.png" in fs.reads
    assert {m.reason for m in b.missing} == {"outside the project"}
    assert (await bundle_page(fs, "../index.html")).found is False


async def test_links_rewritten_to_navigation_hooks():
    fs = await store(
        {
            "index.html": '<a href="about.html">About</a><a href="./blog/">Blog</a>'
            '<a href="about.html#team">Team</a><a href="#top">Top</a>'
            '<a href="https://example.org/">Ext</a><a href="mailto:a@b.c">Mail</a>'
            '<a href="docs">Docs</a>',
            "about.html": "<h1>About</h1>",
            "blog/index.html": "<h1>Blog</h1>",
            "docs/index.html": "<h1>Docs</h1>",
        }
    )
    b = await bundle_page(fs)
    links = [a for t, a in parse(b.html).tags if t == "a"]
    assert links[0]["data-wiggum-nav"] == "about.html"
    assert links[0]["href"] == "about.html"
    assert links[1]["data-wiggum-nav"] == "blog/index.html"
    assert (links[2]["data-wiggum-nav"], links[2]["data-wiggum-fragment"]) == ("about.html", "team")
    assert "data-wiggum-nav" not in links[3] and links[3]["data-wiggum-fragment"] == "top"
    assert links[4]["target"] == "_blank" and "noopener" in links[4]["rel"]
    assert "data-wiggum-nav" not in links[4]
    assert links[5] == {"href": "mailto:a@b.c"}
    assert links[6]["data-wiggum-nav"] == "docs/index.html"
    assert "wiggum-preview-nav" in b.html and "wiggum-preview-error" in b.html
    assert "unhandledrejection" in b.html


async def test_runtime_injected_in_head_after_doctype():
    fs = await store(
        {"index.html": "<!doctype html>\n<html lang=en><head><title>t</title></head></html>"}
    )
    b = await bundle_page(fs)
    assert b.html.startswith("<!doctype html>\n<html lang=en><head><script data-wiggum-preview")
    fs = await store({"index.html": "<p>bare"})
    assert (await bundle_page(fs)).html.startswith("<script data-wiggum-preview")


async def test_html_special_characters_in_inlined_code_cannot_break_out():
    js = 'var s = "</script><img src=x onerror=alert(1)>"; var t = "<!-- <script>";'
    css = 'body::after { content: "</style><script>alert(1)</script>"; }'
    fs = await store(
        {
            "index.html": '<link rel="stylesheet" href="s.css"><script src="a.js"></script><p id="after">ok</p>',
            "a.js": js,
            "s.css": css,
        }
    )
    b = await bundle_page(fs)
    doc = parse(b.html)
    # Exactly the runtime and the inlined script; no injected <img>/extra <script>.
    assert [t for t, _ in doc.tags] == ["script", "style", "script", "p"]
    script = next(text for tag, text in doc.texts if tag == "script" and "var s = " in text)
    assert "</script" not in script.lower() and "<!--" not in script
    assert "\\x3C/script>" in script and "\\x3C!-- <script>" in script
    style = next(text for tag, text in doc.texts if tag == "style")
    assert "</style" not in style.lower()


async def test_not_found_and_non_html_pages():
    fs = await store({"notes.txt": "a < b", "img/a.png": PNG, "index.html": "<p>x"})
    missing = await bundle_page(fs, "nope.html")
    assert not missing.found and "nope.html" in missing.html
    txt = await bundle_page(fs, "notes.txt")
    assert "a &lt; b" in txt.html
    img = await bundle_page(fs, "img/a.png")
    assert "data:image/png;base64," in img.html
    root = await bundle_page(fs, "")
    assert root.path == "index.html" and root.found
    frag = await bundle_page(fs, "index.html#sec")
    assert frag.path == "index.html" and '"sec"' in frag.html


async def test_error_lines_map_back_to_the_files():
    app_js = "// app\nvar a = 1;\nnoSuchFn();\n"
    page = (
        "<!DOCTYPE html>\n<html>\n<head>\n<link rel=stylesheet href=s.css>\n"
        '<script src="js/app.js"></script>\n</head>\n<body>\n<script>\nvar b = 2;\n'
        "alsoMissing();\n</script>\n</body>\n</html>\n"
    )
    fs = await store({"index.html": page, "js/app.js": app_js, "s.css": "a{}\nb{}\n"})
    b = await bundle_page(fs)
    lines = json.loads(re.search(r"var lines = (\{.*?\});", b.html).group(1))
    sources = {"js/app.js": app_js.split("\n"), "index.html": page.split("\n")}
    assert {path for path, _ in lines.values()} == {"js/app.js", "index.html"}
    # Each piece of code ends with its own sourceURL; the browser counts an
    # error's line from the start of that script.
    codes = [t for tag, t in parse(b.html).texts if tag == "script"]
    assert len(codes) == 2
    for code in codes:
        body, _, name = code.rpartition("\n//# sourceURL=")
        path, before = lines[name]
        for k, written in enumerate(body.split("\n"), 1):
            # the code's first line shares its file line with the <script> tag
            assert sources[path][before + k - 1].endswith(written), (name, k, written)
    app = next(c for c in codes if c.endswith("sourceURL=js/app.js"))
    assert app.split("\n")[3 - 1] == "noSuchFn();"  # file line 3
    inline = next(c for c in codes if "alsoMissing" in c)
    name = inline.rpartition("sourceURL=")[2]
    assert lines[name] == ["index.html", 7]  # the <script> tag is on line 8
    assert inline.split("\n")[3 - 1] == "alsoMissing();"  # script line 3 = file line 10


async def test_data_scripts_are_not_annotated():
    data = '{"imports": {"x": "./x.js"}}'
    fs = await store(
        {
            "index.html": f'<script type="importmap">{data}</script>'
            '<script type="application/json" id="d">[1, 2]</script><p>x</p>'
        }
    )
    html = (await bundle_page(fs)).html
    # Not code: kept exactly, no //# sourceURL (it would break the JSON).
    assert f'<script type="importmap">{data}</script>' in html
    assert '<script type="application/json" id="d">[1, 2]</script>' in html
