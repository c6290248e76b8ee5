"""The live preview, the file tree and the browser checkers, in real Chromium.

One booted page serves the module.  Each test writes a small site into a fresh
``MemoryFileStore`` in the page and mounts the view under test into its own
fixed-position container (``#t-box``), replacing the previous one.
"""

from __future__ import annotations

import base64
import json

import pytest
from playwright.sync_api import expect
from wiggum_e2e import OfflineGuard, open_app, run_async

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
    guard = OfflineGuard()
    ctx = browser.new_context()
    guard.watch(ctx, route=True)
    page = ctx.new_page()
    open_app(page, base_url)
    run_async(page, SETUP + "\nTrue")
    yield page
    ctx.close()
    if guard.blocked:
        pytest.fail("non-localhost requests (blocked):\n  " + "\n  ".join(guard.blocked))


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
    assert run_async(spage, "view.errors") == []


def test_preview_reports_uncaught_errors(spage):
    write_site(
        spage,
        {
            "index.html": "<script>setTimeout(() => { throw new Error('boom'); });"
            "Promise.reject(new Error('nope'));</script><p id=ok>ok</p>"
        },
    )
    mount_preview(spage)
    errors = spage.locator('#t-box [data-testid="preview-errors"] li')
    errors.nth(1).wait_for(timeout=10_000)
    texts = errors.all_text_contents()
    assert any("boom" in t and "(index.html line 1)" in t for t in texts), texts
    assert any("nope" in t for t in texts)


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
    assert all(v.startswith("denied: ") for v in results.values()), results
    assert "SecurityError" in results["ls"]
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
        empty = await make_fs({"about.html": "<p>x</p>"})
        res = [await browser_preview_checker(broken), await browser_preview_checker(clean)]
        res += [await browser_preview_checker(empty)]
        res += [js.document.querySelectorAll("iframe[data-wiggum-checker]").length]
        res
        """,
    )
    broken, clean, empty, leftover = result
    assert any("undefinedFn" in e and "(app.js line 2)" in e for e in broken), broken
    assert any("late rejection" in e for e in broken), broken
    assert clean == []
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
    content = viewer.locator('[data-testid="file-content"]')
    content.wait_for()
    assert content.text_content() == "<h1>Hi & <b>bold</b></h1>\n<p>two</p>"
    assert viewer.locator("h1, b").count() == 0  # shown as text, never parsed as HTML
    assert viewer.locator(".file-gutter").text_content() == "1\n2"
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
