"""What the Coordinator knows about Ralph's run, and who hears when it changes.

:class:`CoordinatorState` is an immutable snapshot; :class:`StateHub` holds the
current one, replaces it on every change and tells the subscribers (the page's
views), then asks for the change to be written (``.chief/status.txt``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Literal

from wiggum._listeners import Listeners
from wiggum.llm import UsageData

from .contract import GateResult, RalphResult, RalphStatus, RunBudget
from .notice import BuildReport

__all__ = [
    "INTERRUPTED",
    "TERMINAL",
    "CoordinatorEvent",
    "CoordinatorState",
    "EventKind",
    "HandoffRefused",
    "News",
    "Recovery",
    "StateHub",
    "Subscriber",
]

logger = logging.getLogger("wiggum.coordinator")

#: ``status.txt`` state of a run that was going when the page went away.
INTERRUPTED = "interrupted"

#: The statuses a run ends with.
TERMINAL = frozenset(RalphStatus) - {RalphStatus.IDLE, RalphStatus.RUNNING}

EventKind = Literal[
    "started",  # a run began (or resumed)
    "iteration",  # Ralph began an iteration
    "status",  # the loop reported a status
    "usage",  # token usage / cost moved
    "gates",  # quality gates were checked
    "budget",  # the run's cap and forecast are known
    "finished",  # the run ended (see state.status)
    "recovered",  # recover_state() read the files after a reload
    "plan",  # .chief/plan.md was written
    "notice",  # the post-build notice was taken by Chief
]


class HandoffRefused(RuntimeError):
    """Ralph cannot be started now; the message says why, in words for the person."""


@dataclass(frozen=True, slots=True)
class CoordinatorState:
    """A snapshot: subscribers may keep it, nothing mutates it."""

    status: RalphStatus = RalphStatus.IDLE
    run_id: str | None = None
    iteration: int = 0
    max_iterations: int = 0
    started_at: float | None = None
    updated_at: float | None = None
    finished_at: float | None = None
    last_result: RalphResult | None = None
    last_error: str | None = None
    #: Running total while a run goes; the result's total after it.
    usage: UsageData | None = None
    gate_results: tuple[GateResult, ...] = ()
    #: The page went away while this run was going (status stays ``running``
    #: in the files' history but no task is alive).
    interrupted: bool = False
    #: ``resume_ralph()`` may continue this run from ``.ralph/``.
    resumable: bool = False
    #: The one-line plan summary given with the hand-off, for the page.
    handoff_summary: str | None = None
    #: The run's spending cap, as the loop reported it (``None``: no cap known).
    budget: RunBudget | None = None
    #: The loop's forecast of the run's spend, in words ("Estimate: …").
    forecast: str | None = None

    @property
    def running(self) -> bool:
        return self.status == RalphStatus.RUNNING and not self.interrupted

    @property
    def label(self) -> str:
        """``interrupted`` or the status value: what a badge shows."""
        return INTERRUPTED if self.interrupted else self.status.value


@dataclass(frozen=True, slots=True)
class CoordinatorEvent:
    kind: EventKind
    state: CoordinatorState


@dataclass(frozen=True, slots=True)
class Recovery:
    """What :meth:`Coordinator.recover_state` found."""

    state: CoordinatorState
    has_plan: bool
    has_prompt: bool
    notice_pending: bool
    #: One sentence for the person (empty when there is nothing to say).
    message: str

    @property
    def interrupted(self) -> bool:
        return self.state.interrupted

    @property
    def resumable(self) -> bool:
        return self.state.resumable


@dataclass(slots=True)
class News:
    """What the last run left for Chief: the notice he has not taken yet, and
    ``.ralph/feedback.md`` as it was when the run ended (or at reload)."""

    notice: BuildReport | None = None
    feedback: str = ""


Subscriber = Callable[[CoordinatorEvent], Any]


class StateHub:
    """The current :class:`CoordinatorState`, its subscribers, and the write it asks for."""

    def __init__(self, clock: Callable[[], float], persist: Callable[[], None]) -> None:
        self._clock = clock
        self._persist = persist
        self.state = CoordinatorState()
        self._subscribers: Listeners[[CoordinatorEvent]] = Listeners(
            logger, "coordinator: subscriber"
        )

    def subscribe(self, callback: Subscriber) -> Callable[[], None]:
        """Call ``callback(event)`` on every change; returns the unsubscribe function."""
        return self._subscribers.subscribe(callback)

    def emit(self, kind: EventKind) -> None:
        self._subscribers.emit(CoordinatorEvent(kind, self.state))

    def set(self, kind: EventKind, *, persist: bool = True, **changes: Any) -> None:
        self.state = replace(self.state, updated_at=self._clock(), **changes)
        self.emit(kind)
        if persist:
            self._persist()
