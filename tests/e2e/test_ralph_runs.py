"""Ralph's runs (issue 14): empty state, transcript order, Stop → Resume, the run list.

One booted page and one simulator for the module; the checks go in order.
Ralph's loop calls ``chat()`` batch, one scripted turn per call.
"""

from __future__ import annotations

import pytest
from wiggum_e2e import (
    MOUNTED,
    booted_page,
    configure,
    on_top,
    open_app,
    ralph_done,
    run_async,
    set_size,
    tid,
    wait_requests,
)

from tests.sim import ToolCall, Turn

pytestmark = pytest.mark.e2e

KEY = "sk-e2e-SECRET-runs"
HTML = (
    '<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8"><title>Tiny</title></head>\n'
    "<body><h1>Tiny page</h1></body>\n</html>\n"
)
CSS = "body { font-family: sans-serif; }\n"


@pytest.fixture(scope="module")
def page(browser, base_url, sim):
    with booted_page(browser, base_url) as p:
        set_size(p, 1280, 800)
        p.wait_for_selector(MOUNTED, timeout=30_000)
        configure(p, sim, KEY)
        p.click(tid("tab-ralph"))
        yield p


def wait_chief(page, text: str) -> None:
    """Chief's answer to Ralph's post-build note has come (the provider is free)."""
    page.locator(tid("reply")).filter(has_text=text).wait_for(state="attached", timeout=30_000)
    page.locator(tid("send-button")).wait_for(state="attached", timeout=30_000)


def badge_is(page, text: str, timeout: float = 30_000) -> None:
    page.wait_for_function(
        "t => document.querySelector('[data-testid=ralph-badge]').textContent === t",
        arg=text,
        timeout=timeout,
    )


def test_empty_state_says_what_ralph_does_and_how_to_start(page):
    empty = page.locator(".ralph-empty")
    assert empty.is_visible()
    text = empty.text_content()
    assert "writes the project's files" in text and "Chief" in text and "type a task" in text
    assert page.locator(tid("ralph-error")).count() == 0
    start = page.locator(tid("ralph-start"))
    start.scroll_into_view_if_needed()
    page.screenshot(path="/tmp/shots-convo/ralph-empty-1280.png")
    assert start.is_visible() and on_top(page, start)
    assert page.locator(tid("ralph-runs")).is_hidden()


def run_the_tiny_page_task(page, sim) -> None:
    """A typed task: Ralph builds the tiny page in one iteration; Chief tells of it."""
    sim.script(
        [
            Turn(
                "Writing the page, then checking it.",
                ToolCall("write_file", {"path": "index.html", "content": HTML}),
                ToolCall("read_file", {"path": "index.html"}),
                ToolCall("write_file", {"path": "style.css", "content": CSS}),
                usage=(500, 100),
            ),
            Turn(ralph_done("Built the tiny page.", ["index.html", "style.css"]), usage=(600, 40)),
            # Chief reads Ralph's post-build note and tells the person.
            Turn("Ralph built the tiny page."),
        ]
    )
    page.fill(tid("ralph-task-input"), "Build a tiny page with a heading.")
    page.click(tid("ralph-start"))
    badge_is(page, "✓ DONE")
    wait_chief(page, "Ralph built the tiny page.")


@pytest.fixture
def first_run(page, sim) -> None:
    """Ralph's first run is done (now, if the test that runs it has not run)."""
    if not page.locator(tid("ralph-run")).count():
        run_the_tiny_page_task(page, sim)


def start_then_stop_a_second_run(page, sim) -> None:
    """Chief sends Ralph a second task; he is stopped in its second iteration."""
    asked = len(sim.chat_requests)
    broken = HTML.replace("</body>", '<script src="missing.js"></script></body>')
    sim.script(
        [
            Turn(
                "Adding a script tag.",
                ToolCall("write_file", {"path": "index.html", "content": broken}),
                usage=(400, 80),
            ),
            Turn(ralph_done("Added the script.", ["index.html"]), usage=(450, 30)),
            # Iteration 2 (the checks failed): a slow call, stopped while it waits.
            Turn("Fixing the script path.", ttfb=20),
        ]
    )
    out = run_async(
        page,
        """
        from wiggum.web.app import APP
        await APP.coordinator.send_to_ralph("Add a script to the tiny page.")
        """,
    )
    assert "started" in out
    try:
        page.wait_for_selector(f'{tid("ralph-iteration")}[data-iteration="2"]', timeout=30_000)
    except Exception:
        print(
            run_async(
                page,
                """
            from wiggum.web.app import APP
            [(r.get("kind"), r.get("i"), r.get("name"), (r.get("text") or "")[:30]) for r in (e.to_record() for e in APP.ralph_transcript.events)]
            """,
            )
        )
        print([(r.status, r.turn and r.turn.text[:20]) for r in sim.chat_requests])
        raise
    wait_requests(sim, asked + 3, timeout=30, page=page)  # iteration 2's slow call is out (20 s)
    page.click(tid("ralph-stop"))
    badge_is(page, "■ STOPPED")


def resume_the_stopped_run(page, sim) -> int:
    """Resume: Ralph fixes the page and finishes; the chat requests made before it."""
    sim.script(
        [
            Turn(
                "Fixing the script path.",
                ToolCall("write_file", {"path": "index.html", "content": HTML}),
                usage=(300, 50),
            ),
            Turn(ralph_done("Fixed the page.", ["index.html"]), usage=(320, 20)),
            Turn("Ralph fixed the page."),
        ]
    )
    calls_before = len(sim.chat_requests)
    page.click(tid("ralph-resume-button"))
    badge_is(page, "✓ DONE")
    wait_chief(page, "Ralph fixed the page.")
    return calls_before


