"""The workspace's words and first screen as a person meets them, in Chromium.

What is held here: the first screen's main path (the key's link, Test
connection, the model row) fits 1280x800 without scrolling, the message box
waits for a provider saying why, a setup refusal is said on the card and no
banner covers it; the chip says the provider is ready after a passed test;
a failed reply says its error once; a run's end is said once per place; the
meters say what they measure; the Projects dialog opened right after a switch
in the header marks the project that is open, and deleting while it refreshes
goes through quietly; an imported project's Ralph tab does not show a run that
was not here; at 390 px the project's name and the model are whole; axe-core
finds no serious or critical violation on Wiggum's own screens (the first
screen, the chat, Ralph's tab, History, Publish, Settings, Projects); and a journey
through the app leaves nothing of Wiggum's own in the console.

One booted page and one simulator for the module (the journey has a page of
its own: it starts from a first visit); each test brings the page to the
state it needs, so each passes alone.  Screenshots go to /tmp/polish-shots/.
"""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

import pytest
from wiggum_e2e import (
    MOUNTED,
    booted_page,
    configure,
    console_line,
    is_local_probe,
    on_top,
    open_app,
    open_projects,
    open_publish,
    open_settings,
    poll,
    ralph_builds,
    ralph_done,
    run_async,
    run_python,
    save_settings,
    send,
    serious_violations,
    set_size,
    settle_chief,
    tid,
    type_at_the_end,
    wait_reply,
    wait_requests,
)
from wiggum_e2e import (
    open_history as show_history,
)

from tests.sim import ToolCall, Turn, http_error

pytestmark = pytest.mark.e2e

KEY = "sk-e2e-SECRET-words"
SHOTS = Path("/tmp/polish-shots")
PAGE = "<!DOCTYPE html><html><head><title>Tea</title></head><body><h1>Tea</h1></body></html>"
SIZES = ((1280, 800), (390, 844), (1920, 1080))


def record_console(page) -> list[str]:
    lines: list[str] = []
    page.on("console", lambda m: lines.append(console_line(m)))
    page.on("pageerror", lambda e: lines.append(f"[pageerror] {e}"))
    return lines


@pytest.fixture(scope="module")
def page(browser, base_url):
    with booted_page(browser, base_url, mounted=True) as p:
        p.console_lines = record_console(p)
        set_size(p, 1280, 800)
        yield p


def chip_ready(page) -> bool:
    return page.locator(f"{tid('active-provider')} .chip-model").count() > 0


def no_reflection(page) -> None:
    """Ralph's look back at a run stays off (it would take a turn scripted for Chief)."""
    open_settings(page)
    page.set_checked(tid("ralph-reflect"), False)
    save_settings(page)


@pytest.fixture
def provider(page, sim):
    """The simulator is the provider, Ralph's look back off (set up now unless it is)."""
    set_size(page, 1280, 800)
    if not chip_ready(page):
        configure(page, sim, KEY)
    elif not getattr(page, "configured", False):
        no_reflection(page)
    page.configured = True
    page.click(tid("tab-chief"))
    settle_chief(page)
    sim.drop_pending()
    yield
    sim.drop_pending()


def no_provider(page) -> None:
    """Back to a first visit's settings: no provider works."""
    run_async(
        page,
        """
        from wiggum.web.app import APP
        from wiggum.ui.settings import Settings
        await APP.settings_store.save(Settings())
        True
        """,
    )
    page.locator(tid("onboarding")).wait_for(state="visible")


def shoot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width, height in SIZES:
        set_size(page, width, height)
        page.screenshot(path=str(SHOTS / f"{name}-{width}.png"))
    set_size(page, 1280, 800)


def text_fits(page, selector: str) -> bool:
    """Whether the chosen option's whole text fits the closed list ``selector``
    (its padding and the arrow's room taken off)."""
    return page.eval_on_selector(
        selector,
        """s => { const cs = getComputedStyle(s);
                  const ctx = document.createElement("canvas").getContext("2d");
                  ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
                  const text = s.options[s.selectedIndex].text;
                  const room = s.clientWidth - parseFloat(cs.paddingLeft)
                      - parseFloat(cs.paddingRight) - 16;
                  return ctx.measureText(text).width <= room; }""",
    )


# ----------------------------------------------------------------- the first screen


