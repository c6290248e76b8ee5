"""wiggum.ui.settings: presets, storage round trip, keys never shown."""

from __future__ import annotations

import json
import logging

import pytest

from wiggum.llm import UsageData
from wiggum.ui.format import USAGE_NOT_REPORTED, format_cost, usage_line
from wiggum.ui.settings import (
    PRESETS,
    ProviderSettings,
    Settings,
    default_settings,
    validate_base_url,
    validate_proxy_template,
)

KEY = "sk-live-TOPSECRET-0123456789"


def make() -> Settings:
    a = ProviderSettings.from_preset("openai", api_key=KEY, model="gpt-4o", proxy=True)
    b = ProviderSettings.from_preset("ollama")
    return Settings(
        providers=[a, b], active_provider=b.id, proxy_template="https://p.example/?url={href}"
    )


def test_presets():
    by_id = {p.id: p for p in PRESETS}
    # OpenAI answers web pages (see its browser_source): no proxy by default.
    assert (by_id["openai"].base_url, by_id["openai"].kind, by_id["openai"].proxy) == (
        "https://api.openai.com/v1",
        "openai",
        False,
    )
    assert (by_id["anthropic"].base_url, by_id["anthropic"].kind, by_id["anthropic"].proxy) == (
        "https://api.anthropic.com",
        "anthropic",
        False,
    )
    assert (by_id["openrouter"].base_url, by_id["openrouter"].kind, by_id["openrouter"].proxy) == (
        "https://openrouter.ai/api/v1",
        "openai",
        False,
    )
    assert (by_id["ollama"].base_url, by_id["ollama"].kind, by_id["ollama"].proxy) == (
        "http://localhost:11434",
        "ollama",
        False,
    )
    assert by_id["custom"].kind == "openai"


def test_storage_round_trip_keeps_the_key():
    s = make()
    data = s.to_storage()
    assert data["providers"][0]["api_key"] == KEY
    json.dumps(data)  # JSON-able for IndexedDB
    back = Settings.from_storage(data)
    assert back.providers[0].key == KEY
    assert back.active().kind == "ollama"
    assert back.proxy_template == s.proxy_template
    assert back.to_storage() == data


def test_key_never_in_repr_str_or_log_dumps(caplog):
    s = make()
    for text in (
        repr(s),
        str(s),
        repr(s.providers[0]),
        s.model_dump_json(),
        json.dumps(s.model_dump(mode="json")),
        str(s.model_dump()),
        repr(s.providers[0].to_config()),
        f"{s.providers[0]}",
    ):
        assert KEY not in text
    with caplog.at_level(logging.DEBUG):
        logging.getLogger("test").info("settings %s %r", s, s.providers[0])
    assert KEY not in caplog.text


def test_to_config():
    p = make().providers[0]
    c = p.to_config()
    assert c.secret() == KEY and c.kind == "openai" and c.proxy and c.model == "gpt-4o"
    assert c.name == "OpenAI"


def test_from_storage_defaults_and_damage():
    assert Settings.from_storage(None).active().preset == "openai"
    assert Settings.from_storage({"providers": "nonsense"}).active() is not None
    d = default_settings()
    assert d.active_provider == d.providers[0].id


def test_active_falls_back_to_first():
    s = make()
    s.active_provider = "gone"
    assert s.active() is s.providers[0]


@pytest.mark.parametrize(
    ("template", "ok"),
    [
        ("", True),
        ("https://proxy.example/?url={href}", True),
        ("http://127.0.0.1:8787/{href}", True),
        ("https://proxy.example/?url=", False),
        ("proxy.example/{href}", False),
        ("javascript:{href}", False),
        ("https://a/{href}{href}", False),
        ("https://a b/{href}", False),
    ],
)
def test_proxy_template_validation(template, ok):
    assert (validate_proxy_template(template) is None) is ok


def test_base_url_validation():
    assert validate_base_url("https://api.openai.com/v1") is None
    assert validate_base_url("") is not None
    assert validate_base_url("api.openai.com") is not None


def test_problems():
    p = ProviderSettings.from_preset("custom")
    assert len(p.problems()) == 2  # base URL and model; a custom endpoint may need no key
    openai = ProviderSettings.from_preset("openai")
    assert openai.problems() == ["Enter your OpenAI API key."]
    assert ProviderSettings.from_preset("ollama").problems() == []
    local = openai.model_copy(update={"base_url": "http://127.0.0.1:8080/v1"})
    assert local.problems() == []


def test_usage_line():
    assert (
        usage_line(
            UsageData(prompt_tokens=1000, completion_tokens=234, total_tokens=1234, cost=0.0012)
        )
        == "1,234 tokens · $0.0012"
    )
    assert usage_line(UsageData(total_tokens=50)) == "50 tokens · cost unknown"
    assert usage_line({"total_tokens": 1, "cost": 2.5}) == "1 token · $2.50"
    assert usage_line(None) == ""
    assert usage_line(None, missing=USAGE_NOT_REPORTED) == "tokens not reported · cost unknown"
    assert format_cost(None) == "cost unknown"
    assert format_cost(0.0) == "free"
    assert format_cost(0.000001) == "< $0.0001"


def test_an_entry_switched_to_another_kind_is_not_named_after_its_old_preset():
    p = ProviderSettings.from_preset("openai")
    assert p.label == "OpenAI"
    switched = p.model_copy(update={"kind": "anthropic", "base_url": "http://127.0.0.1:9"})
    assert switched.label == "Anthropic"
    assert switched.model_copy(update={"name": "My Claude"}).label == "My Claude"
    assert p.model_copy(update={"kind": "ollama"}).label == "Ollama"
