"""Plan -> Build: the person hands the plan to Ralph with a click.

Chief hands off by calling his ``send_to_ralph`` tool, which a model may not
do (a small local model often does not); the plan card's **Build this** and
the Plan -> Build switch above the message box do it without any model
call: the card's plan (or the saved ``.chief/plan.md``) becomes the agreed
plan and goes to Ralph whole (``wiggum.coordinator.handoff``).  Which mode
the switch shows is :func:`chief_mode`'s: Build while Ralph builds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from wiggum.coordinator import Coordinator, HandoffRefused
from wiggum.coordinator.handoff import prompt_from_plan

from .events import HandedToRalph, MessageShown

__all__ = ["NO_PLAN", "ModeView", "build_plan", "chief_mode", "plan_title"]

NO_PLAN = (
    "Nothing to build yet",
    "Chief has not saved a plan. Agree with him on what to build (he saves it as the plan "
    "card), then press Build.",
)


@dataclass(frozen=True, slots=True)
class ModeView:
    """The Plan -> Build switch: which mode is on, and what each button says."""

    mode: str  # "plan" | "build"
    plan_title: str
    build_title: str


def chief_mode(state: Any) -> ModeView:
    """Build while Ralph is building (``state``: the Coordinator's), else Plan."""
    if getattr(state, "running", False):
        return ModeView(
            "build",
            "Stop Ralph and go back to planning with Chief (his run can be resumed)",
            "Ralph is building the plan",
        )
    return ModeView(
        "plan",
        "Chief plans with you",
        "Hand the saved plan to Ralph now, without waiting for Chief",
    )


def plan_title(plan: str) -> str | None:
    """The plan's first line, as the hand-off's one-line summary."""
    for line in plan.splitlines():
        text = line.strip().lstrip("#").strip()
        if text:
            return text[:120]
    return None


async def build_plan(
    coordinator: Coordinator | None, plan: str | None, emit: Callable[[Any], None]
) -> bool:
    """Hand ``plan`` (``None``: the saved one) to Ralph; ``True`` when he started.

    A plan from an older card is saved first, so the plan on record is the
    one he builds."""
    if coordinator is None:
        return False
    saved = await coordinator.saved_plan()
    text = (plan or "").strip() or saved
    if not text:
        emit(MessageShown(*NO_PLAN))
        return False
    try:
        if text != saved:
            await coordinator.write_plan(text)
        await coordinator.send_to_ralph(
            prompt_from_plan(text), plan=text, plan_summary=plan_title(text)
        )
    except (HandoffRefused, OSError, ValueError) as err:
        emit(MessageShown("Ralph could not start", str(err)))
        return False
    emit(HandedToRalph())
    return True
