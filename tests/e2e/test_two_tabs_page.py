"""Two tabs on one project (issue 17 item 3), in Chromium: two pages of ONE browser
context share the origin's IndexedDB and Web Locks, as two tabs of a browser do.

One tab owns the project (the Web Lock ``wiggum:project:<id>``); the other shows
the paused banner and refuses writes with its explanation, keeping what was typed;
"Use here" takes the project over (``steal``), and the tab that took it re-reads
what the other wrote.  Both tabs are booted once for the module (booting is slow);
the tests run in order on them and each says which tab owns the project at its end.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect
from wiggum_e2e import (
    MOUNTED,
    configure,
    console_line,
    is_local_probe,
    offline_context,
    on_top,
    open_app,
    run_async,
    send,
    set_size,
    tid,
    type_at_the_end,
    wait_requests,
    write_files,
)

from tests.sim import ToolCall, Turn

pytestmark = pytest.mark.e2e

KEY = "sk-e2e-SECRET-tabs"
PAUSED = "This project is open in another tab. Changes here are paused so nothing is overwritten."
SHOTS = Path("/tmp/shots-two-tabs")
SIZES = ((1280, 800), (1920, 1080), (390, 844))


@pytest.fixture(scope="module")
def tabs(browser, base_url, sim):
    """Tab A opened and configured, then tab B on the same project (same context)."""
    with offline_context(browser, viewport={"width": 1280, "height": 800}) as ctx:
        console: list[str] = []
        ctx.on("page", lambda p: p.on("console", lambda m: console.append(console_line(m))))
        a = ctx.new_page()
        open_app(a, base_url)
        a.wait_for_selector(MOUNTED, timeout=30_000)
        configure(a, sim, KEY)
        yield ctx, a, console


def lock_state(page) -> str | None:
    return page.get_attribute("#app-root", "data-tab-lock")


def replies(page) -> list[str]:
    return page.locator(tid("message-assistant")).all_text_contents()


def wait_reply_count(page, n: int, timeout: float = 20_000) -> None:
    page.wait_for_function(
        """n => document.querySelectorAll('[data-testid=reply][data-status=complete]').length >= n""",
        arg=n,
        timeout=timeout,
    )


def open_tab(ctx, base_url: str):
    page = ctx.new_page()
    open_app(page, base_url)
    page.wait_for_selector(MOUNTED, timeout=30_000)
    return page


def expect_paused(page) -> None:
    banner = page.locator(tid("tab-lock-banner"))
    expect(banner).to_be_visible(timeout=15_000)
    expect(page.locator(tid("tab-lock-text"))).to_have_text(PAUSED)
    expect(page.locator(tid("tab-lock-use-here"))).to_be_enabled()
    assert lock_state(page) == "paused"


def expect_owner(page) -> None:
    page.wait_for_selector('#app-root[data-tab-lock="owner"]', timeout=15_000)
    # the banner says "Loading this project's latest state…" until the tab has re-read it
    expect(page.locator(tid("tab-lock-banner"))).to_be_hidden(timeout=15_000)


def owner_and_paused(tabs, base_url: str) -> tuple:
    """The tab that owns the project and a paused one: a second tab is opened on
    the project if there is none yet (so each test can run alone)."""
    ctx, _a, _console = tabs
    if len(ctx.pages) < 2:
        expect_paused(open_tab(ctx, base_url))
    for page in ctx.pages:  # a take-over or a switch may still be settling
        page.wait_for_selector(
            '#app-root[data-tab-lock="owner"], #app-root[data-tab-lock="paused"]', timeout=15_000
        )
    owner = next(p for p in ctx.pages if lock_state(p) == "owner")
    other = next(p for p in ctx.pages if lock_state(p) == "paused")
    return owner, other


def on_chief(tabs, base_url: str, sim) -> tuple:
    """The tab that owns the project and the paused one, both on Chief's tab,
    nothing left in ``sim``'s script."""
    owner, other = owner_and_paused(tabs, base_url)
    sim.drop_pending()
    for page in (owner, other):
        page.click(tid("tab-chief"))
    return owner, other


def stored_files(page) -> list[str]:
    return run_async(
        page,
        """
        from wiggum.web.app import APP
        await APP.coordinator.fs.list("", recursive=True)
        """,
    )


