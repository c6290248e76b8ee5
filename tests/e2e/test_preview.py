"""The live preview, the file tree and the browser checkers, in real Chromium.

One booted page serves the module.  Each test writes a small site into a fresh
``MemoryFileStore`` in the page and mounts the view under test into its own
fixed-position container (``#t-box``), replacing the previous one.
"""

from __future__ import annotations

import asyncio
import base64
import concurrent.futures
import json
import shutil

import pytest
from playwright.sync_api import expect
from wiggum_e2e import ROOT, booted_page, run_async

pytestmark = pytest.mark.e2e

# A 2x2 red PNG.
PNG_B64 = "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg=="
FRAME = '#t-box [data-testid="preview-frame"]'

SETUP = """
import base64, js
from wiggum.fs import MemoryFileStore
from wiggum.web.dom import is_null

async def make_fs(files):
    fs = MemoryFileStore()
    for path, content in files.items():
        if isinstance(content, bytes):
            await fs.write_bytes(path, content)
        else:
            await fs.write_text(path, content)
    return fs

def test_box():
    old = js.document.getElementById("t-box")
    if not is_null(old):
        old.remove()
    box = js.document.createElement("div")
    box.id = "t-box"
    box.style.cssText = ("position:fixed;inset:0;z-index:99999;background:#fff;"
                         "display:flex;flex-direction:column;padding:8px")
    js.document.body.appendChild(box)
    return box

preview_harness = True
"""


@pytest.fixture(scope="module")
def spage(browser, base_url):
    with booted_page(browser, base_url, SETUP + "\nTrue") as page:
        yield page


def write_site(page, files: dict[str, str], binary: dict[str, str] | None = None) -> None:
    """Files into a fresh store ``fs`` in the page (binary values: base64)."""
    run_async(
        page,
        f"""
        files = json.loads({json.dumps(files)!r})
        for k, v in json.loads({json.dumps(binary or {})!r}).items():
            files[k] = base64.b64decode(v)
        fs = await make_fs(files)
        True
        """,
    )


def mount_preview(page) -> None:
    run_async(
        page,
        """
        from wiggum.web.views.preview import mount_preview
        view = mount_preview(test_box(), fs)
        await view.refresh("index.html")
        True
        """,
    )


SITE = {
    "index.html": """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Home</title>
<link rel="stylesheet" href="css/site.css">
<script src="js/app.js" defer></script>
<script type="module" src="js/main.js"></script>
<script src="js/data.js"></script>
</head><body>
<h1 id="title">Hello</h1>
<img id="logo" src="img/logo.png" alt="logo">
<div id="bg"></div>
<p><a id="about" href="about.html">About us</a> <a id="ext" href="https://example.org/">x</a>
<a id="jump" href="#bottom">Down</a></p>
<div style="height: 3000px"></div><p id="bottom">bottom</p>
</body></html>""",
    "css/site.css": "h1 { color: rgb(255, 0, 0); }\n#bg { width: 10px; height: 10px; "
    "background-image: url(../img/logo.png); }",
    "js/app.js": "const p = document.createElement('p'); p.id = 'from-js';"
    " p.textContent = 'classic ran </script>'; document.body.appendChild(p);",
    "js/main.js": "import { label } from './util.js';\n"
    "const p = document.createElement('p'); p.id = 'from-module'; p.textContent = label;"
    " document.body.appendChild(p);",
    "js/util.js": "export const label = 'module ran';",
    "js/data.js": "fetch('data/items.json').then(r => r.json()).then(d => {"
    " const p = document.createElement('p'); p.id = 'from-fetch'; p.textContent = d.items.join(',');"
    " document.body.appendChild(p); });",
    "data/items.json": '{"items": ["a", "b"]}',
    "about.html": '<!DOCTYPE html><html><head><link rel="stylesheet" href="css/site.css"></head>'
    '<body><h1 id="about-title">About</h1><a id="home" href="./">Home</a></body></html>',
}


