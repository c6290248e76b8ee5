"""Coordinator: run lifecycle, status snapshots, subscriptions, .chief/ files."""

from __future__ import annotations

import asyncio
import json

import pytest

from tests.coordinator.helpers import Clock, FakeRunner, complete_result
from wiggum.coordinator import Coordinator, CoordinatorEvent, HandoffRefused
from wiggum.coordinator.files import (
    NOTICE_PATH,
    PLAN_PATH,
    PROMPT_PATH,
    RESULT_PATH,
    STATUS_PATH,
    parse_status_text,
)
from wiggum.fs import MemoryFileStore
from wiggum.llm import UsageData
from wiggum.ralph.types import RalphCallbacks, RalphResult, RalphStatus


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def fs(clock) -> MemoryFileStore:
    return MemoryFileStore(clock=clock)


def make(fs, clock, runner, **kw) -> Coordinator:
    return Coordinator(fs, ralph_runner=runner, clock=clock, **kw)


async def status_file(fs) -> dict[str, str]:
    return parse_status_text(await fs.read_text(STATUS_PATH))


async def test_idle_before_anything(fs, clock):
    coord = make(fs, clock, FakeRunner())
    assert coord.state.status == RalphStatus.IDLE
    assert not coord.is_running
    assert "idle" in coord.check_ralph_status()
    assert await coord.stop_ralph() == "Ralph isn't running."


async def test_start_progress_complete(fs, clock):
    runner = FakeRunner(iterations=2, max_iterations=5)
    coord = make(fs, clock, runner)
    events: list[CoordinatorEvent] = []
    coord.subscribe(events.append)

    reply = await coord.send_to_ralph("  Build a portfolio page.  ", plan_summary="Portfolio")
    assert "started" in reply
    assert coord.is_running and coord.state.running
    assert coord.state.status == RalphStatus.RUNNING
    run_id = coord.state.run_id
    assert run_id and run_id in reply
    assert await fs.read_text(PROMPT_PATH) == "Build a portfolio page.\n"

    await runner.started.wait()
    await coord.flush()
    assert coord.state.iteration == 2 and coord.state.max_iterations == 5
    st = await status_file(fs)
    assert st["state"] == "running"
    assert st["run_id"] == run_id
    assert st["iteration"] == "2" and st["max_iterations"] == "5"
    assert st["summary"] == "Portfolio"
    assert float(st["started_at"]) == clock.now
    assert "iteration 2 of 5" in coord.check_ralph_status()

    clock.now += 90
    runner.release.set()
    state = await coord.wait()
    assert state.status == RalphStatus.COMPLETE
    assert not coord.is_running and not state.running
    assert state.finished_at == clock.now
    assert state.last_result is not None and state.last_result.summary.startswith("Built")
    assert state.last_error is None

    st = await status_file(fs)
    assert st["state"] == "complete"
    assert st["run_id"] == run_id
    assert float(st["finished_at"]) == clock.now
    assert "resumable" not in st
    saved = RalphResult.model_validate_json(await fs.read_text(RESULT_PATH))
    assert saved.status == RalphStatus.COMPLETE
    assert runner.requests[0].task == "Build a portfolio page."
    assert runner.requests[0].resume is False

    kinds = [e.kind for e in events]
    assert kinds[0] == "started"
    assert kinds.count("iteration") == 2
    assert kinds[-1] == "finished"
    # Snapshots are frozen: the first event still shows the state at that time.
    assert events[0].state.iteration == 0
    assert events[-1].state.status == RalphStatus.COMPLETE


async def test_check_status_after_build_names_summary_gates_usage(fs, clock):
    await fs.write_text(".ralph/feedback.md", "Gate 'links' failed: about.html missing.\n")
    runner = FakeRunner()
    coord = make(fs, clock, runner)
    await coord.send_to_ralph("Build it")
    runner.release.set()
    await coord.wait()
    text = coord.check_ralph_status()
    assert "ended: complete after 2 iterations" in text
    assert "Summary: Built a one-page portfolio" in text
    assert "Quality gates failed (1 of 2)" in text
    assert "- links: about.html is linked but missing" in text
    assert "Feedback (.ralph/feedback.md)" in text and "about.html missing" in text
    assert "1,500 tokens" in text and "$0.0042" in text


