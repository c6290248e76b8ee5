"""The preview's console and Checks panel, and what the preview shows, under CPython."""

from __future__ import annotations

import asyncio
from typing import Any

from wiggum.fs import MemoryFileStore
from wiggum.persist import MemoryAppStorage
from wiggum.preview.runtime import CONSOLE_MESSAGE
from wiggum.preview.storage import STORAGE_MESSAGE
from wiggum.ralph.site_checks import SiteReport
from wiggum.ralph.types import GateIssue, GateResult
from wiggum.session.preview import PreviewState
from wiggum.session.site_fix import Problem
from wiggum.session.site_panels import SitePanels
from wiggum.session.site_storage import SiteStorages
from wiggum.ui.markup.checks import CHECKING, NOT_RUN
from wiggum.ui.tree import walk

ERROR = {
    "level": "error",
    "kind": "error",
    "text": "TypeError: out is null",
    "file": "js/app.js",
    "line": 5,
    "stack": "at js/app.js:5",
    "page": "index.html",
}
MISSING = {"level": "error", "kind": "resource", "text": "not loaded: <img> img/x.png"}
PAGE = "<!DOCTYPE html>\n<html>\n<body>\n<img src='img/x.png'>\n</body>\n</html>\n"
REPORT = SiteReport(
    [
        GateResult(gate="html_parses", passed=True),
        GateResult(
            gate="page_basics",
            passed=False,
            issues=[GateIssue(path="index.html", line=6, message="no alt", hint="add alt")],
        ),
        GateResult(gate="browser", passed=True, message="not run: TimeoutError: "),
    ]
)


class Actions:
    def __init__(self) -> None:
        self.fixed: list[tuple[Problem, list[str]]] = []
        self.asked: list[Problem] = []

    def fix(self, problem: Problem, recent: list[str]) -> None:
        self.fixed.append((problem, recent))

    def ask(self, problem: Problem) -> None:
        self.asked.append(problem)


def panels(actions: Any = None, run_checks: Any = None) -> tuple[SitePanels, list[str]]:
    """Panels whose draws are recorded, and spawned tasks run on the test's loop."""
    site = SitePanels(None, actions, run_checks, lambda coro, what: asyncio.ensure_future(coro))
    drawn: list[str] = []
    site.draw = drawn.append
    return site, drawn


def texts(rows: list[Any], testid: str) -> list[str]:
    return [
        "".join(c for c in n.children if isinstance(c, str))
        for row in rows
        for n in walk(row)
        if n.attrs.get("data-testid") == testid
    ]


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0.06)


async def test_the_sites_messages_reach_its_storage_and_console_and_nothing_else_does():
    app = MemoryAppStorage()
    project = await app.create_project("One")
    site = SitePanels(SiteStorages(app))
    site.open(project["id"])
    fs = MemoryFileStore()
    assert site.take(STORAGE_MESSAGE, {"area": "local", "items": {"k": "v"}}, fs, "index.html")
    assert site.take(STORAGE_MESSAGE, {"area": "local", "items": {"k": 1}}, fs, "index.html")
    assert site.take(STORAGE_MESSAGE, "not a dict", fs, "index.html")
    assert site.storage.areas["local"] == {"k": "v"}
    await site.storage.saved()
    # Another project's site starts empty; the first one's kept its own.
    other = await app.create_project("Two")
    site.open(other["id"])
    assert (await site.storage.snapshot())["local"] == {}
    assert site.take(CONSOLE_MESSAGE, ERROR, fs, "index.html")
    assert site.take(CONSOLE_MESSAGE, {**ERROR, "line": "5"}, fs, "index.html")
    assert [e.where for e in site.console.entries] == ["js/app.js:5"]
    assert not site.take("wiggum-preview-nav", {"path": "a.html"}, fs, "index.html")


async def test_a_file_the_page_could_not_load_is_placed_where_the_page_names_it():
    fs = MemoryFileStore({"index.html": PAGE})
    site, _ = panels()
    site.take(CONSOLE_MESSAGE, MISSING, fs, "index.html")
    await settle()
    assert [e.where for e in site.console.entries] == ["index.html:4"]
    # One that arrives from a page since reloaded is dropped.
    site.take(CONSOLE_MESSAGE, {**MISSING, "text": "not loaded: <img> img/y.png"}, fs, "index.html")
    site.clear()
    await settle()
    assert site.console.entries == []


