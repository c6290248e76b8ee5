"""Installable and offline: the web app manifest, the service worker, the notice
of a new version, in Chromium with every non-localhost request blocked.

One site and one booted page for the module (a copy of the site whose sw.js a
test may change, as a new build would): the page is open once the whole app
has loaded and its worker controls it.  Each test puts the page in the state it
needs, so each passes alone.
"""

from __future__ import annotations

import json
import shutil
import urllib.request
from pathlib import Path

import pytest
from wiggum_e2e import (
    MOUNTED,
    ROOT,
    SiteServer,
    booted_page,
    configure,
    on_top,
    open_app,
    poll,
    run_async,
    send,
    set_size,
    settle_chief,
    tid,
    wait_app_ready,
    wait_streaming,
)

from tests.sim import Turn

pytestmark = pytest.mark.e2e

KEY = "sk-e2e-SECRET-offline"
PROJECT = "Offline notes"
SHOTS = Path(__file__).resolve().parents[2] / ".cache" / "screenshots"


@pytest.fixture(scope="module")
def site(tmp_path_factory, site_manifest) -> Path:
    """The built site, its sw.js a copy a test may rewrite (static/ is shared)."""
    root = tmp_path_factory.mktemp("site")
    for name in ("index.html", "manifest.webmanifest", "sw.js"):
        shutil.copy2(ROOT / name, root / name)
    (root / "static").symlink_to(ROOT / "static")
    return root


class Switchable:
    """The site's server, which a test can switch off (the network is gone:
    every request is refused) and on again at the same address."""

    def __init__(self, root: Path) -> None:
        self.root, self.server = root, SiteServer(root)
        self.url, self.port = self.server.url, self.server.httpd.server_address[1]

    def off(self) -> None:
        self.server.close()

    def on(self) -> None:
        self.server = SiteServer(self.root, port=self.port)


@pytest.fixture(scope="module")
def server(site):
    s = Switchable(site)
    yield s
    s.server.close()


@pytest.fixture(scope="module")
def site_url(server):
    return server.url


def controlled(page) -> None:
    """Wait until the service worker controls the page (it has precached the build)."""
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=120_000)


@pytest.fixture(scope="module")
def page(browser, site_url, sim):
    with booted_page(browser, site_url, service_workers="allow") as p:
        p.base_url = site_url
        p.wait_for_selector(MOUNTED, timeout=30_000)
        controlled(p)
        configure(p, sim, KEY)
        yield p


def test_the_manifest_makes_the_app_installable_under_any_folder(page, site_url):
    href = page.get_attribute('link[rel="manifest"]', "href")
    assert href == "./manifest.webmanifest"  # relative: a Pages subpath works the same
    with urllib.request.urlopen(site_url + "manifest.webmanifest") as r:
        assert r.headers["Content-Type"] == "application/manifest+json"
        manifest = json.load(r)
    assert manifest["start_url"] == "./" and manifest["scope"] == "./"
    assert manifest["display"] == "standalone" and manifest["theme_color"]
    sizes = {i["sizes"] for i in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        with urllib.request.urlopen(site_url + icon["src"]) as r:
            assert r.status == 200 and r.headers["Content-Type"] == icon["type"]


def test_after_one_visit_the_app_opens_offline_with_the_last_project(page, server):
    run_async(
        page,
        f"from wiggum.web.app import APP\nawait APP.create_project({PROJECT!r})\nAPP.project_id",
    )
    keys = page.evaluate("caches.keys()")
    assert len(keys) == 1 and keys[0].startswith("wiggum-")
    server.off()
    try:
        with pytest.raises(Exception, match="Failed to fetch"):
            page.evaluate("fetch('static/not-in-the-build.txt')")
        open_app(page, page.base_url, reload=True)  # the whole app, pydantic included
        page.wait_for_selector(MOUNTED, timeout=30_000)
        shown = page.eval_on_selector(
            tid("project-switcher"), "s => s.options[s.selectedIndex].textContent"
        )
        assert shown == PROJECT
        # the editor's modules, loaded on first use, are there too
        assert page.evaluate("import('@codemirror/state').then(m => typeof m.EditorState)") == (
            "function"
        )
    finally:
        server.on()


def _new_build(site: Path, build: str) -> None:
    """What a deploy does to sw.js: a new build id (and so new bytes)."""
    sw = (site / "sw.js").read_text(encoding="utf-8")
    start = sw.index('const BUILD = "') + len('const BUILD = "')
    (site / "sw.js").write_text(sw[:start] + build + sw[sw.index('"', start) :], encoding="utf-8")


def test_a_new_build_waits_for_reload_and_never_cuts_a_reply_short(page, site, sim):
    settle_chief(page)
    set_size(page, 1280, 800)
    _new_build(site, "e2e" + page.evaluate("Date.now().toString(16)"))
    page.evaluate("window.__sameDocument = true")
    page.evaluate("wiggumBoot.checkUpdate()")
    banner = page.locator(tid("update-banner"))
    banner.wait_for(state="visible", timeout=120_000)
    assert banner.locator(tid("update-text")).text_content() == "A new version is ready —"
    assert on_top(page, tid("update-reload"))
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "update-1280.png"))
    set_size(page, 390, 844)
    assert on_top(page, tid("update-reload"))
    page.screenshot(path=str(SHOTS / "update-390.png"))
    set_size(page, 1280, 800)

    # A reply is streaming: Reload says why it waits, and nothing reloads.
    sim.script([Turn("tick " * 60, chunks=60, delay=0.1)])
    send(page, "count slowly")
    wait_streaming(page, 10, timeout=20_000)
    page.click(tid("update-reload"))
    assert "Chief is replying" in banner.locator(tid("update-text")).text_content()
    set_size(page, 390, 844)  # the longer words wrap; Reload stays where a finger finds it
    assert on_top(page, tid("update-reload"))
    page.screenshot(path=str(SHOTS / "update-refused-390.png"))
    set_size(page, 1280, 800)
    page.wait_for_timeout(500)
    assert page.evaluate("window.__sameDocument === true")
    page.click(tid("stop-button"))
    settle_chief(page)

    # Nothing runs: Reload takes the new build.
    with page.expect_navigation(timeout=60_000):
        page.click(tid("update-reload"))
    wait_app_ready(page)
    page.wait_for_selector(MOUNTED, timeout=30_000)
    assert not page.evaluate("window.__sameDocument === true")
    assert page.locator(tid("update-banner")).is_hidden()
    # The provider's answers (another origin) were never stored: only the build.
    stored = page.evaluate(
        "caches.keys().then(ks => Promise.all(ks.map(k => caches.open(k)"
        ".then(c => c.keys()).then(rs => rs.map(r => r.url))))).then(a => a.flat())"
    )
    assert stored and all(url.startswith(page.base_url) for url in stored), stored
    assert not any(url.startswith(sim.base_url) for url in stored)
    poll(
        lambda: page.evaluate("caches.keys()"),
        lambda keys: len(keys) == 1 and keys[0].startswith("wiggum-e2e"),
        "the old build's cache to go",
    )