def test_the_first_screen_fits_1280x800_and_waits_for_a_provider(page, sim):
    if chip_ready(page):
        no_provider(page)
    set_size(page, 1280, 800)
    card = page.locator(tid("onboarding"))
    card.wait_for(state="visible")
    assert "finish setup" in page.text_content(tid("active-provider"))
    # The main path without scrolling: the key, where to make one, Test connection.
    for name in ("onb-provider", "onb-key", "onb-key-link", "onb-test"):
        assert on_top(page, tid(name)), name
    assert page.evaluate("() => document.querySelector('.messages-scroll').scrollTop") == 0
    # The message box waits, saying why; what was typed in it stays.
    box = page.locator(tid("chat-input"))
    assert box.is_disabled() and "Connect a provider above" in box.get_attribute("placeholder")
    assert page.locator(tid("send-button")).is_hidden()
    # A message that still comes (queued before the app had loaded) is refused on the
    # card in front of the person, not by a banner over it pointing to Settings.
    run_python(page, "from wiggum.web.app import APP\nAPP.shell.chief.send('hello', [])")
    notice = page.locator(tid("onb-notice"))
    notice.wait_for(state="visible")
    assert "this form" in notice.text_content() and "Settings" not in notice.text_content()
    assert page.locator(tid("error-banner")).is_hidden()
    assert on_top(page, tid("onb-test"))
    shoot(page, "onboarding")
    assert serious_violations(page) == []

    # A passed test: the chip says the provider is ready; the model row is in view.
    page.select_option(tid("onb-provider"), "openai")
    page.fill(tid("onb-base-url"), sim.base_url + "/v1")
    page.fill(tid("onb-key"), KEY)
    page.click(tid("onb-test"))
    page.locator(tid("onb-model")).wait_for(state="visible", timeout=30_000)
    chip = page.text_content(tid("active-provider"))
    assert chip == "OpenAI: ready", chip
    assert page.locator(tid("onb-notice")).is_hidden()  # what it asked for is done
    for name in ("onb-result", "onb-model", "onb-start"):
        assert on_top(page, tid(name)), name
    shoot(page, "onboarding-tested")
    # A change after the test asks for a new one: the chip says so again.
    page.fill(tid("onb-key"), KEY + "x")
    page.locator(tid("active-provider")).filter(has_text="finish setup").wait_for()
    page.fill(tid("onb-key"), KEY)
    page.click(tid("onb-test"))
    page.locator(tid("onb-model")).wait_for(state="visible", timeout=30_000)
    page.click(tid("onb-start"))
    card.wait_for(state="hidden")
    # Set up: the box is live, the card's line and any setup banner are gone.
    assert box.is_enabled() and box.get_attribute("placeholder") == "Message Chief…"
    assert "gpt-4o-mini" in page.text_content(tid("active-provider"))
    assert page.locator(tid("error-banner")).is_hidden()


# ----------------------------------------------------------------- said once


def test_a_failed_reply_says_its_error_once(page, sim, provider):
    sim.script([http_error(401)])
    send(page, "Plan a tea shop page")
    reply = wait_reply(page, "error", timeout=30_000)
    said = reply.locator(tid("message-error"))
    said.wait_for(state="visible")
    assert "rejected the API key" in said.text_content()
    assert page.locator(tid("error-banner")).is_hidden()
    body = page.locator("#panel-chief").inner_text()
    assert body.count("rejected the API key") == 1, body
    # its fix is beside it, and Retry on the reply
    assert reply.locator(tid("message-error-settings")).is_visible()
    assert reply.locator(tid("retry-button")).is_visible()
    shoot(page, "failed-reply")


@pytest.fixture
def built(page, sim, provider):
    """Ralph has built the tea page in the open project (now, unless he has)."""
    if page.locator(tid("ralph-summary")).count() and page.locator(tid("ralph-run")).count():
        return
    page.click(tid("tab-chief"))
    ralph_builds(
        page,
        sim,
        "Build a tea page.",
        "A tea page",
        [
            Turn(ToolCall("write_file", {"path": "index.html", "content": PAGE}), usage=(900, 60)),
            Turn(ralph_done("Built the tea page.", ["index.html"]), usage=(950, 20)),
        ],
    )


def test_a_run_says_how_it_ended_once_per_place(page, built):
    page.click(tid("tab-ralph"))
    panel = page.locator("#panel-ralph")
    page.locator(tid("ralph-summary")).wait_for(state="visible")
    text = panel.inner_text()
    assert text.count("Ralph finished") == 1, text  # the status line
    assert page.locator(tid("ralph-run-end")).last.text_content().startswith("Run complete")
    assert "What Ralph built" in page.text_content(tid("ralph-summary"))
    shoot(page, "ralph-ended")


def test_the_meters_say_context_and_spend(page, built):
    page.click(tid("tab-chief"))
    chief = page.text_content(tid("meter-text-chief"))
    assert re.fullmatch(r"Context [\d,]+ / [\d,]+ tokens · \$[\d.]+ spent", chief), chief
    usage = page.locator(f"{tid('reply')}[data-status=complete] {tid('usage')}").last
    assert re.fullmatch(r"[\d,]+ tokens · \$[\d.]+", usage.text_content()), usage.text_content()
    page.click(tid("tab-ralph"))
    ralph = page.text_content(tid("meter-text-ralph"))
    assert re.fullmatch(r"Context [\d,]+ / [\d,]+ tokens · \$[\d.]+ spent", ralph), ralph
    total = page.text_content(tid("ralph-total"))
    assert total.startswith("This run: ") and "tokens" in total, total


