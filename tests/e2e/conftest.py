"""End-to-end fixtures: the built site, served locally, in Debian's Chromium, offline.

Public fixtures (sync Playwright API; write e2e tests as plain ``def`` tests):

``site_manifest`` (session)
    Runs ``python build.py`` once (idempotent: a built tree is only verified) and
    returns static/vendor/manifest.json as a dict.
``base_url`` (session)
    ``http://127.0.0.1:<free port>/`` serving the repo's site (index.html,
    pyscript.toml, static/) from a background thread.
``browser`` (session)
    Debian's Chromium (``/usr/bin/chromium``, or ``$WIGGUM_CHROMIUM``).  Missing
    Chromium is a test FAILURE, not a skip.
``offline`` (function)
    The :class:`OfflineGuard` of the test: every non-localhost request any
    context/page of the test makes is aborted and recorded; the test fails at
    teardown if one was recorded.  ``offline.blocked`` lists them.
``context`` (function)
    A fresh browser context (service workers blocked, as in every context here
    unless a test asks: see ``SERVICE_WORKERS``) whose requests ALL go through ``context.route`` (local
    ones continue, others are aborted + recorded).  Note: Playwright disables
    Chromium's HTTP cache while a route is installed.
``page`` (function)
    A page of ``context`` that opened the app at ``base_url`` and waited for
    ``[data-testid="app-ready"]`` (fails fast with the text of
    ``[data-testid="boot-error"]``).  ``page.base_url`` is the site URL.
``app`` (function)
    ``page`` once the app's views are mounted; ``page.console_lines`` collects
    the text of what the page writes to its console from then on.
``new_cached_context`` (function)
    Factory ``new_cached_context(service_workers="block") -> BrowserContext``: a persistent profile with
    Chromium's real disk cache, like a returning visitor.  Routing would disable
    that cache, so these contexts are NOT routed; they are kept offline by the
    browser itself (dead proxy for every non-loopback host + host resolver
    rules) and every non-localhost request they attempt is still recorded by
    ``offline`` and fails the test.
``sim`` (module)
    A provider simulator (``tests.sim.Simulator``) for the module's tests, which
    share their booted page and so the provider it talks to; modules whose
    tests each open a page of their own override it with one per test.
``serve_dir`` (function)
    Factory ``serve_dir(path) -> base_url`` serving another site folder (e.g. the
    output of ``build.py dist``) for the rest of the test.

Helpers (in tests/e2e/wiggum_e2e.py, one version of each for every e2e module):
booting (:func:`open_app`, :func:`wait_app_ready`, :func:`booted_page`,
:func:`offline_context`), Python in the page (:func:`run_python`, :func:`run_async`),
the provider (:func:`configure`, :func:`open_settings`, :func:`fill_provider`,
:func:`save_settings`), the chat (:func:`send`, :func:`settle_chief`, :func:`wait_reply`,
:func:`wait_reply_containing`, :func:`wait_streaming`, :func:`wait_requests`),
publishing (:func:`open_publish`, :func:`start_publish`, :func:`wait_published`,
:func:`press_publish`, :func:`error_text`),
Ralph and the project (:func:`ralph_builds`, :func:`ralph_done`, :func:`write_files`,
:func:`open_file`, :func:`type_at_the_end`, :func:`open_projects`), layout
(:func:`set_size`, :func:`on_top`, :func:`in_preview`) and :func:`poll` for what
is stored in the background; :func:`resource_sizes`, :class:`OfflineGuard`,
:class:`SiteServer`.

Shared pages stay (booting is slow), but each test prepares the state it needs
(a fixture that does what an earlier test would have done, only when it has not
been done): every test passes alone and in any ``-k`` selection.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from wiggum_e2e import (  # noqa: F401  (re-exported for tests)
    APP_READY,
    BOOT_ERROR,
    CHROMIUM,
    CHROMIUM_ARGS,
    MOUNTED,
    ROOT,
    SERVICE_WORKERS,
    OfflineGuard,
    SiteServer,
    console_line,
    open_app,
    require_chromium,
    resource_sizes,
    run_python,
    wait_app_ready,
)

from tests.sim import Simulator


# ---------------------------------------------------------------------------
# site
# ---------------------------------------------------------------------------
@pytest.fixture(scope="session")
def site_manifest() -> dict:
    proc = subprocess.run(
        [sys.executable, str(ROOT / "build.py")], cwd=ROOT, capture_output=True, text=True
    )
    if proc.returncode != 0:
        pytest.fail(f"python build.py failed:\n{proc.stdout}\n{proc.stderr}")
    return json.loads((ROOT / "static" / "vendor" / "manifest.json").read_text())


@pytest.fixture(scope="session")
def base_url(site_manifest) -> Iterator[str]:
    server = SiteServer(ROOT)
    yield server.url
    server.close()


@pytest.fixture(scope="module")
def sim() -> Iterator[Simulator]:
    with Simulator() as s:
        yield s


@pytest.fixture
def serve_dir() -> Iterator[Callable[[Path], str]]:
    servers: list[SiteServer] = []

    def start(path: Path) -> str:
        servers.append(SiteServer(Path(path)))
        return servers[-1].url

    yield start
    for s in servers:
        s.close()


# ---------------------------------------------------------------------------
# browser
# ---------------------------------------------------------------------------
@pytest.fixture(scope="session")
def playwright_instance():
    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="session")
def browser(playwright_instance):
    b = playwright_instance.chromium.launch(
        executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
    )
    yield b
    b.close()


@pytest.fixture
def offline() -> Iterator[OfflineGuard]:
    guard = OfflineGuard()
    yield guard
    if guard.blocked:
        pytest.fail(
            "the page made non-localhost requests (blocked):\n  " + "\n  ".join(guard.blocked),
            pytrace=False,
        )


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"report_{report.when}", report)


def _record_console(ctx, lines: list[str]) -> None:
    def watch(page) -> None:
        page.on("console", lambda m: lines.append(console_line(m)))
        page.on("pageerror", lambda e: lines.append(f"[pageerror] {e}"))

    ctx.on("page", watch)


@pytest.fixture
def context(browser, offline, request):
    ctx = browser.new_context(service_workers=SERVICE_WORKERS)
    offline.watch(ctx, route=True)
    console: list[str] = []
    _record_console(ctx, console)
    yield ctx
    report = getattr(request.node, "report_call", None)
    if report is not None and report.failed:
        # A failed e2e test shows what the page said: the browser's console is
        # the only trace of what Python did in there.
        print("---- browser console ----", *console[-200:], sep="\n")
    ctx.close()


@pytest.fixture
def new_cached_context(playwright_instance, offline, tmp_path_factory):
    contexts = []

    def make(service_workers: str = SERVICE_WORKERS):
        profile = tmp_path_factory.mktemp("chromium-profile")
        ctx = playwright_instance.chromium.launch_persistent_context(
            str(profile),
            executable_path=CHROMIUM,
            args=CHROMIUM_ARGS,
            headless=True,
            service_workers=service_workers,
        )
        offline.watch(ctx, route=False)
        contexts.append(ctx)
        return ctx

    yield make
    for ctx in contexts:
        ctx.close()


@pytest.fixture
def page(context, base_url):
    p = context.new_page()
    p.base_url = base_url
    open_app(p, base_url)
    yield p
    p.close()


@pytest.fixture
def app(page):
    page.wait_for_selector(MOUNTED, timeout=30_000)
    page.console_lines = []
    page.on("console", lambda m: page.console_lines.append(m.text))
    return page
