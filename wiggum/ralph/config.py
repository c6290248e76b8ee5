"""Ralph's knobs: limits, thresholds and the request options of every call."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from wiggum.llm import AbortSignal, RequestOptions
from wiggum.llm.limits import LearnedLimits
from wiggum.llm.types import DEFAULT_TIMEOUT

from .types import RunBudget

__all__ = ["RalphConfig"]


@dataclass(slots=True)
class RalphConfig:
    #: Iterations of a run (absolute: a resumed run stops at the same number).
    max_iterations: int = 20
    #: Tool calls one iteration may make before it is ended.
    max_tool_calls_per_iteration: int = 50
    #: The Stop button; an abort ends the run as ``cancelled`` at the next await.
    signal: AbortSignal | None = None
    #: Stall thresholds on consecutive identical tool-call signatures.
    stall_warn_at: int = 2
    stall_feedback_at: int = 3
    stall_abort_at: int = 5
    #: Replies in a row whose tool calls are all malformed before the iteration ends.
    max_malformed_replies: int = 3
    # -- passed to every chat() call
    #: Reply budget per call (also the context builder's reserve).
    max_tokens: int | None = None
    temperature: float | None = None
    proxy_template: str | None = None
    reasoning_budget: int | None = None
    max_retries: int = 2
    #: Injectable sleep for the client's retry backoff (tests spend no wall time).
    sleep: Callable[[float], Any] | None = None
    #: Seconds to wait for an answer (its head, and each read of its body); the
    #: client's finite default unless the page sets the person's choice.
    timeout: float | None = DEFAULT_TIMEOUT
    #: The words for a call that failed, shown as his run's error: the page's
    #: own explanations (``wiggum.ui.errors``, a layer above Ralph); else
    #: :func:`~wiggum.ralph.loop.describe_error`.
    describe_error: Callable[[Any], str] | None = None
    # -- spending and memory
    #: The run's cap when the request names none (the settings' default).
    budget: RunBudget | None = None
    #: Ask him, in one structured call at the end of a run, what to remember.
    reflect: bool = False
    #: What refusals taught about this model on this endpoint (kept with the settings).
    learned_limits: LearnedLimits | None = None
    #: Told when a refusal teaches a new limit, so it can be kept for the next run.
    on_limits_learned: Callable[[LearnedLimits], Any] | None = None
    # -- asking the person
    #: Ask before deleting or overwriting more than this many of the person's
    #: files in a run (``None``: never ask); ``approve`` asks (``wiggum.ralph.approval``).
    ask_before_changing: int | None = None
    approve: Callable[[Any], Awaitable[bool]] | None = None
    # -- environment
    #: Clock for status timestamps and usage records.
    now: Callable[[], float] = time.time
    #: Initial variables of the shell tool.
    tool_env: dict[str, str] = field(default_factory=dict)

    def request_options(self, **chosen: Any) -> RequestOptions:
        """The options of one of his calls: the run's signal, proxy, retries and
        bounds, with what this call chose (tools, output schema, reply limit, …)."""
        return RequestOptions(
            signal=self.signal,
            proxy_template=self.proxy_template,
            max_retries=self.max_retries,
            sleep=self.sleep,
            timeout=self.timeout,
            **chosen,
        )
