"""After a reload: interrupted runs are offered for resumption; notices survive once."""

from __future__ import annotations

import pytest

from tests.coordinator.helpers import Clock, FakeRunner
from wiggum.coordinator import Coordinator, HandoffRefused
from wiggum.coordinator.files import NOTICE_PATH, RALPH_STATUS_PATH, STATUS_PATH, parse_status_text
from wiggum.fs import MemoryFileStore
from wiggum.ralph.types import RalphStatus


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def fs(clock) -> MemoryFileStore:
    return MemoryFileStore(clock=clock)


async def _started(fs, clock, runner: FakeRunner, task: str = "Build it", **kw) -> Coordinator:
    """A Coordinator over ``fs`` whose run of ``runner`` is going, its status written."""
    coord = Coordinator(fs, ralph_runner=runner, clock=clock)
    await coord.send_to_ralph(task, **kw)
    await runner.started.wait()
    await coord.flush()
    return coord


async def test_fresh_project_recovers_idle_and_writes_nothing(fs, clock):
    coord = Coordinator(fs, ralph_runner=FakeRunner(), clock=clock)
    rec = await coord.recover_state()
    assert rec.state.status == RalphStatus.IDLE
    assert not rec.interrupted and not rec.resumable
    assert not rec.has_plan and not rec.has_prompt and not rec.notice_pending
    assert rec.message == ""
    assert await fs.list("") == []


async def test_reload_mid_run_offers_resume_and_resumes(fs, clock):
    before = FakeRunner(iterations=3, max_iterations=10)
    old = Coordinator(fs, ralph_runner=before, clock=clock)
    await old.send_to_ralph("Build a landing page")
    await old.write_plan("# Plan\n- hero")
    await before.started.wait()
    await old.flush()
    run_id = old.state.run_id

    # The "reload": a new Coordinator over the same files; the old task is gone
    # as far as the new page knows.
    after = FakeRunner(iterations=1, max_iterations=10)
    new = Coordinator(fs, ralph_runner=after, clock=clock)
    events: list[str] = []
    new.subscribe(lambda e: events.append(e.kind))
    rec = await new.recover_state()
    assert events == ["recovered"]
    assert rec.interrupted and rec.resumable
    assert rec.has_plan and rec.has_prompt
    assert rec.state.label == "interrupted"
    assert rec.state.run_id == run_id
    assert rec.state.iteration == 3 and rec.state.max_iterations == 10
    assert not rec.state.running and not new.is_running
    assert "interrupted at iteration 3 of 10" in rec.message
    assert "resume" in rec.message
    assert "interrupted" in new.check_ralph_status()
    # Never silently restarted.
    assert after.requests == []
    st = parse_status_text(await fs.read_text(STATUS_PATH))
    assert st["state"] == "interrupted" and st["resumable"] == "yes"

    # A second reload still sees it interrupted (not lost).
    again = await Coordinator(fs, ralph_runner=after, clock=clock).recover_state()
    assert again.interrupted and again.resumable

    reply = await new.resume_ralph()
    assert run_id in reply
    assert new.is_running and new.state.running and not new.state.interrupted
    await after.started.wait()
    assert after.requests[0].task is None and after.requests[0].resume is True
    after.release.set()
    state = await new.wait()
    assert state.status == RalphStatus.COMPLETE
    assert state.run_id == run_id

    # The first page's task, still pending in this test loop, is cleaned up.
    await old.stop_ralph()


async def test_resume_without_interrupted_run_is_refused(fs, clock):
    coord = Coordinator(fs, ralph_runner=FakeRunner(), clock=clock)
    await coord.recover_state()
    with pytest.raises(HandoffRefused, match="no interrupted run"):
        await coord.resume_ralph()


async def test_ralph_status_running_without_chief_status_is_interrupted(fs, clock):
    await fs.write_text(RALPH_STATUS_PATH, "running\n")
    coord = Coordinator(fs, ralph_runner=FakeRunner(), clock=clock)
    rec = await coord.recover_state()
    assert rec.interrupted and rec.resumable


