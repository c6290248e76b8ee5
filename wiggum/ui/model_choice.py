"""Which model each agent uses in a project, and how full and costly the conversation is.

The choice is per project and per role (Chief talks, Ralph builds and may use
a cheaper model); it lives in :class:`~wiggum.ui.settings.Settings` beside
the providers.  :func:`meter` gives the context meter's figures from the
preflight estimate and the conversation's cost from the replies' usage.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from wiggum.llm import UsageData, lookup_model
from wiggum.llm.preflight import estimate_tokens

from .format import format_cost
from .models import ModelOption

__all__ = [
    "Meter",
    "bar_options",
    "choice_key",
    "ledger_meter",
    "meter",
    "meter_label",
    "model_label",
    "option_for",
    "run_meter",
]

Role = Literal["chief", "ralph"]


def choice_key(project_id: str, role: Role) -> str:
    return f"{project_id}:{role}"


@dataclass(slots=True, frozen=True)
class Meter:
    """Two different things, each labelled so a person can tell them apart: how
    full the context is (``tokens`` of ``window``: what the next call sends), and
    what was spent (``cost``: the sum the provider reported; ``None`` with
    ``spent_nothing``: no reply yet, else the prices are not known)."""

    tokens: int
    window: int | None
    cost: float | None
    spent_nothing: bool = False

    @property
    def fraction(self) -> float | None:
        return min(1.0, self.tokens / self.window) if self.window else None

    @property
    def text(self) -> str:
        used = f"{self.tokens:,}"
        ctx = f"{used} / {self.window:,} tokens" if self.window else f"{used} tokens"
        if self.cost is not None:
            spent = f"{format_cost(self.cost)} spent"
        else:
            spent = "nothing spent yet" if self.spent_nothing else "cost unknown"
        return f"Context {ctx} · {spent}"


def option_for(model: str, kind: str, known: Iterable[ModelOption] = ()) -> ModelOption:
    """The model as an option with registry facts (when the list did not give them)."""
    found = next((m for m in known if m.id == model), None)
    if found is not None and found.context_window:
        return found
    entry = lookup_model(model, kind)
    if entry is None:
        return found or ModelOption(model)
    cost = entry.cost
    return ModelOption(
        model,
        name=found.name if found else "",
        context_window=entry.capability.context_window,
        input_per_m=cost.input_per_token * 1e6 if cost else None,
        output_per_m=cost.output_per_token * 1e6 if cost else None,
    )


def model_label(option: ModelOption) -> str:
    """What the switcher shows: the model's name, its window and price."""
    return option.label if not option.name else option.label.replace(option.id, option.name, 1)


def meter(
    records: Sequence[Any],
    messages: Sequence[Any],
    model: str,
    kind: str,
    tools: Sequence[Any] | None = None,
) -> Meter:
    """Tokens the conversation takes (preflight estimate) against ``model``'s window, and cost.

    ``records`` are the stored replies (their ``usage.cost``), ``messages``
    the conversation as it would be sent (system prompt included), ``tools``
    the definitions sent with it.
    """
    tokens = estimate_tokens(messages, tools)
    entry = lookup_model(model, kind) if model else None
    window = entry.capability.context_window if entry else None
    used = [r.usage for r in records if getattr(r, "usage", None)]
    costs = [u.cost for u in used if u.cost]
    return Meter(tokens, window, sum(costs) if costs else None, spent_nothing=not used)


def run_meter(call: UsageData, total: UsageData | None, model: str, kind: str) -> Meter:
    """Ralph's meter: the context his latest call filled (what it sent and what came
    back, as the provider counted it) against ``model``'s window, and his run's cost.

    Each iteration starts from a fresh context, so the latest call is what says
    how close he is to the window, not the run's total.
    """
    entry = lookup_model(model, kind) if model else None
    window = entry.capability.context_window if entry else None
    tokens = call.prompt_tokens + call.completion_tokens
    return Meter(tokens, window, total.cost if total is not None else None)


def bar_options(models: list[ModelOption], current: str, kind: str) -> list[ModelOption]:
    """The switcher's list: the provider's models with registry facts where the list
    gave none, the current model first when the list lacks it."""
    options = [option_for(m.id, kind, models) if not m.context_window else m for m in models]
    if not any(o.id == current for o in options):
        options.insert(0, option_for(current, kind))
    return options


def meter_label(fraction: float) -> str:
    """The context meter's accessible name."""
    return f"{round(fraction * 100)}% of the context used"


def ledger_meter(ledger: Any, kind: str) -> Meter | None:
    """Ralph's meter as his latest run left it (``wiggum.ralph.state.UsageLedger``,
    read again when a project opens), or ``None`` before his first call."""
    if ledger.last is None or not ledger.iterations:
        return None
    return run_meter(ledger.last, ledger.total, ledger.iterations[-1].model, kind)