async def test_runner_exception_is_error(fs, clock):
    runner = FakeRunner(error=RuntimeError("provider unreachable"))
    coord = make(fs, clock, runner)
    await coord.send_to_ralph("Build it")
    runner.release.set()
    state = await coord.wait()
    assert state.status == RalphStatus.ERROR
    assert "provider unreachable" in state.last_error
    assert (await status_file(fs))["state"] == "error"
    assert "provider unreachable" in (await status_file(fs))["error"]
    notice = await coord.post_build_notice()
    assert notice is not None and "failed with an error" in notice
    assert "provider unreachable" in notice


async def test_runner_returning_non_terminal_status_is_error(fs, clock):
    runner = FakeRunner(result=RalphResult(status=RalphStatus.RUNNING, iterations=1))
    coord = make(fs, clock, runner)
    await coord.send_to_ralph("Build it")
    runner.release.set()
    state = await coord.wait()
    assert state.status == RalphStatus.ERROR
    assert "running" in state.last_error


@pytest.mark.parametrize(
    "status",
    [RalphStatus.BLOCKED, RalphStatus.MAX_ITERATIONS, RalphStatus.STALLED],
)
async def test_other_endings_reach_state_and_notice(fs, clock, status):
    result = RalphResult(status=status, iterations=5, error="explained")
    runner = FakeRunner(result=result)
    coord = make(fs, clock, runner)
    await coord.send_to_ralph("Build it")
    runner.release.set()
    state = await coord.wait()
    assert state.status == status
    assert (await status_file(fs))["state"] == status.value
    assert coord.pending_notice is not None and coord.pending_notice.status == status


async def test_stop_cancels_and_leaves_consistent_files(fs, clock):
    runner = FakeRunner()
    coord = make(fs, clock, runner)
    await coord.send_to_ralph("Build it")
    await runner.started.wait()
    reply = await coord.stop_ralph()
    assert "Stopped Ralph at iteration 2" in reply
    assert runner.cancelled
    assert coord.state.status == RalphStatus.CANCELLED
    assert not coord.is_running
    assert coord.state.resumable  # .ralph/ holds the run: it can go on
    st = await status_file(fs)
    assert st["state"] == "cancelled" and st["resumable"] == "yes"
    assert st["iteration"] == "2"
    # The person stopped it: no post-build news for Chief.
    assert coord.pending_notice is None
    assert not await fs.exists(NOTICE_PATH)
    assert await coord.stop_ralph() == "Ralph isn't running."


async def test_refuses_second_concurrent_run(fs, clock):
    runner = FakeRunner()
    coord = make(fs, clock, runner)
    await coord.send_to_ralph("First")
    with pytest.raises(HandoffRefused, match="already working"):
        await coord.send_to_ralph("Second")
    assert await fs.read_text(PROMPT_PATH) == "First\n"
    runner.release.set()
    await coord.wait()
    assert len(runner.requests) == 1


async def test_two_simultaneous_handoffs_start_one_run(fs, clock):
    runner = FakeRunner()
    coord = make(fs, clock, runner)
    results = await asyncio.gather(
        coord.send_to_ralph("A"), coord.send_to_ralph("B"), return_exceptions=True
    )
    refused = [r for r in results if isinstance(r, HandoffRefused)]
    assert len(refused) == 1
    runner.release.set()
    await coord.wait()
    assert len(runner.requests) == 1


async def test_empty_prompt_refused(fs, clock):
    coord = make(fs, clock, FakeRunner())
    with pytest.raises(HandoffRefused, match="empty"):
        await coord.send_to_ralph("   ")
    assert not coord.is_running
    assert not await fs.exists(PROMPT_PATH)