def test_a_stopped_run_says_so_once(page, sim, built):
    asked = len(sim.chat_requests)
    sim.script([Turn("Adding the hours.", ttfb=20)])  # a slow call, stopped while it waits
    out = run_async(
        page,
        """
        from wiggum.web.app import APP
        await APP.coordinator.send_to_ralph("Add the opening hours.")
        """,
    )
    assert "started" in out, out
    page.click(tid("tab-ralph"))
    wait_requests(sim, asked + 1, timeout=30, page=page)
    page.click(tid("ralph-stop"))
    page.wait_for_function(
        "document.querySelector('[data-testid=ralph-badge]')?.textContent === '■ STOPPED'",
        timeout=30_000,
    )
    page.locator(tid("ralph-resume")).wait_for(state="visible")
    text = page.locator("#panel-ralph").inner_text()
    assert text.count("was stopped") == 1, text  # the status line
    assert page.locator(tid("ralph-run-end")).last.text_content().startswith("Run stopped by you")
    assert "Resume goes on" in page.text_content(tid("ralph-resume"))
    # "This run" is this run's: none came back for it, so not the run before's total
    assert page.text_content(tid("ralph-total")) == ""
    shoot(page, "ralph-stopped")


# ----------------------------------------------------------------- projects


def current_row(page) -> str | None:
    return page.evaluate(
        "() => document.querySelector('[data-testid=project-row].current')?.dataset.projectId"
    )


def app_project(page) -> str:
    return run_python(page, "from wiggum.web.app import APP\nAPP.project_id")


def test_the_projects_dialog_right_after_a_header_switch_marks_the_open_project(page, provider):
    first = app_project(page)
    run_async(
        page,
        """
        from wiggum.web.app import APP
        await APP.create_project("Switch target")
        True
        """,
    )
    poll(lambda: app_project(page), lambda p: p != first, "the new project never opened")
    fresh = page.text_content(tid("meter-text-chief"))
    assert "nothing spent yet" in fresh, fresh  # a project without a reply has spent nothing
    page.select_option(tid("project-switcher"), first)
    page.click(tid("project-manage"))  # at once, while the switch is under way
    page.locator(tid("projects-dialog")).wait_for(state="visible")
    poll(
        lambda: (app_project(page), current_row(page)),
        lambda t: t == (first, first),
        "the dialog did not mark the project that is open",
    )
    assert page.locator(f"{tid('project-row')}.current").count() == 1
    opened = page.locator(f'{tid("project-row")}[data-project-id="{first}"] {tid("project-open")}')
    assert opened.text_content() == "Open (current)" and opened.is_disabled()
    page.keyboard.press("Escape")


def test_deleting_while_the_dialog_refreshes_goes_through_quietly(page, provider):
    first = app_project(page)
    name = "Delete me"
    run_async(
        page,
        f"""
        from wiggum.web.app import APP
        await APP.create_project({name!r})
        True
        """,
    )
    poll(lambda: app_project(page), lambda p: p != first, "the new project never opened")
    doomed = app_project(page)
    page.select_option(tid("project-switcher"), first)
    poll(lambda: app_project(page), lambda p: p == first, "the switch back never ended")
    dialog = open_projects(page)
    row = page.locator(f'{tid("project-row")}[data-project-id="{doomed}"]')
    row.locator(tid("project-delete")).click()
    page.click(tid("project-delete-confirm"))
    # the list is drawn again while the project's files go
    run_python(
        page,
        "from wiggum.web.app import APP\nfrom wiggum.web.dom import spawn\n"
        "spawn(APP.switcher.manager.refresh(), what='list projects')",
    )
    row.wait_for(state="detached", timeout=20_000)
    page.wait_for_timeout(300)  # the refresh started during the delete ends
    assert page.locator(tid("projects-error")).is_hidden()
    assert "went wrong" not in dialog.inner_text()
    assert page.locator(tid("error-banner")).is_hidden()
    page.keyboard.press("Escape")


