"""Chief and Ralph together in Chromium, scripted through the provider simulator.

One provider (OpenAI dialect).  Chief and Ralph share the simulator's FIFO
queue, so turns are scripted in call order: Chief reserves the provider for
his acknowledgement of a hand-off, so it always goes before Ralph's first
call.  Ralph's loop calls ``chat()`` batch (non-streamed).
"""

from __future__ import annotations

import json

import pytest
from wiggum_e2e import (
    MOUNTED,
    configure,
    in_preview,
    open_app,
    poll,
    run_async,
    send,
    tid,
    wait_requests,
)

from tests.sim import Simulator, ToolCall, Turn

pytestmark = pytest.mark.e2e

KEY = "sk-e2e-SECRET-agents"
MODEL = "gpt-4o-mini"

PLAN = """# Bakery one-pager
- One page: header, menu, contact.
- Warm colours; a button that shows today's special.
"""
TASK = (
    "Build a one-page bakery site: index.html (header, menu, contact), style.css "
    "(warm colours), app.js (a button that shows today's special)."
)
HTML_BROKEN = """<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Bakery</title>
<link rel="stylesheet" href="style.css"></head>
<body><h1>Crumb &amp; Co.</h1><button id="special">Today's special</button>
<script src="missing.js"></script></body>
</html>"""
HTML_FIXED = HTML_BROKEN.replace("missing.js", "app.js")
CSS = "body { background: #fff4e6; color: #4a2c0f; font-family: sans-serif; }\n"
JS = (
    "const special = document.getElementById('special');\n"
    "special.addEventListener('click', () => { special.textContent = 'Cinnamon rolls'; });\n"
)
HEREDOC = f"cat > index.html <<'EOF'\n{HTML_BROKEN}\nEOF"
COMPLETION = json.dumps(
    {
        "status": "complete",
        "summary": "Built the bakery page with a menu and a special button.",
        "files_created": ["index.html", "style.css", "app.js"],
    }
)


@pytest.fixture
def sim():
    """A simulator per test: each test opens a page of its own."""
    with Simulator() as s:
        yield s


def wait_replies(page, n: int, timeout: float = 20_000) -> None:
    """Wait until ``n`` replies (rounds: one per call, inside each turn's block) have ended."""
    page.locator(f'{tid("round")}[data-status="complete"]').nth(n - 1).wait_for(timeout=timeout)


def project_files(page) -> dict:
    return run_async(
        page,
        """
        from wiggum.web.app import APP
        fs = APP.storage.files(APP.project_id)
        out = {}
        for p in ("index.html", "style.css", "app.js", ".chief/plan.md"):
            out[p] = (await fs.read_text(p)) if await fs.exists(p) else None
        out
        """,
    )


def wait_stored(page, path: str, text: str, timeout: float = 20.0) -> None:
    """Until the project's stored ``path`` contains ``text`` (written in the background)."""
    poll(
        lambda: run_async(
            page,
            f"""
            from wiggum.web.app import APP
            fs = APP.storage.files(APP.project_id)
            (await fs.read_text({path!r})) if await fs.exists({path!r}) else ""
            """,
        ),
        lambda stored: text in stored,
        f"{path} never held {text!r}",
        timeout,
    )


