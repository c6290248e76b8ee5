"""Helpers shared by the e2e tests (imported by conftest.py and the tests).

See conftest.py for the fixtures."""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import textwrap
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Error as PlaywrightError

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("WIGGUM_CHROMIUM", "/usr/bin/chromium")
BOOT_TIMEOUT_MS = int(os.environ.get("WIGGUM_BOOT_TIMEOUT_MS", "120000"))
LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1", "[::1]"}

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    # Belt and braces under the per-request routing: anything not on loopback goes
    # to a proxy that does not exist, and names other than localhost do not resolve.
    "--proxy-server=http://127.0.0.1:9",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1",
]

APP_READY = '[data-testid="app-ready"]'
APP_LOADED = '[data-testid="app-ready"][data-loaded="true"]'
BOOT_ERROR = '[data-testid="boot-error"]:not([hidden])'


def _load_build_module():
    spec = importlib.util.spec_from_file_location("wiggum_build", ROOT / "build.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


build_py = _load_build_module()


def is_local(url: str) -> bool:
    parts = urlsplit(url)
    if parts.scheme in ("data", "blob", "about", "chrome-error", "devtools"):
        return True
    return (parts.hostname or "") in LOCAL_HOSTS


@dataclass
class OfflineGuard:
    """Records (and, for routed contexts, aborts) every non-localhost request."""

    blocked: list[str] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, url: str) -> None:
        with self._lock:
            if url not in self.blocked:
                self.blocked.append(url)

    def _route(self, route) -> None:
        url = route.request.url
        if is_local(url):
            route.continue_()
        else:
            self.record(url)
            route.abort("blockedbyclient")

    def _on_request(self, request) -> None:
        if not is_local(request.url):
            self.record(request.url)

    def _on_websocket(self, ws) -> None:
        if not is_local(ws.url):
            self.record(ws.url)

    def watch(self, context, *, route: bool = True):
        """Attach to a context: record everything; abort non-local if `route`."""
        if route:
            context.route("**/*", self._route)
        context.on("request", self._on_request)
        context.on("page", lambda p: p.on("websocket", self._on_websocket))
        for p in context.pages:
            p.on("websocket", self._on_websocket)
        return context


# ---------------------------------------------------------------------------
# app helpers
# ---------------------------------------------------------------------------
def wait_app_ready(page, timeout_ms: int = BOOT_TIMEOUT_MS, *, loaded: bool = True) -> None:
    """Wait for app-ready and, unless ``loaded=False``, for the rest of the app
    behind the first screen (``data-loaded``); fail with the boot error text if
    the boot failed."""
    ready = APP_LOADED if loaded else APP_READY
    page.wait_for_selector(f"{ready}, {BOOT_ERROR}", state="attached", timeout=timeout_ms)
    err = page.query_selector(BOOT_ERROR)
    if err is not None:
        pytest.fail(f"boot failed:\n{err.text_content()}", pytrace=False)


def open_app(page, url: str, *, reload: bool = False) -> float:
    """Open (or reload) the app and wait for app-ready; returns seconds taken."""
    t0 = time.monotonic()
    if reload:
        page.reload(wait_until="commit")
    else:
        page.goto(url, wait_until="commit")
    wait_app_ready(page)
    return time.monotonic() - t0


def run_python(page, code: str):
    """Run Python in the page's interpreter; returns the last expression's value
    (converted to JS, then to a Python value by Playwright)."""
    return page.evaluate(
        """code => { const r = wiggumBoot.pyodide.runPython(code);
                     return (r && typeof r.toJs === "function") ? r.toJs({dict_converter: Object.fromEntries}) : r; }""",
        code,
    )


def run_async(page, code: str):
    """Run ``code`` with top-level await in the page; its last expression is
    JSON-encoded there and decoded here."""
    body = textwrap.dedent(code).strip().splitlines()
    *head, last = body
    src = "\n".join([*head, f"json.dumps({last})"])
    out = page.evaluate(
        "async code => await wiggumBoot.pyodide.runPythonAsync(code)",
        "import json\n" + src,
    )
    return json.loads(out)


@contextlib.contextmanager
def booted_page(browser, base_url: str, setup: str | None = None, init_script: str | None = None):
    """One offline page booted to app-ready (for a module's tests to share),
    with ``setup`` Python run in it first; fails if anything left localhost."""
    guard = OfflineGuard()
    ctx = browser.new_context()
    guard.watch(ctx, route=True)
    if init_script:
        ctx.add_init_script(init_script)
    page = ctx.new_page()
    open_app(page, base_url)
    if setup:
        run_async(page, setup)
    try:
        yield page
    finally:
        ctx.close()
    if guard.blocked:
        pytest.fail("non-localhost requests (blocked):\n  " + "\n  ".join(guard.blocked))


def resource_sizes(page) -> dict[str, dict]:
    """name -> {transfer, body} of every resource of the current document, plus
    the document itself under '(document)'."""
    entries = page.evaluate(
        """() => [...performance.getEntriesByType("navigation"), ...performance.getEntriesByType("resource")]
                  .map(e => [e.entryType === "navigation" ? "(document)" : e.name, e.transferSize, e.encodedBodySize])"""
    )
    return {name: {"transfer": t, "body": b} for name, t, b in entries}


