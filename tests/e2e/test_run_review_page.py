"""A run read back in Chromium: its iterations beside their checkpoints and diffs,
the iteration that broke a check found from the Checks panel, and Refresh model
facts against local copies of models.dev and OpenRouter.

One booted page for the module; one scripted run of Ralph's (five iterations,
the fourth drops the home page's ``<title>``) made once by the ``run`` fixture,
which every test asks for, so each passes alone.  Screenshots go to
/tmp/shots-run-review/ at 1280x800 and 390x844.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect
from wiggum_e2e import (
    MOUNTED,
    booted_page,
    configure,
    on_top,
    open_settings,
    run_async,
    set_size,
    settle_chief,
    tid,
)

from tests.bakery_run import RUN
from tests.sim import Turn
from tests.sim.registry_sources import MODELS_DEV, OPENROUTER, RegistrySources

pytestmark = pytest.mark.e2e

KEY = "sk-e2e-SECRET-review"
SHOTS = Path("/tmp/shots-run-review")
SIZES = [(1280, 800), (390, 844)]


@pytest.fixture(scope="module")
def page(browser, base_url, sim):
    with booted_page(browser, base_url) as p:
        set_size(p, 1280, 800)
        p.wait_for_selector(MOUNTED, timeout=30_000)
        configure(p, sim, KEY, model="gpt-4o-mini")
        yield p


@pytest.fixture(scope="module")
def run(page, sim):
    """Ralph's scripted run, done, with every checkpoint in the run list."""
    settle_chief(page)
    sim.script([*RUN, Turn("Ralph built the bakery's site.")])
    out = run_async(
        page,
        """
        from wiggum.web.app import APP
        await APP.coordinator.send_to_ralph("Build the bakery's site.")
        """,
    )
    assert "started" in out, out
    page.click(tid("tab-ralph"))
    # Six iterations (the last only reports), each with its checkpoint (the last is
    # taken after the run's end).
    page.wait_for_function(
        "document.querySelectorAll('[data-testid=ralph-step][data-checkpoint]').length === 6",
        timeout=120_000,
    )
    page.locator(tid("reply")).filter(has_text="Ralph built the bakery's site.").wait_for(
        state="attached", timeout=30_000
    )
    return page


@pytest.fixture(autouse=True)
def known_state(page):
    set_size(page, 1280, 800)
    yield
    set_size(page, 1280, 800)


def step(page, n: int):
    return page.locator(f'{tid("ralph-step")}[data-iteration="{n}"]')


def test_each_iteration_sits_beside_its_checkpoint_and_opens_its_diff(run):
    page = run
    page.click(tid("tab-ralph"))
    counts = page.locator(tid("ralph-step-counts")).all_text_contents()
    # Each checkpoint holds its own iteration's files, though the first one loads git's code.
    assert counts == [
        "1 added",
        "1 added",
        "1 added",
        "1 changed",
        "1 added",
        "only his notes changed",
    ], counts
    fourth = step(page, 4)
    assert "Shorten the home page's head." in fourth.text_content()
    history = run_async(
        page,
        """
        from wiggum.web.app import APP
        h = await APP.history.history()
        [(c.id, c.author) for c in await h.list(10)]
        """,
    )
    authors = dict(history)
    assert authors[fourth.get_attribute("data-checkpoint")] == "Ralph iteration 4"
    fourth.locator(tid("ralph-step-diff")).click()
    diff = page.locator(tid("ralph-run-diff"))
    diff.wait_for(state="visible")
    file = diff.locator(tid("ralph-file-diff"))
    assert file.get_attribute("data-path") == "index.html"
    assert file.get_attribute("data-kind") == "modified"
    assert "-<title>Bakery</title>" in file.text_content()
    assert "Shorten the home page's head." in diff.text_content()
    SHOTS.mkdir(exist_ok=True)
    for width, height in SIZES:
        set_size(page, width, height)
        button = fourth.locator(tid("ralph-step-diff"))
        assert on_top(page, button, scroll=True), (width, "Diff is covered")
        assert on_top(page, fourth.locator(tid("ralph-step-restore"))), (width, "Revert")
        diff.scroll_into_view_if_needed()
        page.screenshot(path=f"{SHOTS}/run-list-{width}x{height}.png")
        box = diff.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 1


def checks_panel(page):
    """The Checks panel under the preview (the Preview sub-tab on a phone)."""
    page.click(tid("tab-ralph"))
    preview_tab = page.locator(tid("ws-tab-preview"))
    if preview_tab.is_visible():
        preview_tab.click()
    return page.locator(f"#panel-ralph {tid('preview-checks')}")


