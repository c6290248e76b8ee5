"""Ralph's spending cap and Continue, in Chromium: the forecast before his first reply,
the warning at 80 % in his status line, the stop at the cap, Continue with a raised
cap and a note, and Continue after the iteration limit.

One booted page and one simulator for the module; each test sets the settings it
needs and starts its own run, so each passes alone.  The simulator reports every
call of Ralph's as 8,000 prompt and 300 reply tokens (his first context is about
2,200 by the preflight's estimate, so the reported figure is what the cap checks):
with a cap of 41,500 tokens five calls fit, the fifth brings him to 80 %, and the
sixth is not made.  Screenshots go to /tmp/shots-budget/ at 1280x800 and 390x844.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from wiggum_e2e import (
    MOUNTED,
    booted_page,
    configure,
    on_top,
    open_settings,
    run_async,
    save_settings,
    set_size,
    settle_chief,
    tid,
)

from tests.sim import ToolCall, Turn

pytestmark = pytest.mark.e2e

KEY = "sk-e2e-SECRET-budget"
#: Priced in the registry, so the forecast has a sum of money.
MODEL = "gpt-4o-mini"
SHOTS = Path("/tmp/shots-budget")
USAGE = (8000, 300)
PER_CALL = sum(USAGE)
CAP = 5 * PER_CALL
HTML = (
    '<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8">'
    '<meta name="viewport" content="width=device-width, initial-scale=1"><title>Cap</title>'
    "</head>\n<body><h1>Cap</h1></body>\n</html>\n"
)
DONE = json.dumps({"status": "complete", "summary": "Done.", "files_created": ["index.html"]})
#: His answer to the reflection call at the end of a run that did not stop at the cap.
REFLECTION = json.dumps({"worked": ["Writing whole files."], "failed": [], "try_next": []})
#: A page whose stylesheet is missing: the checks fail when he says he is done.
BROKEN = HTML.replace("</head>", '<link rel="stylesheet" href="missing.css"></head>')


@pytest.fixture(scope="module")
def page(browser, base_url, sim):
    with booted_page(browser, base_url) as p:
        set_size(p, 1280, 800)
        p.wait_for_selector(MOUNTED, timeout=30_000)
        p.click(tid("tab-ralph"))  # his tab drawn once before the first run
        configure(p, sim, KEY, model=MODEL, reflect=True)
        yield p


def at_rest(page, sim) -> None:
    """Chief idle on his tab, nothing left scripted, the page at its wide size."""
    set_size(page, 1280, 800)
    page.click(tid("tab-chief"))
    settle_chief(page)
    sim.drop_pending()


@pytest.fixture(autouse=True)
def each_test_alone(page, sim):
    at_rest(page, sim)
    yield
    sim.drop_pending()


def ralph_settings(page, *, iterations: int = 20, cap_tokens: int | str = "") -> None:
    open_settings(page)
    page.fill(tid("ralph-max-iterations"), str(iterations))
    page.fill(tid("ralph-cap-tokens"), str(cap_tokens))
    save_settings(page)


def ralph_calls(sim) -> int:
    """Ralph's calls so far (his context opens with the iteration's heading; Chief's does not)."""
    return sum("# Iteration " in json.dumps(r.json) for r in sim.chat_requests)


def write(n: int, **options) -> Turn:
    return Turn(
        ToolCall("write_file", {"path": f"p{n}.html", "content": HTML}), usage=USAGE, **options
    )


def start(page, task: str) -> None:
    page.click(tid("tab-ralph"))
    out = run_async(
        page,
        f"""
        from wiggum.web.app import APP
        await APP.project.ralph.start_task({task!r})
        """,
    )
    assert "Error" not in str(out), out


def chief_told(page, text: str) -> None:
    """Chief's turn on Ralph's news has come: the provider is free again."""
    page.locator(tid("reply")).filter(has_text=text).last.wait_for(state="attached", timeout=60_000)
    page.click(tid("tab-chief"))
    settle_chief(page)


def page_then_done(page: str, told: str) -> list[Turn]:
    """His turns when he writes ``page`` as index.html and says he is done, then Chief's."""
    write_it = Turn(ToolCall("write_file", {"path": "index.html", "content": page}), usage=USAGE)
    return [write_it, Turn(DONE, usage=USAGE), Turn(REFLECTION, usage=USAGE), Turn(told)]


def go_on(page, sim, told: str, **fields: str) -> None:
    """Continue with the form's ``fields`` (test id suffix -> text) until he finishes."""
    at_rest(page, sim)
    sim.script(page_then_done(HTML, told))
    page.click(tid("tab-ralph"))
    for name, text in fields.items():
        page.fill(tid(f"ralph-continue-{name}"), text)
    assert on_top(page, tid("ralph-continue-button"), scroll=True)
    page.click(tid("ralph-continue-button"))
    badge = "document.querySelector('[data-testid=ralph-badge]')?.textContent === '✓ DONE'"
    page.wait_for_function(badge, timeout=60_000)
    chief_told(page, told)


def stop_at_the_cap(page, sim, note_turn: str, *, slow_fifth: float = 0.0) -> None:
    ralph_settings(page, cap_tokens=CAP)
    turns = [write(1, ttfb=1.5), write(2), write(3), write(4), write(5, ttfb=slow_fifth)]
    # No sixth turn: the sixth call would pass the cap, and no reflection call fits either.
    sim.script([*turns, Turn(note_turn)])
    start(page, "Build five pages.")