async def test_loop_finished_after_our_last_write_is_believed(fs, clock):
    runner = FakeRunner()
    old = await _started(fs, clock, runner, "Build it")
    # The loop recorded its own end, then the page died before the Coordinator did.
    clock.now += 30
    await fs.write_text(RALPH_STATUS_PATH, "complete\n")
    await fs.write_text(".ralph/summary.md", "Made the page.\n")
    new = Coordinator(fs, ralph_runner=FakeRunner(), clock=clock)
    rec = await new.recover_state()
    assert not rec.interrupted and not rec.resumable
    assert rec.state.status == RalphStatus.COMPLETE
    assert rec.notice_pending
    notice = await new.post_build_notice()
    assert "Ralph finished the build" in notice and "Made the page." in notice
    await old.stop_ralph()


async def test_stale_finished_status_from_previous_run_is_ignored(fs, clock):
    await fs.write_text(RALPH_STATUS_PATH, "complete\n")  # the previous run's end
    clock.now += 60
    runner = FakeRunner()
    old = await _started(fs, clock, runner, "Second build")
    rec = await Coordinator(fs, ralph_runner=FakeRunner(), clock=clock).recover_state()
    assert rec.interrupted and rec.resumable
    await old.stop_ralph()


async def test_finished_run_recovers_its_result(fs, clock):
    runner = FakeRunner()
    old = Coordinator(fs, ralph_runner=runner, clock=clock)
    await old.send_to_ralph("Build it")
    runner.release.set()
    await old.wait()
    new = Coordinator(fs, ralph_runner=FakeRunner(), clock=clock)
    rec = await new.recover_state()
    assert rec.state.status == RalphStatus.COMPLETE and not rec.interrupted
    assert rec.state.last_result is not None
    assert rec.state.run_id == old.state.run_id
    assert "Summary: Built a one-page portfolio" in new.check_ralph_status()
    assert rec.message.startswith("Ralph finished building")


async def test_cancelled_run_is_resumable_after_reload(fs, clock):
    runner = FakeRunner()
    old = Coordinator(fs, ralph_runner=runner, clock=clock)
    await old.send_to_ralph("Build it")
    await runner.started.wait()
    await old.stop_ralph()
    after = FakeRunner()
    new = Coordinator(fs, ralph_runner=after, clock=clock)
    rec = await new.recover_state()
    assert rec.state.status == RalphStatus.CANCELLED
    assert not rec.interrupted and rec.resumable
    await new.resume_ralph()
    after.release.set()
    await new.wait()
    assert after.requests[0].resume is True


async def test_post_build_notice_once_and_across_reload(fs, clock):
    await fs.write_text(".ralph/feedback.md", "The links gate failed: about.html missing.\n")
    runner = FakeRunner()
    coord = Coordinator(fs, ralph_runner=runner, clock=clock)
    assert await coord.post_build_notice() is None
    await coord.send_to_ralph("Build it")
    assert await coord.post_build_notice() is None  # nothing while running
    runner.release.set()
    await coord.wait()
    assert coord.notice_banner().startswith("Ralph finished building")

    # Reload before Chief saw it: the notice survives.
    reloaded = Coordinator(fs, ralph_runner=FakeRunner(), clock=clock)
    rec = await reloaded.recover_state()
    assert rec.notice_pending
    text = await reloaded.post_build_notice()
    assert text is not None
    assert "Ralph finished the build after 2 of 5 iterations" in text
    assert "Built a one-page portfolio" in text
    assert "Files created: index.html, style.css" in text
    assert "links: about.html is linked but missing" in text
    assert "The links gate failed: about.html missing." in text
    assert "Ask ONE question" in text
    # Consumed: not again, not after another reload.
    assert await reloaded.post_build_notice() is None
    assert not await fs.exists(NOTICE_PATH)
    third = Coordinator(fs, ralph_runner=FakeRunner(), clock=clock)
    assert not (await third.recover_state()).notice_pending
    assert await third.post_build_notice() is None


async def test_unreadable_chief_files_do_not_break_recovery(fs, clock):
    await fs.write_text(NOTICE_PATH, "{not json")
    await fs.write_text(".chief/last_result.json", "[]")
    await fs.write_text(STATUS_PATH, "state: complete\niteration: x\n")
    rec = await Coordinator(fs, ralph_runner=FakeRunner(), clock=clock).recover_state()
    assert rec.state.status == RalphStatus.COMPLETE
    assert rec.state.iteration == 0
    assert not rec.notice_pending