def test_second_tab_pauses_use_here_takes_over_and_nothing_is_lost(tabs, base_url, sim):
    ctx, a, _console = tabs
    expect_owner(a)
    write_files(a, {"index.html": "<h1>v1</h1>\n"})
    sim.script(Turn("First reply, written by tab A."))
    send(a, "hello from A")
    wait_reply_count(a, 1)

    # B opens the same project: paused, with A's conversation as it was.
    b = open_tab(ctx, base_url)
    expect_paused(b)
    expect_owner(a)
    wait_reply_count(b, 1)
    # A keeps working while B waits: B follows, read-only.
    sim.script(Turn("Second reply, written by tab A after B opened."))
    send(a, "again from A")
    wait_reply_count(a, 2)
    wait_reply_count(b, 2)
    assert replies(b) == replies(a)

    # B's send is refused with the explanation; the draft stays; nothing was sent.
    asked = len(sim.chat_requests)
    send(b, "draft typed in B")
    banner = b.locator(tid("error-banner"))
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("Not sent.")
    expect(banner).to_contain_text(PAUSED)
    assert b.input_value(tid("chat-input")) == "draft typed in B"
    assert len(sim.chat_requests) == asked

    # "Use here": B takes over, re-reads A's latest reply; A pauses.
    b.click(tid("tab-lock-use-here"))
    expect_owner(b)
    expect_paused(a)
    b.wait_for_function(
        """() => [...document.querySelectorAll('[data-testid=message-assistant]')]
                  .some(el => el.textContent.includes('Second reply'))""",
        timeout=15_000,
    )
    assert b.input_value(tid("chat-input")) == "draft typed in B"  # the draft survived
    sim.script(Turn("Reply to B, now the owner."))
    b.press(tid("chat-input"), "Control+Enter")
    wait_reply_count(b, 3)
    assert b.input_value(tid("chat-input")) == ""

    # A (paused now) is refused: its send, and a save in the editor; both keep the text.
    asked = len(sim.chat_requests)
    send(a, "draft typed in A")
    expect(a.locator(tid("error-banner"))).to_contain_text(PAUSED)
    assert a.input_value(tid("chat-input")) == "draft typed in A"
    type_at_the_end(a, "index.html", "<p>typed in A while paused</p>\n")
    a.click(tid("editor-save"))
    message = a.locator(tid("editor-message"))
    expect(message).to_contain_text(PAUSED)
    expect(message).to_contain_text("Your text is still here")
    assert a.get_attribute(tid("editor"), "data-unsaved") == "true"
    assert "typed in A while paused" in a.locator(".cm-content").text_content()
    # A file operation too: the name typed stays in the form.
    a.click(tid("file-op-new-file"))
    a.fill(tid("file-op-input"), "new.html")
    a.click(tid("file-op-ok"))
    expect(a.locator(tid("file-op-message"))).to_contain_text(PAUSED)
    assert a.input_value(tid("file-op-input")) == "new.html"
    # The Ralph task box too.
    a.fill(tid("ralph-task-input"), "a task typed in A")
    a.click(tid("ralph-start"))
    expect(a.locator(tid("ralph-task-note"))).to_contain_text(PAUSED)
    assert a.input_value(tid("ralph-task-input")) == "a task typed in A"
    assert len(sim.chat_requests) == asked
    stored = run_async(
        b,
        """
        from wiggum.web.app import APP
        await APP.coordinator.fs.read_text("index.html")
        """,
    )
    assert stored == "<h1>v1</h1>\n"
    assert "new.html" not in stored_files(b)
    a.click(tid("tab-chief"))

    # Reload both: nothing lost.  B goes away first: A, queued for the lock, gets
    # it and re-reads B's turn; B comes back paused.
    b.reload(wait_until="commit")
    expect_owner(a)
    a.wait_for_function(
        """() => [...document.querySelectorAll('[data-testid=message-assistant]')]
                  .some(el => el.textContent.includes('Reply to B'))""",
        timeout=15_000,
    )
    b.wait_for_selector(MOUNTED, timeout=30_000)
    expect_paused(b)
    a.reload(wait_until="commit")
    expect_owner(b)
    a.wait_for_selector(MOUNTED, timeout=30_000)
    expect_paused(a)
    want = [
        "First reply, written by tab A.",
        "Second reply, written by tab A after B opened.",
        "Reply to B, now the owner.",
    ]
    for page in (a, b):
        wait_reply_count(page, 3)
        got = [re.sub(r"\s+", " ", t).strip() for t in replies(page)]
        assert got == want, got
        users = page.locator(tid("message-user")).all_text_contents()
        assert [u.strip() for u in users] == ["hello from A", "again from A", "draft typed in B"]
    # B owns the project at the end, A is paused.


