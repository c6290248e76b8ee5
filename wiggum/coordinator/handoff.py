"""What a hand-off carries to Ralph: Chief's prompt and the agreed plan, written
as one task, and the acceptance criteria beside it.

Ralph starts every iteration fresh from ``.ralph/task.md``, so whatever the
hand-off does not put there is lost.  Chief's prompt is what he chose to say;
the plan he agreed with the person (``.chief/plan.md``) goes with it whole,
so nothing depends on Chief copying the plan into his prompt.  The criteria
travel as ``RunRequest.acceptance``; the loop writes them into his task with
the probes that check them.  The Build button hands the plan over with
no model call at all: its prompt is :func:`prompt_from_plan`.

Pure text: the Coordinator reads the files and writes the task.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["PLAN_HEADING", "clean_criteria", "compose_task", "prompt_from_plan"]

PLAN_HEADING = "## The agreed plan (from .chief/plan.md)"

#: The prompt of a hand-off made by the person's click (no model wrote one).
BUILD_PROMPT = (
    "Build the plan below, agreed with the person. Keep what already exists in the project "
    "unless the plan says to change it."
)


def prompt_from_plan(plan: str) -> str:
    """The task prompt for the Build button: the plan itself is attached by :func:`compose_task`."""
    return BUILD_PROMPT if plan.strip() else ""


def clean_criteria(acceptance: Sequence[str] | None) -> list[str]:
    """The criteria as one-line, non-empty, distinct strings, in their order."""
    seen: list[str] = []
    for item in acceptance or ():
        line = " ".join(str(item).split())
        if line and line not in seen:
            seen.append(line)
    return seen


def compose_task(prompt: str, plan: str | None = None) -> str:
    """``.ralph/task.md``: the prompt, then the plan (unless the prompt already
    holds it word for word)."""
    parts = [prompt.strip()]
    body = (plan or "").strip()
    if body and body not in parts[0]:
        parts.append(f"{PLAN_HEADING}\n{body}")
    return "\n\n".join(p for p in parts if p) + "\n"
