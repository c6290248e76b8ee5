"""Ralph's workspace as a person sees it, at 1280×800, 1920×1080, 2560×1440 and 390×844.

One booted page serves the module (resized with ``set_viewport_size``).  Chief
saves a plan (the file tree lists ``.chief/plan.md`` without a reload), hands
over, and Ralph (scripted through the provider simulator) builds a small site
in two iterations.  Then, at each size: the preview is the widest pane, an
empty editor takes no width, History's diff is at least 600 px wide at 1280,
the editor's gutter is opaque, device frames are scaled to fit and a click in
a scaled frame reaches the element drawn under it, nothing is cut or covered
at 390 px (element boxes inside the viewport, ``elementFromPoint`` on every
control), and the page never scrolls sideways.  Screenshots go to
``/tmp/layout-shots/``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from wiggum_e2e import (
    booted_page,
    configure,
    controls_on_top,
    ralph_builds,
    ralph_done,
    run_async,
    send,
    set_size,
    show_pane,
    tid,
    wait_reply_containing,
)

from tests.sim import Simulator, ToolCall, Turn

pytestmark = pytest.mark.e2e

SHOTS = Path("/tmp/layout-shots")
WIDE = [(1280, 800), (1920, 1080), (2560, 1440)]
PLAN = "# Tea shop\n\nOne page: a heading, a button that says hello.\n"
LONG = "<!-- " + "a long line that runs far to the right of the pane " * 6 + "-->"
PAGE = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Tea</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body>{LONG}
<h1>Tea shop</h1>
<button id="hello" style="margin: 300px 0 0 200px; width: 120px; height: 60px">Hello</button>
<p id="said">not yet</p>
<script>document.getElementById('hello').onclick = () =>
  document.getElementById('said').textContent = 'clicked';</script>
</body></html>
"""
CSS = "body { font-family: sans-serif; }\n"
FIRST = "Writing the page with its heading and its hello button, and the styles beside it."
SECOND = "Making the heading say tea shop."

# Every control shown in Ralph's tab (checked in the viewport and on top at its centre).
CONTROLS = (
    "button, summary, input, select, [role=separator], [role=tab], [data-testid=file-entry],"
    " [data-testid=preview-frame], [data-testid=preview-scale]"
)
NO_SIDEWAYS = "document.documentElement.scrollWidth <= innerWidth"


def width(page, testid: str) -> float:
    """A pane's width on screen (0: not shown)."""
    return page.evaluate(
        "id => document.querySelector(`[data-testid=${id}]`)?.getBoundingClientRect().width || 0",
        testid,
    )


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def no_file_open(page) -> None:
    run_async(
        page,
        "from wiggum.web.app import APP\nAPP.workspace.views['files'].close_file()\nTrue",
    )
    page.wait_for_selector(f"{tid('ws-show-code')}[hidden]", state="attached")


@pytest.fixture(scope="module")
def built(browser, base_url):
    """A booted page: Chief saved a plan (whether the tree listed it before any reload
    is kept in ``page.plan_listed``), then Ralph built the site in two iterations."""
    with Simulator() as sim, booted_page(browser, base_url, mounted=True) as page:
        page.said = said = []  # what the page's console and its uncaught errors said
        page.on("console", lambda m: said.append(f"{m.type}: {m.text}"))
        page.on("pageerror", lambda e: said.append(f"uncaught: {e}"))
        set_size(page, 1280, 800)
        configure(page, sim, "sk-e2e-layout")
        page.click(tid("tab-ralph"))  # the workspace mounted and shown before the plan
        page.wait_for_selector(tid("ws-row"))
        page.click(tid("tab-chief"))
        sim.script([Turn(ToolCall("write_plan", {"content": PLAN})), Turn("Plan saved.")])
        send(page, "Save the plan.")
        wait_reply_containing(page, "Plan saved.")
        page.click(tid("tab-ralph"))
        plan = page.locator(f'{tid("file-entry")}[data-path=".chief/plan.md"]')
        try:
            plan.wait_for(state="attached", timeout=10_000)
            page.plan_listed = True
        except Exception:
            page.plan_listed = False
        page.click(tid("tab-chief"))
        ralph_builds(
            page,
            sim,
            "Build the tea shop page.",
            "Tea shop",
            [
                Turn(
                    FIRST,
                    ToolCall("write_file", {"path": "index.html", "content": PAGE}),
                    ToolCall("write_file", {"path": "style.css", "content": CSS}),
                ),
                Turn(ralph_done("Built it.", ["index.html"])),
            ],
        )
        page.click(tid("tab-ralph"))
        page.wait_for_selector(f'{tid("file-entry")}[data-path="index.html"]')
        yield page


def test_the_plan_is_in_the_file_tree_as_soon_as_chief_saves_it(built):
    assert built.plan_listed, "the tree listed .chief/plan.md only after a reload"