def test_paused_banner_is_on_top_and_looks_right(tabs, base_url):
    _owner, paused = owner_and_paused(tabs, base_url)
    SHOTS.mkdir(parents=True, exist_ok=True)
    send(paused, "a draft that waits")
    button = paused.locator(tid("tab-lock-use-here"))
    for w, hgt in SIZES:
        set_size(paused, w, hgt)
        expect(button).to_be_visible()
        assert on_top(paused, button), f"'Use here' is covered at {w}x{hgt}"
        box = paused.locator(tid("tab-lock-banner")).bounding_box()
        assert box is not None and box["y"] < 120 and box["width"] >= w - 2, box
        paused.screenshot(path=str(SHOTS / f"paused-chief-{w}x{hgt}.png"))
    paused.click(tid("tab-ralph"))
    for w, hgt in SIZES:
        set_size(paused, w, hgt)
        assert on_top(paused, button), f"'Use here' is covered on Ralph's tab at {w}x{hgt}"
        paused.screenshot(path=str(SHOTS / f"paused-ralph-{w}x{hgt}.png"))
    paused.click(tid("tab-chief"))
    set_size(paused, 1280, 800)


def test_ralph_stops_when_another_tab_takes_over_and_his_files_are_kept(tabs, base_url, sim):
    owner, other = owner_and_paused(tabs, base_url)
    sim.drop_pending()
    # Ralph writes one file per call; his fourth call hangs, and the other tab
    # takes the project over while he waits for it.
    sim.script(
        [
            Turn(
                f"Writing page {i}.",
                ToolCall("write_file", {"path": f"page{i}.html", "content": f"<p>page {i}</p>"}),
            )
            for i in (1, 2, 3)
        ]
        + [Turn("Still thinking.", ttfb=30)]
    )
    asked = len(sim.chat_requests)
    owner.click(tid("tab-ralph"))
    owner.fill(tid("ralph-task-input"), "Build three pages")
    owner.click(tid("ralph-start"))
    wait_requests(sim, asked + 4, timeout=30, page=owner)  # the hanging call is out
    badge = owner.locator(tid("ralph-badge"))
    assert "STOPPED" not in badge.text_content()
    # The paused tab follows him: his transcript and the files he wrote.
    other.click(tid("tab-ralph"))
    expect(other.locator(tid("ralph-transcript"))).to_contain_text("page3.html", timeout=10_000)
    other.wait_for_selector(f'{tid("file-entry")}[data-path="page3.html"]', timeout=10_000)
    # and his state: working there, not interrupted; nothing to stop or resume
    # here, also when the paused tab opens the project anew (a reload).
    for reload in (False, True):
        if reload:
            other.reload()
            other.wait_for_selector(MOUNTED, timeout=30_000)
            expect_paused(other)
            other.click(tid("tab-ralph"))
        working = owner.locator(tid("ralph-status")).text_content()
        assert re.fullmatch(r"Working — iteration \d+/20", working), working
        expect(other.locator(tid("ralph-status"))).to_have_text(
            working.replace("Working", "Working in another tab"), timeout=10_000
        )
        expect(other.locator(tid("ralph-badge"))).to_have_text(badge.text_content())
        expect(other.locator(tid("ralph-stop"))).to_be_hidden()
        expect(other.locator(tid("ralph-resume"))).to_be_hidden()
    for w, hgt in SIZES:
        set_size(other, w, hgt)
        other.screenshot(path=str(SHOTS / f"paused-ralph-working-{w}x{hgt}.png"))
    set_size(other, 1280, 800)
    other.click(tid("tab-lock-use-here"))
    expect_owner(other)
    expect_paused(owner)
    # The old owner's Ralph stopped (his request was cancelled), nothing more written.
    expect(badge).to_have_text(re.compile("STOPPED"), timeout=15_000)
    files = stored_files(other)
    assert {"page1.html", "page2.html", "page3.html"} <= set(files), files
    # The new owner shows his files, and his run as one to resume.
    other.click(tid("tab-ralph"))
    for name in ("page1.html", "page2.html", "page3.html"):
        other.wait_for_selector(f'{tid("file-entry")}[data-path="{name}"]', timeout=15_000)
    expect(other.locator(tid("ralph-resume"))).to_be_visible(timeout=15_000)
    assert len(sim.chat_requests) == asked + 4
    sim.drop_pending()


