"""What one run of Ralph's watches around every call: the cap, the provider's
limits, and the commands the shell did not have.

The loop asks :meth:`RunGuard.before_call` before each ``chat()`` (a call whose
estimate would pass the cap is not made: the words of the stop come back),
tells it each reply's usage (:meth:`RunGuard.saw`, the provider's counts) and
each refusal (:meth:`RunGuard.learn`, a limit to keep), and each shell result
(:meth:`RunGuard.note_output`).  The arithmetic is :mod:`.budget`'s, the
limits :mod:`wiggum.llm.limits`'; this holds one run's share of them so the
loop stays a loop.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from wiggum.llm import LLMError, ProviderConfig, UsageData
from wiggum.llm.limits import LearnedLimits, apply_limits, learn_limits, wait_left

from .budget import Forecast, estimate_call, forecast_run, over_cap, prices_for
from .memory import missing_commands
from .types import RunBudget

__all__ = ["RunGuard"]


class RunGuard:
    def __init__(
        self,
        provider: ProviderConfig,
        budget: RunBudget | None,
        *,
        limits: LearnedLimits | None = None,
        now: Callable[[], float],
        on_learned: Callable[[LearnedLimits], Any] | None = None,
    ) -> None:
        self.budget = budget
        self.prices = prices_for(provider.model, provider.kind)
        self.limits = limits
        self.now = now
        self.on_learned = on_learned
        #: The largest prompt and reply the provider reported in this run.
        self.seen_prompt = 0
        self.seen_reply = 0
        #: Commands the shell answered "command not found", in the order first met.
        self.missing: list[str] = []

    def provider(self, provider: ProviderConfig) -> ProviderConfig:
        """``provider`` with what refusals taught (the window, the reply limit)."""
        return apply_limits(provider, self.limits)

    def forecast(self, start_tokens: int, iterations: int, done: int = 0) -> Forecast:
        return forecast_run(start_tokens, iterations, self.prices, done=done)

    def before_call(self, estimated_prompt: int, spent: UsageData | None) -> str | None:
        """Why the next call (``estimated_prompt`` tokens sent) may not be made, or ``None``."""
        call = estimate_call(estimated_prompt, self.seen_prompt, self.seen_reply, self.prices)
        return over_cap(self.budget, spent, call)

    def saw(self, usage: UsageData) -> None:
        self.seen_prompt = max(self.seen_prompt, usage.prompt_tokens)
        self.seen_reply = max(self.seen_reply, usage.completion_tokens)

    def reply_limit(self, asked: int | None) -> int | None:
        """The reply budget to ask for: ``asked``, lowered to a learned maximum."""
        learned = self.limits.max_output_tokens if self.limits is not None else None
        if learned is None:
            return asked
        return learned if asked is None else min(asked, learned)

    def wait_left(self) -> float:
        """Seconds a rate limit the provider set asks the next call to wait."""
        return wait_left(self.limits, self.now())

    def learn(self, err: LLMError, sent_tokens: int) -> bool:
        """Keep what ``err`` teaches; True when it taught something new."""
        learned = learn_limits(err, self.limits, sent_tokens=sent_tokens, now=self.now())
        if learned is None:
            return False
        self.limits = learned
        if self.on_learned is not None:
            self.on_learned(learned)
        return True

    def note_output(self, tool: str, output: str) -> None:
        if tool != "shell":
            return
        for name in missing_commands(output):
            if name not in self.missing:
                self.missing.append(name)
