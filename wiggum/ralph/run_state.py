"""One run of Ralph's: what it mutates, and how it opens (new, follow-up, continued).

:func:`open_run` reads ``.ralph/`` and the request and settles the run's
length, its cap and its task before the first call:

- a new run writes its task (a follow-up keeps his plan, progress and
  reflections: :meth:`~.state.RalphState.start_run`); ``fresh`` only when the
  person asked to start fresh;
- a resumed run ("Resume", "Retry", "Continue for N more") goes on from the
  last finished iteration: ``more_iterations`` moves its end, the person's
  ``note`` is added to his task (every iteration's context shows it), and its
  cap is the request's (a raised one), else the one on record, else the
  settings' default.

The cap goes on record in ``status.txt``, so a reload resumes with it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from wiggum.llm import ProviderConfig

from .acceptance import criteria_section, write_criteria
from .config import RalphConfig
from .guard import RunGuard
from .state import TASK, RalphState, StatusRecord, UsageLedger
from .types import (
    GateResult,
    RalphCompletion,
    RalphReflection,
    RalphResult,
    RalphStatus,
    RunBudget,
    RunRequest,
)
from .words import continue_note

__all__ = ["RunState", "Stop", "open_run", "run_result"]


@dataclass
class Stop(Exception):
    """Ends the run from inside an iteration with a terminal status."""

    status: RalphStatus
    error: str | None = None
    completion: RalphCompletion | None = None
    gate_results: list[GateResult] = field(default_factory=list)
    cause: BaseException | None = None


class RunState:
    """Everything one run mutates; the loop object itself stays reusable.

    ``record`` is ``status.txt`` as the run keeps it, ``ledger`` what the
    provider reported (``usage.json``), ``guard`` the cap, the learned limits
    and the missing commands; ``max_iterations`` the run's last iteration
    (absolute: "Continue for N more" moves it), ``iteration`` the one going on;
    ``last_signature`` and ``repeats`` the stall detection's memory.
    """

    __slots__ = (
        "gate_results",
        "guard",
        "iteration",
        "last_signature",
        "ledger",
        "max_iterations",
        "record",
        "repeats",
    )

    def __init__(
        self, record: StatusRecord, ledger: UsageLedger, guard: RunGuard, max_iterations: int = 0
    ) -> None:
        self.record, self.ledger, self.guard = record, ledger, guard
        self.max_iterations = max_iterations
        self.iteration = 0
        self.last_signature: str | None = None
        self.repeats = 0
        self.gate_results: list[GateResult] = []


async def open_run(
    state: RalphState, config: RalphConfig, provider: ProviderConfig, request: RunRequest
) -> RunState | str:
    """The run ``request`` asks for, or why there is none (in words)."""
    max_iterations = config.max_iterations
    if request.resume:
        record = await state.status()
        task = await state.task()
        if record is not None and task.strip():
            if request.task and request.task.strip() != task.strip():
                task = request.task
            if request.note and request.note.strip():
                task = f"{task.rstrip()}\n\n{continue_note(request.note, record.iteration + 1)}"
            await state.write(TASK, task)
            if request.more_iterations:
                max_iterations = record.iteration + max(request.more_iterations, 1)
            record.status = RalphStatus.RUNNING
            record.max_iterations = max_iterations
            record.error = None
            stored = RunBudget(record.max_cost, record.max_tokens)
            budget = request.budget or (stored if stored.capped else config.budget)
            return await _begin(state, config, provider, record, await state.usage(), budget)
        if not request.task:
            return "There is no run in .ralph/ to resume."
    if not request.task or not request.task.strip():
        return "No task was given."
    task = request.task + criteria_section(request.acceptance)
    record = await state.start_run(task, max_iterations, fresh=request.fresh)
    await write_criteria(state.fs, request.acceptance)
    budget = request.budget or config.budget
    return await _begin(state, config, provider, record, UsageLedger(), budget)


async def _begin(
    state: RalphState,
    config: RalphConfig,
    provider: ProviderConfig,
    record: StatusRecord,
    ledger: UsageLedger,
    budget: RunBudget | None,
) -> RunState:
    record.max_cost = budget.max_cost if budget else None
    record.max_tokens = budget.max_tokens if budget else None
    await state.write_status(record)
    guard = RunGuard(
        provider,
        budget,
        limits=config.learned_limits,
        now=config.now,
        on_learned=config.on_limits_learned,
    )
    return RunState(record, ledger, guard, max_iterations=record.max_iterations)


def run_result(
    run: RunState, stop: Stop, iteration: int, reflection: RalphReflection | None
) -> RalphResult:
    """What the run ended with, as the Coordinator is told it."""
    return RalphResult(
        status=stop.status,
        iterations=iteration,
        summary=stop.completion.summary if stop.completion else (stop.error or ""),
        completion=stop.completion,
        gate_results=stop.gate_results or run.gate_results,
        usage=run.ledger.total,
        iteration_usage=list(run.ledger.iterations),
        error=stop.error if stop.status is not RalphStatus.COMPLETE else None,
        reflection=reflection,
        unknown_commands=list(run.guard.missing),
    )
