"""Project history in Chromium: Ralph builds (simulator) -> a checkpoint per
iteration -> the person's save is a "you" checkpoint -> revert to Ralph's ->
the preview shows the old text -> reload -> history and files intact ->
restore one file.  One booted page for the whole story."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from wiggum_e2e import (
    MOUNTED,
    configure,
    in_preview,
    on_top,
    open_app,
    ralph_builds,
    ralph_done,
    run_async,
    set_size,
    show_pane,
    tid,
)
from wiggum_e2e import open_history as show_history

from tests.sim import Simulator, ToolCall, Turn

pytestmark = pytest.mark.e2e

HTML_BROKEN = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Bakery</title>
<link rel="stylesheet" href="style.css"></head>
<body><h1>Crumb &amp; Co.</h1><script src="missing.js"></script></body></html>"""
HTML_FIXED = HTML_BROKEN.replace('<script src="missing.js"></script>', "")
CSS = "body { background: #fff4e6; }\n"
COMPLETION = ralph_done("Built the page.", ["index.html"])
SHOTS = Path(os.environ.get("WIGGUM_SHOTS", "/tmp/shots-history"))


def read(page, path: str):
    return run_async(
        page,
        f"""
        from wiggum.web.app import APP
        fs = APP.storage.files(APP.project_id)
        (await fs.read_text({path!r})) if await fs.exists({path!r}) else None
        """,
    )


def items(page):
    loc = page.locator(tid("history-item"))
    return [loc.nth(i).locator(".history-author").text_content() for i in range(loc.count())]


def open_history(page) -> None:
    show_history(page)
    page.locator(tid("history-item")).first.wait_for(timeout=30_000)


def preview_h1(page, text: str) -> None:
    frame = page.frame_locator(f"{tid('ralph-workspace')} {tid('preview-frame')}")
    in_preview(lambda: frame.locator("h1").text_content(timeout=2_000) == text, f"showed {text!r}")


