"""Not committed: before/after screenshots and DOM dumps for the trim work."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from wiggum_e2e import booted_page, run_async, set_size, tid

from tests.sim import Simulator, ToolCall, Turn

pytestmark = pytest.mark.e2e
OUT = Path(os.environ.get("TRIM_SHOTS", "/tmp/trim/before"))
REPLY = "# Plan\n\nSome *words* and `code`.\n\n```python\nx = 1\nprint(x)\n```\n\n| a | b |\n|:--|--:|\n| 1 | 2 |\n\nThe end.\n"
SITE = {
    "index.html": "<!doctype html><title>Hi</title><h1>Hello</h1>",
    "style.css": "h1{color:red}",
}
COMPLETION = (
    '{"status": "complete", "summary": "Built it.", "files_created": ["index.html", "style.css"]}'
)


def dump(page, name):
    html = page.evaluate("document.getElementById('app').outerHTML")
    html = re.sub(r'data-saved-at="\d+"', "", html)
    (OUT / f"{name}.html").write_text(html)


def test_shots(browser, base_url):
    OUT.mkdir(parents=True, exist_ok=True)
    with Simulator() as sim, booted_page(browser, base_url) as page:
        page.wait_for_selector('[data-mounted="true"]', timeout=30_000)
        sim.script(
            [
                Turn(REPLY),
                Turn(
                    "Writing.",
                    *[ToolCall("write_file", {"path": p, "content": c}) for p, c in SITE.items()],
                ),
                Turn(COMPLETION),
                Turn(COMPLETION),
                Turn("Done, see Ralph."),
                Turn("ok"),
                Turn("ok"),
            ]
        )
        run_async(
            page,
            f"""
            from wiggum.web.app import APP
            from wiggum.ui.settings import ProviderSettings, Settings
            sim = ProviderSettings(id="sim", name="sim", kind="openai", model="gpt-4o-mini",
                base_url={sim.base_url + "/v1"!r}, api_key="sk-e2e-x", proxy=False)
            await APP.save_settings(Settings(providers=[sim], active_provider="sim"))
            True
        """,
        )
        page.fill(tid("chat-input"), "hello there")
        page.press(tid("chat-input"), "Control+Enter")
        page.wait_for_selector(f'{tid("reply")}[data-status="complete"]', timeout=30_000)
        page.wait_for_function("!document.querySelector('[data-rendering]')")
        page.wait_for_timeout(2500)
        run_async(
            page,
            """
            from wiggum.web.app import APP
            await APP.coordinator.send_to_ralph("Build it.")
            True
        """,
        )
        page.click(tid("tab-ralph"))
        page.wait_for_selector(f'{tid("ralph-badge")}[data-status="complete"]', timeout=60_000)
        page.wait_for_function("document.querySelectorAll('[data-testid=file-entry]').length >= 2")
        page.wait_for_timeout(3000)
        page.click(f'{tid("file-entry")}[data-path="style.css"]')
        page.wait_for_selector(f'{tid("editor")}[data-ready="true"]', timeout=30_000)
        page.wait_for_timeout(1500)
        for w, h in ((1280, 800), (390, 844)):
            set_size(page, w, h)
            page.wait_for_timeout(500)
            page.click(tid("tab-chief"))
            page.wait_for_timeout(300)
            page.screenshot(path=str(OUT / f"chief-{w}.png"))
            dump(page, f"chief-{w}")
            page.click(tid("tab-ralph"))
            page.wait_for_timeout(500)
            if w < 900:
                page.click(tid("ws-tab-files"))
                page.wait_for_timeout(300)
            page.screenshot(path=str(OUT / f"ralph-{w}.png"))
            dump(page, f"ralph-{w}")
        set_size(page, 1280, 800)
        page.click(tid("project-manage"))
        page.locator(tid("project-row")).first.wait_for()
        page.wait_for_timeout(800)
        page.screenshot(path=str(OUT / "projects.png"))
        dump(page, "projects")
        page.keyboard.press("Escape")
        page.click(tid("debug-button"))
        page.wait_for_timeout(500)
        page.screenshot(path=str(OUT / "debug.png"))
        page.keyboard.press("Escape")
