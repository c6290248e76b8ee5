"""The workspace editor in Chromium, on one booted page: CodeMirror is not
fetched by the first screen, opens on the first file, saves with Ctrl-S (the
FileStore and a "you" checkpoint), marks unsaved edits, keeps them when the
file is rewritten under them (the conflict bar), shows images and binaries.
"""

from __future__ import annotations

import base64
from pathlib import Path

import pytest
from wiggum_e2e import (
    booted_page,
    open_file,
    open_history,
    run_async,
    set_size,
    tid,
    type_at_the_end,
    write_files,
)

pytestmark = pytest.mark.e2e

SHOTS = Path("/tmp/shots-editor")
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg=="
)
SITE = {
    "index.html": "<!doctype html>\n<html>\n<body>\n<h1>Home</h1>\n</body>\n</html>\n",
    "style.css": "h1 { color: tomato; }\n",
}
SIZES = ((1280, 800), (1920, 1080), (390, 844))


def read(page, path: str) -> str:
    return run_async(
        page,
        f"""
        from wiggum.web.app import APP
        await APP.coordinator.fs.read_text({path!r})
        """,
    )


def shots(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for w, hgt in SIZES:
        set_size(page, w, hgt)
        tab = page.locator(tid("ws-tab-code"))
        if tab.count() and tab.is_visible():
            tab.click()
        page.screenshot(path=str(SHOTS / f"{name}-{w}x{hgt}.png"))
    set_size(page, 1280, 800)


@pytest.fixture(scope="module")
def epage(browser, base_url):
    with booted_page(browser, base_url) as page:
        requested: list[str] = []
        page.on("request", lambda r: requested.append(r.url))
        set_size(page, 1280, 800)
        write_files(
            page, {**SITE, "logo.png": PNG, "blob.bin": bytes([0, 255, 1, 2])}, preview=True
        )
        page.click(tid("tab-ralph"))
        page.wait_for_selector(f'{tid("file-entry")}[data-path="style.css"]')
        page.requested = requested
        yield page


def test_first_screen_fetches_no_codemirror_and_images_do_not_either(epage):
    page = epage
    open_file(page, "logo.png")
    page.wait_for_selector(tid("file-image"))
    assert not [u for u in page.requested if "/esm/" in u or "editor.mjs" in u]
    shots(page, "image")


def test_binary_shows_size_and_download(epage):
    page = epage
    open_file(page, "blob.bin")
    assert page.locator(tid("file-binary")).text_content() == "binary, 4 bytes"
    assert page.locator(tid("file-download")).get_attribute("download") == "blob.bin"


def test_edit_save_marks_and_checkpoints(epage):
    page = epage
    open_file(page, "index.html")
    page.wait_for_selector(f'{tid("editor")}[data-ready="true"]', timeout=30_000)
    assert any("/esm/@codemirror/view@" in u for u in page.requested)
    # highlighted with the chat's colours
    page.wait_for_selector(".cm-content span[class]", timeout=10_000)
    # an opaque gutter: code scrolled sideways never runs through the line numbers
    gutter = page.evaluate(
        "getComputedStyle(document.querySelector('.cm-gutters')).backgroundColor"
    )
    assert gutter not in ("transparent", "rgba(0, 0, 0, 0)"), gutter
    assert not gutter.startswith("rgba(") or gutter.endswith(", 1)"), gutter
    assert page.locator(tid("editor-save")).is_disabled()
    page.click(".cm-content")
    page.keyboard.press("Control+End")
    page.keyboard.insert_text("<p>Edited by you</p>\n")
    page.wait_for_selector(f'{tid("editor")}[data-unsaved="true"]')
    entry = page.locator(f'{tid("file-entry")}[data-path="index.html"]')
    assert entry.get_attribute("data-unsaved") == "true"
    assert "Unsaved" in page.locator(tid("editor-state")).text_content()
    shots(page, "unsaved")
    assert "Edited by you" not in read(page, "index.html")
    # the focus left the editor (the phone-width screenshots clicked the Code tab):
    # Ctrl-S still saves, and the browser's "Save page as" never opens
    assert page.evaluate("!document.querySelector('.cm-content').contains(document.activeElement)")
    page.keyboard.press("Control+s")
    page.wait_for_selector(f'{tid("editor")}[data-unsaved="false"]', timeout=10_000)
    assert read(page, "index.html").endswith("<p>Edited by you</p>\n")
    assert entry.get_attribute("data-unsaved") is None
    open_history(page)
    page.wait_for_function(
        "document.querySelector('[data-testid=history-item] .history-author')?.textContent === 'you'",
        timeout=20_000,
    )
    shots(page, "html")


def test_ralph_rewrite_never_drops_unsaved_edits(epage):
    page = epage
    type_at_the_end(page, "style.css", "p { margin: 0; }\n")
    write_files(page, {"style.css": "h1 { color: navy; }\n"}, preview=True)
    bar = page.locator(tid("editor-conflict"))
    bar.wait_for(state="visible", timeout=20_000)
    assert "p { margin: 0; }" in page.locator(".cm-content").text_content()
    page.get_by_role("button", name="Show his version").click()
    assert "navy" in page.locator(tid("editor-theirs")).text_content()
    shots(page, "conflict")
    page.get_by_role("button", name="Keep mine").click()
    assert bar.is_hidden()
    page.click(tid("editor-save"))
    page.wait_for_selector(f'{tid("editor")}[data-unsaved="false"]', timeout=10_000)
    assert read(page, "style.css") == "h1 { color: tomato; }\np { margin: 0; }\n"
    # a clean buffer simply takes the new text
    write_files(page, {"style.css": "h1 { color: green; }\n"}, preview=True)
    page.wait_for_function(
        "document.querySelector('.cm-content')?.textContent.includes('green')", timeout=20_000
    )
    assert bar.is_hidden()


def test_one_megabyte_file_opens(epage):
    page = epage
    run_async(
        page,
        """
        from wiggum.web.app import APP
        line = "<p>" + "x" * 92 + "</p>\\n"
        await APP.coordinator.fs.write_text("big.html", line * 10_000)
        APP.refresh_workspace()
        True
        """,
    )
    page.wait_for_selector(f'{tid("file-entry")}[data-path="big.html"]', timeout=20_000)
    open_file(page, "big.html")
    page.wait_for_selector(f'{tid("editor")}[data-path="big.html"][data-ready="true"]')
    # the page still answers, and the editor renders only what is in view
    assert page.locator(".cm-line").count() < 500
    page.click(".cm-content")
    page.keyboard.press("Control+End")
    page.wait_for_function(
        "[...document.querySelectorAll('.cm-gutterElement')].some(e => e.textContent === '10001')",
        timeout=10_000,
    )


def test_resizing_the_window_warns_of_no_resize_observer_loop(epage):
    page = epage
    page.evaluate(
        """window.__resizeWarnings = [];
        addEventListener('error', e => {
            if (String(e.message).includes('ResizeObserver')) window.__resizeWarnings.push(e.message);
        });"""
    )
    for w, hgt in ((1920, 1080), (1000, 800), (390, 844), (1600, 900), (1280, 800)):
        set_size(page, w, hgt)
        page.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    assert page.evaluate("window.__resizeWarnings") == []