def test_preview_builds_the_page_and_follows_links(spage):
    write_site(spage, SITE, {"img/logo.png": PNG_B64})
    mount_preview(spage)
    frame = spage.frame_locator(FRAME)
    sandbox = spage.get_attribute(FRAME, "sandbox")
    assert "allow-scripts" in sandbox and "allow-same-origin" not in sandbox

    assert frame.locator("#from-js").text_content(timeout=10_000) == "classic ran </script>"
    assert frame.locator("#from-module").text_content(timeout=10_000) == "module ran"
    assert frame.locator("#from-fetch").text_content(timeout=10_000) == "a,b"
    assert frame.locator("#title").evaluate("e => getComputedStyle(e).color") == "rgb(255, 0, 0)"
    bg = frame.locator("#bg").evaluate("e => getComputedStyle(e).backgroundImage")
    assert bg.startswith('url("data:image/png;base64,')
    width = frame.locator("#logo").evaluate(
        """img => img.complete ? img.naturalWidth
                 : new Promise(r => { img.onload = () => r(img.naturalWidth); img.onerror = () => r(0); })"""
    )
    assert width == 2
    ext = frame.locator("#ext")
    assert ext.get_attribute("target") == "_blank"
    assert spage.text_content('#t-box [data-testid="preview-path"]') == "index.html"

    frame.locator("#jump").click()  # fragment: scrolls inside the frame, stays on the page
    frame.locator("#bottom").evaluate(
        "e => new Promise(r => requestAnimationFrame(() => r(scrollY)))"
    )
    assert frame.locator("#bottom").evaluate("e => scrollY") > 1000
    assert frame.locator("#title").text_content() == "Hello"
    frame.locator("#about").click()
    assert frame.locator("#about-title").text_content(timeout=10_000) == "About"
    assert spage.text_content('#t-box [data-testid="preview-path"]') == "about.html"
    assert frame.locator("#about-title").evaluate("e => getComputedStyle(e).color") == (
        "rgb(255, 0, 0)"
    )
    frame.locator("#home").click()
    assert frame.locator("#title").text_content(timeout=10_000) == "Hello"
    assert spage.text_content('#t-box [data-testid="preview-path"]') == "index.html"

    # Refresh picks up edits.
    run_async(spage, "await fs.write_text('js/util.js', \"export const label = 'edited';\")\nTrue")
    spage.click('#t-box [data-testid="preview-refresh"]')
    expect(frame.locator("#from-module")).to_have_text("edited", timeout=10_000)
    assert run_async(spage, "view.state.errors") == []


def test_a_refresh_after_changes_elsewhere_leaves_the_shown_page_alone(spage):
    # The workspace refreshes the preview whenever files change (Ralph writes his
    # notes, a run ends, a checkpoint is taken); a page whose bundle is the same
    # keeps running, its state and scroll with it.
    write_site(spage, {"index.html": "<h1 id='t'>One</h1>", ".ralph/progress.md": "a"})
    mount_preview(spage)
    frame = spage.frame_locator(FRAME)
    expect(frame.locator("#t")).to_have_text("One", timeout=10_000)
    frame.locator("#t").evaluate("e => { window.kept = 42; }")
    shown = spage.query_selector(FRAME)
    again = "await view.refresh(None, if_changed=True)\nTrue"
    run_async(spage, "await fs.write_text('.ralph/progress.md', 'b')\n" + again)
    assert spage.evaluate("f => f.isConnected", shown)
    assert frame.locator("#t").evaluate("e => window.kept") == 42
    assert spage.text_content('#t-box [data-testid="preview-status"]') == ""

    # Any file of the site is in the bundle (its scripts may fetch it): reloaded.
    run_async(spage, "await fs.write_text('notes.txt', 'new')\n" + again)
    spage.wait_for_function("f => !f.isConnected", arg=shown)
    expect(frame.locator("#t")).to_have_text("One", timeout=10_000)
    assert frame.locator("#t").evaluate("e => window.kept") is None

    frame.locator("#t").evaluate("e => { window.kept = 7; }")
    shown = spage.query_selector(FRAME)  # the Refresh button always reloads
    spage.click('#t-box [data-testid="preview-refresh"]')
    spage.wait_for_function("f => !f.isConnected", arg=shown)
    expect(frame.locator("#t")).to_have_text("One", timeout=10_000)
    assert frame.locator("#t").evaluate("e => window.kept") is None