def test_history_story(page, base_url):
    page.wait_for_selector(MOUNTED, timeout=30_000)
    with Simulator() as sim:
        configure(page, sim, "sk-e2e-history")
        ralph_builds(
            page,
            sim,
            "Build a bakery page.",
            "Bakery",
            [
                Turn(
                    "Writing the page and styles.",
                    ToolCall("write_file", {"path": "index.html", "content": HTML_BROKEN}),
                    ToolCall("write_file", {"path": "style.css", "content": CSS}),
                ),
                Turn(COMPLETION),
                Turn(
                    "Dropping the missing script.",
                    ToolCall("write_file", {"path": "index.html", "content": HTML_FIXED}),
                ),
                Turn(COMPLETION),
            ],
        )

        # --- a checkpoint per iteration that changed files
        open_history(page)
        page.wait_for_function(
            "document.querySelectorAll('[data-testid=history-item]').length >= 2", timeout=30_000
        )
        assert items(page)[:2] == ["Ralph iteration 2", "Ralph iteration 1"]
        # Each of his checkpoints says what he set out to do in that iteration.
        said = page.locator(f"{tid('history-item')} .history-message")
        assert [said.nth(i).text_content() for i in range(2)] == [
            "Dropping the missing script.",
            "Writing the page and styles.",
        ]
        first = page.locator(tid("history-item")).nth(1)
        entry = first.locator(f'{tid("history-file")}[data-path="style.css"]')
        # What changed, named; its lines are counted when its diff is opened.
        assert entry.text_content() == "style.css"
        assert "history-added" in entry.get_attribute("class")
        assert first.locator(f'{tid("history-file")}[data-path="index.html"]').count() == 1
        # .git/ is the person's, invisible to the agents and the file tree
        tree = page.locator(f"{tid('ralph-workspace')} {tid('file-tree')}")
        tree.get_by_text("index.html", exact=True).first.wait_for(timeout=10_000)
        assert tree.get_by_text(".git", exact=True).count() == 0
        assert run_async(
            page,
            """
            from wiggum.web.app import APP
            raw = APP.storage.files(APP.project_id)
            [await raw.exists(".git/HEAD"), await APP.coordinator.fs.exists(".git/HEAD")]
            """,
        ) == [True, False]

        # --- the person's save is a "you" checkpoint
        run_async(
            page,
            """
            from wiggum.web.app import APP
            fs = APP.coordinator.fs
            text = (await fs.read_text("index.html")).replace("Crumb &amp; Co.", "Edited by you")
            await fs.write_text("index.html", text)
            cp = await APP.checkpoint_after_save(["index.html"])
            cp.author
            """,
        )
        preview_h1(page, "Edited by you")
        page.wait_for_function(
            "document.querySelector('[data-testid=history-item] .history-author')?.textContent === 'you'",
            timeout=20_000,
        )
        # The person's checkpoint holds their file only, not the agents' memory
        # (.chief/, .ralph/), though Chief wrote some after Ralph's last one.
        mine = page.locator(tid("history-item")).first.locator(tid("history-file"))
        assert mine.evaluate_all("els => els.map(e => e.dataset.path)") == ["index.html"]
        # per-file diff of the person's checkpoint
        page.locator(tid("history-item")).first.locator(
            f'{tid("history-file")}[data-path="index.html"]'
        ).click()
        diff = page.locator(tid("history-diff"))
        diff.wait_for(state="visible", timeout=10_000)
        assert "+<body><h1>Edited by you</h1>" in diff.text_content()
        assert "-<body><h1>Crumb &amp; Co.</h1>" in diff.text_content()

        # --- revert to Ralph's last checkpoint: asks once more, then a new checkpoint
        SHOTS.mkdir(parents=True, exist_ok=True)
        for w, hgt in ((1280, 800), (1920, 1080), (390, 844)):
            set_size(page, w, hgt)
            show_pane(page, "history")  # narrow: the panes are sub-tabs
            page.locator(tid("history")).scroll_into_view_if_needed()
            page.screenshot(path=str(SHOTS / f"history-{w}x{hgt}.png"))
        set_size(page, 1280, 800)
        revert = page.locator(tid("history-item")).nth(1).locator(tid("history-revert"))
        assert on_top(
            page, f"{tid('history-item')}:nth-child(2) {tid('history-revert')}", scroll=True
        )
        revert.click()
        assert "Yes, revert" in revert.text_content()
        revert.click()
        page.wait_for_function(
            "document.querySelector('[data-testid=history-item] .history-message')"
            "?.textContent.startsWith('Revert to')",
            timeout=20_000,
        )
        assert "Crumb &amp; Co." in read(page, "index.html")
        # The project's files went back; the agents' notes stayed as they are.
        reverted = page.locator(tid("history-item")).first.locator(tid("history-file"))
        assert reverted.evaluate_all("els => els.map(e => e.dataset.path)") == ["index.html"]
        assert read(page, ".chief/last_result.json") is not None
        assert ".chief/, .ralph/) stay as they are" in page.locator(".history-help").text_content()
        preview_h1(page, "Crumb & Co.")

    # --- reload: history and files intact
    open_app(page, base_url, reload=True)
    page.wait_for_selector(MOUNTED, timeout=30_000)
    open_history(page)
    page.wait_for_function(
        "document.querySelectorAll('[data-testid=history-item]').length >= 4", timeout=30_000
    )
    assert items(page)[:4] == ["you", "you", "Ralph iteration 2", "Ralph iteration 1"]
    assert "Crumb &amp; Co." in read(page, "index.html")

    # --- restore one file from the person's checkpoint
    mine = page.locator(tid("history-item")).nth(1)
    mine.locator(f'{tid("history-file")}[data-path="index.html"]').click()
    restore = page.locator(tid("history-restore"))
    restore.wait_for(state="visible", timeout=10_000)
    restore.click()
    page.wait_for_function(
        "document.querySelector('[data-testid=history-item] .history-message')"
        "?.textContent.startsWith('Restore index.html')",
        timeout=20_000,
    )
    assert "Edited by you" in read(page, "index.html")
    assert read(page, "style.css") == CSS
    preview_h1(page, "Edited by you")