async def test_new_run_after_finish(fs, clock):
    runner = FakeRunner()
    coord = make(fs, clock, runner)
    await coord.send_to_ralph("One")
    runner.release.set()
    await coord.wait()
    first = coord.state.run_id
    await coord.send_to_ralph("Two")
    # The unread notice of the first run is superseded by the new hand-off.
    assert coord.pending_notice is None and not await fs.exists(NOTICE_PATH)
    await coord.wait()
    assert coord.state.run_id != first
    assert [r.task for r in runner.requests] == ["One", "Two"]


async def test_subscribe_unsubscribe_and_raising_subscriber(fs, clock):
    runner = FakeRunner()
    coord = make(fs, clock, runner)
    seen_a: list[str] = []
    seen_b: list[str] = []

    def broken(_event):
        raise ValueError("view bug")

    coord.subscribe(broken)
    unsubscribe_a = coord.subscribe(lambda e: seen_a.append(e.kind))
    coord.subscribe(lambda e: seen_b.append(e.kind))

    await coord.send_to_ralph("Build it")
    await runner.started.wait()
    unsubscribe_a()
    unsubscribe_a()  # twice is harmless
    runner.release.set()
    await coord.wait()
    assert seen_a[0] == "started" and "finished" not in seen_a
    assert seen_b[0] == "started" and seen_b[-1] == "finished"
    assert coord.state.status == RalphStatus.COMPLETE


async def test_ui_callbacks_chained_and_isolated(fs, clock):
    runner = FakeRunner()
    seen: list[tuple] = []

    def bad(*_args):
        raise RuntimeError("ui bug")

    base = RalphCallbacks(
        on_iteration_start=lambda i, m: seen.append(("base", i, m)), on_complete=bad
    )
    per_call = RalphCallbacks(
        on_iteration_start=bad, on_complete=lambda r: seen.append(("call", r.status))
    )
    coord = make(fs, clock, runner, callbacks=base)
    await coord.send_to_ralph("Build it", callbacks=per_call)
    runner.release.set()
    await coord.wait()
    assert ("base", 1, 5) in seen and ("base", 2, 5) in seen
    assert ("call", RalphStatus.COMPLETE) in seen
    # The Coordinator's own bookkeeping ran despite the raising UI callbacks.
    assert coord.state.iteration == 2 and coord.state.status == RalphStatus.COMPLETE


async def test_usage_and_gates_callbacks_update_state(fs, clock):
    runner = FakeRunner()
    coord = make(fs, clock, runner)
    await coord.send_to_ralph("Build it")
    await runner.started.wait()
    total = UsageData(prompt_tokens=10, completion_tokens=5, total_tokens=15, cost=0.01)
    runner.callbacks.on_usage(2, total, total)
    runner.callbacks.on_gates(2, complete_result().gate_results)
    assert coord.state.usage == total
    assert len(coord.state.gate_results) == 2
    text = coord.check_ralph_status()
    assert "15 tokens" in text and "Quality gates failed (1 of 2)" in text
    runner.release.set()
    await coord.wait()


async def test_write_plan(fs, clock):
    coord = make(fs, clock, FakeRunner())
    kinds: list[str] = []
    coord.subscribe(lambda e: kinds.append(e.kind))
    assert await coord.write_plan("# Plan\n\n- hero\n- contact form\n\n") == PLAN_PATH
    assert await fs.read_text(PLAN_PATH) == "# Plan\n\n- hero\n- contact form\n"
    assert kinds == ["plan"]
    with pytest.raises(ValueError):
        await coord.write_plan("  ")


async def test_status_file_is_machine_readable(fs, clock):
    runner = FakeRunner()
    coord = make(fs, clock, runner)
    await coord.send_to_ralph("Build it")
    await coord.flush()
    text = await fs.read_text(STATUS_PATH)
    for line in text.strip().splitlines():
        key, sep, value = line.partition(": ")
        assert sep and key.isidentifier() and value
    runner.release.set()
    await coord.wait()