class SiteServer:
    def __init__(self, root: Path):
        self.httpd = build_py.make_server("127.0.0.1", 0, root=root, quiet=True)
        host, port = self.httpd.server_address[:2]
        self.url = f"http://{host}:{port}/"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)


def require_chromium() -> None:
    if not Path(CHROMIUM).exists():
        pytest.fail(
            f"Chromium not found at {CHROMIUM}. The e2e tests need Debian's Chromium: "
            "run `apt-get update && apt-get install -y chromium` (or set WIGGUM_CHROMIUM). "
            "Never `playwright install`.",
            pytrace=False,
        )


# --- Chat helpers shared by the conversation, Ralph and agents tests ---------------


def tid(name: str) -> str:
    return f'[data-testid="{name}"]'


def configure(page, sim, key: str, *, model: str = "gpt-4o-mini", idle: str | None = None) -> None:
    """Point the app at the simulator's OpenAI dialect through the settings dialog."""
    page.click(tid("settings-button"))
    dialog = page.locator(tid("settings-dialog"))
    dialog.wait_for(state="visible")
    page.select_option(tid("provider-kind"), "openai")
    page.fill(tid("provider-base-url"), sim.base_url + "/v1")
    page.fill(tid("provider-api-key"), key)
    page.fill(tid("provider-model"), model)
    page.set_checked(tid("provider-proxy"), False)
    if idle is not None:
        page.fill(tid("stream-idle-seconds"), idle)
    page.click(tid("settings-save"))
    dialog.wait_for(state="hidden")


def send(page, text: str) -> None:
    page.fill(tid("chat-input"), text)
    page.press(tid("chat-input"), "Control+Enter")


def wait_requests(sim, n: int, timeout: float = 20.0, *, page=None) -> None:
    """Wait until the simulator has received ``n`` chat requests.

    Pass ``page`` when the request may not have left the page yet: a routed
    context (``booted_page``) holds every request until Playwright's route
    handler answers, and the sync API only runs handlers inside its own calls,
    never during ``time.sleep`` (the request would wait for ever)."""
    deadline = time.monotonic() + timeout
    while len(sim.chat_requests) < n:
        if time.monotonic() > deadline:
            raise TimeoutError(f"expected {n} chat requests, got {len(sim.chat_requests)}")
        if page is not None:
            page.wait_for_timeout(50)
        else:
            time.sleep(0.05)


def set_size(page, width: int, height: int) -> None:
    """Resize the viewport and wait until Ralph's workspace has laid itself out for
    the new width (sub-tabs under 900 px): a check made right after the resize may
    otherwise see the old layout (the page re-lays it out on its resize event)."""
    page.set_viewport_size({"width": width, "height": height})
    page.wait_for_function(
        # Hidden (Chief's tab in front), the row has no size to observe: it lays
        # itself out when Ralph's tab is shown.
        """n => { const row = document.querySelector('[data-testid=ws-row]');
                  return !row || !row.getClientRects().length || row.dataset.narrow === n; }""",
        arg=str(width < 900).lower(),
        timeout=10_000,
    )


def open_file(page, path: str) -> None:
    """Open ``path`` from Ralph's file tree (through the Files sub-tab when the
    panes are sub-tabs) and wait until the code pane shows it."""
    page.click(tid("tab-ralph"))
    files_tab = page.locator(tid("ws-tab-files"))
    if files_tab.count() and files_tab.is_visible():
        files_tab.click()
    page.click(f'{tid("file-entry")}[data-path="{path}"]')
    page.wait_for_selector(f'{tid("file-viewer")}[data-path="{path}"]')


def in_preview(check, what: str, timeout: float = 20.0) -> None:
    """Retry ``check()`` until it is true: the preview may be mid-refresh.

    The preview replaces its frame for each new page (``PreviewView._load``),
    so a read may meet a frame that is detached, or the page it replaces;
    both are retried, anything else still fails after ``timeout``.
    """
    deadline = time.monotonic() + timeout
    while True:
        try:
            if check():
                return
        except PlaywrightError:
            pass
        assert time.monotonic() < deadline, f"the preview never {what}"
        time.sleep(0.2)


def on_top(page, locator) -> bool:
    """Whether ``locator``'s element is what a click at its centre would reach."""
    return locator.evaluate(
        """el => { const r = el.getBoundingClientRect();
                   const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
                   return !!hit && (hit === el || el.contains(hit)); }"""
    )


#: An init script recording every CSP violation of the page from its first
#: byte on (``window.__cspViolations``), for the tests of index.html's policy.
WATCH_CSP = """
window.__cspViolations = [];
addEventListener("securitypolicyviolation", (e) => window.__cspViolations.push(
  `${e.effectiveDirective} blocked ${e.blockedURI || "inline"} (${e.sourceFile}:${e.lineNumber})`));
"""