def test_a_reply_streaming_when_taken_over_is_kept_in_both_tabs(tabs, base_url, sim):
    owner, other = on_chief(tabs, base_url, sim)
    sim.script(Turn("word " * 200, chunks=200, delay=0.05))
    before = owner.locator(tid("reply")).count()
    send(owner, "count slowly")
    owner.wait_for_function(
        """n => { const r = document.querySelectorAll('[data-testid=reply]');
                  return r.length > n && r[r.length - 1].textContent.includes('word word word'); }""",
        arg=before,
        timeout=15_000,
    )
    other.click(tid("tab-lock-use-here"))
    expect_owner(other)
    expect_paused(owner)
    # The old owner stopped streaming; its partial reply stays on its screen.
    stopped = owner.locator(f'{tid("reply")}[data-status="stopped"]').last
    expect(stopped).to_be_visible(timeout=10_000)
    kept = stopped.locator(tid("message-assistant")).text_content().split()
    assert 3 <= len(kept) < 200
    # It stored its stopped reply before letting the project go: the new owner
    # re-read exactly what the old one shows.
    latest = other.locator(tid("reply")).last
    expect(latest).to_have_attribute("data-status", "stopped", timeout=10_000)
    shown = latest.locator(tid("message-assistant")).text_content().split()
    assert shown == kept
    sim.drop_pending()


def test_a_paused_tab_follows_what_the_owner_writes(tabs, base_url, sim):
    owner, other = on_chief(tabs, base_url, sim)
    if not owner.locator(tid("message-user")).count():  # an earlier turn, whose element stays
        sim.script(Turn("An earlier reply."))
        send(owner, "an earlier message")
        wait_reply_count(other, 1)
    sim.script(Turn("tick " * 200, chunks=200, delay=0.05))
    before = other.locator(tid("reply")).count()
    send(owner, "tick for me")
    # While the owner streams, the paused tab shows the reply growing, and says
    # where it is written: not "interrupted", no Continue or Retry; also when
    # it opens the project anew then (a reload).
    mirrored = other.locator(tid("reply")).nth(before)
    expect(mirrored).to_have_attribute("data-status", "streaming", timeout=10_000)
    other.reload()
    other.wait_for_selector(MOUNTED, timeout=30_000)
    expect_paused(other)
    other.click(tid("tab-chief"))
    expect(mirrored).to_have_attribute("data-status", "streaming", timeout=10_000)
    # Opening it, it tried no write (marking that reply interrupted was one).
    assert run_async(other, "from wiggum.web.app import APP\nrepr(APP.chat.save_error)") == "None"
    expect(mirrored.locator(tid("message-status"))).to_have_text("writing in another tab")
    expect(mirrored.locator(tid("message-assistant"))).to_contain_text("tick tick")
    for button in ("retry-button", "continue-button"):
        expect(mirrored.locator(tid(button))).to_be_hidden()
    other.screenshot(path=str(SHOTS / "following-1280x800.png"))
    # Once it has read the reply again, only that turn is drawn again: an
    # earlier message's element (what the person opened or selected) stays.
    seen = mirrored.locator(tid("message-assistant")).text_content()
    other.wait_for_function(
        """([n, seen]) => { const r = document.querySelectorAll('[data-testid=reply]')[n];
                            const b = r && r.querySelector('[data-testid=message-assistant]');
                            return !!b && b.textContent !== seen; }""",
        arg=[before, seen],
    )
    earlier = other.locator(tid("message-user")).first
    assert other.locator(tid("message-user")).count() >= 2
    earlier.evaluate("e => { e.__kept = true; }")
    # Then as it ended there, word for word.
    expect(mirrored).to_have_attribute("data-status", "complete", timeout=15_000)
    assert earlier.evaluate("e => e.__kept === true")
    expect(mirrored.locator(tid("message-status"))).to_be_hidden()
    done = owner.locator(tid("reply")).last.locator(tid("message-assistant")).text_content()
    expect(mirrored.locator(tid("message-assistant"))).to_have_text(done)
    # A file the owner writes shows in the paused tab's tree.
    run_async(
        owner,
        """
        from wiggum.web.app import APP
        await APP.coordinator.fs.write_text("followed.html", "<p>from the owner</p>")
        True
        """,
    )
    other.click(tid("tab-ralph"))
    files_tab = other.locator(tid("ws-tab-files"))
    if files_tab.count() and files_tab.is_visible():
        files_tab.click()
    expect(other.locator(f'{tid("file-entry")}[data-path="followed.html"]')).to_be_visible(
        timeout=10_000
    )
    other.click(tid("tab-chief"))
    # A message being edited in the paused tab keeps what is typed there while
    # the owner writes; the owner's reply shows once the edit is closed.
    other.locator(tid("edit-button")).last.click()
    other.fill(tid("edit-input"), "typed while paused")
    sim.script(Turn("Another reply, from the owner."))
    send(owner, "one more")
    last = owner.locator(tid("reply")).last
    expect(last.locator(tid("message-assistant"))).to_have_text(
        "Another reply, from the owner.", timeout=15_000
    )
    expect(last).to_have_attribute("data-status", "complete")
    other.wait_for_timeout(1_000)  # the announcement and the re-read, had they run
    assert other.input_value(tid("edit-input")) == "typed while paused"
    other.click("[data-action=edit-cancel]")
    expect(other.locator(tid("message-assistant")).last).to_have_text(
        "Another reply, from the owner.", timeout=10_000
    )
    # Nothing of it was written by the paused tab.
    assert lock_state(other) == "paused" and lock_state(owner) == "owner"