def test_preview_reports_uncaught_errors(spage):
    write_site(
        spage,
        {
            "index.html": "<script>setTimeout(() => { throw new Error('boom'); });"
            "Promise.reject(new Error('nope'));</script><p id=ok>ok</p>"
        },
    )
    mount_preview(spage)
    errors = spage.locator('#t-box [data-testid="preview-console"] [data-level="error"]')
    errors.nth(1).wait_for(timeout=10_000)
    texts = [
        f"{e.locator('.console-text').text_content()} @{e.locator('.console-where').all_text_contents()}"
        for e in errors.all()
    ]
    assert any("boom" in t and "@['index.html:1']" in t for t in texts), texts
    assert any("nope" in t for t in texts)
    assert any(
        "boom" in t and "(index.html line 1)" in t for t in run_async(spage, "view.state.errors")
    )


SECURITY_SITE = {
    "index.html": """<!DOCTYPE html><html><body><ul id="results"></ul>
<script>
const out = (k, v) => { const li = document.createElement("li"); li.id = k; li.textContent = v;
                        document.getElementById("results").appendChild(li); };
try { const v = localStorage.getItem("wiggum-secret"); out("ls", "read: " + v); }
catch (e) { out("ls", "denied: " + e.name); }
try { const v = parent.localStorage.getItem("wiggum-secret"); out("pls", "read: " + v); }
catch (e) { out("pls", "denied: " + e.name); }
try {
  const r = indexedDB.open("wiggum");
  r.onsuccess = () => out("idb", "read: opened");
  r.onerror = () => out("idb", "denied: " + (r.error && r.error.name));
} catch (e) { out("idb", "denied: " + e.name); }
try { const t = parent.document.title; out("parent", "read: " + t); }
catch (e) { out("parent", "denied: " + e.name); }
try { const t = top.document.cookie; out("top", "read: " + t); }
catch (e) { out("top", "denied: " + e.name); }
try { const c = document.cookie; out("cookie", "read: " + c); }
catch (e) { out("cookie", "denied: " + e.name); }
</script></body></html>"""
}


def test_preview_site_cannot_reach_wiggum_storage(spage):
    before = run_async(
        spage,
        """
        from wiggum.web import app as wapp
        js.localStorage.setItem("wiggum-secret", "sk-local-secret")
        await wapp.APP.storage.put_settings({"provider": "test", "api_key": "sk-test-secret-123"})
        await wapp.APP.storage.get_settings()
        """,
    )
    assert before["api_key"] == "sk-test-secret-123"
    write_site(spage, SECURITY_SITE)
    mount_preview(spage)
    frame = spage.frame_locator(FRAME)
    results = {}
    for key in ("ls", "pls", "idb", "parent", "top", "cookie"):
        results[key] = frame.locator(f"#{key}").text_content(timeout=10_000)
    # The site's own storage (the preview's shim) answers; Wiggum's is out of reach.
    assert results.pop("ls") == "read: null" and results.pop("cookie") == "read: "
    assert all(v.startswith("denied: ") for v in results.values()), results
    assert "SecurityError" in results["parent"]
    assert "sk-" not in json.dumps(results)
    after = run_async(spage, "await wapp.APP.storage.get_settings()")
    assert after == before
    assert run_async(spage, "js.localStorage.getItem('wiggum-secret')") == "sk-local-secret"


