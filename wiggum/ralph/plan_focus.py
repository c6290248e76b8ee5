"""The part of the plan Ralph is on, as his context shows it each iteration.

His plan (``.ralph/plan.md``) is a Markdown checklist he keeps himself.  A
fresh context that shows the whole file every time makes him find his place
again each iteration, and a long plan crowds out the step at hand; so the
context shows the steps folded instead: the done ones short (one line each),
the current one (the first not ticked) marked and whole, with the lines
under it, and the rest listed.  The file itself stays complete on disk.

A plan without checklist items (prose, or none yet) is shown as it is:
there is no step to point at.  Pure text, so the tests read it directly.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = ["PlanStep", "plan_focus", "plan_steps"]

_ITEM = re.compile(r"^(\s*)(?:[-*+]|\d+[.)])\s+\[( |x|X)\]\s+(.*\S)\s*$")
#: A done step is shown on one line of at most this many characters.
DONE_CHARS = 70


@dataclass(slots=True)
class PlanStep:
    text: str
    done: bool
    #: The lines under the step (sub-points, notes) up to the next item.
    details: list[str] = field(default_factory=list)


def plan_steps(markdown: str) -> list[PlanStep]:
    """The checklist items of ``markdown``, each with the lines under it.

    Only top-level items count as steps (the least indented ones); nested
    items belong to the step above them."""
    items = [m for line in markdown.splitlines() if (m := _ITEM.match(line))]
    if not items:
        return []
    top = min(len(m.group(1)) for m in items)
    steps: list[PlanStep] = []
    under = False  # the lines read belong to the last step
    for line in markdown.splitlines():
        m = _ITEM.match(line)
        if m and len(m.group(1)) == top:
            steps.append(PlanStep(m.group(3), m.group(2) != " "))
            under = True
        elif line.lstrip().startswith("#"):
            under = False  # a heading ends the step above it
        elif under and steps and line.strip():
            steps[-1].details.append(line.rstrip())
    return steps


def _short(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= DONE_CHARS else flat[: DONE_CHARS - 1] + "…"


def plan_focus(markdown: str) -> str | None:
    """The plan as the context shows it, or ``None`` when it has no checklist."""
    steps = plan_steps(markdown)
    if not steps:
        return None
    total = len(steps)
    current = next((i for i, s in enumerate(steps) if not s.done), None)
    out: list[str] = []
    done = [(i, s) for i, s in enumerate(steps) if s.done]
    if done:
        out.append(f"Done ({len(done)} of {total}):")
        out.extend(f"- [x] {i + 1}. {_short(s.text)}" for i, s in done)
    if current is None:
        out.append("Every step is ticked: check the whole task, then report completion.")
    else:
        step = steps[current]
        out.append(f"NOW -> step {current + 1} of {total}: {step.text}")
        out.extend(step.details)
        rest = [(i, s) for i, s in enumerate(steps) if i > current and not s.done]
        if rest:
            out.append("Still to do:")
            out.extend(f"- [ ] {i + 1}. {s.text}" for i, s in rest)
    out.append(
        "(The whole plan, with your notes, is .ralph/plan.md: tick a step there with "
        '"- [x]" once it is done and checked.)'
    )
    return "\n".join(out)