async def test_notice_file_written_on_finish(fs, clock):
    runner = FakeRunner()
    coord = make(fs, clock, runner)
    await coord.send_to_ralph("Build it")
    runner.release.set()
    await coord.wait()
    data = json.loads(await fs.read_text(NOTICE_PATH))
    assert data["status"] == "complete" and data["run_id"] == coord.state.run_id


def test_parse_status_text_forms():
    assert parse_status_text("running\n") == {"state": "running"}
    assert parse_status_text("status: Complete\niteration: 3\n") == {
        "status": "Complete",
        "state": "complete",
        "iteration": "3",
    }
    assert parse_status_text("") == {}
    assert parse_status_text(None) == {}
    assert parse_status_text("state: running\nerror: a: b\n")["error"] == "a: b"


class FlakyStore(MemoryFileStore):
    """Refuses writes under .chief/ (a full quota, a closed database)."""

    async def write_text(self, path, text):
        from wiggum.fs import FileStoreError

        if path.startswith(".chief/status"):
            raise FileStoreError(f"quota exceeded writing {path}")
        await super().write_text(path, text)


async def test_storage_failure_does_not_break_the_run(clock):
    fs = FlakyStore(clock=clock)
    runner = FakeRunner()
    coord = make(fs, clock, runner)
    await coord.send_to_ralph("Build it")
    runner.release.set()
    state = await coord.wait()
    assert state.status == RalphStatus.COMPLETE
    assert coord.write_error is not None and "quota" in str(coord.write_error)
    assert await fs.read_text(PROMPT_PATH) == "Build it\n"


async def test_blocked_notice_asks_for_what_ralph_needs(fs, clock):
    result = RalphResult(
        status=RalphStatus.BLOCKED, iterations=3, summary="I need the logo file to continue."
    )
    runner = FakeRunner(result=result)
    coord = make(fs, clock, runner)
    await coord.send_to_ralph("Build it")
    runner.release.set()
    await coord.wait()
    assert coord.notice_banner().startswith("Ralph needs your input")
    text = await coord.post_build_notice()
    assert "needs something from the person" in text
    assert "I need the logo file" in text
    assert "what Ralph needs" in text


async def test_after_run_sees_the_runs_end_written_and_holds_off_a_new_handoff(fs, clock):
    """The page takes Ralph's last checkpoint in ``after_run``: every file of the
    run's end must be written by then, and no new hand-off may start meanwhile."""
    seen: list[tuple] = []
    gate = asyncio.Event()

    async def after_run(state):
        seen.append(
            (
                state.status,
                state.iteration,
                await fs.exists(RESULT_PATH),
                await fs.exists(NOTICE_PATH),
                (await status_file(fs))["state"],
            )
        )
        await gate.wait()

    runner = FakeRunner(iterations=2)
    coord = make(fs, clock, runner, after_run=after_run)
    await coord.send_to_ralph("Build it.")
    await runner.started.wait()
    runner.release.set()
    while not seen:
        await asyncio.sleep(0)
    assert seen == [(RalphStatus.COMPLETE, 2, True, True, "complete")]
    with pytest.raises(HandoffRefused):
        await coord.send_to_ralph("Again.")
    waiter = asyncio.ensure_future(coord.wait())
    await asyncio.sleep(0.01)
    assert not waiter.done()  # wait() covers the hook
    gate.set()
    await waiter
    assert not coord.is_running


async def test_after_run_runs_for_a_stopped_run_and_its_failure_is_contained(fs, clock):
    calls: list[RalphStatus] = []

    async def after_run(state):
        calls.append(state.status)
        raise OSError("the checkpoint could not be written")

    runner = FakeRunner(iterations=1)
    coord = make(fs, clock, runner, after_run=after_run)
    await coord.send_to_ralph("Build it.")
    await runner.started.wait()
    await coord.stop_ralph()
    assert calls == [RalphStatus.CANCELLED]
    assert not coord.is_running
    assert "started" in await coord.send_to_ralph("Again.")