def test_chief_plans_ralph_builds_reload_resume(app, sim, base_url):
    page = app
    configure(page, sim, KEY, model=MODEL)

    # --- Chief looks, saves the plan, proposes it
    sim.script(
        [
            Turn(ToolCall("list_files", {"path": "."})),
            Turn(ToolCall("write_plan", {"content": PLAN})),
            Turn("Here's the plan: one page, warm colours. Say **go** when you're ready."),
        ]
    )
    send(page, "I'd like a one-page site for my bakery.")
    wait_replies(page, 3)
    calls = page.locator(tid("chief-tool-call"))
    assert calls.count() == 2
    assert calls.nth(0).get_attribute("data-tool") == "list_files"
    assert calls.nth(1).get_attribute("data-tool") == "write_plan"
    assert "Saved the plan" in calls.nth(1).text_content()
    assert "Say go" in page.locator(tid("reply")).last.text_content()

    # --- "go": hand-off; Ralph writes the files, a gate fails, the slow fix is interrupted
    sim.script(
        [
            Turn(ToolCall("send_to_ralph", {"prompt": TASK, "plan_summary": "Bakery one-pager"})),
            Turn("Ralph is building it now — watch his tab."),
            Turn(
                "Writing the page, the styles and the script.",
                ToolCall("shell", {"command": HEREDOC}),
                ToolCall("write_file", {"path": "style.css", "content": CSS}),
                ToolCall("write_file", {"path": "app.js", "content": JS}),
                usage=(800, 300),
            ),
            Turn(COMPLETION, usage=(900, 60)),
            Turn(
                "The page loads missing.js; pointing it at app.js.",
                ToolCall("write_file", {"path": "index.html", "content": HTML_FIXED}),
                ttfb=8,
            ),
        ]
    )
    send(page, "go")
    page.wait_for_selector(f'{tid("tab-ralph")}[aria-selected="true"]', timeout=20_000)
    transcript = page.locator(tid("ralph-transcript"))
    page.wait_for_selector(f'{tid("ralph-iteration")}[data-iteration="2"]', timeout=30_000)
    it1 = page.locator(f'{tid("ralph-iteration")}[data-iteration="1"]')
    tools = [it1.locator(tid("ralph-action")).nth(i).get_attribute("data-tool") for i in range(3)]
    assert tools == ["shell", "write_file", "write_file"]
    assert "cat > index.html" in it1.locator(tid("ralph-action")).first.text_content()
    gates = it1.locator(tid("ralph-gates"))
    assert gates.get_attribute("data-passed") == "false"
    assert "missing.js" in gates.text_content()
    assert page.locator(tid("ralph-badge")).text_content().startswith("● [2/20]")
    assert page.locator(tid("ralph-stop")).is_visible()
    # the slow iteration-2 call is out: reload in the middle of it
    wait_requests(sim, 8, timeout=45.0, page=page)
    wait_stored(page, ".chief/status.txt", "iteration: 2")  # what the reload reads back
    open_app(page, base_url, reload=True)
    page.wait_for_selector(MOUNTED, timeout=30_000)

    # --- after the reload: nothing lost, nothing restarted, a resume is offered
    assert page.locator(tid("message-user")).count() == 2
    assert page.locator(tid("chief-tool-call")).count() == 3
    page.click(tid("tab-ralph"))
    banner = page.locator(tid("ralph-resume"))
    banner.wait_for(state="visible", timeout=15_000)
    assert "interrupted at iteration 2/20" in banner.text_content()
    assert page.locator(tid("ralph-badge")).text_content().startswith("⏸")
    assert transcript.locator(tid("ralph-action")).count() == 3
    files = project_files(page)
    assert "missing.js" in (files["index.html"] or "")
    assert files["style.css"] == CSS and files["app.js"] == JS
    assert "Bakery one-pager" in files[".chief/plan.md"]
    page.wait_for_timeout(500)  # pumps routed requests (a sleep would hold them back)
    assert len(sim.chat_requests) == 8  # not restarted behind the person's back

    # --- resume: the fix, the checks pass, Ralph is done, Chief hears of it
    sim.script(
        [
            Turn(
                "The page loads missing.js; pointing it at app.js.",
                ToolCall("write_file", {"path": "index.html", "content": HTML_FIXED}),
                usage=(700, 200),
            ),
            Turn(COMPLETION, usage=(750, 60)),
            Turn("Ralph finished your bakery page: index.html, style.css and app.js."),
        ]
    )
    page.click(tid("ralph-resume-button"))
    page.wait_for_function(
        "document.querySelector('[data-testid=ralph-badge]').textContent === '✓ DONE'",
        timeout=30_000,
    )
    summary = page.locator(tid("ralph-summary"))
    summary.wait_for(state="visible")
    assert "Built the bakery page" in summary.text_content()
    assert "iteration" in summary.text_content()
    it2 = page.locator(f'{tid("ralph-iteration")}[data-iteration="2"]').last
    assert it2.locator(tid("ralph-gates")).get_attribute("data-passed") == "true"
    assert page.locator(tid("ralph-stop")).is_hidden()
    assert "$" in page.locator(tid("ralph-total")).text_content()
    files = project_files(page)
    assert "app.js" in files["index.html"] and "missing.js" not in files["index.html"]
    tree = page.locator(f"{tid('ralph-workspace')} {tid('file-tree')}")
    for name in ("index.html", "style.css", "app.js"):
        tree.get_by_text(name, exact=True).first.wait_for(timeout=10_000)
    # the preview shows the built page, styled, its script running.  The preview
    # refreshes (a fresh frame) once Ralph's last write lands, so a frame read
    # first may still hold iteration 1's page, whose script was missing.
    frame = page.frame_locator(f"{tid('ralph-workspace')} {tid('preview-frame')}")
    special = frame.locator("#special")

    def built_page_runs() -> bool:
        if frame.locator("h1").text_content(timeout=2_000) != "Crumb & Co.":
            return False
        body = frame.locator("body").evaluate("b => getComputedStyle(b).backgroundColor")
        assert body == "rgb(255, 244, 230)"
        special.click(timeout=2_000)
        return special.text_content(timeout=2_000) == "Cinnamon rolls"

    in_preview(built_page_runs, "ran the built page's script")

    page.click(tid("tab-chief"))
    notice = page.locator(tid("chief-notice"))
    notice.wait_for(state="visible", timeout=15_000)
    assert "Ralph finished — ask me about the results" in notice.text_content()
    # Chief was told, in a short turn of his own
    wait_replies(page, 6, timeout=30_000)
    assert "Ralph finished your bakery page" in page.locator(tid("reply")).last.text_content()
    note_req = sim.chat_requests[-1].json["messages"]
    assert any(m["role"] == "user" and "Ralph" in str(m.get("content")) for m in note_req[-2:]), (
        note_req[-2:]
    )


def test_ralph_stall_stops_the_run(app, sim):
    page = app
    configure(page, sim, KEY, model=MODEL)
    same = Turn("Looking around.", ToolCall("list_files", {"path": "."}))
    sim.script([same] * 5 + [Turn("Ralph got stuck repeating himself.")])
    out = run_async(
        page,
        """
        from wiggum.web.app import APP
        await APP.coordinator.send_to_ralph("Build a tiny page.")
        """,
    )
    assert "started" in out
    page.click(tid("tab-ralph"))
    page.wait_for_function(
        "document.querySelector('[data-testid=ralph-badge]').textContent === '● STALLED'",
        timeout=30_000,
    )
    stall = page.locator(tid("ralph-stall"))
    assert stall.count() >= 1
    assert "5 times in a row" in stall.last.text_content()
    summary = page.locator(tid("ralph-summary"))
    assert summary.get_attribute("data-status") == "stalled"
    # how the run ended is the transcript's run line (the card says what he did)
    assert "stalled" in page.locator(tid("ralph-run-end")).last.text_content().lower()
    assert page.locator(tid("ralph-badge")).get_attribute("data-status") == "stalled"
    assert len(sim.chat_requests) >= 5
    assert page.locator(tid("ralph-stop")).is_hidden()
    # Chief is told too; the simulator must outlive that turn (the run's last work).
    page.locator(tid("reply")).filter(has_text="Ralph got stuck").wait_for(
        state="attached", timeout=30_000
    )
