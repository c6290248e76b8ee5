"""Reading a run back and bisecting it: a scripted run over the provider
simulator, real checkpoints in git, the site checks searched over them."""

from __future__ import annotations

import pytest
from fakes import ProjectRig, sim_settings

from tests.bakery_run import INTENTS, RUN
from wiggum.fs import MemoryFileStore
from wiggum.project.bisect import bisect, fails
from wiggum.project.history import History
from wiggum.ralph.transcript import CheckpointEvent
from wiggum.ralph.types import GateIssue
from wiggum.session.run_review import (
    checkpoint_diffs,
    find_breaking,
    issue_check,
    step_files,
)
from wiggum.ui.runs import run_rows, steps_by_checkpoint


def broken_link(path: str = "index.html") -> GateIssue:
    return GateIssue(path=path, message="")


async def scripted_run(sim, transport, turns, load_packages=None):
    """The run over the simulator in a project session (``load_packages``: the
    host's, for a slow first load of git's code)."""
    rig = ProjectRig(sim_settings(sim), transport=transport)
    if load_packages is not None:
        rig.host.load_packages = load_packages
    await rig.open()
    sim.script(turns)
    await rig.session.coordinator.send_to_ralph("Build the bakery's site.")
    await rig.session.coordinator.wait()
    await rig.host.settle()
    await rig.session.transcript.flush()
    return rig


async def title_issue(fs) -> GateIssue:
    """The issue the Checks panel shows now for the home page's missing title."""
    check = issue_check("page_basics", GateIssue(path="index.html", message="x"))
    assert not await fails(check, fs)  # words that are never found: it passes
    from wiggum.ralph.site_checks import PageBasicsGate

    result = await PageBasicsGate().check(fs)
    (found,) = [i for i in result.issues if "<title>" in i.message]
    return found


async def test_each_iteration_of_a_run_is_paired_with_its_checkpoint(sim, transport):
    rig = await scripted_run(sim, transport, RUN)
    (row,) = run_rows(rig.session.transcript.events)
    history = await rig.session.history.history()
    checkpoints = {cp.id: cp for cp in await history.list()}
    steps = row.steps
    assert [steps[i].intent for i in range(1, 6)] == INTENTS
    for i, path, kind in [(1, "index.html", "added"), (4, "index.html", "modified")]:
        cp = checkpoints[steps[i].checkpoint]
        assert cp.author == f"Ralph iteration {i}"
        assert [(f.path, f.kind) for f in cp.files if not f.path.startswith(".")] == [(path, kind)]
        assert (path, kind) in step_files(steps[i])
    # The run list counts the site's files; Chief's and Ralph's notes are left out.
    assert (steps[1].added, steps[1].changed, steps[1].removed) == (["index.html"], [], [])
    # Every checkpoint of the run is one iteration's, named in the transcript.
    events = [e for e in rig.session.transcript.events if isinstance(e, CheckpointEvent)]
    assert {e.checkpoint for e in events} <= set(checkpoints)
    assert len(events) == len({e.iteration for e in events})
    diffs = await checkpoint_diffs(rig.session.history, steps[4].checkpoint, [("index.html", "x")])
    assert (
        diffs[0].added == 0 and diffs[0].removed == 1 and "-<title>Bakery</title>" in diffs[0].text
    )


async def test_bisect_finds_the_iteration_that_broke_a_site_check(sim, transport):
    rig = await scripted_run(sim, transport, RUN)
    issue = await title_issue(rig.session.fs)
    steps = steps_by_checkpoint(run_rows(rig.session.transcript.events))
    calls_before = len(sim.requests)
    history = await rig.session.history.history()
    head = (await history.list(1))[0].id
    answer = await find_breaking(rig.session.history, issue_check("page_basics", issue), steps)
    assert answer.verdict == "found", answer.text
    assert answer.who == "Ralph's iteration 4" and answer.intent == "Shorten the home page's head."
    assert "Broken by Ralph's iteration 4" in answer.text
    assert [f.path for f in answer.files if not f.path.startswith(".")] == ["index.html"]
    assert "-" in answer.files[0].text and answer.files[0].removed == 1
    # No model call, nothing written: the history's head is where it was.
    assert len(sim.requests) == calls_before
    assert (await history.list(1))[0].id == head


async def test_bisect_says_when_a_check_fails_everywhere_or_nowhere(sim, transport):
    rig = await scripted_run(sim, transport, RUN)
    history = rig.session.history
    everywhere = await find_breaking(history, lambda fs: False)
    assert everywhere.verdict == "fails-everywhere" and "fails everywhere" in everywhere.text
    nowhere = await find_breaking(history, lambda fs: [])
    assert nowhere.verdict == "passes-now" and "passes at the last checkpoint" in nowhere.text
    assert not nowhere.files


