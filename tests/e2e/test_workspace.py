"""Ralph's workspace in real Chromium: nothing covers a file entry or a button.

One booted page per viewport (1280×800, 1920×1080, 1024×768, 390×844); each
writes a 12-file site into the current project's FileStore, opens Ralph's tab,
and checks with ``document.elementFromPoint`` that every file entry and every
workspace button is on top at its centre, then that clicking each file opens
it.  Screenshots go to ``$WIGGUM_SHOTS`` when it is set.
"""

from __future__ import annotations

import json
import os

import pytest
from wiggum_e2e import OfflineGuard, open_app, run_async

pytestmark = pytest.mark.e2e

VIEWPORTS = [(1280, 800), (1920, 1080), (1024, 768), (390, 844)]

SITE = {
    "index.html": "<!doctype html><title>Bakery</title><h1>Bakery</h1><a href='about.html'>About</a>",
    "about.html": "<!doctype html><title>About</title><h1>About us</h1>",
    "menu.html": "<!doctype html><title>Menu</title><h1>Menu</h1>",
    "contact.html": "<!doctype html><title>Contact</title><h1>Contact</h1>",
    "css/style.css": "body { font-family: sans-serif; }",
    "css/print.css": "@media print { nav { display: none; } }",
    "js/app.js": "console.log('hello');",
    "js/menu.js": "export const items = [];",
    "data/menu.json": '{"items": []}',
    "README.md": "# Bakery\n",
    "img/logo.svg": "<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'/>",
    "pages/faq.html": "<!doctype html><title>FAQ</title><h1>FAQ</h1>",
}

ON_TOP = """
els => els.map(el => {
  el.scrollIntoView({block: "center", inline: "center"});
  const r = el.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  const top = document.elementFromPoint(x, y);
  const ok = !!top && (top === el || el.contains(top));
  return ok ? null : {
    what: el.getAttribute("data-path") || el.getAttribute("data-testid") || el.textContent.trim(),
    at: [Math.round(x), Math.round(y)],
    covered_by: top ? (top.getAttribute("data-testid") || top.className || top.tagName) : null,
  };
}).filter(Boolean)
"""


def _write_site(page) -> None:
    run_async(
        page,
        f"""
        from wiggum.web.app import APP
        fs = APP.storage.files(APP.project_id)
        for path, text in {json.dumps(SITE)}.items():
            await fs.write_text(path, text)
        APP.refresh_workspace(preview=True)
        True
        """,
    )


@pytest.fixture(scope="module", params=VIEWPORTS, ids=lambda v: f"{v[0]}x{v[1]}")
def wpage(request, browser, base_url):
    width, height = request.param
    guard = OfflineGuard()
    ctx = browser.new_context(viewport={"width": width, "height": height})
    guard.watch(ctx, route=True)
    page = ctx.new_page()
    open_app(page, base_url)
    _write_site(page)
    page.click('[data-testid="tab-ralph"]')
    page.wait_for_function(
        f"document.querySelectorAll('[data-testid=file-entry]').length >= {len(SITE)}",
        timeout=20_000,
    )
    page.wait_for_timeout(300)
    shots = os.environ.get("WIGGUM_SHOTS")
    if shots:
        page.screenshot(path=f"{shots}/ralph-{width}x{height}.png")
    yield page
    ctx.close()
    if guard.blocked:
        pytest.fail("non-localhost requests (blocked):\n  " + "\n  ".join(guard.blocked))


def test_every_file_entry_and_button_is_on_top(wpage):
    entries = wpage.locator('[data-testid="file-entry"]')
    assert entries.count() == len(SITE)
    covered = entries.evaluate_all(ON_TOP)
    assert covered == [], f"file entries covered: {covered}"
    buttons = wpage.locator(
        '[data-testid="ralph-workspace"] button:visible, [data-testid="ralph-workspace"] a:visible'
    )
    assert buttons.count() >= 1
    covered = buttons.evaluate_all(ON_TOP)
    assert covered == [], f"workspace buttons covered: {covered}"


def test_clicking_each_file_opens_it(wpage):
    entries = wpage.locator('[data-testid="file-entry"]')
    for i in range(entries.count()):
        entry = entries.nth(i)
        path = entry.get_attribute("data-path")
        entry.click()  # a real click: fails if something else is on top
        wpage.wait_for_selector(f'[data-testid="file-viewer"][data-path="{path}"]', timeout=10_000)
    shots = os.environ.get("WIGGUM_SHOTS")
    if shots:
        w = wpage.viewport_size["width"]
        wpage.screenshot(path=f"{shots}/ralph-open-{w}.png")
