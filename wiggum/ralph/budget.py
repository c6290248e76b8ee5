"""Ralph's spending cap: the forecast before a run, and the check before each call.

What was decided, and why:

- **Spend is what the provider reported.** The run's ledger sums the usage each
  reply carried (``UsageData`` from the stream; its cost the provider's, else
  the registry's prices).  Estimates only decide whether the *next* call may
  go, and make the forecast; both are called estimates wherever they are shown.
- **A call's estimate** is its prompt (the preflight estimate of the messages,
  or the largest prompt the provider reported in this run when that is more: a
  provider's own count beats a heuristic) plus its reply (the largest reply
  reported so far, at least :data:`REPLY_FLOOR`).  The call is not made when
  the spend so far plus that estimate would pass the cap, so a run stops
  *before* it passes its cap, not after.
- **Unknown prices** (a local model, a model the registry lacks): money cannot
  be forecast nor checked from prices, and the words say so; a cost the
  provider reported still counts, and the cap in tokens always applies.
- **The forecast** is arithmetic on the first context's size: each iteration
  makes :data:`CALLS_PER_ITERATION` calls whose prompt grows by
  :data:`GROWTH_PER_CALL` (the tool results) and whose replies are
  :data:`REPLY_GUESS` long.  ``bench/forecast.py`` prints it beside the
  simulated spend of scripted runs.
- **The warning** comes at :data:`WARN_AT` of either cap.

Kept here (not in ``wiggum.llm``): the cap is a run's, and its words Ralph's tab's.
"""

from __future__ import annotations

from dataclasses import dataclass

from wiggum.llm import UsageData
from wiggum.llm.registry import ModelCost, lookup_model

from .types import RunBudget

__all__ = [
    "CALLS_PER_ITERATION",
    "GROWTH_PER_CALL",
    "REPLY_FLOOR",
    "REPLY_GUESS",
    "WARN_AT",
    "CallEstimate",
    "Forecast",
    "budget_line",
    "estimate_call",
    "forecast_run",
    "money",
    "over_cap",
    "prices_for",
    "spent_fraction",
    "spent_tokens",
    "tokens",
]

#: The forecast's guesses: calls an iteration makes, tokens a tool result adds to
#: the next call's prompt, tokens of a reply.
CALLS_PER_ITERATION = 4
GROWTH_PER_CALL = 600
REPLY_GUESS = 400
#: The least a reply is expected to cost before the run has seen one.
REPLY_FLOOR = 256
#: The share of a cap at which the status line warns.
WARN_AT = 0.8


def tokens(n: int) -> str:
    """``12,345`` or ``1.2M``."""
    if n >= 1_000_000:
        return f"{n / 1_000_000:.1f}M"
    return f"{n:,}"


def money(x: float) -> str:
    """``$0.41``; small sums keep four decimals (``$0.0031``)."""
    return f"${x:.4f}" if x < 0.1 else f"${x:.2f}"


def prices_for(model: str, kind: str | None = None) -> ModelCost | None:
    """The model's prices per token from the registry; ``None`` when unknown (local models)."""
    entry = lookup_model(model, kind) if model else None
    return entry.cost if entry is not None else None


def spent_tokens(spent: UsageData | None) -> int:
    if spent is None:
        return 0
    return spent.prompt_tokens + spent.completion_tokens


@dataclass(frozen=True, slots=True)
class Forecast:
    """What a run is estimated to spend before it starts."""

    tokens: int
    #: US dollars; ``None`` when the model's prices are unknown.
    cost: float | None
    iterations: int
    #: Tokens of the context he starts each iteration with.
    start_tokens: int

    def text(self, budget: RunBudget | None = None) -> str:
        """``Estimate: ~120,000 tokens · ~$0.40 for 20 iterations (cap $1.00)``."""
        spend = f"~{tokens(self.tokens)} tokens"
        if self.cost is not None:
            spend += f" · ~{money(self.cost)}"
        words = f"Estimate: {spend} for {self.iterations} iterations"
        caps = _caps(budget)
        if caps:
            words += f" (cap {caps})"
        if self.cost is None:
            words += ". This model's prices are unknown (a local model?): only a cap in tokens "
            words += "can be kept"
        return words + "."