async def test_a_burst_of_messages_is_drawn_once():
    site, drawn = panels()
    fs = MemoryFileStore()
    for n in range(50):
        site.take(CONSOLE_MESSAGE, {**ERROR, "text": f"e{n}"}, fs, "index.html")
    site.show_report(REPORT)
    await settle()
    assert sorted(drawn) == ["checks", "console", "map", "probes"]
    rows, summary = site.shown("console")
    assert len(rows) == 50 and summary == "50 errors"
    site.clear()
    rows, summary = site.shown("console")
    assert texts(rows, "console-empty") and summary == ""


async def test_a_round_of_checks_lists_every_issue_of_the_checks_that_failed():
    site, _ = panels()
    assert site.shown("checks") == ([], NOT_RUN)
    site.show_report(REPORT)
    rows, summary = site.shown("checks")
    assert texts(rows, "checks-where") == ["index.html:6"]
    assert summary == "1 problem in 1 of 2 checks."  # the check not run is not counted


async def test_fix_ask_and_run_checks_do_what_their_row_says():
    actions = Actions()
    runs: list[int] = []

    async def run_checks() -> None:
        runs.append(1)

    site, _ = panels(actions, run_checks)
    fs = MemoryFileStore()
    site.take(
        CONSOLE_MESSAGE, {**ERROR, "level": "log", "kind": "console", "text": "ready"}, fs, ""
    )
    site.take(CONSOLE_MESSAGE, ERROR, fs, "index.html")
    site.show_report(REPORT)
    site.press("console-fix", "1")
    problem, recent = actions.fixed[-1]
    assert (problem.text, problem.where, problem.stack) == (
        ERROR["text"],
        "js/app.js line 5",
        ERROR["stack"],
    )
    assert problem.what == "An uncaught error in the preview"
    assert recent == ["[log] ready (js/app.js:5)", f"[error] {ERROR['text']} (js/app.js:5)"]
    site.press("console-ask", "1")
    assert actions.asked == [problem]
    site.press("checks-fix", "0")
    check, recent = actions.fixed[-1]
    assert (check.what, check.where, check.hint, recent) == (
        "A site check (Page basics)",
        "index.html line 6",
        "add alt",
        [],
    )
    for action, row in (("console-fix", "7"), ("checks-fix", None), ("console-ask", "-1")):
        site.press(action, row)
    assert len(actions.fixed) == 2 and len(actions.asked) == 1
    site.press("checks-run", None)
    assert site.checks_summary == CHECKING
    await settle()
    assert runs == [1]
    site.press("console-clear", None)
    assert site.console.entries == [] and not site.console.recent


async def test_the_latest_load_wins_and_a_page_the_frame_shows_is_not_loaded_again():
    app = MemoryAppStorage()
    project = await app.create_project("One")
    state = PreviewState(SitePanels(SiteStorages(app)))
    state.site.open(project["id"])
    state.site.storage.apply("local", {"todos": "[1]"})
    fs = MemoryFileStore({"index.html": "<p>a</p>", "b.html": "<p>b</p>"})
    first, second = state.begin(), state.begin()
    assert await state.load(fs, "b.html", first) is None  # a later load came
    page = await state.load(fs, "index.html", second)
    assert page is not None and state.path == "index.html"
    # The page goes with its storage; what "unchanged" compares is the page alone.
    assert "todos" in state.html and "todos" not in page.html and ">a</p>" in state.html
    # Not started yet: a refresh for changed files loads it again.
    assert await state.load(fs, "index.html", state.begin(), if_changed=True) is not None
    state.started = True
    state.errors.append("boom")
    assert await state.load(fs, "index.html", state.begin(), if_changed=True) is None
    assert state.errors == ["boom"]
    await fs.write_text("index.html", "<p>changed</p>")
    assert await state.load(fs, "index.html", state.begin(), if_changed=True) is not None
    assert state.errors == [] and not state.started