def test_js_checker(spage):
    # Code that runs would post "RAN" to the parent; nothing may.
    result = run_async(
        spage,
        """
        from wiggum.web.checkers import browser_js_checker
        ran = []
        from pyodide.ffi import create_proxy
        def on_msg(e):
            if e.data == "RAN":
                ran.append(1)
        on_msg_proxy = create_proxy(on_msg)
        js.window.addEventListener("message", on_msg_proxy)
        cases = {
            "bad_classic": ("a.js", "var ok = 1;\\nvar = 2;\\nvar z = 3;"),
            "top_return": ("b.js", "return 1;"),
            "good_classic": ("c.js", "parent.postMessage('RAN', '*');\\nfunction f(x) { return x < 1; }"),
            "good_module": ("d.js", "import { x } from './util.js';\\nparent.postMessage('RAN', '*');\\n"
                                    "export const y = x + 1;\\nawait Promise.resolve();"),
            "strict_with": ("h.js", "'use strict'\\nwith (Math) { parent.postMessage('RAN', '*'); }"),
            "sloppy_with": ("i.js", "with (Math) { parent.postMessage('RAN', '*'); }"),
            "bad_module": ("e.js", "import { x } from './util.js';\\nexport const = 1;"),
            "mjs_no_imports": ("f.mjs", "parent.postMessage('RAN', '*'); export default 1;"),
            "import_in_classic_name": ("g.js", "  export default function () { parent.postMessage('RAN', '*'); }"),
        }
        out = {}
        for name, (path, src) in cases.items():
            out[name] = await browser_js_checker(path, src)
        import asyncio
        await asyncio.sleep(0.3)
        js.window.removeEventListener("message", on_msg_proxy)
        out["ran"] = len(ran)
        out
        """,
    )
    assert result["ran"] == 0
    assert result["good_classic"] is None
    assert result["good_module"] is None
    assert result["mjs_no_imports"] is None
    assert result["import_in_classic_name"] is None
    assert "SyntaxError" in result["bad_classic"] and "line 2" in result["bad_classic"]
    assert "SyntaxError" in result["top_return"]
    assert "SyntaxError" in result["strict_with"] and "line 2" in result["strict_with"]
    assert result["sloppy_with"] is None
    assert "SyntaxError" in result["bad_module"] and "line 2" in result["bad_module"]


def test_preview_checker(spage):
    result = run_async(
        spage,
        """
        from wiggum.web.checkers import browser_preview_checker
        broken = await make_fs({
            "index.html": '<script src="app.js"></script><p>x</p>',
            "app.js": "// app\\ndocument.addEventListener('DOMContentLoaded', () => undefinedFn());"
                      "setTimeout(() => Promise.reject(new Error('late rejection')), 300);",
        })
        clean = await make_fs({"index.html": "<script>document.title = 'ok'</script><p>x</p>"})
        # about.html is the entry page when it is the only page; with two there is none
        about = await make_fs({"about.html": "<script>undefinedAbout()</script><p>x</p>"})
        empty = await make_fs({"a.html": "<p>a</p>", "b.html": "<p>b</p>"})
        res = [await browser_preview_checker(broken), await browser_preview_checker(clean)]
        res += [await browser_preview_checker(about), await browser_preview_checker(empty)]
        res += [js.document.querySelectorAll("iframe[data-wiggum-checker]").length]
        res
        """,
    )
    broken, clean, about, empty, leftover = result
    assert any("undefinedFn" in e and "(app.js line 2)" in e for e in broken), broken
    assert any("late rejection" in e for e in broken), broken
    assert clean == []
    assert any("undefinedAbout" in e for e in about), about
    assert empty == ["index.html not found"]
    assert leftover == 0