@pytest.fixture
def resumed_run(page, sim, first_run) -> None:
    """The second run stopped and resumed to its end (now, if that test has not run)."""
    if page.locator(tid("ralph-run")).count() < 2:
        start_then_stop_a_second_run(page, sim)
        resume_the_stopped_run(page, sim)


def test_a_typed_task_runs_and_the_transcript_is_in_event_order(page, sim):
    run_the_tiny_page_task(page, sim)
    it1 = page.locator(f'{tid("ralph-iteration")}[data-iteration="1"]').last
    order = it1.locator(".ralph-iter-body > *").evaluate_all(
        "els => els.map(e => e.dataset.testid + (e.dataset.tool ? ':' + e.dataset.tool : ''))"
    )
    # The simulator's order: the intent text, then each call in turn, then the checks.
    assert order[:5] == [
        "ralph-intent",
        "ralph-action:write_file",
        "ralph-action:read_file",
        "ralph-action:write_file",
        "ralph-gates",
    ], order
    read = it1.locator(f'{tid("ralph-action")}[data-tool="read_file"]')
    result = read.locator(tid("ralph-action-result"))
    assert result.is_visible() and "<title>Tiny" in result.text_content()
    # The result sits beneath its call.
    below = read.evaluate(
        """d => d.querySelector('.action-out').getBoundingClientRect().top >=
                d.querySelector('.action-name').getBoundingClientRect().bottom - 1"""
    )
    assert below
    assert it1.locator(tid("ralph-iteration-usage")).text_content().startswith("1,240 tokens")
    runs = page.locator(tid("ralph-run"))
    assert runs.count() == 1
    row = runs.first.text_content()
    assert "Finished" in row and "1 iteration" in row and "2 files changed" in row
    assert "index.html" in row and "style.css" in row
    summary = page.locator(tid("ralph-summary-usage")).text_content()
    assert summary.startswith("1 iteration · 1,240 tokens"), summary
    assert page.locator(".ralph-empty").is_hidden()
    # His model bar has a context meter too: his latest call's 640 tokens
    # (600 sent, 40 back) of gpt-4o-mini's window, and his run's cost.
    meter = page.locator(tid("context-meter-ralph"))
    assert meter.is_visible() and on_top(page, meter)
    text = page.locator(tid("meter-text-ralph")).text_content()
    assert text.startswith("Context 640 / 128,000 tokens · $") and text.endswith(" spent"), text
    assert abs(float(meter.evaluate("m => m.value")) - 640 / 128_000) < 1e-6


def test_stop_then_resume_continues_and_both_runs_are_listed(page, sim, first_run):
    start_then_stop_a_second_run(page, sim)
    banner = page.locator(tid("ralph-resume"))
    banner.wait_for(state="visible", timeout=10_000)
    assert "up to iteration 2" in banner.text_content()
    button = page.locator(tid("ralph-resume-button"))
    assert button.text_content() == "Resume" and on_top(page, button)
    runs = page.locator(tid("ralph-run"))
    assert runs.count() == 2
    assert "Stopped" in runs.nth(0).text_content()  # the current run on top
    assert "Finished" in runs.nth(1).text_content()

    calls_before = resume_the_stopped_run(page, sim)
    resumed = page.locator(tid("ralph-line")).filter(has_text="Resumed the run.")
    assert resumed.count() == 1
    # It went on from iteration 2, not from the start.
    assert len(sim.chat_requests) == calls_before + 3  # Ralph's two calls, Chief's note
    latest = page.locator(tid("ralph-iteration")).last
    assert latest.get_attribute("data-iteration") == "2"
    assert runs.count() == 2  # a resumed run keeps its row
    assert "Finished" in runs.nth(0).text_content() and "2 iterations" in runs.nth(0).text_content()
    assert page.locator(tid("ralph-summary-usage")).text_content().startswith("2 iterations · ")
    assert "Finished" in runs.nth(1).text_content()
    # The first run's end stays in the transcript when the next one starts.
    ends = page.locator(tid("ralph-run-end"))
    assert ends.count() == 3 and ends.first.text_content().startswith("Run complete")
    page.screenshot(path="/tmp/shots-convo/ralph-runs-1280.png")


def test_his_meter_comes_back_after_a_reload(page, resumed_run):
    text = page.locator(tid("meter-text-ralph")).text_content()
    # His latest call was the resumed run's last: 320 sent, 20 back.
    assert text.startswith("Context 340 / 128,000 tokens · $"), text
    open_app(page, page.url, reload=True)
    page.wait_for_selector(MOUNTED, timeout=30_000)
    page.click(tid("tab-ralph"))
    page.wait_for_function(
        "t => document.querySelector('[data-testid=meter-text-ralph]')?.textContent === t",
        arg=text,
        timeout=30_000,
    )
    assert page.locator(tid("context-meter-ralph")).is_visible()


@pytest.mark.parametrize("size", [(1280, 800), (1920, 1080), (390, 844)])
def test_screenshots(page, size, first_run):
    width, height = size
    set_size(page, width, height)
    runs = page.locator(tid("ralph-runs"))
    runs.scroll_into_view_if_needed()
    page.screenshot(path=f"/tmp/shots-convo/ralph-runs-{width}x{height}.png")
    bar = page.locator(tid("model-bar-ralph"))
    bar.scroll_into_view_if_needed()
    page.screenshot(path=f"/tmp/shots-convo/ralph-model-bar-{width}x{height}.png")
    box = bar.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    runs.screenshot(path=f"/tmp/shots-convo/ralph-runs-list-{width}x{height}.png")
    box = runs.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
