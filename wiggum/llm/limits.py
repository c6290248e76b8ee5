"""Provider limits learned from refusals, kept so the next call does not fail the same way.

A provider that says "the prompt is too long (window 8192)", "max_tokens may be
at most 4096" or "429, retry after 20 s" has told us a fact about one model on
one endpoint that the registry did not know.  :func:`learn_limits` reads that
fact from the error; the page keeps it with the settings (per endpoint and
model, :func:`limits_key`) and :func:`apply_limits` puts it into the provider's
overrides, so the preflight of the next call (a reload later too) trims to the
real window and asks for no more reply than the model gives.

Decided:

- A window the error does not state is learned as nine tenths of what was sent
  (``sent_tokens``): the request did not fit, so the window is smaller than it.
- A learned figure only ever lowers what is known (a later, larger error
  message never widens a window that refused a smaller prompt).
- A rate limit is kept as "wait until": the next call waits out what is left
  of it, and one an hour old costs nothing.
"""

from __future__ import annotations

import re

from pydantic import BaseModel

from .errors import ContextOverflowError, LLMError, ProviderError, RateLimitError
from .types import ProviderConfig

__all__ = ["LearnedLimits", "apply_limits", "learn_limits", "limits_key", "wait_left"]

_MAX_TOKENS = re.compile(
    r"max_tokens|max_completion_tokens|max_output_tokens|maximum (?:number of )?"
    r"(?:output|completion) tokens",
    re.I,
)
#: The model's own maximum, as refusals word it ("at most 4096", "maximum allowed is 4096",
#: "> 4096, which is the maximum", "supports up to 4096").
_MAX_FIGURE = re.compile(
    r"(?:at most|maximum(?: allowed)?(?: (?:value|number))?(?: is| of)?:?|up to|limit(?: is| of)?"
    r"|<=)\s*(\d[\d,]*)|(\d[\d,]*),? which is the maximum",
    re.I,
)


class LearnedLimits(BaseModel):
    """What refusals taught about one model on one endpoint."""

    context_window: int | None = None
    max_output_tokens: int | None = None
    #: The clock time before which the provider asked not to be called again.
    rate_limited_until: float | None = None


def limits_key(endpoint: str, model: str) -> str:
    """The settings' key: the endpoint (base URL) and the model."""
    return f"{endpoint.rstrip('/')}|{model}"


def _lower(known: int | None, new: int | None) -> int | None:
    if new is None or new <= 0:
        return known
    return new if known is None else min(known, new)


def _max_figure(message: str) -> int | None:
    if not _MAX_TOKENS.search(message):
        return None
    m = _MAX_FIGURE.search(message)
    if m is None:
        return None
    return int((m.group(1) or m.group(2)).replace(",", ""))


def learn_limits(
    err: LLMError, known: LearnedLimits | None, *, sent_tokens: int = 0, now: float = 0.0
) -> LearnedLimits | None:
    """``known`` with what ``err`` teaches, or ``None`` when it teaches nothing new."""
    base = known or LearnedLimits()
    learned = base.model_copy()
    if isinstance(err, ContextOverflowError) and err.source == "provider":
        window = err.context_window or (int(sent_tokens * 0.9) if sent_tokens else None)
        learned.context_window = _lower(base.context_window, window)
    elif isinstance(err, RateLimitError):
        wait = err.retry_after if err.retry_after is not None else 30.0
        learned.rate_limited_until = now + wait
    elif isinstance(err, ProviderError) and err.status == 400:
        text = " ".join(str(x) for x in (err.detail, err.message) if x)
        learned.max_output_tokens = _lower(base.max_output_tokens, _max_figure(text))
    return learned if learned != base else None


def apply_limits(provider: ProviderConfig, limits: LearnedLimits | None) -> ProviderConfig:
    """``provider`` with the learned window and reply limit as its overrides."""
    if limits is None:
        return provider
    update = {}
    for name in ("context_window", "max_output_tokens"):
        value = _lower(getattr(provider, name), getattr(limits, name))
        if value != getattr(provider, name):
            update[name] = value
    return provider.model_copy(update=update) if update else provider


def wait_left(limits: LearnedLimits | None, now: float) -> float:
    """Seconds the next call should wait for a rate limit (0: none)."""
    if limits is None or limits.rate_limited_until is None:
        return 0.0
    return max(0.0, limits.rate_limited_until - now)
