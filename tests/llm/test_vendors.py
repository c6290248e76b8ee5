"""One file per vendor: which vendor a provider is, and that each vendor's facts
reach its chat requests and the readers of its answers (the model list's
request: tests/ui/test_models.py)."""

from __future__ import annotations

import json

import pytest

from tests.llm.wire import chunk, run_stream, sse
from wiggum.llm import Message, ProviderConfig, RequestOptions
from wiggum.llm.call import Call
from wiggum.llm.dialects import get_dialect
from wiggum.llm.prepare import capability_for
from wiggum.llm.transport import ReplayResponse
from wiggum.llm.vendors import (
    OPENAI_ANSWERS,
    VENDORS,
    Vendor,
    reasoning_back,
    registry_hint,
    vendor,
    vendor_for,
    web_search_supported,
    web_searchers,
)

KEY = "sk-vendor-test"


def config(kind: str, base_url: str, *, id: str = "p-1", model: str = "some-model"):
    return ProviderConfig(id=id, kind=kind, base_url=base_url, model=model, api_key=KEY)


def of(v: Vendor, **kw) -> ProviderConfig:
    return config(v.dialect, v.base_url or "https://llm.example.com/v1", **kw)


def chat_request(provider: ProviderConfig, **options):
    call = Call(
        provider=provider,
        messages=[Message.system("Be brief."), Message.user("hi")],
        options=RequestOptions(**options),
        capability=capability_for(provider),
        max_tokens=100,
    )
    return get_dialect(provider.kind).build_request(call, stream=True)


# ---------------------------------------------------------------- which vendor


@pytest.mark.parametrize("v", VENDORS, ids=lambda v: v.id)
def test_a_vendors_own_base_url_is_that_vendor(v):
    assert vendor_for(of(v)) is (v if v.base_url else vendor("custom"))
    assert vendor(v.id) is v


@pytest.mark.parametrize(
    "kind,url,expected",
    [
        ("openai", "https://openrouter.ai/api/v1", "openrouter"),
        ("openai", "https://eu.openrouter.ai/api/v1", "openrouter"),  # a subdomain counts
        ("openai", "https://api.groq.com/openai/v1", "groq"),
        ("openai", "https://api.deepseek.com", "deepseek"),
        ("openai", "http://127.0.0.1:8080/v1", "local"),
        ("openai", "http://studio.local:1234/v1", "local"),
        ("openai", "https://llm.example.com/v1", "custom"),
        # A host another format's vendor owns: the dialect's own vendor, or custom.
        ("anthropic", "https://api.openai.com/v1", "anthropic"),
        ("anthropic", "http://127.0.0.1:9999", "anthropic"),
        ("ollama", "https://api.openai.com", "ollama"),
        ("openai", "https://api.anthropic.com/v1", "custom"),
    ],
)
def test_which_vendor_a_provider_is(kind, url, expected):
    assert vendor_for(config(kind, url)).id == expected


def test_an_entry_named_openrouter_is_openrouter_whatever_its_url():
    assert vendor_for(config("openai", "https://gw.example.com/v1", id="openrouter")).id == (
        "openrouter"
    )


# ---------------------------------------------------------------- the facts, checked


@pytest.mark.parametrize("v", VENDORS, ids=lambda v: v.id)
def test_each_vendor_states_its_facts_with_their_sources(v):
    if v.browser in ("yes", "no", "local"):
        assert v.browser_source.startswith("https://"), v.id
    if v.needs_key and v.id != "custom":
        assert v.key_url.startswith("https://"), v.id
    if v.base_url:
        assert v.base_url.startswith(("https://", "http://localhost")), v.id
    assert v.dialect in ("openai", "anthropic", "ollama")


def test_only_vendors_that_search_offer_search():
    assert {v.id for v in web_searchers()} == {"anthropic", "openrouter"}
    assert web_search_supported(of(vendor("openrouter")))
    assert not web_search_supported(of(vendor("groq")))


def test_the_openai_dialect_reads_every_vendors_answer_fields():
    # Text fields before structured ones, the older convention first.
    assert OPENAI_ANSWERS.reasoning == ("reasoning_content", "reasoning")
    assert OPENAI_ANSWERS.reasoning_parts == ("reasoning_details",)
    assert OPENAI_ANSWERS.cached_tokens == ("prompt_cache_hit_tokens",)
    assert OPENAI_ANSWERS.error_details == (("metadata", "raw"),)
    assert OPENAI_ANSWERS.call_extras == ("extra_content",)


def test_registry_names_come_from_the_vendor_else_the_dialect():
    assert registry_hint(of(vendor("gemini"))) == "google"
    assert registry_hint(of(vendor("together"))) == "togetherai"
    assert registry_hint(of(vendor("local"))) == "openai"
    assert registry_hint(of(vendor("ollama"))) == "ollama"


def test_deepseek_models_get_their_reasoning_back_wherever_they_are_served():
    assert reasoning_back(of(vendor("deepseek")))
    assert reasoning_back(of(vendor("openrouter"), model="deepseek/deepseek-r1"))
    assert reasoning_back(config("openai", "http://localhost:1234/v1", model="deepseek-r1:8b"))
    assert not reasoning_back(of(vendor("openai"), model="gpt-4o"))


# ---------------------------------------------------------------- requests


@pytest.mark.parametrize("v", VENDORS, ids=lambda v: v.id)
def test_every_chat_request_carries_the_vendors_key_header_and_fields(v):
    request = chat_request(of(v))
    assert request.headers[v.key_header] == v.key_prefix + KEY
    for name, value in {**v.headers, **v.browser_headers, **v.chat_headers}.items():
        assert request.headers[name] == value
    body = json.loads(request.body)
    for name, value in v.chat_fields.items():
        assert body[name] == value
    if v.dialect == "openai":
        assert body[v.max_tokens_field] == 100


@pytest.mark.parametrize("v", VENDORS, ids=lambda v: v.id)
def test_web_search_goes_where_the_vendor_takes_it_and_nowhere_else(v):
    body = json.loads(chat_request(of(v), web_search=4).body)
    if v.web_search is None:
        assert "web" not in json.dumps({k: body[k] for k in body if k != "messages"})
    else:
        entry = body[v.web_search.field][-1]
        assert entry[v.web_search.limit] == 4
        assert entry.items() >= v.web_search.entry.items()
    plain = json.loads(chat_request(of(v)).body)
    assert v.web_search is None or v.web_search.field not in plain


def test_a_vendors_own_headers_go_out_only_to_it():
    groq = chat_request(of(vendor("groq")))
    assert "X-Title" not in groq.headers and "anthropic-version" not in groq.headers
    assert "usage" not in json.loads(groq.body)


# ---------------------------------------------------------------- answers


async def test_a_wrapped_upstream_error_keeps_the_upstreams_words():
    body = {
        "error": {
            "message": "Provider returned error",
            "code": 400,
            "metadata": {"raw": "prompt is too long: 250000 tokens > 200000 maximum"},
        }
    }
    openrouter = of(vendor("openrouter"))
    _, err, _ = await run_stream(
        openrouter,
        b"",
        extra=[
            ReplayResponse(json.dumps(body).encode(), 400, {"content-type": "application/json"})
        ],
    )
    assert err.name == "ContextOverflowError" and err.context_window == 200000


async def test_each_vendors_reasoning_field_is_read():
    for name in OPENAI_ANSWERS.reasoning:
        _, response, _ = await run_stream(
            of(vendor("custom")),
            sse(chunk({name: "Thinking."}), chunk({"content": "Done."}, "stop")),
        )
        assert (response.reasoning, response.content) == ("Thinking.", "Done."), name