def test_an_owner_that_does_not_answer_has_the_project_taken(tabs, base_url):
    """No answer to "let go" (a frozen tab): "Use here" steals the Web Lock, and
    the old owner learns it from its rejected request (AbortError)."""
    owner, other = owner_and_paused(tabs, base_url)
    deaf = "from wiggum.web.app import APP\nAPP.tab_lock.channel.{}EventListener('message', APP.tab_lock._on_message)\nTrue"
    run_async(owner, deaf.format("remove"))
    try:
        other.click(tid("tab-lock-use-here"))
        expect(other.locator(tid("tab-lock-text"))).to_have_text(
            "Taking this project over from the other tab…"
        )
        expect(other.locator(tid("tab-lock-use-here"))).to_be_disabled()
        other.screenshot(path=str(SHOTS / "taking-over-1280x800.png"))
        expect_owner(other)
        expect_paused(owner)
        history = run_async(owner, "from wiggum.web.app import APP\nAPP.tab_lock.machine.history")
        assert history[-1] == "paused: taken by another tab", history
    finally:
        run_async(owner, deaf.format("add"))


def test_a_write_by_an_owner_that_missed_the_steal_is_refused(tabs, base_url):
    """The owner froze, and when it runs again it writes before it has heard
    that its lock was stolen: the fence the new owner made refuses that write,
    so nothing lands after the new owner read the project."""
    owner, other = owner_and_paused(tabs, base_url)
    unaware = """
        from wiggum.web.app import APP
        APP.tab_lock.channel.removeEventListener('message', APP.tab_lock._on_message)
        APP.tab_lock.machine.lost = lambda project_id: []  # never hears of the steal
        True
    """
    run_async(owner, unaware)
    try:
        other.click(tid("tab-lock-use-here"))
        expect_owner(other)
        assert lock_state(owner) == "owner"  # it still believes it is
        late = run_async(
            owner,
            """
            from wiggum.web.app import APP
            refused = []
            for write in (
                lambda: APP.coordinator.fs.write_text("late.html", "<p>too late</p>"),
                lambda: APP.storage.put_message(APP.project_id, "chief", 9999, {"late": 1}),
            ):
                try:
                    await write()
                except Exception as exc:
                    refused.append(type(exc).__name__)
            refused
            """,
        )
        assert late == ["ProjectPaused", "ProjectPaused"]
        assert "late.html" not in stored_files(other)
        rows = run_async(
            other,
            """
            from wiggum.web.app import APP
            rows = await APP.storage.load_messages(APP.project_id, "chief")
            [r for r in rows if r.get("late")]
            """,
        )
        assert rows == []
        # The new owner writes as before.
        written = run_async(
            other,
            """
            from wiggum.web.app import APP
            await APP.coordinator.fs.write_text("mine.html", "<p>mine</p>")
            await APP.coordinator.fs.read_text("mine.html")
            """,
        )
        assert written == "<p>mine</p>"
    finally:
        run_async(
            owner,
            """
            from wiggum.web.app import APP
            del APP.tab_lock.machine.lost
            APP.tab_lock.channel.addEventListener('message', APP.tab_lock._on_message)
            APP.tab_lock._apply(APP.tab_lock.machine.lost(APP.project_id))
            True
            """,
        )
    expect_paused(owner)