def test_file_tree_and_viewer(spage):
    write_site(
        spage,
        {
            "index.html": "<h1>Hi & <b>bold</b></h1>\n<p>two</p>\n",
            "css/site.css": "h1 { color: red; }",
            ".ralph/state.json": '{"done": false}',
            ".chief/notes.md": "# notes",
            "README.md": "readme",
        },
        {"img/logo.png": PNG_B64, "data.bin": base64.b64encode(b"\x00\xff\x10binary").decode()},
    )
    run_async(
        spage,
        """
        from wiggum.web.views.files import mount_files
        opened = []
        files_view = mount_files(test_box(), fs, on_open=opened.append)
        await files_view.refresh()
        True
        """,
    )
    tree = spage.locator('#t-box [data-testid="file-tree"]')
    entries = tree.locator('[data-testid="file-entry"]')
    assert entries.evaluate_all("els => els.map(e => e.dataset.path)") == [
        ".chief/notes.md",
        ".ralph/state.json",
        "css/site.css",
        "img/logo.png",
        "README.md",
        "data.bin",
        "index.html",
    ]
    folders = tree.locator('[data-testid="file-folder"]')
    assert folders.evaluate_all("els => els.map(e => e.dataset.path)") == [
        ".chief",
        ".ralph",
        "css",
        "img",
    ]

    viewer = spage.locator('#t-box [data-testid="file-viewer"]')
    tree.locator('[data-path="index.html"]').click()
    # A text file opens in the editor (CodeMirror, loaded on this first open).
    spage.wait_for_selector(
        '#t-box [data-testid="editor"][data-path="index.html"][data-ready="true"]',
        timeout=60_000,
    )
    content = viewer.locator(".cm-content")
    lines = content.locator(".cm-line").evaluate_all("els => els.map(e => e.textContent)")
    assert lines[:2] == ["<h1>Hi & <b>bold</b></h1>", "<p>two</p>"]
    assert viewer.locator("h1, b").count() == 0  # shown as text, never parsed as HTML
    gutter = viewer.locator(".cm-lineNumbers .cm-gutterElement").evaluate_all(
        "els => els.filter(e => getComputedStyle(e).visibility !== 'hidden')"
        ".map(e => e.textContent)"
    )
    assert gutter[:2] == ["1", "2"]
    assert content.evaluate("e => getComputedStyle(e).fontFamily").lower().find("mono") >= 0
    assert run_async(spage, "opened") == ["index.html"]

    tree.locator('[data-path="data.bin"]').click()
    spage.wait_for_selector('#t-box [data-testid="file-viewer"][data-path="data.bin"]')
    assert "binary" in viewer.text_content()
    assert "9 B" in viewer.text_content()

    tree.locator('[data-path="img/logo.png"]').click()
    img = viewer.locator('[data-testid="file-image"]')
    img.wait_for()
    assert (
        img.evaluate(
            """i => i.complete ? i.naturalWidth : new Promise(r => { i.onload = () => r(i.naturalWidth); })"""
        )
        == 2
    )

    # Collapsing a folder survives a refresh; new files appear.
    tree.locator('[data-path=".ralph"] > summary').click()
    run_async(spage, "await fs.write_text('js/new.js', '1')\nawait files_view.refresh()\nTrue")
    assert tree.locator('[data-path="js/new.js"]').count() == 1
    assert tree.locator('[data-path=".ralph"]').evaluate("d => d.open") is False
    assert tree.locator('[data-path="css"]').evaluate("d => d.open") is True
    assert viewer.get_attribute("data-path") == "img/logo.png"  # still open


# --------------------------------------------------------------------------
# The bundle's fetch/XHR shim, in a sandboxed frame on Wiggum's own preview host
# page (static/preview.html, as in the app) but with no app boot: the document
# is bundled under CPython and posted to that frame by a plain page served from
# a sub-path, as Wiggum is on GitHub Pages.

HOST = """<!DOCTYPE html><html><head><meta charset="utf-8"></head><body><script>
window.previewErrors = [];
addEventListener("message", e => {
  if (e.data && e.data.type === "wiggum-preview-error") previewErrors.push(e.data.message);
});
window.show = doc => {
  const f = document.createElement("iframe");
  f.id = "f";
  f.setAttribute("sandbox", "allow-scripts");
  f.src = "static/preview.html";
  addEventListener("message", function ready(e) {
    if (e.source !== f.contentWindow || !e.data || e.data.type !== "wiggum-preview-ready") return;
    removeEventListener("message", ready);
    f.contentWindow.postMessage({type: "wiggum-preview-page", html: doc}, "*");
  });
  document.body.replaceChildren(f);
};
</script></body></html>"""

MENU = {"title": "Café", "items": [{"name": "Tea", "price": 2}, {"name": "Pie", "price": 4}]}

