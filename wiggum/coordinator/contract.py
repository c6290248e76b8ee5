"""The contract between Ralph's loop and whoever runs it (Coordinator, UI).

Pinned here so the loop, the Coordinator and the page can be built apart:
the loop reports through :class:`RalphCallbacks` and ends with a
:class:`RalphResult`; the Coordinator starts it with a :class:`RunRequest`.

It lives in the Coordinator's package because the Coordinator, a layer below
Ralph, drives the loop through it (a :data:`RalphRunner` is passed in); Ralph's
modules and the page import it as ``wiggum.ralph.types``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, Field

from wiggum.llm import UsageData


class RalphStatus(StrEnum):
    IDLE = "idle"
    RUNNING = "running"
    COMPLETE = "complete"
    #: Ralph said he cannot go on without the person (status blocked / needs_input).
    BLOCKED = "blocked"
    #: The iteration limit ran out before completion.
    MAX_ITERATIONS = "max_iterations"
    #: Identical tool calls five iterations in a row.
    STALLED = "stalled"
    ERROR = "error"
    CANCELLED = "cancelled"
    #: The run's spending cap (money or tokens) would have been passed by the next call.
    BUDGET_SPENT = "budget_spent"


#: Endings a run can go on from with "Continue" (more iterations, a raised cap, a note).
CONTINUABLE = frozenset({RalphStatus.MAX_ITERATIONS, RalphStatus.STALLED, RalphStatus.BUDGET_SPENT})


@dataclass(frozen=True, slots=True)
class RunBudget:
    """A run's spending cap: US dollars and/or tokens (prompt + reply, as the provider
    reported them); ``None`` is no cap of that kind."""

    max_cost: float | None = None
    max_tokens: int | None = None

    @property
    def capped(self) -> bool:
        return self.max_cost is not None or self.max_tokens is not None


class Unprobed(BaseModel):
    """An acceptance criterion Ralph says no probe can check, and why (shown to the person)."""

    criterion: str
    reason: str


class RalphCompletion(BaseModel):
    """Ralph's structured completion report (``output_schema`` of the last call)."""

    status: Literal["complete", "blocked", "needs_input"]
    summary: str
    files_created: list[str] = Field(default_factory=list)
    files_modified: list[str] = Field(default_factory=list)
    key_decisions: list[str] = Field(default_factory=list)
    #: Acceptance criteria no probe can check, each with the reason.
    unprobed: list[Unprobed] = Field(default_factory=list)


class GateIssue(BaseModel):
    """One concrete problem a gate found: where it is and what would fix it."""

    path: str
    line: int | None = None
    message: str
    #: A cheap, deterministic suggestion ("did you mean css/style.css?").
    hint: str = ""


class GateResult(BaseModel):
    gate: str
    passed: bool
    #: What failed, in words the model can act on (empty when passed).
    message: str = ""
    #: The individual problems behind ``message`` (for the auto-patch feedback).
    issues: list[GateIssue] = Field(default_factory=list)


class RalphReflection(BaseModel):
    """His look back at a run (one structured call at its end), read by the next run."""

    worked: list[str] = Field(default_factory=list)
    failed: list[str] = Field(default_factory=list)
    try_next: list[str] = Field(default_factory=list)


class IterationUsage(BaseModel):
    iteration: int
    usage: UsageData
    model: str
    timestamp: float


class RalphResult(BaseModel):
    status: RalphStatus
    iterations: int
    summary: str = ""
    completion: RalphCompletion | None = None
    gate_results: list[GateResult] = Field(default_factory=list)
    usage: UsageData | None = None
    iteration_usage: list[IterationUsage] = Field(default_factory=list)
    #: A short human explanation when status is error / stalled / max_iterations.
    error: str | None = None
    #: What the run's end-of-run reflection said (``.ralph/reflections.md``), if any.
    reflection: RalphReflection | None = None
    #: Shell commands he asked for that the shell does not have, this run.
    unknown_commands: list[str] = Field(default_factory=list)


@dataclass(slots=True)
class RunRequest:
    #: The refined task prompt (Chief's hand-off); ``None`` with ``resume=True``.
    task: str | None
    #: Continue the run recorded in ``.ralph/`` instead of starting over.
    resume: bool = False
    #: The acceptance criteria the person agreed to (each becomes a probe).
    acceptance: list[str] = field(default_factory=list)
    #: The cap for this run (``None``: the settings' default, or on resume the run's own).
    budget: RunBudget | None = None
    #: On resume: go on for this many iterations past the last finished one.
    more_iterations: int | None = None
    #: On resume: the person's note, added to his task so every iteration sees it.
    note: str | None = None
    #: A new run clears ``.ralph/`` first (only when the person asked for a fresh start).
    fresh: bool = False
    #: The plan agreed with the person (``.chief/plan.md``), carried whole;
    #: ``task`` already holds it (``coordinator.handoff.compose_task``).
    plan: str = ""


def _noop(*_args: Any, **_kwargs: Any) -> None:
    return None


@dataclass(slots=True)
class RalphCallbacks:
    """Everything the loop reports while it runs.  All optional.

    Callbacks are plain functions (sync); they must return quickly.
    """

    on_iteration_start: Callable[[int, int], Any] = _noop  # (iteration, max_iterations)
    on_intent: Callable[[int, str], Any] = _noop  # (iteration, the model's text before its calls)
    on_tool_call: Callable[[int, str, dict, str, bool], Any] = (
        _noop  # (it, name, args, output, is_error)
    )
    on_reasoning: Callable[[int, str], Any] = _noop
    on_usage: Callable[[int, UsageData, UsageData], Any] = _noop  # (it, this call, running total)
    on_stall: Callable[[int, str], Any] = _noop  # (consecutive count, signature)
    on_context_pressure: Callable[[int, int, float], Any] = _noop  # (estimated, window, headroom)
    on_gates: Callable[[int, list[GateResult]], Any] = _noop
    on_status: Callable[[RalphStatus, int], Any] = _noop  # (status, iteration)
    on_complete: Callable[[RalphResult], Any] = _noop
    on_error: Callable[[BaseException], Any] = _noop
    #: (the run's cap, the forecast's words) once, before the run's first call.
    on_budget: Callable[[RunBudget, str], Any] = _noop


#: How the Coordinator starts Ralph: given the request and callbacks, run to the end.
RalphRunner = Callable[[RunRequest, RalphCallbacks], Awaitable[RalphResult]]
