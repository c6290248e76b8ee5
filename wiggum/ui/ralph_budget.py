"""What Ralph's tab says about his spending and offers after a run stopped short.

- **The forecast** line shows the loop's estimate (``CoordinatorState.forecast``,
  worded "Estimate: …") while a run goes and after it; hidden before any.
- **The warning** at 80 % of either cap joins the status line while he works
  (:func:`wiggum.ralph.budget.budget_line`); the spend in it is what the
  provider reported.
- **Continue** is offered after the iteration limit, a stall or the cap
  (:data:`~wiggum.ralph.types.CONTINUABLE`) with the cause in words: how many
  more iterations (the settings' limit, at most what is left to go), the cap
  (after the cap: raised by half, so one click goes on), and an optional note
  for his context.  :func:`continue_request` reads the form; an unreadable
  number is said under it, nothing typed is lost.
- **Start fresh** deletes his memory only after the person confirms; it is not
  offered while he works.
"""

from __future__ import annotations

from typing import NamedTuple

from wiggum.coordinator.state import CoordinatorState
from wiggum.ralph.budget import budget_line
from wiggum.ralph.types import CONTINUABLE, RalphStatus, RunBudget

__all__ = [
    "FRESH_CONFIRM",
    "ContinueFields",
    "ContinueOffer",
    "ContinueRequest",
    "continue_offer",
    "continue_request",
    "warning_line",
]

FRESH_CONFIRM = (
    "Start fresh deletes Ralph's memory in .ralph/ (his task, plan, progress, reflections "
    "and notes). Your site's files stay. Delete his memory?"
)

_WHY = {
    RalphStatus.MAX_ITERATIONS: "Ralph reached the iteration limit",
    RalphStatus.STALLED: "Ralph stalled",
    RalphStatus.BUDGET_SPENT: "Ralph reached the spending cap",
}
#: After the cap, the offered cap is this much of the old one.
RAISE_BY = 1.5


class ContinueOffer(NamedTuple):
    """The Continue form as it opens: the cause, and what its fields hold."""

    text: str
    more: int
    cap_usd: str
    cap_tokens: str


def _money(x: float) -> str:
    return f"{x:.2f}" if x >= 0.1 else f"{x:.4f}".rstrip("0").rstrip(".")


def continue_offer(state: CoordinatorState, iterations: int) -> ContinueOffer | None:
    """The form after a run stopped at its limit, a stall or its cap; else ``None``.
    ``iterations``: the settings' limit (what one Continue offers)."""
    if state.status not in CONTINUABLE or not state.resumable or state.interrupted:
        return None
    why = _WHY[state.status]
    cause = (state.last_error or "").strip()
    # The loop's own words name him already ("Ralph stopped at his cap …").
    text = cause if cause.startswith("Ralph") else (f"{why}: {cause}" if cause else f"{why}.")
    text += " His work so far is saved; continue where he stopped."
    budget = state.budget or RunBudget()
    raise_it = state.status is RalphStatus.BUDGET_SPENT
    usd, tokens = budget.max_cost, budget.max_tokens
    if raise_it:
        usd = usd * RAISE_BY if usd is not None else None
        tokens = int(tokens * RAISE_BY) if tokens is not None else None
    return ContinueOffer(
        text=text,
        more=max(iterations, 1),
        cap_usd="" if usd is None else _money(usd),
        cap_tokens="" if tokens is None else str(tokens),
    )


class ContinueFields(NamedTuple):
    """The form as typed: more iterations, the caps (US$, tokens), the note."""

    more: str
    cap_usd: str
    cap_tokens: str
    note: str = ""


class ContinueRequest(NamedTuple):
    """What the Coordinator is asked: go on this many iterations more, with this
    cap (``None``: the run's own) and the person's note (``None``: none)."""

    more_iterations: int
    budget: RunBudget | None
    note: str | None


def _number(text: str, kind: type) -> float | int | None:
    cleaned = text.replace("$", "").replace(",", "").strip()
    if not cleaned:
        return None
    value = kind(float(cleaned))
    if value != value or value < 0:
        raise ValueError(text)
    return value


def continue_request(fields: ContinueFields) -> ContinueRequest | str:
    """What Continue asks of the Coordinator, or what to fix in the form (in words)."""
    try:
        more = int(float(fields.more.strip() or "0"))
    except ValueError:
        more = 0
    if not 1 <= more <= 500:
        return "Say how many more iterations, from 1 to 500."
    try:
        usd = _number(fields.cap_usd, float)
        tokens = _number(fields.cap_tokens, int)
    except (ValueError, OverflowError):
        return "A cap is a number (US dollars, or tokens); leave it empty for none."
    budget = RunBudget(usd or None, int(tokens) if tokens else None)
    return ContinueRequest(more, budget if budget.capped else None, fields.note.strip() or None)


def warning_line(state: CoordinatorState) -> str | None:
    """``⚠ 82% of the cap spent ($0.41 of $0.50)`` while 80 % or more is spent, else ``None``."""
    line = budget_line(state.budget, state.usage)
    return None if line is None else f"⚠ {line}"