SHIM_SITE = {
    # Top-level code that fetches while the page loads: the shim must already be in place.
    "index.html": """<!DOCTYPE html><html><head><meta charset="utf-8">
<script>
window.atLoad = fetch("data/menu.json").then(r => r.json());
</script>
<script src="js/app.js"></script>
<script type="module">
const r = await fetch("./notes.md");
document.getElementById("module").textContent = await r.text();
</script>
</head><body>
<ul id="menu"></ul><p id="xhr"></p><p id="module"></p><div id="gallery"></div>
<script>
fetch("data/menu.json")
  .then(r => r.json())
  .then(d => {
    for (const item of d.items) {
      const li = document.createElement("li");
      li.textContent = item.name;
      document.getElementById("menu").appendChild(li);
    }
    document.getElementById("gallery").innerHTML = '<img id="g" src="img/x.png" alt="">';
  });
</script>
<p id="ready">ready</p>
</body></html>""",
    "js/app.js": """var x = new XMLHttpRequest();
x.open("GET", "data/menu.json");
x.responseType = "json";
x.onload = function () {
  window.xhrAtLoad = {status: x.status, title: x.response.title};
};
x.send();""",
    "data/menu.json": json.dumps(MENU),
    "notes.md": "# Notes ✓\nline two\n",
    "pages/sub/page.html": '<!DOCTYPE html><html><body><p id="ready">sub</p></body></html>',
    "pages/other.txt": "other",
    "pages/sub/local.json": '{"here": true}',
    "docs/index.html": "<p>docs</p>",
}


def bundled(files: dict[str, str | bytes], path: str, cap: int | None = None) -> str:
    """``bundle_page`` of ``files`` under CPython, off the thread Playwright's loop holds."""
    from wiggum.fs import MemoryFileStore
    from wiggum.preview import bundle as bundle_mod

    async def run() -> str:
        fs = MemoryFileStore()
        for name, content in files.items():
            if isinstance(content, bytes):
                await fs.write_bytes(name, content)
            else:
                await fs.write_text(name, content)
        return (await bundle_mod.bundle_page(fs, path)).html

    def in_thread() -> str:
        if cap is None:
            return asyncio.run(run())
        old, bundle_mod.MAX_FETCHABLE = bundle_mod.MAX_FETCHABLE, cap
        try:
            return asyncio.run(run())
        finally:
            bundle_mod.MAX_FETCHABLE = old

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(in_thread).result()


@pytest.fixture
def shim_frame(context, serve_dir, tmp_path):
    """``open(files, path, cap=None) -> Frame``: the bundled page running in a
    sandboxed frame on static/preview.html of a site at http://127.0.0.1:<port>/wiggum/."""
    (tmp_path / "wiggum" / "static").mkdir(parents=True)
    (tmp_path / "wiggum" / "index.html").write_text(HOST)
    shutil.copy(ROOT / "static" / "preview.html", tmp_path / "wiggum" / "static")
    url = serve_dir(tmp_path) + "wiggum/"
    host = context.new_page()

    def open_(files, path="index.html", cap=None):
        host.goto(url)
        host.evaluate("doc => show(doc)", bundled(files, path, cap))
        frame = host.wait_for_selector("#f").content_frame()
        frame.wait_for_selector("#ready", timeout=10_000)
        frame.wait_for_function("document.readyState === 'complete'", timeout=10_000)
        assert frame.evaluate("origin") == "null"  # opaque: the real fetch could not help
        return frame

    open_.host = host
    return open_


