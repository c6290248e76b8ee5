"""Issue 17 in the browser: a failing view never blanks the app; the page's CSP.

One booted page is shared by the module's checks (booting is the slow part).
Every CSP violation and console error from the first byte on is recorded."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from wiggum_e2e import (
    WATCH_CSP,
    booted_page,
    configure,
    on_top,
    open_file,
    run_async,
    run_python,
    send,
    set_size,
    tid,
    wait_reply,
    write_files,
)

from tests.sim import Turn

SHOTS = "/tmp/shots-harden"

#: Test-only: App.open_settings raises (patched in the page through Pyodide,
#: never by anything in the product), so the Settings button's click handler fails.
BREAK_SETTINGS = """
from wiggum.web.app import App
App._real_open_settings = App.open_settings
def _boom(self):
    raise RuntimeError("forced by the e2e test")
App.open_settings = _boom
"""
HEAL_SETTINGS = "from wiggum.web.app import App\nApp.open_settings = App._real_open_settings\n"


def _watch_console(page) -> None:
    page.console_errors = []
    page.on(
        "console",
        lambda m: page.console_errors.append(m.text) if m.type == "error" else None,
    )


@pytest.fixture(scope="module")
def app_page(browser, base_url):
    with booted_page(browser, base_url, init_script=WATCH_CSP) as p:
        _watch_console(p)
        yield p


def _csp_errors(page, since: int) -> list[str]:
    """Console errors since the ``since``-th that come from the policy
    (other noise, such as a ResizeObserver loop while resizing, is not its)."""
    return [
        t
        for t in page.console_errors[since:]
        if "Content Security Policy" in t or "Refused to" in t or "EvalError" in t
    ]


def _violations(page) -> list[str]:
    return page.evaluate("() => window.__cspViolations.slice()")


def _csp(page) -> str:
    return page.get_attribute('meta[http-equiv="Content-Security-Policy"]', "content")


def _directive(csp: str, name: str) -> list[str]:
    for part in csp.split(";"):
        words = part.split()
        if words and words[0] == name:
            return words[1:]
    return []


def test_the_app_boots_under_its_csp_without_violations(app_page):
    p = app_page
    csp = _csp(p)
    assert "object-src 'none'" in csp and "base-uri 'none'" in csp
    script_src = _directive(csp, "script-src")
    assert "'unsafe-inline'" not in script_src
    assert _directive(csp, "frame-src") == ["'self'"]
    # Settings open and close under the policy.
    p.click('[data-testid="settings-button"]')
    p.wait_for_selector('[data-testid="settings-dialog"][open]', timeout=15_000)
    p.keyboard.press("Escape")
    assert _violations(p) == []


def test_an_inline_script_injected_into_the_page_does_not_run(app_page):
    p = app_page
    p.evaluate(
        """() => {
        window.__pwned = 0;
        document.body.insertAdjacentHTML('beforeend',
          '<img id="csp-img" src="x" onerror="window.__pwned++">');
        const s = document.createElement('script');
        s.textContent = 'window.__pwned++';
        document.body.append(s);
        document.body.insertAdjacentHTML('beforeend',
          '<a id="csp-a" href="javascript:window.__pwned++">x</a>');
        document.getElementById('csp-a').click();
      }"""
    )
    p.wait_for_function("() => window.__cspViolations.length >= 2", timeout=10_000)
    assert p.evaluate("() => window.__pwned") == 0
    assert any("script-src" in v for v in _violations(p))
    p.evaluate(
        "() => { for (const id of ['csp-img', 'csp-a']) document.getElementById(id).remove();"
        " window.__cspViolations.length = 0; }"
    )


def test_a_failing_handler_shows_an_error_line_and_the_app_keeps_working(app_page):
    p = app_page
    run_python(p, BREAK_SETTINGS)
    try:
        p.click('[data-testid="settings-button"]')
        line = p.locator('[data-testid="view-error"]')
        line.wait_for(state="visible", timeout=10_000)
        assert "RuntimeError" in line.text_content()
        assert "still works" in line.text_content()
        for w, hgt in ((1280, 800), (390, 844)):
            set_size(p, w, hgt)
            assert on_top(p, '[data-testid="view-error-log"]')
            p.screenshot(path=f"{SHOTS}/view-error-{w}x{hgt}.png")
        set_size(p, 1280, 800)
        # The rest of the app works: the tabs still switch.
        p.click('[data-testid="tab-ralph"]')
        p.wait_for_selector("#panel-ralph:not([hidden])", timeout=10_000)
        assert p.get_attribute('[data-testid="tab-ralph"]', "aria-selected") == "true"
        p.click('[data-testid="tab-chief"]')
        p.wait_for_selector("#panel-chief:not([hidden])", timeout=10_000)
        # The link opens the Log, which holds the traceback.
        p.click('[data-testid="view-error-log"]')
        assert p.locator('[data-testid="view-error"]').is_hidden()
        p.wait_for_function(
            "() => [...document.querySelectorAll('dialog[open]')]"
            ".some(d => d.textContent.includes('forced by the e2e test'))",
            timeout=10_000,
        )
        p.keyboard.press("Escape")
    finally:
        run_python(p, HEAL_SETTINGS)
    # Healed, the same button works again.
    p.click('[data-testid="settings-button"]')
    p.wait_for_selector('[data-testid="settings-dialog"][open]', timeout=15_000)
    p.keyboard.press("Escape")


# --------------------------------------------------------------- under the CSP

KEY = "sk-e2e-SECRET-csp"
#: A reply whose table has a centred column: its alignment reaches the page as
#: an inline style, which must go through the CSSOM, not a style="" attribute.
REPLY = "| Left | Middle |\n| :--- | :---: |\n| a | **b** |\n\nAnswered under the policy."


def test_chief_answers_under_the_csp(app_page, sim):
    p = app_page
    errors_before = len(p.console_errors)
    configure(p, sim, KEY)
    sim.script([Turn(REPLY, chunks=4, delay=0.05)])
    send(p, "Are you there?")
    reply = wait_reply(p, timeout=30_000)
    assert "Answered under the policy." in reply.text_content()
    cell = reply.locator("td").nth(1)
    assert cell.text_content() == "b"
    assert cell.evaluate("e => getComputedStyle(e).textAlign") == "center"
    assert _violations(p) == []
    assert _csp_errors(p, errors_before) == [], p.console_errors[errors_before:]


#: The person's site: inline script, inline style, style="" and an inline event
#: handler, none of which Wiggum's own page allows; an error on the second page.
PERSON_SITE = {
    "index.html": """<!doctype html>
