"""Plan -> Build in Chromium: the plan card's Build this, "Chief is writing the
plan…" while the plan streams, and Ralph's approval pause (Approve / Refuse).

One booted page and one simulator for the module; every test brings Chief to
rest, scripts the turns it needs, and opens a project of its own, so each
passes alone.  Screenshots go to /tmp/shots-handoff/ at 1280x800 and 390x844.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import wiggum_e2e as e2e
from wiggum_e2e import MOUNTED, tid

from tests.sim import ToolCall, Turn

pytestmark = pytest.mark.e2e

KEY = "sk-e2e-SECRET-handoff"
SHOTS = Path("/tmp/shots-handoff")
PAGE = '<!doctype html><html lang="en"><head><title>Bakery</title></head><body></body></html>'
PLAN = "# Bakery page\n\n- The breads of the day\n- Opening hours\n- A map link\n"
LONG_PLAN = "# Bakery\n\n" + "\n".join(f"- Section {n}: the breads of the day" for n in range(40))


@pytest.fixture(scope="module")
def page(browser, base_url, sim):
    with e2e.booted_page(browser, base_url) as booted:
        booted.wait_for_selector(MOUNTED, timeout=30_000)
        e2e.configure(booted, sim, KEY)
        yield booted


NEW_PROJECT = "from wiggum.web.app import APP\nawait APP.project.create_project('Handoff')"


@pytest.fixture(autouse=True)
def fresh_project(page, sim):
    """Chief at rest, nothing scripted, and a project of the test's own."""
    sim.drop_pending()
    e2e.set_size(page, 1280, 800)
    page.click(tid("tab-chief"))
    e2e.settle_chief(page)
    e2e.run_async(page, NEW_PROJECT)
    yield
    sim.drop_pending()


def who(request) -> str:
    return (
        "ralph" if request.json["messages"][0]["content"].startswith("You are Ralph") else "chief"
    )


def ralph_finished(page) -> None:
    page.wait_for_function(
        "document.querySelector('[data-testid=ralph-badge]')?.textContent === '✓ DONE'",
        timeout=60_000,
    )
    page.locator(tid("reply")).filter(has_text="Ralph built the page.").wait_for(
        state="attached", timeout=30_000
    )


def test_build_this_hands_the_plan_to_ralph_without_chief(page, sim):
    sim.script(
        [
            Turn(ToolCall("write_plan", {"content": PLAN})),
            Turn("Here is the plan. Say **go** when it looks right."),
        ]
    )
    e2e.send(page, "A page for my bakery")
    build = page.locator(f"{tid('chief-plan')}:not([hidden]) {tid('build-plan')}").last
    build.wait_for(state="visible", timeout=20_000)
    page.locator(tid("reply")).filter(has_text="Say go").wait_for(timeout=20_000)
    mode = page.locator(tid("chief-mode"))
    assert mode.get_attribute("data-mode") == "plan"
    SHOTS.mkdir(exist_ok=True)
    for width, height in ((390, 844), (1280, 800)):  # the button and the switch on a phone too
        e2e.set_size(page, width, height)
        assert e2e.on_top(page, build, scroll=True)
        assert e2e.on_top(page, tid("mode-build"))
        page.screenshot(path=f"{SHOTS}/build-this-{width}x{height}.png")
    before = len(sim.chat_requests)
    sim.script(
        [
            Turn(ToolCall("write_file", {"path": "index.html", "content": PAGE})),
            Turn(e2e.ralph_done("Built the bakery page.", ["index.html"])),
            Turn("Ralph built the page."),
        ]
    )
    build.click()
    page.locator(tid("tab-ralph")).wait_for()
    page.wait_for_function(
        "document.querySelector('[data-testid=tab-ralph]')?.getAttribute('aria-selected') === 'true'",
        timeout=10_000,
    )
    ralph_finished(page)
    after = [who(r) for r in sim.chat_requests[before:]]
    assert after[:2] == ["ralph", "ralph"], after  # the click went to Ralph, not to Chief
    task = sim.chat_requests[before].json["messages"][1]["content"]
    assert "The breads of the day" in task and "Opening hours" in task


def test_chief_is_writing_the_plan_while_it_streams(page, sim):
    sim.script(
        [
            Turn(ToolCall("write_plan", {"content": LONG_PLAN}, chunks=40), delay=0.08),
            Turn("Saved the plan."),
        ]
    )
    e2e.send(page, "Plan my bakery page")
    activity = page.locator(tid("chief-activity")).filter(has_text="Chief is writing the plan…")
    activity.wait_for(state="visible", timeout=20_000)
    card = page.locator(f'{tid("chief-plan")}[data-drafting="true"]').last
    card.wait_for(state="visible", timeout=20_000)
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=f"{SHOTS}/writing-the-plan-1280x800.png")
    partial = card.text_content()
    assert "Section 0" in partial and "Section 39" not in partial  # drawn before it all arrived
    page.locator(tid("reply")).filter(has_text="Saved the plan.").wait_for(timeout=30_000)
    done = page.locator(f"{tid('chief-plan')}:not([hidden])").last
    assert done.get_attribute("data-drafting") is None
    assert "Section 39" in done.text_content()


def set_ask(page, value: str) -> None:
    e2e.open_settings(page)
    page.fill(tid("ask-before-changing"), value)
    e2e.save_settings(page)


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
def test_the_run_waits_for_approve_or_refuse(page, sim, size):
    width, height = size
    set_ask(page, "0")
    try:
        e2e.write_files(page, {"keep.html": "<p>mine</p>", "old.html": "<p>old</p>"})
        sim.script(
            [
                Turn(ToolCall("delete_file", {"path": "keep.html"})),
                Turn(ToolCall("delete_file", {"path": "old.html"})),
                Turn(ToolCall("write_file", {"path": "index.html", "content": PAGE})),
                Turn(e2e.ralph_done("Tidied up.", ["index.html"])),
                Turn("Ralph built the page."),
            ]
        )
        e2e.set_size(page, width, height)
        page.click(tid("tab-ralph"))
        out = e2e.run_async(
            page,
            "from wiggum.web.app import APP\nawait APP.coordinator.send_to_ralph('Tidy up.')",
        )
        assert "started" in out, out
        box = page.locator(tid("ralph-approval"))
        box.wait_for(state="visible", timeout=20_000)
        assert "Ralph wants to delete keep.html" in box.text_content()
        assert (
            page.locator(tid("ralph-status")).text_content() == "Waiting for you: Approve or Refuse"
        )
        refuse, approve = page.locator(tid("ralph-refuse")), page.locator(tid("ralph-approve"))
        assert e2e.on_top(page, refuse) and e2e.on_top(page, approve)
        frame = box.bounding_box()
        assert frame is not None and frame["x"] >= 0 and frame["x"] + frame["width"] <= width
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=f"{SHOTS}/approval-{width}x{height}.png")
        waiting = len(sim.chat_requests)
        page.wait_for_timeout(300)
        assert len(sim.chat_requests) == waiting  # the run waits for the person
        refuse.click()
        box.filter(has_text="old.html").wait_for(state="visible", timeout=20_000)
        approve.click()
        ralph_finished(page)
        kept = e2e.run_async(
            page,
            "from wiggum.web.app import APP\n"
            "[await APP.coordinator.fs.exists(p) for p in ('keep.html', 'old.html')]",
        )
        assert kept == [True, False]
        assert box.is_hidden()
    finally:
        e2e.set_size(page, 1280, 800)
        set_ask(page, "")
