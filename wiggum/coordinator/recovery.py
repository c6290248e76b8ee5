"""After a reload: what the files say about Ralph's last run.

A run interrupted by a reload is never silently lost nor silently restarted:
it is reported as *interrupted* and ``resumable``.  When the loop wrote its own
end after the Coordinator's last write, the loop is believed.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from wiggum.fs import FileStoreError, PathError

from .contract import CONTINUABLE, RalphResult, RalphStatus, RunBudget
from .files import (
    FEEDBACK_PATH,
    NOTICE_PATH,
    RALPH_STATUS_PATH,
    RALPH_SUMMARY_PATH,
    RESULT_PATH,
    STATUS_PATH,
    StatusFiles,
    float_or_none,
    int_or_zero,
    parse_status_text,
    status_or_none,
)
from .notice import BuildReport
from .state import INTERRUPTED, TERMINAL, CoordinatorState, News

__all__ = ["read_state"]


async def read_state(
    files: StatusFiles,
    news: News,
    clock: Callable[[], float],
    *,
    has_prompt: bool,
    live: bool = False,
) -> tuple[CoordinatorState, bool]:
    """The state ``.chief/`` and ``.ralph/`` describe, and whether either said anything.

    ``has_prompt``: ``.chief/prompt.md`` exists (an interrupted run can then be
    resumed even when the loop left no status).  Fills ``news`` (feedback, a
    pending notice; one is made, and written, for a run that ended unseen while
    the page was away).

    ``live``: another tab owns the project and its Coordinator writes these
    files, so a run they call running is going there, not interrupted, and
    nothing is written here (that tab makes the notice).
    """
    chief = parse_status_text(await files.read(STATUS_PATH))
    ralph = parse_status_text(await files.read(RALPH_STATUS_PATH))
    news.feedback = (await files.read(FEEDBACK_PATH) or "").strip()
    news.notice = await files.read_model(BuildReport, NOTICE_PATH)
    last = await files.read_model(RalphResult, RESULT_PATH)

    chief_state = chief.get("state")
    ralph_status = status_or_none(ralph.get("state"))
    started = float_or_none(chief.get("started_at"))
    if ralph_status in TERMINAL and started is not None:
        # A finished status older than the run we started is the previous run's
        # (the loop stamps ``updated``; the file's mtime is the fallback).
        written = float_or_none(ralph.get("updated"))
        if written is None:
            with contextlib.suppress(FileStoreError, PathError):
                written = (await files.fs.stat(RALPH_STATUS_PATH)).modified
        if written is not None and written < started:
            ralph_status = None
    was_running = chief_state in (RalphStatus.RUNNING.value, INTERRUPTED) or (
        not chief_state and ralph_status == RalphStatus.RUNNING
    )
    status = status_or_none(chief_state) or RalphStatus.IDLE
    interrupted = False
    resumable = chief.get("resumable") == "yes"
    if was_running and ralph_status in TERMINAL:
        # The loop wrote its own end after our last write: believe the loop.
        status = ralph_status
        resumable = ralph_status in (RalphStatus.CANCELLED, RalphStatus.ERROR) or (
            ralph_status in CONTINUABLE
        )
        if news.notice is None and ralph_status != RalphStatus.CANCELLED and not live:
            summary = (await files.read(RALPH_SUMMARY_PATH) or "").strip()
            news.notice = BuildReport(
                run_id=chief.get("run_id", ""),
                status=ralph_status,
                iterations=int_or_zero(ralph.get("iteration") or chief.get("iteration")),
                max_iterations=int_or_zero(chief.get("max_iterations")),
                summary=summary,
                feedback=news.feedback,
                finished_at=clock(),
            )
            await files.write(NOTICE_PATH, news.notice.model_dump_json(indent=2))
    elif was_running and live and chief_state == RalphStatus.RUNNING.value:
        status = RalphStatus.RUNNING
    elif was_running:
        status, interrupted = RalphStatus.RUNNING, True
        resumable = has_prompt or ralph_status is not None
    ended = status in TERMINAL
    state = CoordinatorState(
        status=status,
        run_id=chief.get("run_id") or None,
        iteration=int_or_zero(chief.get("iteration")),
        max_iterations=int_or_zero(chief.get("max_iterations")),
        started_at=started,
        updated_at=float_or_none(chief.get("updated_at")),
        finished_at=float_or_none(chief.get("finished_at")),
        last_result=last if ended else None,
        last_error=chief.get("error") or None,
        usage=last.usage if last and ended else None,
        gate_results=tuple(last.gate_results) if last and ended else (),
        interrupted=interrupted,
        resumable=resumable,
        handoff_summary=chief.get("summary") or None,
        budget=_budget(ralph),
    )
    return state, bool(chief or ralph)


def _budget(ralph: dict[str, str]) -> RunBudget | None:
    """The cap the loop put on record in ``.ralph/status.txt``."""
    cost = float_or_none(ralph.get("max_cost"))
    tokens = int_or_zero(ralph.get("max_tokens")) or None
    budget = RunBudget(cost, tokens)
    return budget if budget.capped else None