def _caps(budget: RunBudget | None) -> str:
    if budget is None:
        return ""
    parts = []
    if budget.max_cost is not None:
        parts.append(money(budget.max_cost))
    if budget.max_tokens is not None:
        parts.append(f"{tokens(budget.max_tokens)} tokens")
    return " or ".join(parts)


def forecast_run(
    start_tokens: int, iterations: int, prices: ModelCost | None, *, done: int = 0
) -> Forecast:
    """The estimate for ``iterations - done`` more iterations from a first context of
    ``start_tokens`` (see the module's docstring for the arithmetic)."""
    left = max(iterations - done, 0)
    prompt = sum(start_tokens + k * GROWTH_PER_CALL for k in range(CALLS_PER_ITERATION))
    reply = CALLS_PER_ITERATION * REPLY_GUESS
    total_prompt, total_reply = prompt * left, reply * left
    cost = None
    if prices is not None:
        cost = total_prompt * prices.input_per_token + total_reply * prices.output_per_token
    return Forecast(total_prompt + total_reply, cost, left, start_tokens)


@dataclass(frozen=True, slots=True)
class CallEstimate:
    prompt: int
    reply: int
    #: US dollars; ``None`` when the prices are unknown.
    cost: float | None

    @property
    def tokens(self) -> int:
        return self.prompt + self.reply


def estimate_call(
    estimated_prompt: int,
    seen_prompt: int,
    seen_reply: int,
    prices: ModelCost | None,
) -> CallEstimate:
    """The next call's estimate: ``estimated_prompt`` from the preflight, ``seen_*``
    the largest prompt and reply the provider reported in this run (0 before any)."""
    prompt = max(estimated_prompt, seen_prompt)
    reply = max(seen_reply, REPLY_FLOOR)
    cost = None
    if prices is not None:
        cost = prompt * prices.input_per_token + reply * prices.output_per_token
    return CallEstimate(prompt, reply, cost)


def over_cap(budget: RunBudget | None, spent: UsageData | None, call: CallEstimate) -> str | None:
    """Why the call may not be made (the words of the stop), or ``None`` when it may."""
    if budget is None:
        return None
    used = spent_tokens(spent)
    if budget.max_tokens is not None and used + call.tokens > budget.max_tokens:
        return (
            f"Ralph stopped at his cap of {tokens(budget.max_tokens)} tokens: "
            f"{tokens(used)} are spent and his next call would need about "
            f"{tokens(call.tokens)} more. Continue with a raised cap to go on."
        )
    cost = spent.cost if spent is not None and spent.cost is not None else 0.0
    if budget.max_cost is not None and call.cost is not None and cost + call.cost > budget.max_cost:
        return (
            f"Ralph stopped at his cap of {money(budget.max_cost)}: {money(cost)} is spent and "
            f"his next call would cost about {money(call.cost)} more. Continue with a raised "
            "cap to go on."
        )
    if budget.max_cost is not None and cost >= budget.max_cost:
        return (
            f"Ralph stopped at his cap of {money(budget.max_cost)}: {money(cost)} is spent. "
            "Continue with a raised cap to go on."
        )
    return None


def spent_fraction(budget: RunBudget | None, spent: UsageData | None) -> float | None:
    """The larger share of either cap spent; ``None`` without a cap."""
    if budget is None or not budget.capped:
        return None
    shares = []
    if budget.max_tokens:
        shares.append(spent_tokens(spent) / budget.max_tokens)
    if budget.max_cost and spent is not None and spent.cost is not None:
        shares.append(spent.cost / budget.max_cost)
    return max(shares, default=0.0)


def budget_line(budget: RunBudget | None, spent: UsageData | None) -> str | None:
    """The status line's warning at :data:`WARN_AT` of the cap, else ``None``:
    ``82% of the cap spent ($0.41 of $0.50)``."""
    share = spent_fraction(budget, spent)
    if budget is None or share is None or share < WARN_AT:
        return None
    parts = []
    if budget.max_cost is not None and spent is not None and spent.cost is not None:
        parts.append(f"{money(spent.cost)} of {money(budget.max_cost)}")
    if budget.max_tokens is not None:
        parts.append(f"{tokens(spent_tokens(spent))} of {tokens(budget.max_tokens)} tokens")
    return f"{min(round(share * 100), 100)}% of the cap spent ({', '.join(parts)})"
