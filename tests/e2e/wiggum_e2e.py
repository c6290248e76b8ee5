"""Helpers shared by the e2e tests (imported by conftest.py and the tests).

One version of each: a module that needs a helper imports it from here rather
than writing its own (settings, sending, waiting for replies, files, layout).
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

from tests.sim import ToolCall, Turn

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
#: Contexts block the page's service worker unless a test asks for it
#: (``service_workers="allow"``): once it controls a page, it answers the page's
#: requests from its own cache, past the routes and the HTTP cache the other
#: tests look at.  tests/e2e/test_offline_page.py tests the worker itself.
SERVICE_WORKERS = "block"
APP_LOADED = '[data-testid="app-ready"][data-loaded="true"]'
BOOT_ERROR = '[data-testid="boot-error"]:not([hidden])'
#: The app's views are mounted (Chief's chat, Ralph's workspace, the dialogs).
MOUNTED = '#app-root[data-mounted="true"]'


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
def offline_context(browser, *, init_script: str | None = None, **options):
    """A browser context (``options`` as for ``browser.new_context``) whose every
    non-localhost request is aborted; closed on exit, failing the test if anything
    tried to leave localhost."""
    guard = OfflineGuard()
    ctx = browser.new_context(**{"service_workers": SERVICE_WORKERS, **options})
    guard.watch(ctx, route=True)
    if init_script:
        ctx.add_init_script(init_script)
    try:
        yield ctx
    finally:
        ctx.close()
    if guard.blocked:
        pytest.fail("non-localhost requests (blocked):\n  " + "\n  ".join(guard.blocked))


@contextlib.contextmanager
def booted_page(
    browser,
    base_url: str,
    setup: str | None = None,
    init_script: str | None = None,
    *,
    mounted: bool = False,
    **options,
):
    """One offline page booted to app-ready (for a module's tests to share), its
    views mounted too if ``mounted``, with ``setup`` Python run in it first;
    fails if anything left localhost.  ``options`` go to ``browser.new_context``."""
    with offline_context(browser, init_script=init_script, **options) as ctx:
        page = ctx.new_page()
        open_app(page, base_url)
        if mounted:
            page.wait_for_selector(MOUNTED, timeout=30_000)
        if setup:
            run_async(page, setup)
        yield page


def console_line(message) -> str:
    """``[type] text``; a failed load also says which address (Chromium's text does not)."""
    line = f"[{message.type}] {message.text}"
    if message.text.startswith("Failed to load resource"):
        line += f" ({message.location.get('url', '')})"
    return line


def is_local_probe(url: str) -> bool:
    """A request of the first screen's look for local model servers (Ollama, LM
    Studio, llama.cpp, vLLM on this machine): asked when the page is served
    from this machine, refused where nothing listens."""
    from wiggum.session.local_servers import SERVERS

    return any(url.startswith(f"http://localhost:{s.port}/") for s in SERVERS)


def resource_sizes(page) -> dict[str, dict]:
    """name -> {transfer, body} of every resource of the current document, plus
    the document itself under '(document)'."""
    entries = page.evaluate(
        """() => [...performance.getEntriesByType("navigation"), ...performance.getEntriesByType("resource")]
                  .map(e => [e.entryType === "navigation" ? "(document)" : e.name, e.transferSize, e.encodedBodySize])"""
    )
    return {name: {"transfer": t, "body": b} for name, t, b in entries}


class SiteServer:
    def __init__(self, root: Path, port: int = 0):
        self.httpd = build_py.make_server("127.0.0.1", port, root=root, quiet=True)
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


# --- Helpers shared by the tests that drive the app ---------------------------------


def tid(name: str) -> str:
    return f'[data-testid="{name}"]'


#: The model each provider kind is configured with unless a test names one.
MODELS = {"openai": "gpt-4o-mini", "anthropic": "claude-sonnet-4-20250514", "ollama": "llama3.2"}


def fill_provider(
    page,
    sim,
    key: str | None = None,
    *,
    kind: str = "openai",
    model: str | None = None,
    proxy: bool = False,
) -> None:
    """In the open settings dialog, point the provider shown at the simulator (its
    ``kind`` dialect); ``key`` ``None`` keeps the key the field holds."""
    page.select_option(tid("provider-kind"), kind)
    page.fill(tid("provider-base-url"), sim.base_url + "/v1" if kind == "openai" else sim.base_url)
    if key is not None:
        page.fill(tid("provider-api-key"), key)
    page.fill(tid("provider-model"), model or MODELS[kind])
    page.set_checked(tid("provider-proxy"), proxy)


def save_settings(page) -> None:
    """Save the settings dialog; it closes."""
    page.click(tid("settings-save"))
    page.locator(tid("settings-dialog")).wait_for(state="hidden")


def configure(
    page,
    sim,
    key: str,
    *,
    kind: str = "openai",
    model: str | None = None,
    proxy: bool = False,
    idle: str | None = None,
    reflect: bool = False,
) -> None:
    """Point the app at the simulator (its ``kind`` dialect) through the settings dialog.

    ``reflect``: Ralph's look back at each run (one more call, which would take a
    turn scripted for Chief) stays off unless a test scripts a turn for it."""
    open_settings(page)
    fill_provider(page, sim, key, kind=kind, model=model, proxy=proxy)
    if idle is not None:
        page.fill(tid("stream-idle-seconds"), idle)
    page.set_checked(tid("ralph-reflect"), reflect)
    save_settings(page)


def open_settings(page):
    """Open the settings dialog; returns it."""
    page.click(tid("settings-button"))
    dialog = page.locator(tid("settings-dialog"))
    dialog.wait_for(state="visible")
    return dialog


def settle_chief(page, timeout: float = 30.0) -> None:
    """Bring Chief to rest: a retry wait cancelled, a running turn stopped (a
    module that shares one page starts each test from there)."""
    deadline = time.monotonic() + timeout
    while not page.locator(tid("send-button")).is_visible():
        assert time.monotonic() < deadline, f"Chief was still busy after {timeout:.0f} s"
        for button in ("retry-cancel", "stop-button"):
            if page.locator(tid(button)).is_visible():
                with contextlib.suppress(PlaywrightError):  # it may end on its own meanwhile
                    page.locator(tid(button)).click(timeout=2_000)
                break
        page.wait_for_timeout(200)


def send(page, text: str) -> None:
    page.fill(tid("chat-input"), text)
    page.press(tid("chat-input"), "Control+Enter")


def last_reply(page):
    return page.locator(tid("reply")).last


def wait_reply(page, status: str = "complete", timeout: float = 15_000):
    """Until a reply has ``status``; returns the last reply."""
    page.wait_for_selector(f'{tid("reply")}[data-status="{status}"]', timeout=timeout)
    return last_reply(page)


def wait_reply_containing(page, text: str, timeout: float = 30_000) -> None:
    """Until a reply on screen holds ``text``."""
    page.wait_for_function(
        "t => [...document.querySelectorAll('[data-testid=reply]')]"
        ".some(r => r.textContent.includes(t))",
        arg=text,
        timeout=timeout,
    )


def wait_streaming(page, chars: int = 10, timeout: float = 20_000) -> None:
    """Until the last reply on screen holds more than ``chars`` characters."""
    page.wait_for_function(
        """n => { const r = [...document.querySelectorAll('[data-testid=message-assistant]')].pop();
                  return r && r.textContent.length > n; }""",
        arg=chars,
        timeout=timeout,
    )


def ralph_done(summary: str, files: list[str]) -> str:
    """The text of Ralph's completion reply: his run is complete."""
    return json.dumps({"status": "complete", "summary": summary, "files_created": files})


def ralph_builds(page, sim, prompt: str, summary: str, iterations: list) -> None:
    """Chief hands ``prompt`` to Ralph, whose calls are ``iterations`` (simulator turns,
    ending with his completion); waits until the run is done and Chief has told of it."""
    sim.script(
        [
            Turn(ToolCall("send_to_ralph", {"prompt": prompt, "plan_summary": summary})),
            Turn("Ralph is building it now."),
            *iterations,
            Turn("Ralph finished your page."),
        ]
    )
    send(page, "go")
    page.wait_for_function(
        "document.querySelector('[data-testid=ralph-badge]')?.textContent === '✓ DONE'",
        timeout=90_000,
    )
    # The badge shows DONE before the run's end is written and Ralph's last
    # checkpoint taken (the first one also loads dulwich); Chief's turn on his
    # news comes after both: the end of the run's background work.
    page.locator(tid("reply")).filter(has_text="Ralph finished your page.").wait_for(
        state="attached", timeout=30_000
    )


def write_files(page, files: dict[str, str | bytes], *, preview: bool = False) -> None:
    """Write ``files`` into the open project (as an agent would, through the
    coordinator's store) and have the workspace list them again."""
    texts = {k: v for k, v in files.items() if isinstance(v, str)}
    blobs = {k: v.hex() for k, v in files.items() if isinstance(v, bytes)}
    run_async(
        page,
        f"""
        from wiggum.web.app import APP
        for path, text in {texts!r}.items():
            await APP.coordinator.fs.write_text(path, text)
        for path, blob in {blobs!r}.items():
            await APP.coordinator.fs.write_bytes(path, bytes.fromhex(blob))
        APP.refresh_workspace(preview={preview!r})
        True
        """,
    )


@contextlib.contextmanager
def ralph_tab_page(browser, base_url: str, sim, key: str):
    """A booted app at 1280x800 on Ralph's tab, its provider the simulator (``key``)."""
    with booted_page(browser, base_url, mounted=True) as p:
        set_size(p, 1280, 800)
        configure(p, sim, key)
        p.click(tid("tab-ralph"))
        yield p


def show_site(page, files: dict[str, str]) -> None:
    """``files`` are the open project's site now (everything else, and what the
    site kept in its storage, removed), shown in Ralph's preview."""
    run_async(
        page,
        """
        from wiggum.web.app import APP
        kept = APP.site.storages.for_project(APP.project_id)
        for area in ("local", "session", "cookie"):
            kept.apply(area, {})
        await kept.saved()
        for path in await APP.coordinator.fs.list("", recursive=True):
            if not path.startswith((".ralph/", ".chief/")) and not await APP.coordinator.fs.is_dir(path):
                await APP.coordinator.fs.remove(path)
        True
        """,
    )
    write_files(page, files)
    reload_preview(page)


def reload_preview(page) -> None:
    """Ralph's preview loads its entry page again (and its console starts empty)."""
    run_async(
        page,
        """
        from wiggum.web.app import APP
        await APP.workspace.views["preview"].refresh("index.html")
        True
        """,
    )


def project_id(page) -> str:
    return run_async(page, "from wiggum.web.app import APP\nAPP.project_id")


def kept_site_storage(page, pid: str) -> dict:
    """What the project ``pid`` keeps of its site's storage, once written."""
    return run_async(
        page,
        f"""
        from wiggum.web.app import APP
        await APP.site.storages.for_project({pid!r}).saved()
        records = await APP.storage.load_messages({pid!r}, "site")
        records[-1] if records else {{}}
        """,
    )


def fix_task_sent(page, sim, button, summary: str = "Fixed it.") -> str:
    """Press ``button`` (a Fix), with Ralph scripted to finish at once; the task
    he was sent, as JSON text."""
    asked = len(sim.chat_requests)
    sim.script([Turn(ralph_done(summary, []))])
    button.click()
    wait_requests(sim, asked + 1, timeout=30, page=page)
    return json.dumps(sim.chat_requests[asked].json)


def add_intruder(page, script: str) -> None:
    """Another frame of Wiggum's page, on the preview's host page and sandboxed as
    the preview is, running ``script``; ``window.__fromIntruder`` counts what of it
    reached Wiggum's window (so the test knows its messages did arrive)."""
    page.evaluate(
        """async (code) => {
        const f = document.createElement("iframe");
        f.id = "intruder";
        f.setAttribute("sandbox", "allow-scripts");
        f.style.cssText = "position: fixed; left: -5000px; width: 100px; height: 100px";
        window.__fromIntruder = 0;
        const ready = new Promise((done) => addEventListener("message", (e) => {
            if (e.source !== f.contentWindow) return;
            window.__fromIntruder += 1;
            if (e.data && e.data.type === "wiggum-preview-ready") done();
        }));
        f.src = "static/preview.html";
        document.body.appendChild(f);
        await ready;
        const html = "<!DOCTYPE html><html><body><script>" + code + "</scr" + "ipt></body></html>";
        f.contentWindow.postMessage({type: "wiggum-preview-page", html}, "*");
    }""",
        script,
    )


def stop_ralph(page) -> None:
    """Stop a run Ralph was started on (a Fix's task), and wait for its end."""
    run_async(
        page,
        """
        from wiggum.web.app import APP
        await APP.coordinator.stop_ralph()
        await APP.coordinator.wait()
        True
        """,
    )


def poll(read, done, what: str, timeout: float = 20.0, interval: float = 0.1):
    """Call ``read()`` until ``done`` holds for what it returned (then return that);
    fails after ``timeout`` seconds with ``what`` and the last value read."""
    deadline = time.monotonic() + timeout
    while True:
        got = read()
        if done(got):
            return got
        assert time.monotonic() < deadline, f"{what}; the last read gave {got!r}"
        time.sleep(interval)


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


def show_pane(page, pane: str) -> None:
    """Bring ``pane`` of Ralph's workspace forward: its sub-tab when the panes are
    sub-tabs (under 900 px), else the stage's switch (preview, code, History;
    transcript and files are always shown)."""
    page.click(tid("tab-ralph"))
    if page.evaluate("innerWidth") < 900:
        page.click(tid(f"ws-tab-{pane}"))
    elif pane in ("preview", "code", "history"):
        page.click(tid(f"ws-show-{pane}"))
    page.wait_for_selector(f'{tid(f"ws-pane-{pane}")}[data-active="true"]')


def open_history(page):
    """The History pane in front, once it lists a checkpoint or says why not."""
    show_pane(page, "history")
    panel = page.locator(tid("history"))
    panel.wait_for(state="visible", timeout=20_000)
    return panel


def open_file(page, path: str) -> None:
    """Open ``path`` from Ralph's file tree (through the Files sub-tab when the
    panes are sub-tabs) and wait until the code pane shows it."""
    page.click(tid("tab-ralph"))
    files_tab = page.locator(tid("ws-tab-files"))
    if files_tab.count() and files_tab.is_visible():
        files_tab.click()
    page.click(f'{tid("file-entry")}[data-path="{path}"]')
    page.wait_for_selector(f'{tid("file-viewer")}[data-path="{path}"]')


def type_at_the_end(page, path: str, text: str) -> None:
    """Open ``path`` in the editor and type ``text`` at its end (unsaved)."""
    open_file(page, path)
    page.wait_for_selector(f'{tid("editor")}[data-ready="true"]', timeout=30_000)
    page.click(".cm-content")
    page.keyboard.press("Control+End")
    page.keyboard.insert_text(text)
    page.wait_for_selector(f'{tid("editor")}[data-unsaved="true"]')


def open_projects(page):
    """The projects dialog, open (opened if it was not), once it lists a project."""
    dialog = page.locator(tid("projects-dialog"))
    if not dialog.is_visible():
        page.click(tid("project-manage"))
    dialog.wait_for(state="visible")
    page.locator(tid("project-row")).first.wait_for()
    return dialog


def click_drawn(page, frame_sel: str, selector: str) -> None:
    """Click ``selector`` in the frame ``frame_sel`` where a person sees it: a device
    frame is drawn scaled (a CSS transform), and Playwright's own click in a scaled
    frame lands where the element would be unscaled."""
    element = page.frame_locator(frame_sel).locator(selector).first
    element.scroll_into_view_if_needed(timeout=5_000)
    x, y, inner = element.evaluate(
        "e => { const r = e.getBoundingClientRect();"
        " return [r.x + r.width / 2, r.y + r.height / 2, innerWidth]; }"
    )
    box = page.locator(frame_sel).bounding_box()
    scale = box["width"] / inner
    page.mouse.click(box["x"] + x * scale, box["y"] + y * scale)


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


def on_top(page, target, *, scroll: bool | str = False) -> bool:
    """Whether ``target`` (a locator, or a selector: its first match) is what a
    click at its centre would reach; with ``scroll``, once scrolled to the middle
    of the view first (``scroll="nearest"``: only as far as it takes, as focus
    scrolls)."""
    locator = page.locator(target).first if isinstance(target, str) else target
    block = scroll if isinstance(scroll, str) else "center" if scroll else ""
    return locator.evaluate(
        """(el, block) => { if (block) el.scrollIntoView({block});
                   const r = el.getBoundingClientRect();
                   const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
                   return !!hit && (hit === el || el.contains(hit)); }""",
        block,
    )


#: Every element under ``root`` matching ``sel`` that is shown: is it inside the
#: viewport (once scrolled into view) and on top at its centre?  The ones that are
#: not (with what covers them), how many were checked and their test ids.
CONTROLS_ON_TOP = """([root, sel]) => {
  const els = [...document.querySelector(root).querySelectorAll(sel)]
    .filter(el => el.getClientRects().length > 0);
  const bad = [];
  for (const el of els) {
    el.scrollIntoView({block: 'nearest', inline: 'nearest'});
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y);
    const inside = r.width > 0 && r.height > 0 && r.left >= -0.5 && r.top >= -0.5
      && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5;
    if (!inside || !hit || !(hit === el || el.contains(hit))) {
      bad.push({el: el.outerHTML.slice(0, 120), hit: hit ? hit.outerHTML.slice(0, 120) : null,
                box: [r.left, r.top, r.right, r.bottom].map(Math.round)});
    }
  }
  return {bad, checked: els.length, testids: els.map(el => el.dataset.testid || null)};
}"""


def controls_on_top(page, sel: str, root: str = "#panel-ralph") -> dict:
    """:data:`CONTROLS_ON_TOP` for the elements ``sel`` under ``root``."""
    return page.evaluate(CONTROLS_ON_TOP, [root, sel])


#: An init script recording every CSP violation of the page from its first
#: byte on (``window.__cspViolations``), for the tests of index.html's policy.
WATCH_CSP = """
window.__cspViolations = [];
addEventListener("securitypolicyviolation", (e) => window.__cspViolations.push(
  `${e.effectiveDirective} blocked ${e.blockedURI || "inline"} (${e.sourceFile}:${e.lineNumber})`));
"""


# --- Publishing --------------------------------------------------------------------


@contextlib.contextmanager
def quick_github(token: str):
    """A GitHub simulator whose Pages builds take about a second (the page waits for
    them in real time)."""
    from tests.sim.github import GitHubSim

    with GitHubSim(token=token) as sim:
        sim.build_delay, sim.build_seconds = 0.2, (0.2, 0.5)
        yield sim


def open_publish(page) -> None:
    dialog = page.locator(tid("publish-dialog"))
    if not dialog.is_visible():
        button = page.locator(tid("publish-button"))
        assert button.is_visible() and on_top(page, button)
        button.click()
        dialog.wait_for(state="visible")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=publish-count]').textContent.length > 0"
    )