def test_shim_fetch_answers_project_files(shim_frame):
    frame = shim_frame({**SHIM_SITE, "img/x.png": base64.b64decode(PNG_B64)})
    got = frame.evaluate(
        """async () => {
        const r = await fetch("data/menu.json");
        const png = new Uint8Array(await (await fetch("./img/x.png")).arrayBuffer());
        const blob = await (await fetch("img/x.png?v=2")).blob();
        const missing = await fetch("missing.json");
        const post = await fetch("data/menu.json", {method: "POST", body: "{}"});
        const head = await fetch("notes.md", {method: "HEAD"});
        return {
          status: r.status, ok: r.ok, type: r.headers.get("content-type"), json: await r.json(),
          text: await (await fetch("./notes.md#top")).text(),
          root: await (await fetch("/data/menu.json")).json(),
          viaURL: await (await fetch(new URL("data/menu.json", location.href))).json(),
          viaRequest: await (await fetch(new Request("data/menu.json"))).json(),
          folder: await (await fetch("docs/")).text(),
          png: Array.from(png), blobType: blob.type, blobSize: blob.size,
          missing: [missing.status, missing.ok, await missing.text()],
          post: post.status, head: [head.status, (await head.text()).length],
          external: await (await fetch("data:text/plain,passed%20through")).text(),
        };
    }"""
    )
    assert (got["status"], got["ok"], got["type"]) == (200, True, "application/json")
    assert got["json"] == MENU
    assert got["text"] == SHIM_SITE["notes.md"]
    assert got["root"] == MENU and got["viaURL"] == MENU and got["viaRequest"] == MENU
    assert got["folder"] == "<p>docs</p>"
    assert bytes(got["png"]) == base64.b64decode(PNG_B64)
    assert (got["blobType"], got["blobSize"]) == ("image/png", len(base64.b64decode(PNG_B64)))
    assert got["missing"] == [404, False, "Not Found"]
    assert got["post"] == 405
    assert got["head"] == [200, 0]
    assert got["external"] == "passed through"
    assert shim_frame.host.evaluate("previewErrors") == []


def test_shim_leaves_other_hosts_to_the_real_fetch(shim_frame):
    shim_frame.host.route(
        "http://localhost:9/api.json",
        lambda route: route.fulfill(
            status=200,
            headers={"Access-Control-Allow-Origin": "*", "Content-Type": "application/json"},
            body='{"api": true}',
        ),
    )
    frame = shim_frame({"index.html": '<p id="ready">x</p>', "api.json": '{"api": false}'})
    got = frame.evaluate(
        """async () => [await (await fetch("http://localhost:9/api.json")).json(),
                        await (await fetch("api.json")).json()]"""
    )
    assert got == [{"api": True}, {"api": False}]


def test_shim_runs_before_page_scripts(shim_frame):
    frame = shim_frame({**SHIM_SITE, "img/x.png": base64.b64decode(PNG_B64)})
    expect(frame.locator("#menu li")).to_have_text(["Tea", "Pie"], timeout=10_000)
    expect(frame.locator("#module")).to_have_text(SHIM_SITE["notes.md"].strip(), timeout=10_000)
    assert frame.evaluate("window.atLoad") == MENU
    frame.wait_for_function("window.xhrAtLoad !== undefined", timeout=10_000)
    assert frame.evaluate("window.xhrAtLoad") == {"status": 200, "title": "Café"}
    # Markup a script inserts (innerHTML) gets the embedded image too.
    width = frame.locator("#g").evaluate(
        """img => img.complete && img.naturalWidth ? img.naturalWidth
                 : new Promise(r => { img.onload = () => r(img.naturalWidth); img.onerror = () => r(0); })"""
    )
    assert width == 2
    assert shim_frame.host.evaluate("previewErrors") == []