@pytest.mark.parametrize(("w", "h"), WIDE, ids=[f"{w}x{h}" for w, h in WIDE])
def test_the_preview_is_the_widest_pane_and_an_empty_editor_takes_no_width(built, w, h):
    page = built
    set_size(page, w, h)
    no_file_open(page)
    show_pane(page, "preview")
    page.wait_for_timeout(100)  # the ResizeObserver re-fits the panes in the next frame
    sizes = {p: width(page, f"ws-pane-{p}") for p in ("transcript", "files", "preview", "code")}
    assert sizes["code"] == 0, sizes
    assert not page.is_visible(tid("ws-show-code"))
    assert sizes["preview"] > max(sizes["transcript"], sizes["files"]), sizes
    assert sizes["preview"] >= (w - 12) / 2, sizes
    assert page.evaluate(NO_SIDEWAYS)
    shot(page, f"{w}x{h}-preview")
    result = controls_on_top(page, CONTROLS)
    assert result["bad"] == [] and result["checked"] > 5, result

    # A file opened: the code comes forward in the stage, as wide as the preview was.
    page.click(f'{tid("file-entry")}[data-path="index.html"]')
    page.wait_for_selector(f'{tid("file-viewer")}[data-path="index.html"]')
    assert page.is_visible(tid("ws-show-code"))
    assert width(page, "ws-pane-code") == pytest.approx(sizes["preview"], abs=2)
    assert width(page, "ws-pane-preview") == 0
    shot(page, f"{w}x{h}-code")


def test_stored_sizes_of_the_old_layout_do_not_squeeze_the_preview(built):
    page = built
    set_size(page, 1280, 800)
    run_async(
        page,
        """
        import json
        import js
        from wiggum.web.app import APP
        from wiggum.ui.layout import storage_key
        old = {"transcript": 700, "files": 500, "preview": 220}
        js.window.localStorage.setItem(storage_key(APP.project_id), json.dumps(old))
        APP.workspace.layout.set_project(APP.project_id)
        True
        """,
    )
    show_pane(page, "preview")
    page.wait_for_timeout(100)
    assert width(page, "ws-pane-preview") >= (1280 - 12) / 2
    # The splitters still resize, within what leaves the stage its share.
    splitter = page.locator(tid("ws-splitter-files"))
    before = int(splitter.get_attribute("aria-valuenow"))
    splitter.focus()
    page.keyboard.press("ArrowLeft")
    assert int(splitter.get_attribute("aria-valuenow")) == before - 16
    page.keyboard.press("End")
    assert int(splitter.get_attribute("aria-valuenow")) == int(
        splitter.get_attribute("aria-valuemax")
    )
    assert width(page, "ws-pane-preview") >= (1280 - 12) / 2
    run_async(
        page,
        """
        import js
        from wiggum.web.app import APP
        from wiggum.ui.layout import storage_key
        js.window.localStorage.removeItem(storage_key(APP.project_id))
        APP.workspace.layout.set_project(APP.project_id)
        True
        """,
    )


def test_the_editor_gutter_is_opaque(built):
    page = built
    set_size(page, 1280, 800)
    page.click(f'{tid("file-entry")}[data-path="index.html"]')
    page.wait_for_selector(f'{tid("editor")}[data-ready="true"]', timeout=30_000)
    background = page.eval_on_selector(".cm-gutters", "g => getComputedStyle(g).backgroundColor")
    alpha = re.fullmatch(r"rgba?\((\d+), (\d+), (\d+)(?:, ([\d.]+))?\)", background)
    assert alpha and (alpha[4] is None or float(alpha[4]) == 1), background


def test_history_is_a_readable_panel_with_a_wide_diff(built):
    page = built
    set_size(page, 1280, 800)
    show_pane(page, "history")
    items = page.locator(tid("history-item"))
    items.first.wait_for(timeout=20_000)
    page.wait_for_function(
        "[...document.querySelectorAll('[data-testid=history-item] .history-message')]"
        f".some(m => m.textContent === {FIRST!r})",
        timeout=20_000,
    )
    ralph = page.locator(f'{tid("history-item")}[data-who="ralph"]').last
    # who, when (in words, the exact time in its tooltip), what (whole), how many files
    assert ralph.locator(".history-author").text_content().startswith("Ralph")
    when = ralph.locator(".history-time")
    assert re.fullmatch(r"just now|\d+ min ago", when.text_content())
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", when.get_attribute("title"))
    assert ralph.locator(".history-message").text_content() == FIRST
    changed = ralph.locator(tid("history-file")).count()
    assert changed >= 2
    assert ralph.locator(".history-count").text_content() == f"{changed} files changed"
    message = ralph.locator(".history-message").bounding_box()
    assert message["height"] > 0
    ralph.locator(f'{tid("history-file")}[data-path="index.html"]').click()
    diff = page.locator(tid("history-diff"))
    diff.wait_for(state="visible")
    assert diff.bounding_box()["width"] >= 600
    assert "+<h1>Tea shop</h1>" in diff.text_content()
    head = page.locator(".history-diff-head")
    assert "as Ralph" in head.text_content()
    assert not re.search(r"\b[0-9a-f]{7}\b", head.text_content())
    # File names are one line each, never broken mid-word.
    lines = page.eval_on_selector_all(
        ".ws-pane-history .history-path",
        "els => els.map(e => e.getClientRects().length === 1"
        " && getComputedStyle(e).whiteSpace === 'nowrap')",
    )
    assert lines and all(lines)
    result = controls_on_top(page, CONTROLS)
    assert result["bad"] == [], result
    shot(page, "1280x800-history")
    for w, h in WIDE[1:]:
        set_size(page, w, h)
        page.wait_for_timeout(100)
        assert diff.bounding_box()["width"] >= 600
        assert page.evaluate(NO_SIDEWAYS)
        shot(page, f"{w}x{h}-history")


