"""The Coordinator after a run stopped short: Continue with more iterations, a raised
cap and a note; the cap and forecast the loop reports reach the state."""

from __future__ import annotations

import pytest

from tests.coordinator.helpers import Clock, FakeRunner
from wiggum.coordinator import Coordinator
from wiggum.coordinator.files import RALPH_STATUS_PATH
from wiggum.fs import MemoryFileStore
from wiggum.ralph.types import CONTINUABLE, RalphResult, RalphStatus, RunBudget


@pytest.mark.parametrize("status", sorted(CONTINUABLE))
async def test_a_run_stopped_short_can_continue_with_more_a_raised_cap_and_a_note(status):
    clock = Clock()
    fs = MemoryFileStore(clock=clock)
    runner = FakeRunner(result=RalphResult(status=status, iterations=5, error="why"))
    coord = Coordinator(fs, ralph_runner=runner, clock=clock)
    await coord.send_to_ralph("Build it", budget=RunBudget(max_cost=0.5))
    await runner.started.wait()
    runner.callbacks.on_budget(RunBudget(max_cost=0.5), "Estimate: ~1,000 tokens")
    assert coord.state.budget == RunBudget(max_cost=0.5)
    assert coord.state.forecast == "Estimate: ~1,000 tokens"
    runner.release.set()
    state = await coord.wait()
    assert state.status == status and state.resumable and state.last_error == "why"
    assert runner.requests[0].budget == RunBudget(max_cost=0.5)

    runner.release.clear()
    runner.result = RalphResult(status=RalphStatus.COMPLETE, iterations=8)
    runner.started.clear()
    await coord.resume_ralph(budget=RunBudget(max_cost=1.0), more_iterations=3, note="Blue.")
    await runner.started.wait()
    request = runner.requests[-1]
    assert request.resume and request.more_iterations == 3 and request.note == "Blue."
    assert request.budget == RunBudget(max_cost=1.0)
    runner.release.set()
    assert (await coord.wait()).status == RalphStatus.COMPLETE


async def test_a_reload_reads_the_cap_the_loop_put_on_record():
    clock = Clock()
    fs = MemoryFileStore(clock=clock)
    await fs.write_text(
        RALPH_STATUS_PATH,
        "status: budget_spent\niteration: 4\nrun_id: r\nmax_cost: 0.5\nmax_tokens: 90000\n",
    )
    coord = Coordinator(fs, ralph_runner=FakeRunner(), clock=clock)
    recovery = await coord.recover_state()
    assert recovery.state.budget == RunBudget(0.5, 90_000)