async def test_bisect_reads_few_checkpoints_and_takes_any_callable():
    """A 40-checkpoint history: the break is found in log2(40) + 2 reads."""
    fs = MemoryFileStore()
    history = History(fs)
    for n in range(40):
        await fs.write_text("count.txt", str(n))
        await history.commit("you", f"count {n}")
    read = []
    files_at = history.files_at

    async def counting(cid):
        read.append(cid)
        return await files_at(cid)

    history.files_at = counting

    async def below_27(store):  # an async check answering True/False
        return int(await store.read_text("count.txt")) < 27

    found = await bisect(history, below_27)
    assert found.verdict == "found" and found.broke.message == "count 27"
    assert found.good.message == "count 26" and found.tried == len(read) <= 8
    assert (await bisect(history, lambda store: [])).verdict == "passes-now"
    with pytest.raises(TypeError):
        await bisect(history, lambda store: "yes")


async def test_no_checkpoints_and_an_unreadable_history_are_said():
    fs = MemoryFileStore()

    class Source:
        async def history(self):
            return History(fs)

    answer = await find_breaking(Source(), lambda store: False)
    assert answer.verdict == "no-checkpoints" and "no checkpoints" in answer.text

    class Broken:
        async def history(self):
            raise RuntimeError("disk on fire")

    answer = await find_breaking(Broken(), lambda store: False)
    assert answer.verdict == "error" and "Nothing was changed" in answer.text
    assert "fire" not in answer.text


def test_a_browser_check_needs_the_browser_and_an_unknown_check_is_refused():
    with pytest.raises(ValueError, match="browser"):
        issue_check("overflow", broken_link())
    with pytest.raises(ValueError, match="no site check"):
        issue_check("nonsense", broken_link())


async def test_the_checks_panel_finds_the_iteration_from_a_failing_issue(sim, transport):
    """The app's panels (``site_panels``) over a project after a scripted run: the
    issue's "Find the iteration that broke this" shows the answer above the issues."""
    import asyncio

    from wiggum.session.site_panels import site_panels
    from wiggum.ui.markup.checks import BISECT_LABEL, SEARCHING
    from wiggum.ui.tree import walk

    rig = await scripted_run(sim, transport, RUN)
    project = rig.session
    site = site_panels(
        None, project, lambda text: None, lambda coro, what: asyncio.ensure_future(coro)
    )
    drawn: list[str] = []
    site.draw = drawn.append
    site.show_report(await project.ralph.check_site(project.fs))
    rows, _ = site.shown("checks")
    labels = [
        n.children[0]
        for row in rows
        for n in walk(row)
        if n.attrs.get("data-action") == "checks-bisect"
    ]
    assert labels and set(labels) == {BISECT_LABEL}
    title = next(n for n, (_, i) in enumerate(site.issues) if "<title>" in i.message)
    site.press("checks-bisect", str(title))
    assert site.bisected == SEARCHING
    for _ in range(200):
        await asyncio.sleep(0.01)
        if not isinstance(site.bisected, str):
            break
    rows, _ = site.shown("checks")
    answer = rows[0]
    assert (
        answer.attrs["data-testid"] == "checks-bisect" and answer.attrs["data-verdict"] == "found"
    )
    text = " ".join(c for n in walk(answer) for c in n.children if isinstance(c, str))
    assert "Broken by Ralph's iteration 4" in text and "Shorten the home page's head." in text
    paths = [
        n.attrs["data-path"]
        for n in walk(answer)
        if n.attrs.get("data-testid") == "ralph-file-diff"
    ]
    assert paths == ["index.html"]
    assert len(rows) == len(site.issues) + 1


async def test_a_slow_checkpoint_holds_its_own_iteration_and_no_more(sim, transport):
    """The page loads git's code (dulwich) on the first checkpoint, which takes a
    while: the next iteration's call waits for it, so iteration 1's checkpoint
    does not take iteration 2's files too."""
    import asyncio

    loads = 0

    async def slow_load(*names):
        nonlocal loads
        loads += 1
        await asyncio.sleep(0.3)

    rig = await scripted_run(sim, transport, RUN, slow_load)
    (row,) = run_rows(rig.session.transcript.events)
    added = {i: s.added + s.changed for i, s in row.steps.items() if s.checkpoint}
    assert loads and added == {
        1: ["index.html"],
        2: ["menu.html"],
        3: ["style.css"],
        4: ["index.html"],
        5: ["footer.txt"],
        6: [],  # the report: only his notes changed
    }