async def test_understands_the_loops_status_format(fs, clock):
    from wiggum.ralph.state import StatusRecord, format_status

    runner = FakeRunner()
    old = await _started(fs, clock, runner, "Build it")
    started = old.state.started_at

    def record(status, updated):
        return format_status(
            StatusRecord(
                status=status, iteration=4, run_id="loop-1", max_iterations=5, updated=updated
            )
        )

    # Stamped before our run started: the previous run's file, so still interrupted.
    await fs.write_text(RALPH_STATUS_PATH, record(RalphStatus.COMPLETE, started - 5))
    rec = await Coordinator(fs, ralph_runner=FakeRunner(), clock=clock).recover_state()
    assert rec.interrupted
    # Stamped after: the loop finished this run.
    await fs.write_text(STATUS_PATH, "state: running\nrun_id: r\n" + f"started_at: {started}\n")
    await fs.write_text(RALPH_STATUS_PATH, record(RalphStatus.MAX_ITERATIONS, started + 5))
    rec = await Coordinator(fs, ralph_runner=FakeRunner(), clock=clock).recover_state()
    assert not rec.interrupted
    assert rec.state.status == RalphStatus.MAX_ITERATIONS
    assert rec.notice_pending
    await old.stop_ralph()


async def _contents(fs) -> dict[str, str]:
    return {p: await fs.read_text(p) for p in await fs.list("", recursive=True)}


async def test_a_tab_watching_another_tabs_run_sees_it_going_and_writes_nothing(fs, clock):
    """The tab that owns the project runs Ralph; a paused tab reads his state
    from the same files: running (not interrupted), and the files untouched."""
    runner = FakeRunner(iterations=2, max_iterations=10)
    owner = await _started(fs, clock, runner, "Build a landing page", plan_summary="A landing page")

    watcher = Coordinator(fs, ralph_runner=FakeRunner(), clock=clock)
    events: list[str] = []
    watcher.subscribe(lambda e: events.append(e.kind))
    before = await _contents(fs)
    state = await watcher.watch_state()
    assert events == ["recovered"]
    assert state.running and not state.interrupted and not state.resumable
    assert state.iteration == 2 and state.max_iterations == 10
    assert state.run_id == owner.state.run_id
    assert state.handoff_summary == "A landing page"
    assert await _contents(fs) == before

    # The run ends there: the watcher reads its end, and leaves the notice to it.
    runner.release.set()
    await owner.wait()
    before = await _contents(fs)
    state = await watcher.watch_state()
    assert state.status == RalphStatus.COMPLETE and not state.running
    assert state.last_result is not None and state.last_result.status == RalphStatus.COMPLETE
    assert await _contents(fs) == before


async def test_a_watching_tab_shows_an_interrupted_run_as_interrupted(fs, clock):
    """The owner reloaded and recovered the run as interrupted: the paused tab
    offers it as the owner does (its Resume asks to take the project over)."""
    runner = FakeRunner(iterations=3, max_iterations=10)
    old = await _started(fs, clock, runner, "Build it")
    await Coordinator(fs, ralph_runner=FakeRunner(), clock=clock).recover_state()

    state = await Coordinator(fs, ralph_runner=FakeRunner(), clock=clock).watch_state()
    assert state.interrupted and state.resumable and not state.running
    assert state.iteration == 3
    await old.stop_ralph()


async def test_a_watching_tab_believes_the_loops_end_but_makes_no_notice(fs, clock):
    runner = FakeRunner()
    owner = await _started(fs, clock, runner, "Build it")
    # The loop wrote its end; the owner's Coordinator has not written its own yet.
    clock.now += 30
    await fs.write_text(RALPH_STATUS_PATH, "complete\n")
    before = await _contents(fs)
    state = await Coordinator(fs, ralph_runner=FakeRunner(), clock=clock).watch_state()
    assert state.status == RalphStatus.COMPLETE and not state.interrupted
    assert await _contents(fs) == before  # no notice written by the watcher
    await owner.stop_ralph()
