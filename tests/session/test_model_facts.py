"""Refresh model facts: both registry sources over real HTTP (recorded copies on a
local server), merged over the built-in registry, kept, and one failing source
losing nothing."""

from __future__ import annotations

import pytest

from tests.sim.registry_sources import MODELS_DEV, OPENROUTER, RegistrySources
from wiggum.llm import registry
from wiggum.llm.registry import lookup_model
from wiggum.persist import MemoryAppStorage
from wiggum.session.model_facts import FACTS_KEY, ModelFacts, Source, default_sources


@pytest.fixture
def sources():
    with RegistrySources() as s:
        yield s
    registry.use_fresh_facts(None)  # the next test sees the built-in facts


def facts_for(sources: RegistrySources, storage, transport) -> ModelFacts:
    routes = {"models.dev": MODELS_DEV, "OpenRouter": OPENROUTER}
    at = tuple(
        Source(s.name, sources.base_url + routes[s.name], s.parse) for s in default_sources()
    )
    return ModelFacts(storage, transport, sources=at, clock=lambda: 1_800_000_000.0)


def cost_in(model: str, provider: str | None = None) -> float:
    return lookup_model(model, provider).cost.input_per_token


async def test_both_sources_are_merged_over_the_built_in_registry_and_kept(sources, transport):
    # models.dev moved gpt-4o's price; OpenRouter lists a model the build never saw.
    sources.payload(MODELS_DEV)["openai"]["models"]["gpt-4o"]["cost"]["input"] = 2.0
    sources.payload(OPENROUTER)["data"].append(
        {
            "id": "acme/wiggum-test-1",
            "context_length": 77777,
            "pricing": {"prompt": "0.000001", "completion": "0.000002"},
            "top_provider": {"context_length": 77777, "max_completion_tokens": 7777},
            "supported_parameters": ["tools"],
        }
    )
    assert cost_in("gpt-4o") == 2.5e-06 and lookup_model("wiggum-test-1") is None
    built_models = registry.registry_info()["counts"]["models"]
    storage = MemoryAppStorage()
    facts = facts_for(sources, storage, transport)
    shown = await facts.refresh()
    assert shown.ok, shown.text
    assert shown.counts == {"models.dev": 5, "OpenRouter": 4}
    assert "5 models from models.dev and 4 models from OpenRouter" in shown.text
    assert cost_in("gpt-4o") == 2.0e-06
    fresh = lookup_model("acme/wiggum-test-1")
    assert fresh.provider == "openrouter" and fresh.capability.context_window == 77777
    assert fresh.capability.supports_tools and fresh.cost.output_per_token == 2e-06
    # Everything the build knew is still there.
    assert registry.registry_info()["counts"]["models"] > built_models
    assert lookup_model("claude-opus-4") is not None
    assert "models.dev fetched" in facts.status() and "OpenRouter fetched" in facts.status()
    # The built-in facts keep their date; the refresh has its own.
    assert facts.status().startswith("Built-in facts from 2026-08-18")
    assert registry.registry_info()["refreshed"] == "2027-01-15T08:00:00Z"

    # Kept in the app's storage: the next visit lays them over the built-in again.
    registry.use_fresh_facts(None)
    assert cost_in("gpt-4o") == 2.5e-06
    assert set(await storage.get_meta(FACTS_KEY)) == {"models.dev", "OpenRouter"}
    await facts_for(sources, storage, transport).load()
    assert cost_in("gpt-4o") == 2.0e-06 and lookup_model("wiggum-test-1") is not None


@pytest.mark.parametrize(
    ("fault", "words"),
    [
        (503, "it answered HTTP 503"),
        ("garbage", "its answer was not JSON"),
    ],
)
async def test_one_failing_source_is_said_and_loses_nothing(sources, transport, fault, words):
    storage = MemoryAppStorage()
    facts = facts_for(sources, storage, transport)
    sources.payload(OPENROUTER)["data"][0]["pricing"]["prompt"] = "0.000009"
    assert (await facts.refresh()).ok
    assert cost_in("claude-sonnet-4", "openrouter") == 9e-06
    # Next time OpenRouter fails; models.dev answers with a moved price.
    sources.faults[OPENROUTER] = fault
    sources.payload(MODELS_DEV)["openai"]["models"]["gpt-4o"]["cost"]["input"] = 1.0
    shown = await facts.refresh()
    assert not shown.ok and shown.counts == {"models.dev": 5}
    assert "Refreshed: 5 models from models.dev" in shown.text
    assert f"OpenRouter: {words}" in shown.text and "stay as they were" in shown.text
    assert cost_in("gpt-4o") == 1.0e-06
    # OpenRouter's facts from the first refresh are still in use, and still kept.
    assert cost_in("claude-sonnet-4", "openrouter") == 9e-06
    assert set(await storage.get_meta(FACTS_KEY)) == {"models.dev", "OpenRouter"}


async def test_both_failing_keeps_the_facts_in_use_and_says_so(sources, transport):
    storage = MemoryAppStorage()
    sources.faults = {MODELS_DEV: 500, OPENROUTER: "garbage"}
    shown = await facts_for(sources, storage, transport).refresh()
    assert not shown.ok and not shown.counts
    assert shown.text.startswith("Nothing was refreshed")
    assert "models.dev: it answered HTTP 500" in shown.text and "try again" in shown.text
    assert await storage.get_meta(FACTS_KEY) is None
    assert cost_in("gpt-4o") == 2.5e-06


async def test_an_unreachable_source_is_said_as_not_answering(sources, transport):
    facts = facts_for(sources, MemoryAppStorage(), transport)
    dead = Source("models.dev", "http://127.0.0.1:9/api.json", facts.sources[0].parse)
    facts.sources = (dead, facts.sources[1])
    shown = await facts.refresh()
    assert "models.dev: it did not answer" in shown.text and shown.counts == {"OpenRouter": 3}