def test_switching_project_lets_the_other_tab_have_it(tabs, base_url):
    owner, other = owner_and_paused(tabs, base_url)
    first = run_async(owner, "from wiggum.web.app import APP\nAPP.project_id")
    # The owner opens another project: it lets the first go, and the tab that
    # waited for it owns it now (no "Use here" needed).
    run_async(owner, "from wiggum.web.app import APP\nawait APP.create_project('Second')\nTrue")
    expect_owner(owner)
    expect_owner(other)
    assert run_async(other, "from wiggum.web.app import APP\nAPP.project_id") == first
    # The first project is open over there: not deleted from here.
    owner.click(tid("project-manage"))
    dialog = owner.locator(tid("projects-dialog"))
    dialog.wait_for(state="visible")
    first_row = owner.locator(f'{tid("project-row")}[data-project-id="{first}"]')
    first_row.locator(tid("project-delete")).click()
    owner.click(tid("project-delete-confirm"))
    expect(owner.locator(tid("projects-error"))).to_contain_text("open in another tab")
    assert first_row.count() == 1
    owner.click(f"{tid('projects-dialog')} [data-action=close]")
    # Back to the first project: it is the other tab's now, so this one pauses.
    run_async(owner, f"from wiggum.web.app import APP\nawait APP.switch_project({first!r})\nTrue")
    expect_paused(owner)
    expect_owner(other)


def test_without_web_locks_the_log_says_so_and_nothing_pauses(browser, base_url):
    no_locks = "Object.defineProperty(Navigator.prototype, 'locks', {get: () => undefined});"
    with offline_context(browser, init_script=no_locks) as ctx:
        pages = [open_tab(ctx, base_url) for _ in range(2)]
        for page in pages:
            assert lock_state(page) == "unsupported"
            expect(page.locator(tid("tab-lock-banner"))).to_be_hidden()
        page = pages[1]
        page.click(tid("debug-button"))
        page.locator(tid("debug-dialog")).wait_for(state="visible")
        messages = page.locator(tid("debug-message")).all_text_contents()
        assert any("no Web Locks API" in m for m in messages), messages


def test_settings_saved_in_one_tab_reach_the_others(tabs, base_url):
    """Settings are one record for every tab: a tab saving its old copy must not
    drop what another tab saved since (here: a provider just added)."""
    ctx, a, _ = tabs
    b = open_tab(ctx, base_url)
    try:
        run_async(
            b,
            """
            from wiggum.web.app import APP
            from wiggum.ui.settings import ProviderSettings
            s = APP.settings.model_copy(deep=True)
            s.providers.append(ProviderSettings(
                id="p-second", name="Second", base_url="http://127.0.0.1:9/v1", model="m2"))
            await APP.save_settings(s)
            """,
        )
        a.wait_for_function(
            """() => wiggumBoot.pyodide.runPython(
                "from wiggum.web.app import APP\\n"
                + "any(p.id == 'p-second' for p in APP.settings.providers)")""",
            timeout=10_000,
        )
        # A's next save (of what it holds now) keeps B's provider.
        run_async(
            a,
            """
            from wiggum.web.app import APP
            await APP.save_settings(APP.settings.model_copy(deep=True))
            """,
        )
        stored = run_async(
            a,
            """
            from wiggum.web.app import APP
            [p["id"] for p in (await APP.storage.get_settings())["providers"]]
            """,
        )
        assert "p-second" in stored
    finally:
        # Leave the settings as the other tests had them (the removal reaches A too).
        run_async(
            b,
            """
            from wiggum.web.app import APP
            s = APP.settings.model_copy(deep=True)
            s.providers = [p for p in s.providers if p.id != "p-second"]
            await APP.save_settings(s)
            """,
        )
        a.wait_for_function(
            """() => !wiggumBoot.pyodide.runPython(
                "from wiggum.web.app import APP\\n"
                + "any(p.id == 'p-second' for p in APP.settings.providers)")""",
            timeout=10_000,
        )
        b.close()


