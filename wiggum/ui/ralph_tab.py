"""What Ralph's tab says about his state: the badge, the status line, Stop, the resume banner.

:func:`tab_state` reads a :class:`~wiggum.coordinator.state.CoordinatorState`
(and whether another tab owns the project) and returns everything the tab
shows for it as one :class:`RalphTabState`; the view only sets those texts.

Decided here, and why:

- While another tab owns the project a running state is *that* tab's run: the
  line says "Working in another tab" and Stop is not offered here (taking the
  project with "Use here" stops the run there first).
- A run that can go on is offered again: "Resume" after an interruption or a
  stop, "Retry" after an iteration failed (it runs that iteration again).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from wiggum.coordinator.state import CoordinatorState
from wiggum.ralph.types import CONTINUABLE, RalphStatus

from .format import usage_line
from .ralph_budget import warning_line

__all__ = ["CAME_WITH", "END_LABEL", "RalphTabState", "ResumeOffer", "badge_text", "tab_state"]

#: How a run ended, in the status line and the run's summary.
END_LABEL = {
    RalphStatus.COMPLETE: "Ralph finished",
    RalphStatus.BLOCKED: "Ralph needs your input",
    RalphStatus.MAX_ITERATIONS: "Ralph ran out of iterations",
    RalphStatus.STALLED: "Ralph stalled",
    RalphStatus.ERROR: "Ralph stopped with an error",
    RalphStatus.CANCELLED: "Ralph was stopped",
    RalphStatus.BUDGET_SPENT: "Ralph stopped at the spending cap",
}

#: A run's length when the state does not say (the loop's default).
DEFAULT_MAX_ITERATIONS = 20


def of_max(iteration: int, max_iterations: int) -> str:
    """``3/20``: the iteration of the run's most."""
    return f"{iteration}/{max_iterations or DEFAULT_MAX_ITERATIONS}"


def badge_text(status: str, iteration: int, max_iterations: int, interrupted: bool = False) -> str:
    """The tab badge: ``● [3/20]``, ``✓ DONE``, ``● ERROR``…; ``""`` when idle."""
    of = of_max(iteration, max_iterations)
    if interrupted:
        return f"⏸ [{of}]"
    return {
        RalphStatus.RUNNING: f"● [{of}]",
        RalphStatus.COMPLETE: "✓ DONE",
        RalphStatus.ERROR: "● ERROR",
        RalphStatus.STALLED: "● STALLED",
        RalphStatus.MAX_ITERATIONS: "● MAX",
        RalphStatus.CANCELLED: "■ STOPPED",
        RalphStatus.BLOCKED: "? BLOCKED",
        RalphStatus.BUDGET_SPENT: "● CAP",
    }.get(status, "")


class ResumeOffer(NamedTuple):
    """The banner that offers to go on with a run: its text and its button's label."""

    text: str
    label: str


@dataclass(frozen=True, slots=True)
class RalphTabState:
    badge: str
    #: The badge's ``data-status``: the status, or ``interrupted``.
    badge_status: str
    status_line: str
    #: A run is going in this page (the run list's newest row is "Running").
    running: bool
    show_stop: bool
    #: ``Total 1,234 tokens · $0.01``; ``None``: leave the line as it is.
    total: str | None
    resume: ResumeOffer | None


def _status_line(state: CoordinatorState, running: bool, elsewhere: bool) -> str:
    of = of_max(state.iteration, state.max_iterations)
    if state.interrupted:
        return f"Interrupted at iteration {of}"
    if running and elsewhere:
        return f"Working in another tab — iteration {of}"
    if running:
        line = f"Working — iteration {of}" if state.iteration else "Starting…"
        warning = warning_line(state)
        return f"{line} · {warning}" if warning else line
    return END_LABEL.get(state.status, "Idle")


def _resume_offer(state: CoordinatorState, running: bool) -> ResumeOffer | None:
    if not state.resumable or running:
        return None
    if state.status in CONTINUABLE and not state.interrupted:
        return None  # Continue offers it (``wiggum.ui.ralph_budget``)
    of = of_max(state.iteration, state.max_iterations)
    if state.interrupted:
        return ResumeOffer(
            f"Ralph was interrupted at iteration {of} — his work so far is saved.", "Resume"
        )
    if state.status == RalphStatus.ERROR:
        return ResumeOffer(
            f"Ralph's iteration {of} failed — his work so far is saved. "
            "Retry runs that iteration again.",
            "Retry",
        )
    # The status line says he was stopped: this says what is kept and what Resume does.
    return ResumeOffer(
        f"Everything up to iteration {of} is saved; Resume goes on from there.", "Resume"
    )


#: The status line of a project whose ``.ralph/`` came with it (an import, a
#: repository opened from GitHub): his last run was not here, and says so.
CAME_WITH = "Ralph's notes (.ralph/) came with this project. His last run there: {label}."


def tab_state(state: CoordinatorState, *, elsewhere: bool, ran_here: bool = True) -> RalphTabState:
    """What the tab shows for ``state``; ``elsewhere``: another tab owns the project;
    ``ran_here``: his transcript here has a run (else an ended state came with
    the project's files, and is not shown as a run of this page's: no badge,
    no total, the status line says where it comes from)."""
    status = str(state.status)
    running = state.running and not state.interrupted
    if not ran_here and not running and not state.interrupted and status in END_LABEL:
        label = END_LABEL[RalphStatus(status)].removeprefix("Ralph ")
        return RalphTabState(
            badge="",
            badge_status="idle",
            status_line=CAME_WITH.format(label=label),
            running=False,
            show_stop=False,
            total="",
            resume=_resume_offer(state, running),
        )
    return RalphTabState(
        badge=badge_text(status, state.iteration, state.max_iterations, state.interrupted),
        badge_status="interrupted" if state.interrupted else status,
        status_line=_status_line(state, running, elsewhere),
        running=running,
        show_stop=running and not elsewhere,
        total=None if state.usage is None else "This run: " + usage_line(state.usage),
        resume=_resume_offer(state, running),
    )