def start_publish(page) -> int:
    """Press Publish; returns how many publishes had finished before (see
    :func:`wait_published`)."""
    go = page.locator(tid("publish-go"))
    go.wait_for(state="visible")
    page.wait_for_function("() => !document.querySelector('[data-testid=publish-go]').disabled")
    assert on_top(page, go)
    runs = int(page.locator(tid("publish-dialog")).get_attribute("data-runs") or 0)
    go.click()
    return runs


def wait_published(page, runs: int) -> None:
    """Wait until the publish started after ``runs`` finished ones has finished."""
    page.wait_for_function(
        "n => +document.querySelector('[data-testid=publish-dialog]').dataset.runs > n",
        arg=runs,
        timeout=60_000,
    )


def press_publish(page) -> None:
    """Press Publish and wait until that publish has finished."""
    wait_published(page, start_publish(page))


def error_text(page) -> str:
    err = page.locator(tid("publish-error"))
    return err.text_content() if err.is_visible() else ""


#: axe-core as the build vendors it (the preview's site checks load the same file).
AXE = "static/vendor/axe-core-4.14.1/axe.min.js"


def serious_violations(page) -> list[str]:
    """What axe-core (vendored) finds serious or critical on the page as it is."""
    if not page.evaluate("() => !!window.axe"):
        page.add_script_tag(url=AXE)
    return page.evaluate(
        """async () => {
            const r = await axe.run(document, {resultTypes: ["violations"]});
            return r.violations.filter(v => v.impact === "serious" || v.impact === "critical")
                .map(v => `${v.id}: ${v.nodes.slice(0, 4).map(n => n.target.join(" ")).join(", ")}`);
        }"""
    )