def test_device_frames_fit_the_pane_and_clicks_land_in_them(built):
    page = built
    set_size(page, 1280, 800)
    show_pane(page, "preview")
    frame_sel = f"{tid('ralph-workspace')} {tid('preview-frame')}"
    try:
        for device, (dw, dh) in (("tablet", (768, 1024)), ("phone", (390, 844))):
            page.click(tid(f"preview-width-{device}"))
            label = page.locator(tid("preview-scale"))
            page.wait_for_function(
                "t => document.querySelector('[data-testid=preview-scale]')"
                "?.textContent.startsWith(t)",
                arg=f"{device.title()} {dw} × {dh} · ",
            )
            # The toolbar may wrap as its label changes, which fits the frame again:
            # wait until the scale said is the scale drawn.
            page.wait_for_function(
                """([sel, dw]) => {
                    const said = /(\\d+)%$/.exec(
                        document.querySelector('[data-testid=preview-scale]').textContent);
                    const drawn = document.querySelector(sel)?.getBoundingClientRect().width;
                    return said !== null && Math.abs(drawn - dw * said[1] / 100) <= 2;
                }""",
                arg=[frame_sel, dw],
            )
            percent = int(re.search(r"(\d+)%$", label.text_content())[1])
            assert 25 <= percent < 100, label.text_content()
            pane = page.locator(tid("ws-pane-preview")).bounding_box()
            box = page.locator(frame_sel).bounding_box()
            assert box["width"] == pytest.approx(dw * percent / 100, abs=2)
            assert box["height"] == pytest.approx(dh * percent / 100, abs=2)
            assert box["x"] >= pane["x"] - 0.5
            assert box["x"] + box["width"] <= pane["x"] + pane["width"] + 0.5
            assert box["y"] + box["height"] <= pane["y"] + pane["height"] + 0.5
            shot(page, f"1280x800-{device}")
        # A click at the button as drawn (scaled) reaches the button in the site.
        frame = page.frame_locator(frame_sel)
        frame.locator("#hello").wait_for()
        inner = frame.locator("#hello").evaluate(
            "b => { const r = b.getBoundingClientRect(); return [r.x + r.width / 2, "
            "r.y + r.height / 2]; }"
        )
        scale = percent / 100
        page.mouse.click(box["x"] + inner[0] * scale, box["y"] + inner[1] * scale)
        assert frame.locator("#said").text_content(timeout=5_000) == "clicked"
        set_size(page, 390, 844)
        show_pane(page, "preview")
        page.wait_for_timeout(100)
        box = page.locator(frame_sel).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390
        assert page.evaluate(NO_SIDEWAYS)
        shot(page, "390x844-phone")
    finally:
        set_size(page, 1280, 800)
        show_pane(page, "preview")
        page.click(tid("preview-width-desktop"))
    page.wait_for_selector(tid("preview-scale"), state="hidden")  # the pane's own width


def test_nothing_is_cut_or_covered_at_390(built):
    page = built
    set_size(page, 390, 844)
    page.click(f"{tid('ws-tab-files')}")
    page.click(f'{tid("file-entry")}[data-path="index.html"]')
    page.wait_for_selector(f'{tid("ws-pane-code")}[data-active="true"]')
    for pane in ("transcript", "files", "preview", "code", "history"):
        page.click(tid(f"ws-tab-{pane}"))
        page.wait_for_selector(f'{tid(f"ws-pane-{pane}")}[data-active="true"]')
        page.wait_for_timeout(50)
        result = controls_on_top(page, CONTROLS)
        assert result["bad"] == [], (pane, result)
        assert result["checked"] > 0
        assert page.evaluate(NO_SIDEWAYS), pane
        shot(page, f"390x844-{pane}")
    # History's diff on a phone: over the list, as wide as the screen allows.
    page.locator(f'{tid("history-item")}[data-who="ralph"]').last.locator(
        tid("history-file")
    ).first.click()
    page.locator(tid("history-diff")).wait_for(state="visible")
    assert page.locator(tid("history-diff")).bounding_box()["width"] >= 300
    result = controls_on_top(page, CONTROLS)
    assert result["bad"] == [], result
    shot(page, "390x844-history-diff")
    set_size(page, 1280, 800)


def test_resizing_leaves_no_error_and_no_layout_warning(built):
    page = built
    for w, h in [*WIDE, (390, 844), (1280, 800)]:
        set_size(page, w, h)
        for pane in ("preview", "history"):
            show_pane(page, pane)
        page.wait_for_timeout(50)
    loud = [line for line in page.said if re.match(r"(error|warning|uncaught)", line)]
    assert not [line for line in loud if "ResizeObserver" in line or "uncaught" in line], loud
