"""The Probes panel and the site map as the person sees them, and a probe's
page in a frame (what it is handed, what its messages mean), under CPython."""

from __future__ import annotations

import json
from typing import Any

from tests.session.test_site_panels import Actions, panels, settle, texts
from wiggum.coordinator.contract import Unprobed
from wiggum.fs import MemoryFileStore
from wiggum.preview.runtime import CONSOLE_MESSAGE, ERROR_MESSAGE, NAV_MESSAGE
from wiggum.preview.storage import STORAGE_MESSAGE
from wiggum.ralph.probe_page import READY_MESSAGE, FramedProbePage, probe_site
from wiggum.ralph.probes import ProbeResult
from wiggum.ralph.site_checks import SiteReport
from wiggum.ralph.site_graph import build_graph
from wiggum.ui.markup.probes import MAP_NOT_RUN, NOT_RUN, RUNNING

FAILING = ProbeResult(
    file=".ralph/checks/add.json",
    criterion="An added to-do shows in the list",
    passed=False,
    step=2,
    step_text='click the button "Add"',
    seen="found none",
)
PASSING = ProbeResult(file=".ralph/checks/title.json", criterion="It has a title", passed=True)


async def report() -> SiteReport:
    fs = MemoryFileStore(
        {
            "index.html": '<link rel="stylesheet" href="style.css"><img src="x.png" alt="">'
            '<a href="about.html">About</a>',
            "about.html": "<p>About</p>",
            "style.css": "p{}",
            "old.js": "",
        }
    )
    return SiteReport([], probes=[FAILING, PASSING], graph=await build_graph(fs))


async def test_each_criterion_shows_pass_or_fail_with_its_failing_step():
    site, drawn = panels()
    assert site.shown("probes") == ([], NOT_RUN)
    assert site.shown("map") == ([], MAP_NOT_RUN)
    site.show_report(await report())
    await settle()
    assert {"probes", "map"} <= set(drawn)
    rows, summary = site.shown("probes")
    assert summary == "1 of 2 criteria pass."
    assert texts(rows, "probes-criterion") == [FAILING.criterion, PASSING.criterion]
    assert [r.attrs["data-state"] for r in rows] == ["fail", "pass"]
    assert texts(rows, "probes-step") == ['Step 2: click the button "Add"']
    assert texts(rows, "probes-seen") == ["— found none"]


async def test_a_criterion_ralph_could_not_probe_shows_his_reason():
    site, _ = panels()
    site.show_report(await report())
    site.show_waived([Unprobed(criterion="Pays by card", reason="it needs a payment server")])
    rows, summary = site.shown("probes")
    assert summary == "1 of 2 criteria pass. 1 not probed (Ralph's reason below)."
    assert rows[-1].attrs["data-state"] == "waived"
    assert texts(rows[-1:], "probes-reason") == ["Ralph: it needs a payment server"]


class Rounds:
    """Run checks, counted."""

    def __init__(self) -> None:
        self.count = 0

    async def __call__(self) -> None:
        self.count += 1


async def test_fix_on_a_failing_criterion_gives_ralph_the_step_and_what_was_seen():
    actions, rounds = Actions(), Rounds()
    site, _ = panels(actions, rounds)
    site.show_report(await report())
    site.press("probes-fix", "0")
    problem, recent = actions.fixed[-1]
    assert problem.what == "An acceptance probe" and problem.file == FAILING.file
    assert recent == []
    assert problem.text == (
        'The criterion "An added to-do shows in the list" fails at step 2 '
        '(click the button "Add"): found none'
    )
    site.press("probes-fix", "5")
    assert len(actions.fixed) == 1
    site.press("probes-run", None)
    assert site.shown("probes")[1] == RUNNING
    await settle()
    assert rounds.count == 1
    site.show_report(await report())
    assert site.shown("probes")[1] == "1 of 2 criteria pass."


