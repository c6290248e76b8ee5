"""What Ralph's tab shows for his state: badge, status line, Stop, the resume banner."""

from __future__ import annotations

import pytest

from wiggum.coordinator.state import CoordinatorState
from wiggum.llm.types import UsageData
from wiggum.ralph.types import RalphStatus
from wiggum.ui.ralph_tab import ResumeOffer, badge_text, tab_state


def state(status=RalphStatus.IDLE, iteration=0, max_iterations=20, **kw) -> CoordinatorState:
    return CoordinatorState(status=status, iteration=iteration, max_iterations=max_iterations, **kw)


@pytest.mark.parametrize(
    ("status", "badge"),
    [
        (RalphStatus.RUNNING, "● [3/20]"),
        (RalphStatus.COMPLETE, "✓ DONE"),
        (RalphStatus.ERROR, "● ERROR"),
        (RalphStatus.STALLED, "● STALLED"),
        (RalphStatus.MAX_ITERATIONS, "● MAX"),
        (RalphStatus.CANCELLED, "■ STOPPED"),
        (RalphStatus.BLOCKED, "? BLOCKED"),
        (RalphStatus.IDLE, ""),
    ],
)
def test_the_badge_for_each_status(status, badge):
    assert badge_text(status, 3, 20) == badge


def test_an_interrupted_run_pauses_the_badge_and_a_missing_limit_reads_20():
    assert badge_text(RalphStatus.RUNNING, 4, 0, interrupted=True) == "⏸ [4/20]"
    shown = tab_state(state(RalphStatus.RUNNING, 4, interrupted=True), elsewhere=False)
    assert shown.badge_status == "interrupted" and shown.badge == "⏸ [4/20]"


def test_a_run_going_here_says_its_iteration_and_offers_stop():
    shown = tab_state(state(RalphStatus.RUNNING, 2), elsewhere=False)
    assert shown.status_line == "Working — iteration 2/20"
    assert shown.show_stop and shown.running and shown.resume is None
    assert shown.badge_status == "running"
    starting = tab_state(state(RalphStatus.RUNNING, 0), elsewhere=False)
    assert starting.status_line == "Starting…"


def test_a_run_in_another_tab_is_said_so_and_not_stopped_from_here():
    shown = tab_state(state(RalphStatus.RUNNING, 3), elsewhere=True)
    assert shown.status_line == "Working in another tab — iteration 3/20"
    assert not shown.show_stop and shown.running


@pytest.mark.parametrize(
    ("status", "line"),
    [
        (RalphStatus.COMPLETE, "Ralph finished"),
        (RalphStatus.BLOCKED, "Ralph needs your input"),
        (RalphStatus.MAX_ITERATIONS, "Ralph ran out of iterations"),
        (RalphStatus.STALLED, "Ralph stalled"),
        (RalphStatus.ERROR, "Ralph stopped with an error"),
        (RalphStatus.CANCELLED, "Ralph was stopped"),
        (RalphStatus.IDLE, "Idle"),
    ],
)
def test_the_status_line_after_a_run(status, line):
    shown = tab_state(state(status, 2), elsewhere=False)
    assert shown.status_line == line and not shown.show_stop and not shown.running


def test_an_interrupted_run_is_offered_to_resume():
    shown = tab_state(
        state(RalphStatus.RUNNING, 3, interrupted=True, resumable=True), elsewhere=False
    )
    assert shown.status_line == "Interrupted at iteration 3/20"
    assert not shown.show_stop and not shown.running
    assert shown.resume == ResumeOffer(
        "Ralph was interrupted at iteration 3/20 — his work so far is saved.", "Resume"
    )


def test_a_failed_iteration_is_offered_to_retry():
    shown = tab_state(state(RalphStatus.ERROR, 2, resumable=True), elsewhere=False)
    assert shown.resume == ResumeOffer(
        "Ralph's iteration 2/20 failed — his work so far is saved. Retry runs that iteration again.",
        "Retry",
    )


def test_a_stopped_run_is_offered_to_resume():
    shown = tab_state(state(RalphStatus.CANCELLED, 2, 8, resumable=True), elsewhere=False)
    assert shown.resume == ResumeOffer(
        "Everything up to iteration 2/8 is saved; Resume goes on from there.", "Resume"
    )


def test_no_resume_offer_while_running_or_when_it_cannot_go_on():
    assert tab_state(state(RalphStatus.RUNNING, 2, resumable=True), elsewhere=False).resume is None
    assert tab_state(state(RalphStatus.CANCELLED, 2), elsewhere=False).resume is None


def test_the_total_follows_the_states_usage_and_is_left_alone_without_one():
    with_usage = state(RalphStatus.COMPLETE, usage=UsageData(total_tokens=1240, cost=0.0002))
    assert tab_state(with_usage, elsewhere=False).total == "This run: 1,240 tokens · $0.0002"
    assert tab_state(state(), elsewhere=False).total is None


def test_an_ended_state_that_came_with_the_project_is_not_shown_as_a_run_here():
    came = CoordinatorState(
        status=RalphStatus.COMPLETE,
        iteration=4,
        max_iterations=20,
        usage=UsageData(prompt_tokens=15_000, completion_tokens=660),
    )
    shown = tab_state(came, elsewhere=False, ran_here=False)
    assert (shown.badge, shown.total, shown.show_stop) == ("", "", False)
    assert shown.status_line == (
        "Ralph's notes (.ralph/) came with this project. His last run there: finished."
    )
    # once he has run here, his state is his run's
    here = tab_state(came, elsewhere=False)
    assert here.badge == "✓ DONE" and here.status_line == "Ralph finished"
    assert here.total is not None and here.total.startswith("This run: ")
