"""Issue 17 in the browser: a failing view never blanks the app; the page's CSP.

One booted page is shared by the module's checks (booting is the slow part)."""

from __future__ import annotations

import pytest
from wiggum_e2e import ROOT, booted_page, run_python

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


#: Records every CSP violation from the first byte of the page on.
WATCH_CSP = """
window.__cspViolations = [];
addEventListener("securitypolicyviolation", (e) => window.__cspViolations.push(
  `${e.effectiveDirective} blocked ${e.blockedURI || "inline"} (${e.sourceFile}:${e.lineNumber})`));
"""


@pytest.fixture(scope="module")
def app_page(browser, base_url):
    with booted_page(browser, base_url, init_script=WATCH_CSP) as p:
        yield p


#: The meta waits for the preview to leave <iframe srcdoc>, which inherits the
#: page's policy (every script of the person's site would be blocked).
needs_csp = pytest.mark.skipif(
    "Content-Security-Policy" not in (ROOT / "index.html").read_text(encoding="utf-8"),
    reason="index.html carries no CSP meta yet (the srcdoc preview inherits it)",
)


def _violations(page) -> list[str]:
    return page.evaluate("() => window.__cspViolations.slice()")


@needs_csp
def test_the_app_boots_under_its_csp_without_violations(app_page):
    p = app_page
    csp = p.get_attribute('meta[http-equiv="Content-Security-Policy"]', "content")
    assert "object-src 'none'" in csp and "base-uri 'none'" in csp
    assert "'unsafe-inline'" not in csp
    # Settings open and close under the policy.
    p.click('[data-testid="settings-button"]')
    p.wait_for_selector('[data-testid="settings-dialog"][open]', timeout=15_000)
    p.keyboard.press("Escape")
    assert _violations(p) == []


@needs_csp
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


def _on_top(page, selector: str) -> bool:
    return page.evaluate(
        """sel => { const el = document.querySelector(sel); const r = el.getBoundingClientRect();
                   const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
                   return el === top || el.contains(top); }""",
        selector,
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
            p.set_viewport_size({"width": w, "height": hgt})
            assert _on_top(p, '[data-testid="view-error-log"]')
            p.screenshot(path=f"{SHOTS}/view-error-{w}x{hgt}.png")
        p.set_viewport_size({"width": 1280, "height": 800})
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