async def test_the_map_shows_the_pages_what_they_use_and_what_is_missing():
    site, _ = panels()
    site.show_report(await report())
    rows, summary = site.shown("map")
    assert summary == "2 pages, 4 files; 1 broken reference."
    assert texts(rows, "map-path") == ["about.html", "index.html", "Used by no page"]
    index = rows[1]
    refs = [
        ("".join(c for c in n.children if isinstance(c, str)), n.attrs["data-missing"])
        for n in _walk(index)
        if "map-ref" in n.attrs.get("class", "")
    ]
    assert refs == [
        ("style.css", "false"),
        ("✗ x.png (missing)", "true"),
        ("about.html", "false"),
    ]


def _walk(tree: Any) -> list[Any]:
    from wiggum.ui.tree import walk

    return list(walk(tree))


# -- a probe's page in a frame


class Frame:
    """A fake frame: records what it was handed; answers steps from a script."""

    def __init__(self, on_message, answers: list[Any], posts: list[tuple[str, Any]]):
        self.on_message = on_message
        self.answers, self.posts = answers, posts
        self.loaded: list[str] = []
        self.closed = False

    async def load(self, html: str) -> bool:
        self.loaded.append(html)
        return True

    async def step(self, step: dict[str, Any]) -> dict[str, Any] | None:
        for kind, data in self.posts:  # what the page posted while doing the step
            self.on_message(kind, data)
        self.posts.clear()
        return self.answers.pop(0)

    def close(self) -> None:
        self.closed = True


PROBE = {
    "criterion": "A to-do stays after a reload",
    "steps": [
        {"click": {"text": "Add"}},
        {"open": "index.html"},
        {"expect_stored": "todos", "contains": "Milk"},
        {"no_errors": True},
    ],
}


async def test_a_framed_page_keeps_storage_across_opens_and_counts_the_errors():
    fs = MemoryFileStore({"index.html": "<p>Todos</p>", ".ralph/checks/a.json": json.dumps(PROBE)})
    frames: list[Frame] = []
    posts: list[tuple[str, Any]] = [
        (STORAGE_MESSAGE, {"area": "local", "items": {"todos": '["Milk"]'}}),
        (STORAGE_MESSAGE, {"area": "disk", "items": {"x": "y"}}),  # not a shape of ours
    ]

    def make(on_message):
        frames.append(Frame(on_message, [{"found": 1}, {"value": '["Milk"]'}, {}], posts))
        return frames[-1]

    results = await probe_site(fs, make)
    assert results[0].passed, results[0]
    frame = frames[0]
    assert len(frame.loaded) == 2 and frame.closed
    assert "probe.js" not in frame.loaded[0] and 'data-wiggum-preview="probe"' in frame.loaded[0]
    # The second load is seeded with what the first stored.
    assert '["Milk"]' not in frame.loaded[0] and "Milk" in frame.loaded[1]


async def test_a_link_followed_opens_the_next_page_and_errors_fail_no_errors():
    fs = MemoryFileStore({"index.html": "<a href='b.html'>B</a>", "b.html": "<p>B</p>"})
    page = FramedProbePage(fs, lambda on: Frame(on, [{"found": 1}, {}], []))
    assert await page.open("index.html") is None
    page.take(NAV_MESSAGE, {"path": "b.html"})
    seen = await page.do({"click": {"text": "B"}})
    assert page.page == "b.html" and not seen.problem
    page.take(ERROR_MESSAGE, {"message": "TypeError: x is null (b.html:3)"})
    page.take(CONSOLE_MESSAGE, {"level": "error", "kind": "console", "text": "boom"})
    page.take(CONSOLE_MESSAGE, {"level": "log", "kind": "console", "text": "fine"})
    page.take(READY_MESSAGE, "not a dict")
    seen = await page.do({"no_errors": True})
    assert seen.errors == ["TypeError: x is null (b.html:3)", "boom"]
    assert await page.open("nope.html") == "nope.html is not in the project"


async def test_a_page_that_does_not_answer_fails_the_step_saying_so():
    fs = MemoryFileStore({"index.html": "<p>x</p>"})
    page = FramedProbePage(fs, lambda on: Frame(on, [None], []))
    await page.open("index.html")
    seen = await page.do({"expect_text": "x"})
    assert seen.problem == "index.html did not answer (it may be stuck in a loop)"