<html><head><meta charset="utf-8"><title>Crumb</title>
<style>h1 { color: rgb(200, 0, 0); }</style></head>
<body><h1 id="title">Crumb and Co.</h1>
<p id="ran">inline script did not run</p>
<p id="styled" style="color: rgb(0, 128, 0)">styled by an attribute</p>
<button id="btn" onclick="this.textContent = 'handler ran'">press</button>
<a id="about" href="about.html">About</a>
<script>
document.getElementById("ran").textContent = "inline script ran";
document.getElementById("ran").dataset.origin = self.origin;
</script>
</body></html>
""",
    "about.html": """<!doctype html>
<html><head><meta charset="utf-8"><title>About</title></head>
<body><h1 id="about-title">About us</h1><a id="home" href="index.html">Home</a>
<script>
setTimeout(() => { throw new Error("about page boom"); });
</script></body></html>
""",
}


def _show_preview_pane(page) -> None:
    tab = page.locator(tid("ws-tab-preview"))
    if tab.count() and tab.is_visible():
        tab.click()


def test_the_preview_runs_the_persons_inline_scripts(app_page):
    p = app_page
    errors_before = len(p.console_errors)
    write_files(p, PERSON_SITE, preview=True)
    p.click(tid("tab-ralph"))
    _show_preview_pane(p)
    frame_el = p.locator(f"#panel-ralph {tid('preview-frame')}")
    frame_el.wait_for(state="visible", timeout=15_000)
    # Our host page from its URL (its own rules), sandboxed without same-origin.
    assert re.search(r"static/preview\.html$", frame_el.get_attribute("src"))
    assert "allow-same-origin" not in frame_el.get_attribute("sandbox")
    site = p.frame_locator(f"#panel-ralph {tid('preview-frame')}")
    ran = site.locator("#ran")
    ran.wait_for(timeout=15_000)
    assert ran.text_content(timeout=15_000) == "inline script ran"
    assert ran.get_attribute("data-origin") == "null"  # opaque: no reach into Wiggum's storage
    assert site.locator("#title").evaluate("e => getComputedStyle(e).color") == "rgb(200, 0, 0)"
    assert site.locator("#styled").evaluate("e => getComputedStyle(e).color") == "rgb(0, 128, 0)"
    site.locator("#btn").click()
    assert site.locator("#btn").text_content() == "handler ran"
    for w, hgt in ((1280, 800), (390, 844)):
        set_size(p, w, hgt)
        _show_preview_pane(p)
        p.wait_for_timeout(300)
        p.screenshot(path=f"{SHOTS}/preview-csp-{w}x{hgt}.png")
    set_size(p, 1280, 800)
    _show_preview_pane(p)

    # Navigation inside the preview, and the page's errors reported back.
    site.locator("#about").click()
    assert site.locator("#about-title").text_content(timeout=15_000) == "About us"
    errors = p.locator(f"#panel-ralph {tid('preview-console')} [data-level='error']")
    boom = errors.filter(has_text="about page boom")
    expect(boom.locator(tid("console-where"))).to_have_text("about.html:5", timeout=15_000)
    site.locator("#home").click()
    expect(site.locator("#ran")).to_have_text("inline script ran", timeout=15_000)

    # Refresh picks up an edit, and its script still runs.
    run_async(
        p,
        """
        from wiggum.web.app import APP
        text = await APP.coordinator.fs.read_text("index.html")
        await APP.coordinator.fs.write_text("index.html", text.replace("script ran", "script ran again"))
        True
        """,
    )
    p.click(f"#panel-ralph {tid('preview-refresh')}")
    expect(site.locator("#ran")).to_have_text("inline script ran again", timeout=15_000)

    # The new-tab viewer shows the same site, its script running there too.
    with p.context.expect_page() as opened:
        p.click(f"#panel-ralph {tid('preview-open-tab')}")
    viewer = opened.value
    viewer_site = viewer.frame_locator(tid("viewer-frame"))
    expect(viewer_site.locator("#ran")).to_have_text("inline script ran again", timeout=15_000)
    assert viewer.get_attribute('meta[http-equiv="Content-Security-Policy"]', "content")
    assert _violations(viewer) == []
    viewer.close()

    # Without its host page (not published, say) the preview says so and how to fix it.
    host = "**/static/preview.html"
    p.route(host, lambda route: route.fulfill(status=404, body="missing"))
    try:
        p.click(f"#panel-ralph {tid('preview-refresh')}")
        status = p.locator(f"#panel-ralph {tid('preview-status')}")
        expect(status).to_contain_text("static/preview.html did not load", timeout=30_000)
        assert "publish static/preview.html" in status.text_content()
    finally:
        p.unroute(host)
    p.click(f"#panel-ralph {tid('preview-refresh')}")
    expect(site.locator("#ran")).to_have_text("inline script ran again", timeout=15_000)
    expect(status).to_have_text("")

    assert _violations(p) == []
    assert _csp_errors(p, errors_before) == [], p.console_errors[errors_before:]


def test_the_editor_is_styled_under_the_csp(app_page):
    """CodeMirror puts its theme in a <style> element, which the policy must let apply."""
    p = app_page
    write_files(p, {"style.css": "h1 { color: tomato; }\n"})
    open_file(p, "style.css")
    p.wait_for_selector(f'{tid("editor")}[data-ready="true"]', timeout=30_000)
    editor = p.locator(".cm-editor").first
    # From CodeMirror's base theme: without it the editor is a plain block.
    assert editor.evaluate("e => getComputedStyle(e).display") == "flex"
    p.screenshot(path=f"{SHOTS}/editor-csp-1280x800.png")
    assert _violations(p) == []