def test_shim_xhr(shim_frame):
    frame = shim_frame({**SHIM_SITE, "img/x.png": base64.b64decode(PNG_B64)})
    got = frame.evaluate(
        """async () => {
        const xhr = (method, url, type) => new Promise(resolve => {
          const x = new XMLHttpRequest(), states = [];
          x.onreadystatechange = () => states.push(x.readyState);
          x.open(method, url);
          if (type !== undefined) x.responseType = type;
          let viaListener = false, viaOnload = false;
          x.addEventListener("load", () => { viaListener = true; });
          x.onload = () => { viaOnload = true; };
          // loadend also ends a failed request, so a broken shim fails the test, not hangs it.
          x.onloadend = () => resolve({
            x, states, viaListener, viaOnload, status: x.status,
            type: x.getResponseHeader("Content-Type"),
          });
          x.send();
        });
        const json = await xhr("GET", "data/menu.json", "json");
        const text = await xhr("GET", "notes.md");
        const plain = await xhr("GET", "notes.md", "text");
        const buf = await xhr("GET", "img/x.png", "arraybuffer");
        const blob = await xhr("GET", "img/x.png", "blob");
        const missing = await xhr("GET", "nope.txt");
        const put = await xhr("PUT", "data/menu.json");
        const sync = new XMLHttpRequest();
        sync.open("GET", "data/menu.json", false);
        sync.send();
        return {
          json: json.x.response, jsonStatus: json.status, jsonType: json.type,
          states: json.states, viaListener: json.viaListener, viaOnload: json.viaOnload,
          text: [text.x.responseText, text.x.response], plain: plain.x.response,
          buf: Array.from(new Uint8Array(buf.x.response)),
          blob: [blob.x.response instanceof Blob, blob.x.response.type, blob.x.response.size],
          missing: [missing.status, missing.x.responseText],
          put: put.status,
          sync: [sync.status, JSON.parse(sync.responseText)],
          isXHR: json.x instanceof XMLHttpRequest && XMLHttpRequest.DONE === 4,
        };
    }"""
    )
    assert got["json"] == MENU
    assert (got["jsonStatus"], got["jsonType"]) == (200, "application/json")
    assert got["states"] == [1, 2, 3, 4]
    assert got["viaListener"] is True and got["viaOnload"] is True
    assert got["text"] == [SHIM_SITE["notes.md"]] * 2
    assert got["plain"] == SHIM_SITE["notes.md"]
    assert bytes(got["buf"]) == base64.b64decode(PNG_B64)
    assert got["blob"] == [True, "image/png", len(base64.b64decode(PNG_B64))]
    assert got["missing"] == [404, "Not Found"]
    assert got["put"] == 405
    assert got["sync"] == [200, MENU]
    assert got["isXHR"] is True


def test_shim_resolves_against_the_page_folder(shim_frame):
    frame = shim_frame({**SHIM_SITE, "img/x.png": base64.b64decode(PNG_B64)}, "pages/sub/page.html")
    got = frame.evaluate(
        """async () => {
        const get = async u => { const r = await fetch(u); return [r.status, await r.text()]; };
        const x = new XMLHttpRequest();
        x.open("GET", "../../data/menu.json");
        x.responseType = "json";
        const viaXHR = await new Promise(r => { x.onloadend = () => r(x.response); x.send(); });
        const img = new Image();
        img.src = "../../img/x.png";
        await img.decode();
        return {
          up: await get("../other.txt"), up2: JSON.parse((await get("../../data/menu.json"))[1]),
          here: await get("local.json"), dot: await get("./local.json"),
          root: await get("/pages/other.txt"), tooFar: await get("../../../../notes.md"),
          wrongFolder: (await get("other.txt"))[0],
          url: new URL("local.json", location.href).pathname,
          viaURL: await get(new URL("../other.txt", location.href)),
          viaXHR, imgWidth: img.naturalWidth,
        };
    }"""
    )
    assert got["up"] == [200, "other"]
    assert got["up2"] == MENU
    assert got["here"] == got["dot"] == [200, '{"here": true}']
    assert got["root"] == [200, "other"]
    assert got["tooFar"] == [200, SHIM_SITE["notes.md"]]  # like a URL, ".." stops at the root
    assert got["wrongFolder"] == 404
    assert got["url"] == "/pages/sub/local.json"
    assert got["viaURL"] == [200, "other"]
    assert got["viaXHR"] == MENU
    assert got["imgWidth"] == 2


def test_shim_past_the_cap_is_404_with_a_message(shim_frame):
    files = {
        "index.html": '<p id="ready">x</p>',
        "small.json": '{"ok": 1}',
        "big.bin": bytes(range(256)) * 8,  # 2 KiB: past a 1 KiB cap
    }
    frame = shim_frame(files, cap=1024)
    got = frame.evaluate(
        """async () => {
        const warnings = [];
        const warn = console.warn;
        console.warn = (...a) => { warnings.push(a.join(" ")); };
        try {
          const big = await fetch("big.bin");
          const small = await (await fetch("small.json")).json();
          return {big: big.status, small, warnings};
        } finally { console.warn = warn; }
    }"""
    )
    assert got["big"] == 404
    assert got["small"] == {"ok": 1}
    assert len(got["warnings"]) == 1
    assert "big.bin (2 KiB)" in got["warnings"][0]
    assert "at most 1 KiB" in got["warnings"][0]
