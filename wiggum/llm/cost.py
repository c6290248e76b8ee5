"""Usage cost: provider-reported, else computed from the model registry, else unknown.

Token conventions (what the dialects normalize to): ``prompt_tokens`` is the whole input,
cache reads and cache writes included (OpenAI's convention; Anthropic's separate counts are
summed into it), and ``completion_tokens`` the whole output, reasoning included.
"""

from __future__ import annotations

from .registry import lookup_model
from .types import UsageData

__all__ = ["WEB_SEARCH_PRICE", "accumulate_usage", "calculate_cost", "resolve_cost"]

#: USD per server-side web search (Anthropic's pricing: $10 per 1,000 searches).
WEB_SEARCH_PRICE = 0.01


def calculate_cost(model: str, usage: UsageData, provider: str | None = None) -> float | None:
    """USD cost of ``usage`` at the registry's prices, or ``None`` when they are unknown.

    Cache-read (and cache-write) tokens are taken out of the prompt tokens and priced at the
    cache-read (cache-write) price when both that count and that price are known; otherwise
    they stay at the input price.
    """
    entry = lookup_model(model, provider)
    if entry is None or entry.cost is None:
        return None
    price = entry.cost
    prompt = max(usage.prompt_tokens, 0)
    total = 0.0
    for tokens, per_token in (
        (usage.cache_read_tokens, price.cache_read_per_token),
        (usage.cache_write_tokens, price.cache_write_per_token),
    ):
        if tokens and per_token is not None:
            tokens = min(tokens, prompt)
            prompt -= tokens
            total += tokens * per_token
    total += prompt * price.input_per_token
    total += max(usage.completion_tokens, 0) * price.output_per_token
    total += max(usage.web_search_requests or 0, 0) * WEB_SEARCH_PRICE
    return total


def _add(a: int | None, b: int | None) -> int | None:
    return None if a is None and b is None else (a or 0) + (b or 0)


def accumulate_usage(existing: UsageData | None, add: UsageData) -> UsageData:
    """The sum of two usages.  ``cost`` is ``None`` only if both are; so are the optional
    token counts.  ``cost_source`` is kept when both agree, else the known one, and becomes
    ``"registry"`` when the sum mixes provider-reported and registry costs."""
    if existing is None:
        return add.model_copy()
    cost = (
        None
        if existing.cost is None and add.cost is None
        else ((existing.cost or 0.0) + (add.cost or 0.0))
    )
    sources = {s for s in (existing.cost_source, add.cost_source) if s is not None}
    source = sources.pop() if len(sources) == 1 else ("registry" if sources else None)
    return UsageData(
        prompt_tokens=existing.prompt_tokens + add.prompt_tokens,
        completion_tokens=existing.completion_tokens + add.completion_tokens,
        total_tokens=existing.total_tokens + add.total_tokens,
        cost=cost,
        cache_read_tokens=_add(existing.cache_read_tokens, add.cache_read_tokens),
        cache_write_tokens=_add(existing.cache_write_tokens, add.cache_write_tokens),
        reasoning_tokens=_add(existing.reasoning_tokens, add.reasoning_tokens),
        web_search_requests=_add(existing.web_search_requests, add.web_search_requests),
        cost_source=source if cost is not None else None,
    )


def resolve_cost(usage: UsageData, model: str, provider: str | None = None) -> UsageData:
    """``usage`` with ``cost`` and ``cost_source`` filled: the provider-reported cost if any,
    else the registry's, else ``None``.  Returns a new object; ``usage`` is not changed."""
    if usage.cost is not None:
        return usage.model_copy(update={"cost_source": usage.cost_source or "provider"})
    cost = calculate_cost(model, usage, provider)
    return usage.model_copy(
        update={"cost": cost, "cost_source": "registry" if cost is not None else None}
    )
