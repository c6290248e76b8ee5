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


class RalphCompletion(BaseModel):
    """Ralph's structured completion report (``output_schema`` of the last call)."""

    status: Literal["complete", "blocked", "needs_input"]
    summary: str
    files_created: list[str] = Field(default_factory=list)
    files_modified: list[str] = Field(default_factory=list)
    key_decisions: list[str] = Field(default_factory=list)


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


@dataclass(slots=True)
class RunRequest:
    #: The refined task prompt (Chief's hand-off); ``None`` with ``resume=True``.
    task: str | None
    #: Continue the run recorded in ``.ralph/`` instead of starting over.
    resume: bool = False
    #: The plan agreed with the person (``.chief/plan.md``), carried whole;
    #: ``task`` already holds it (``coordinator.handoff.compose_task``).
    plan: str = ""
    #: What must hold for the build to be done, one criterion per item.
    acceptance: list[str] = field(default_factory=list)


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


#: How the Coordinator starts Ralph: given the request and callbacks, run to the end.
RalphRunner = Callable[[RunRequest, RalphCallbacks], Awaitable[RalphResult]]
