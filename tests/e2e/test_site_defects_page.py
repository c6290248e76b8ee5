"""Sites with known defects in the preview: axe-core's findings in Checks, and isolation.

``test_site_preview.py`` shows the console's defects (a click handler that
throws, a missing image), the Checks' file findings (a broken link, an image
without ``alt``, overflow at a phone's width), a form that submits, storage
kept across reloads and projects, and Fix.  This module adds what axe-core
brings (WCAG findings at the line each element is written, after the site's
own scripts ran, one defect said once, Fix carrying the rule) and the
isolation those tests lack: the site's storage never lands in Wiggum's own
(not even under a key Wiggum reads), and messages from any frame but the
preview's own, Wiggum's audit frame included, are ignored.

One booted app (Ralph's tab, a provider simulator) serves the module.
"""

from __future__ import annotations

import base64

import pytest
from playwright.sync_api import expect
from wiggum_e2e import (
    add_intruder,
    fix_task_sent,
    in_preview,
    kept_site_storage,
    on_top,
    project_id,
    ralph_tab_page,
    reload_preview,
    run_async,
    set_size,
    show_site,
    stop_ralph,
    tid,
)

pytestmark = pytest.mark.e2e

KEY = "sk-e2e-SECRET-defects"
FRAME = f"#panel-ralph {tid('preview-frame')}"
CHECKS = f"#panel-ralph {tid('preview-checks')}"
CONSOLE = f"#panel-ralph {tid('preview-console')}"
SHOTS = "/tmp/shots-site-defects"
# A 2x2 red PNG.
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg=="
)
HEAD = (
    '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{title}</title>\n'
    '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
)

# Line 6: text too faint; line 8: a field without a label; line 9: an image
# without alt (the file check's to say, not axe's too); line 10: a button
# without words in the file, which its script names before axe runs.
SHOP = {
    "index.html": HEAD.format(title="Shop")
    + """<style>.faint { color: #bbb; background: #fff; }</style></head>
<body><main><h1>Shop</h1>
<p class="faint">Prices include tax.</p>
<label>Name <input id="name"></label>
<input id="email" type="email">
<img src="logo.png">
<button id="menu" type="button"></button>
</main>
<script src="app.js"></script>
</body></html>
""",
    "app.js": 'document.getElementById("menu").textContent = "Menu";\n',
    "logo.png": PNG,
}


@pytest.fixture(scope="module")
def page(browser, base_url, sim):
    with ralph_tab_page(browser, base_url, sim, KEY) as p:
        yield p


def run_checks(page) -> None:
    """Press Run checks and wait for the round's summary."""
    checks = page.locator(CHECKS)
    checks.locator(tid("checks-run")).click()
    expect(checks.locator(tid("checks-summary"))).to_contain_text(" checks", timeout=60_000)


def test_axe_findings_are_in_checks_at_their_lines_once_and_fix_carries_them(page, sim):
    show_site(page, SHOP)
    run_checks(page)
    checks = page.locator(CHECKS)
    rows = checks.locator(tid("checks-issue"))
    label = rows.filter(has_text="(label, critical)")
    expect(label.locator(tid("checks-where"))).to_have_text("index.html:8")
    assert label.get_attribute("data-check") == "accessibility"
    assert 'Form elements must have labels (label, critical): <input id="email"' in (
        label.locator(tid("checks-text")).text_content()
    )
    expect(label).to_contain_text('give the field a <label for="its id">')
    faint = rows.filter(has_text="(color-contrast, serious)")
    expect(faint.locator(tid("checks-where"))).to_have_text("index.html:6")
    expect(faint).to_contain_text("Expected contrast ratio of 4.5:1")
    # The image without alt is said once, by the file check; the button its
    # script names (axe runs after the site's own scripts) is no finding.
    alt = rows.filter(has_text="alt")
    expect(alt).to_have_count(1)
    assert alt.get_attribute("data-check") == "page_basics"
    expect(alt.locator(tid("checks-where"))).to_have_text("index.html:9")
    assert rows.filter(has_text="button-name").count() == 0
    expect(rows).to_have_count(3)
    expect(checks.locator(tid("checks-summary"))).to_have_text("3 problems in 2 of 6 checks.")
    # The site itself works: the preview shows it with its script run.
    expect(page.frame_locator(FRAME).locator("#menu")).to_have_text("Menu", timeout=10_000)
    # axe-core came from the build (the audit frame's load), never into Wiggum's page.
    loaded = "() => performance.getEntriesByType('resource').map((e) => e.name)"
    assert not [url for url in page.evaluate(loaded) if "axe" in url]
    assert "axe" not in run_async(page, "import js\nstr(js.Object.keys(js.window).join(','))")

    for w, h in ((1280, 800), (390, 844)):
        set_size(page, w, h)
        if w < 900:
            page.click(tid("ws-tab-preview"))
        fix = label.locator(tid("checks-fix"))
        assert on_top(page, fix, scroll=True), (w, h)
        label.evaluate("row => row.scrollIntoView({block: 'start'})")
        page.screenshot(path=f"{SHOTS}/checks-axe-{w}x{h}.png")
        checks.screenshot(path=f"{SHOTS}/checks-axe-panel-{w}x{h}.png")
    set_size(page, 1280, 800)

    task = fix_task_sent(page, sim, label.locator(tid("checks-fix")), "Labelled the email field.")
    for part in (
        "Form elements must have labels (label, critical)",
        "index.html line 8",
        "give the field a",
        '<input id=\\"email\\" type=\\"email\\">',
    ):
        assert part in task, part
    stop_ralph(page)