def test_the_iteration_that_broke_a_check_is_found_from_the_checks_panel(run, sim):
    page = run
    checks = checks_panel(page)
    checks.locator(tid("checks-run")).click()
    # The round ends before the search starts: its report redraws the panel.
    # (It loads the page in a frame and listens 1.5 s past its load: "Checking…"
    # is seen first, then its findings.)
    summary = checks.locator(tid("checks-summary"))
    expect(summary).to_have_text("Checking…", timeout=10_000)
    # six checks: the file checks, the overflow and errors on load, accessibility (axe-core)
    expect(summary).to_have_text("1 problem in 1 of 6 checks.", timeout=30_000)
    issue = checks.locator(tid("checks-issue")).filter(has_text="no <title>")
    calls = len(sim.chat_requests)
    issue.locator(tid("checks-bisect")).click()
    answer = checks.locator(f'{tid("checks-bisect")}[data-verdict="found"]')
    answer.wait_for(timeout=30_000)
    text = answer.locator(tid("checks-bisect-text")).text_content()
    assert "Broken by Ralph's iteration 4" in text, text
    intent = answer.locator(tid("checks-bisect-intent")).text_content()
    assert intent == "Shorten the home page's head."
    file = answer.locator(tid("ralph-file-diff"))
    assert file.get_attribute("data-path") == "index.html"
    assert "-<title>Bakery</title>" in file.text_content()
    assert len(sim.chat_requests) == calls  # no model was asked
    for width, height in SIZES:
        set_size(page, width, height)
        checks = checks_panel(page)
        button = checks.locator(tid("checks-issue")).filter(has_text="no <title>")
        assert on_top(page, button.locator(tid("checks-bisect")), scroll=True), width
        answer.locator(tid("checks-bisect-text")).scroll_into_view_if_needed()
        page.screenshot(path=f"{SHOTS}/bisect-{width}x{height}.png")


def test_a_check_that_passes_at_every_checkpoint_is_said(run):
    page = run
    # A check that finds nothing anywhere: nothing to search for, and it says so.
    answer = run_async(
        page,
        """
        from wiggum.web.app import APP
        from wiggum.session.run_review import find_breaking
        found = await find_breaking(APP.history, lambda fs: [])
        [found.verdict, found.text]
        """,
    )
    assert answer[0] == "passes-now" and "passes at the last checkpoint" in answer[1]


@pytest.fixture(scope="module")
def sources():
    with RegistrySources() as s:
        yield s


def point_facts_at(page, sources: RegistrySources) -> None:
    routes = {
        "models.dev": sources.base_url + MODELS_DEV,
        "OpenRouter": sources.base_url + OPENROUTER,
    }
    run_async(
        page,
        f"""
        from dataclasses import replace
        from wiggum.web.app import APP
        routes = {routes!r}
        APP.model_facts.sources = tuple(replace(s, url=routes[s.name]) for s in APP.model_facts.sources)
        True
        """,
    )


def cost_in(page, model: str) -> float:
    return run_async(
        page,
        f"""
        from wiggum.llm.registry import lookup_model
        lookup_model({model!r}).cost.input_per_token
        """,
    )


def refresh(page) -> str:
    open_settings(page)
    result = page.locator(tid("facts-result"))
    button = page.locator(tid("refresh-facts"))
    button.scroll_into_view_if_needed()
    before = result.text_content() if result.is_visible() else ""
    button.click()
    page.wait_for_function(
        """before => { const r = document.querySelector('[data-testid=facts-result]');
                       return r && !r.hidden && !r.textContent.startsWith('Fetching')
                              && r.textContent !== before; }""",
        arg=before,
        timeout=30_000,
    )
    return result.text_content()


def test_refresh_model_facts_from_models_dev_and_openrouter(page, sources):
    sources.payload(MODELS_DEV)["openai"]["models"]["gpt-4o"]["cost"]["input"] = 2.0
    point_facts_at(page, sources)
    assert cost_in(page, "gpt-4o") == 2.5e-06
    text = refresh(page)
    assert text.startswith("Refreshed: 5 models from models.dev and 3 models from OpenRouter"), text
    assert page.locator(tid("facts-result")).get_attribute("data-ok") == "true"
    status = page.locator(tid("facts-status")).text_content()
    assert status.startswith("Built-in facts from 2026-08-18"), status
    assert "OpenRouter fetched" in status
    assert cost_in(page, "gpt-4o") == 2.0e-06
    kept = run_async(
        page,
        """
        from wiggum.web.app import APP
        sorted(await APP.storage.get_meta("model-facts"))
        """,
    )
    assert kept == ["OpenRouter", "models.dev"]
    SHOTS.mkdir(exist_ok=True)
    for width, height in SIZES:
        set_size(page, width, height)
        assert on_top(page, tid("refresh-facts"), scroll=True), width
        page.screenshot(path=f"{SHOTS}/facts-{width}x{height}.png")
    page.keyboard.press("Escape")

    # OpenRouter answers without CORS headers: the browser refuses it, said in words;
    # what OpenRouter gave before stays in use.
    sources.faults[OPENROUTER] = "no-cors"
    sources.payload(MODELS_DEV)["openai"]["models"]["gpt-4o"]["cost"]["input"] = 1.0
    text = refresh(page)
    assert "Refreshed: 5 models from models.dev" in text, text
    assert "OpenRouter: it did not answer (offline, or it refuses calls from web pages)" in text
    assert page.locator(tid("facts-result")).get_attribute("data-ok") == "false"
    assert cost_in(page, "gpt-4o") == 1.0e-06
    assert (
        run_async(
            page,
            """
            from wiggum.llm.registry import lookup_model
            lookup_model("claude-sonnet-4", "openrouter").capability.context_window
            """,
        )
        == 1000000
    )
    page.keyboard.press("Escape")
    sources.faults.clear()