SAVE_IN_B = """
from wiggum.web.app import APP
from wiggum.ui.settings import ProviderSettings
s = APP.settings.model_copy(deep=True)
s.providers = [p for p in s.providers if p.id != "p-third"]
if {add}:
    s.providers.append(ProviderSettings(
        id="p-third", name="Third", base_url="http://127.0.0.1:9/v1", model="m3"))
await APP.save_settings(s)
"""


def provider_options(page) -> list[str]:
    return page.eval_on_selector_all(
        f"{tid('provider-select')} option", "os => os.map(o => o.value)"
    )


def test_an_open_settings_dialog_hears_of_a_save_in_another_tab(tabs, base_url):
    """A's settings dialog is open while B saves: with no edits in A it shows
    B's settings; with edits it keeps them, says so and offers B's."""
    ctx, a, _ = tabs
    b = open_tab(ctx, base_url)
    dialog = a.locator(tid("settings-dialog"))
    bar = a.locator(tid("settings-elsewhere"))
    try:
        a.click(tid("settings-button"))
        dialog.wait_for(state="visible")
        model = a.input_value(tid("provider-model"))
        run_async(b, SAVE_IN_B.format(add=True))  # no edits in A: it shows B's
        a.wait_for_function(
            f"() => [...document.querySelectorAll('{tid('provider-select')} option')]"
            ".some(o => o.value === 'p-third')",
            timeout=10_000,
        )
        expect(bar).to_be_hidden()
        assert a.input_value(tid("provider-model")) == model  # still on the same provider

        a.fill(tid("provider-model"), "edited-here")  # an edit in A, then B saves again
        run_async(b, SAVE_IN_B.format(add=False))
        expect(bar).to_be_visible(timeout=10_000)
        assert a.input_value(tid("provider-model")) == "edited-here"  # kept
        assert "p-third" in provider_options(a)
        button = a.locator(tid("settings-use-theirs"))
        assert on_top(a, button)
        SHOTS.mkdir(parents=True, exist_ok=True)
        a.screenshot(path=str(SHOTS / "settings-elsewhere.png"))
        button.click()
        expect(bar).to_be_hidden()
        assert a.input_value(tid("provider-model")) == model
        assert "p-third" not in provider_options(a)

        a.fill(tid("provider-model"), "edited-again")  # the person may also keep theirs
        run_async(b, SAVE_IN_B.format(add=True))
        expect(bar).to_be_visible(timeout=10_000)
        a.fill(tid("provider-model"), model)  # (and the test puts the model back)
        a.click(tid("settings-save"))
        dialog.wait_for(state="hidden")
        stored = run_async(
            a,
            """
            from wiggum.web.app import APP
            [p["id"] for p in (await APP.storage.get_settings())["providers"]]
            """,
        )
        assert "p-third" not in stored  # A's save replaced B's, as the bar said
    finally:
        if dialog.is_visible():
            a.keyboard.press("Escape")
        run_async(b, SAVE_IN_B.format(add=False))
        b.close()


def test_two_tabs_on_a_first_visit_make_one_first_project(tabs):
    # Two tabs opened at once on an empty database: each lists no projects
    # before the other has made one.  Two connections in one page race the
    # same way, and the Web Lock leaves one "My first project" for both.
    _ctx, a, _console = tabs
    count, same, name = run_async(
        a,
        """
        import asyncio
        from wiggum.web.shell import first_projects
        from wiggum.web.storage import open_storage
        one = await open_storage("wiggum-first-visit")
        two = await open_storage("wiggum-first-visit")
        got = await asyncio.gather(first_projects(one), first_projects(two))
        stored = await one.list_projects()
        [len(stored), [p["id"] for p in got[0]] == [p["id"] for p in got[1]], stored[0]["name"]]
        """,
    )
    assert (count, same, name) == (1, True, "My first project")


def test_the_console_shows_no_errors(tabs):
    """Refused writes are warnings (the paused tab's quiet trail), never errors."""
    _ctx, _a, console = tabs
    errors = [
        line
        for line in console
        if (line.startswith("[error]") or "Traceback" in line)
        # Chromium's note when a resize (the screenshots) outpaces an observer.
        and "ResizeObserver loop" not in line
        # the first screen's look for local model servers, refused where none listens
        and not ("ERR_CONNECTION_REFUSED" in line and is_local_probe(line.rsplit("(", 1)[-1]))
    ]
    assert not errors, errors