# Each load counts itself in the site's localStorage.
COUNTER = {
    "index.html": HEAD.format(title="Counter")
    + """</head>
<body><main><h1>Counter</h1><p id="n"></p></main>
<script src="count.js"></script>
</body></html>
""",
    "count.js": """const n = Number(localStorage.getItem("loads") || 0) + 1;
localStorage.setItem("loads", String(n));
document.getElementById("n").textContent = String(n);
""",
}

# What a site writes under names Wiggum itself uses.
SQUATTER = {
    "index.html": HEAD.format(title="Squatter")
    + """</head>
<body><main><h1>Squatter</h1><p id="seen"></p></main>
<script>
localStorage.setItem("wiggum.wheels", "xz");
sessionStorage.setItem("wiggum.tab", "site");
document.cookie = "session=site; path=/";
document.getElementById("seen").textContent =
  localStorage.getItem("wiggum.wheels") + "|" + sessionStorage.getItem("wiggum.tab") +
  "|" + document.cookie;
</script>
</body></html>
""",
}

WIGGUMS_OWN = """
import js
own = [js.localStorage.getItem("wiggum.wheels"), js.sessionStorage.getItem("wiggum.tab")]
own + [js.document.cookie]
"""


def test_the_sites_storage_never_lands_in_wiggums_own(page):
    before = run_async(page, WIGGUMS_OWN)
    show_site(page, SQUATTER)
    frame = page.frame_locator(FRAME)
    expect(frame.locator("#seen")).to_have_text("xz|site|session=site", timeout=10_000)
    kept = kept_site_storage(page, project_id(page))
    assert kept["local"] == {"wiggum.wheels": "xz"} and kept["cookie"] == {"session": "site"}
    # Wiggum's storage, session storage and cookies are as they were.
    assert run_async(page, WIGGUMS_OWN) == before
    assert "session" not in {c["name"] for c in page.context.cookies()}
    # The site finds its own again after a reload.
    reload_preview(page)
    expect(frame.locator("#seen")).to_have_text("xz|site|session=site", timeout=10_000)


# Posts what the preview's page, console, storage and the audit would, again and again.
FORGER = """
setInterval(function () {
  parent.postMessage({type: "wiggum-preview-storage", area: "local", items: {loads: "999"}}, "*");
  parent.postMessage({type: "wiggum-preview-console", level: "error", kind: "error",
                      text: "forged", file: "x.js", line: 1, stack: "", page: "index.html"}, "*");
  parent.postMessage({type: "wiggum-preview-nav", path: "forged.html"}, "*");
  parent.postMessage({type: "wiggum-preview-audit", width: 390,
                      overflow: [{tag: "div", id: "forged", cls: "", right: 999, at: ""}],
                      axe: [{id: "forged-rule", impact: "critical", help: "forged",
                             nodes: [{at: "", html: "<p>", summary: ""}]}]}, "*");
}, 150);
"""


def test_messages_from_the_audit_frame_or_any_other_frame_are_ignored(page):
    show_site(page, COUNTER)
    pid = project_id(page)
    frame = page.frame_locator(FRAME)
    expect(frame.locator("#n")).to_have_text("1", timeout=10_000)
    reload_preview(page)
    expect(frame.locator("#n")).to_have_text("2", timeout=10_000)
    assert kept_site_storage(page, pid)["local"] == {"loads": "2"}

    add_intruder(page, FORGER)
    try:
        page.wait_for_function("() => window.__fromIntruder > 8")
        # The checks load the site in their own frame (from an empty storage: it
        # writes loads=1 there, and posts it), while the intruder posts its forgeries.
        run_checks(page)
        expect(page.locator(CHECKS).locator(tid("checks-summary"))).to_have_text(
            "All 6 checks passed."
        )
        sent = page.evaluate("() => window.__fromIntruder")
    finally:
        page.evaluate("() => document.getElementById('intruder')?.remove()")
    assert sent > 16  # it did post, all along

    assert kept_site_storage(page, pid)["local"] == {"loads": "2"}
    console = page.locator(CONSOLE)
    assert console.locator(tid("console-entry")).filter(has_text="forged").count() == 0
    path = page.locator(f"#panel-ralph {tid('preview-path-input')}")
    expect(path).to_have_value("index.html")
    assert frame.locator("#n").text_content() == "2"
    reload_preview(page)
    in_preview(lambda: frame.locator("#n").text_content() == "3", "counted its own loads")