def test_an_imported_projects_ralph_tab_shows_no_run_that_was_not_here(page, built):
    data = bytes.fromhex(
        run_async(
            page,
            """
            from wiggum.web.app import APP
            from wiggum.project.archive import export_project
            (await export_project(APP.coordinator.fs)).hex()
            """,
        )
    )
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    assert ".chief/status.txt" in names and "index.html" in names, names
    open_projects(page)
    page.set_input_files(
        tid("import-files"),
        files=[{"name": "tea-copy.zip", "mimeType": "application/zip", "buffer": data}],
    )
    page.locator(tid("import-result")).wait_for(state="visible", timeout=30_000)
    page.keyboard.press("Escape")
    page.click(tid("tab-ralph"))
    status = page.locator(tid("ralph-status"))
    status.filter(has_text="came with this project").wait_for(timeout=20_000)
    assert page.text_content(tid("ralph-badge")) == ""
    assert page.text_content(tid("ralph-total")) == ""
    # nor his meter: what the notes spent was not spent here
    assert page.text_content(tid("meter-text-ralph")) == ""
    # the task box reads as a box to type in, not as grey text
    task = page.locator(tid("ralph-task-input"))
    if task.is_visible():
        border = task.evaluate("el => getComputedStyle(el).borderTopWidth")
        assert border not in ("0px", ""), border
    shoot(page, "imported-ralph")


# ----------------------------------------------------------------- 390 px


def test_at_390_px_the_projects_name_and_the_model_are_whole(page, provider):
    set_size(page, 390, 844)
    page.click(tid("tab-chief"))
    for selector in (tid("project-switcher"), tid("model-switcher-chief")):
        assert page.locator(selector).is_visible(), selector
        assert text_fits(page, selector), selector
        whole = page.eval_on_selector(selector, "s => s.options[s.selectedIndex].text")
        assert page.get_attribute(selector, "title") == whole
    set_size(page, 1280, 800)
    shoot(page, "header")


# ----------------------------------------------------------------- accessibility


def open_history(page) -> None:
    """Ralph's History pane in front, listing its checkpoints."""
    show_history(page)
    page.locator(tid("history-item")).first.wait_for(timeout=20_000)


def test_axe_finds_no_serious_violation_on_wiggums_screens(page, sim, built):
    page.click(tid("tab-chief"))
    found = {"chat": serious_violations(page)}
    page.click(tid("tab-ralph"))
    found["ralph"] = serious_violations(page)
    open_history(page)
    found["history"] = serious_violations(page)
    open_publish(page)
    found["publish"] = serious_violations(page)
    page.keyboard.press("Escape")
    page.locator(tid("publish-dialog")).wait_for(state="hidden")
    open_settings(page)
    found["settings"] = serious_violations(page)
    page.keyboard.press("Escape")
    page.locator(tid("settings-dialog")).wait_for(state="hidden")
    open_projects(page)
    found["projects"] = serious_violations(page)
    page.keyboard.press("Escape")
    assert found == {k: [] for k in found}, found


# ----------------------------------------------------------------- a journey's console


#: What the browser or the test harness writes, not Wiggum.
NOT_WIGGUMS = ("Service Worker registration blocked by Playwright",)


def wiggums_own(lines: list[str]) -> list[str]:
    """The console's errors and warnings that are Wiggum's own: not the first
    screen's looks for local model servers, not the harness's."""
    out = []
    for line in lines:
        if not line.startswith(("[error]", "[warning]", "[pageerror]")):
            continue
        urls = re.findall(r"\((https?://[^)]+)\)$", line)
        if urls and is_local_probe(urls[0]):
            continue
        if any(s in line for s in NOT_WIGGUMS):
            continue
        out.append(line)
    return out


def test_a_journey_leaves_nothing_of_wiggums_own_in_the_console(browser, base_url, sim):
    with booted_page(browser, base_url, mounted=True) as p:
        lines = record_console(p)
        set_size(p, 1280, 800)
        # onboarding
        p.fill(tid("onb-base-url"), sim.base_url + "/v1")
        p.fill(tid("onb-key"), KEY)
        p.click(tid("onb-test"))
        p.locator(tid("onb-model")).wait_for(state="visible", timeout=30_000)
        p.click(tid("onb-start"))
        p.locator(tid("onboarding")).wait_for(state="hidden")
        no_reflection(p)
        # a reply of Chief's
        sim.script([Turn("A tea page: a heading and your hours. Shall I hand it over?")])
        send(p, "A page for my tea shop")
        wait_reply(p)
        # the hand-off and a short run
        ralph_builds(
            p,
            sim,
            "Build a tea page.",
            "A tea page",
            [
                Turn(ToolCall("write_file", {"path": "index.html", "content": PAGE})),
                Turn(ralph_done("Built the tea page.", ["index.html"])),
            ],
        )
        # an edit, saved
        type_at_the_end(p, "index.html", "\n<!-- hours -->")
        p.keyboard.press("Control+s")
        p.wait_for_selector(f'{tid("editor")}[data-unsaved="false"]', timeout=20_000)
        # history
        open_history(p)
        # a reload
        open_app(p, p.url, reload=True)
        p.wait_for_selector(MOUNTED, timeout=30_000)
        p.click(tid("tab-ralph"))
        p.locator(tid("ralph-summary")).wait_for(state="visible", timeout=20_000)
        assert wiggums_own(lines) == [], "\n".join(lines)
