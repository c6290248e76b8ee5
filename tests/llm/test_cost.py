"""Cost from the registry, usage accumulation, and the provider -> registry -> None chain."""

from __future__ import annotations

import pytest

from wiggum.llm.cost import accumulate_usage, calculate_cost, resolve_cost
from wiggum.llm.registry import lookup_model
from wiggum.llm.types import UsageData


def usage(prompt=0, completion=0, **kw) -> UsageData:
    return UsageData(
        prompt_tokens=prompt, completion_tokens=completion, total_tokens=prompt + completion, **kw
    )


def test_seed_example():
    # claude-sonnet-4-20250514: $3 / $15 per 1M tokens.
    cost = calculate_cost("claude-sonnet-4-20250514", usage(1000, 500))
    assert cost == pytest.approx(0.0105)


def test_unknown_model_or_price_is_none():
    assert calculate_cost("no-such-model-xyz", usage(1000, 500)) is None
    assert calculate_cost("llama3.1:8b", usage(1000, 500), provider="ollama") is None


def test_cache_reads_priced_out_of_prompt_tokens():
    price = lookup_model("gpt-4o").cost
    assert price.cache_read_per_token is not None
    u = usage(1000, 100, cache_read_tokens=800)
    expected = (
        200 * price.input_per_token
        + 800 * price.cache_read_per_token
        + 100 * price.output_per_token
    )
    assert calculate_cost("gpt-4o", u) == pytest.approx(expected)
    # More cache reads than prompt tokens never gives a negative input count.
    odd = calculate_cost("gpt-4o", usage(10, 0, cache_read_tokens=50))
    assert odd == pytest.approx(10 * price.cache_read_per_token)


def test_cache_writes_priced_when_known():
    entry = lookup_model("claude-sonnet-4", "openrouter")
    c = entry.cost
    assert c.cache_write_per_token is not None
    u = usage(1000, 0, cache_read_tokens=100, cache_write_tokens=300)
    expected = (
        600 * c.input_per_token + 100 * c.cache_read_per_token + 300 * c.cache_write_per_token
    )
    assert calculate_cost("claude-sonnet-4", u, "openrouter") == pytest.approx(expected)


def test_cache_tokens_without_cache_price_stay_at_input_price():
    # claude-sonnet-4-20250514's canonical entry lists no cache prices.
    entry = lookup_model("claude-sonnet-4-20250514")
    assert entry.cost.cache_read_per_token is None
    with_cache = calculate_cost("claude-sonnet-4-20250514", usage(1000, 500, cache_read_tokens=900))
    assert with_cache == pytest.approx(0.0105)


def test_free_variant_costs_zero():
    assert calculate_cost("anthropic/claude-sonnet-4:free", usage(1000, 500)) == 0.0


def test_accumulate_usage():
    a = usage(100, 50, cost=0.01, cache_read_tokens=10, cost_source="provider")
    b = usage(200, 25)
    total = accumulate_usage(a, b)
    assert (total.prompt_tokens, total.completion_tokens, total.total_tokens) == (300, 75, 375)
    assert total.cost == pytest.approx(0.01)  # one side unknown -> counted as 0
    assert total.cache_read_tokens == 10
    assert total.reasoning_tokens is None
    assert total.cost_source == "provider"
    # cost stays None only if both are None.
    assert accumulate_usage(usage(1, 1), usage(2, 2)).cost is None
    assert accumulate_usage(usage(1, 1), usage(2, 2)).cost_source is None
    # First accumulation copies.
    first = accumulate_usage(None, a)
    assert first == a and first is not a
    # Mixed sources: part of the sum is an estimate.
    mixed = accumulate_usage(a, usage(1, 1, cost=0.5, cost_source="registry"))
    assert mixed.cost == pytest.approx(0.51) and mixed.cost_source == "registry"


def test_resolve_cost_chain():
    reported = resolve_cost(usage(1000, 500, cost=0.5), "claude-sonnet-4-20250514")
    assert (reported.cost, reported.cost_source) == (0.5, "provider")
    from_registry = resolve_cost(usage(1000, 500), "claude-sonnet-4-20250514")
    assert from_registry.cost == pytest.approx(0.0105)
    assert from_registry.cost_source == "registry"
    unknown = resolve_cost(usage(1000, 500), "no-such-model-xyz")
    assert (unknown.cost, unknown.cost_source) == (None, None)
    # The input is not changed.
    u = usage(1, 1)
    resolve_cost(u, "gpt-4o")
    assert u.cost is None and u.cost_source is None