def test_the_forecast_shows_before_his_first_reply(page, sim):
    before = ralph_calls(sim)
    stop_at_the_cap(page, sim, "Ralph stopped at the cap (forecast).")
    forecast = page.locator(tid("ralph-forecast"))
    forecast.wait_for(state="visible", timeout=20_000)
    text = forecast.text_content()
    # His first call is at most on its way (the simulator waits 1.5 s before answering it).
    assert ralph_calls(sim) - before <= 1
    assert page.locator(tid("ralph-stop")).is_visible()
    assert text.startswith("Estimate: ~") and "$" in text and "iterations" in text, text
    assert f"cap $2.00 or {CAP:,} tokens" in text, text
    chief_told(page, "Ralph stopped at the cap (forecast).")


def test_the_warning_at_eighty_percent_and_the_stop_at_the_cap(page, sim):
    calls_before = ralph_calls(sim)
    stop_at_the_cap(page, sim, "Ralph stopped at the cap (warning).", slow_fifth=3.0)
    status = page.locator(tid("ralph-status"))
    page.wait_for_function(
        "() => document.querySelector('[data-testid=ralph-status]').textContent.includes('⚠')",
        timeout=30_000,
    )
    warned = status.text_content()
    assert "⚠ 80% of the cap spent (" in warned, warned
    assert f"{4 * PER_CALL:,} of {CAP:,} tokens)" in warned, warned
    if not SHOTS.exists():
        SHOTS.mkdir()
    page.screenshot(path=f"{SHOTS}/warning-1280x800.png")
    panel = page.locator(tid("ralph-continue"))
    panel.wait_for(state="visible", timeout=30_000)
    assert status.text_content() == "Ralph stopped at the spending cap"
    assert page.locator(tid("ralph-badge")).text_content() == "● CAP"
    words = page.locator(tid("ralph-continue-text")).text_content()
    assert words.startswith(f"Ralph stopped at his cap of {CAP:,} tokens: {CAP:,} are spent"), words
    # Five calls were made; the sixth, which would have passed the cap, was not.
    assert ralph_calls(sim) - calls_before == 5
    assert page.locator(tid("ralph-continue-tokens")).input_value() == str(int(CAP * 1.5))
    chief_told(page, "Ralph stopped at the cap (warning).")


def test_continue_with_a_raised_cap_and_a_note(page, sim):
    stop_at_the_cap(page, sim, "Ralph stopped at the cap (continue).")
    page.locator(tid("ralph-continue")).wait_for(state="visible", timeout=30_000)
    chief_told(page, "Ralph stopped at the cap (continue).")
    note = "Make the heading blue."
    go_on(page, sim, "Ralph finished after the raised cap.", tokens=str(CAP * 3), note=note)
    sent = [json.dumps(r.json) for r in sim.chat_requests]
    assert any(note in s and "A note from the person" in s for s in sent)
    assert page.locator(tid("ralph-continue")).is_hidden()


def test_continue_after_the_iteration_limit(page, sim):
    ralph_settings(page, iterations=1)
    # He writes a page with a missing stylesheet and says he is done: the checks fail
    # and his one iteration ends.
    sim.script(page_then_done(BROKEN, "Ralph ran out of iterations."))
    start(page, "Build the home page.")
    page.locator(tid("ralph-continue")).wait_for(state="visible", timeout=30_000)
    assert page.locator(tid("ralph-status")).text_content() == "Ralph ran out of iterations"
    words = page.locator(tid("ralph-continue-text")).text_content()
    assert words.startswith("Ralph reached the iteration limit: Stopped after 1 iterations"), words
    assert page.locator(tid("ralph-continue-more")).input_value() == "1"
    chief_told(page, "Ralph ran out of iterations.")
    go_on(page, sim, "Ralph finished after continuing.", more="2")


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
def test_screenshots_of_the_stop_and_continue(page, sim, size):
    width, height = size
    SHOTS.mkdir(exist_ok=True)
    stop_at_the_cap(page, sim, f"Ralph stopped at the cap ({width}).")
    panel = page.locator(tid("ralph-continue"))
    panel.wait_for(state="visible", timeout=30_000)
    chief_told(page, f"Ralph stopped at the cap ({width}).")
    page.click(tid("tab-ralph"))
    set_size(page, width, height)
    panel.scroll_into_view_if_needed()
    page.screenshot(path=f"{SHOTS}/continue-{width}x{height}.png")
    box = panel.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    assert on_top(page, tid("ralph-continue-button"), scroll=True)
    assert on_top(page, tid("ralph-continue-note"), scroll=True)
    page.click(tid("ralph-fresh"))
    assert on_top(page, tid("ralph-fresh-yes"), scroll=True)
    page.screenshot(path=f"{SHOTS}/fresh-{width}x{height}.png")
    page.click(tid("ralph-fresh-no"))
    # Where the limit and the default cap are set: Settings, "Ralph's runs".
    open_settings(page)
    reflect = page.locator(tid("ralph-reflect"))
    reflect.scroll_into_view_if_needed()
    assert on_top(page, tid("ralph-cap-usd"), scroll=True)
    page.screenshot(path=f"{SHOTS}/settings-{width}x{height}.png")
    page.keyboard.press("Escape")
    page.locator(tid("settings-dialog")).wait_for(state="hidden")
    set_size(page, 1280, 800)
