r"""The model registry's sources and its format: parse, merge, encode.

models.dev's ``api.json`` (USD per 1M tokens) and OpenRouter's
``GET /api/v1/models`` (strings, USD per token) become :class:`Row`\ s, one
per model as one provider offers it; :func:`build_registry` groups them by
bare id into the committed ``models.json`` format (version 1, see
``scripts/gen_registry.py``), and :func:`merge_registries` lays a fresh one
over another, provider by provider (what the page does with the facts it
fetched when the person asks).

Standard library only: ``scripts/gen_registry.py`` runs it before anything is
installed, and the page runs it without pydantic.
"""

from __future__ import annotations

import collections
import json
from collections.abc import Iterable
from typing import Any, NamedTuple

__all__ = [
    "AGGREGATOR",
    "FIELDS",
    "FIRST_PARTY",
    "FLAGS",
    "FORMAT_VERSION",
    "MODELS_DEV_URL",
    "OPENROUTER_URL",
    "Row",
    "bare_id",
    "build_registry",
    "dumps",
    "merge_registries",
    "parse_models_dev",
    "parse_openrouter",
]

MODELS_DEV_URL = "https://models.dev/api.json"
OPENROUTER_URL = "https://openrouter.ai/api/v1/models"

FORMAT_VERSION = 1
F_TOOLS, F_STREAMING, F_REASONING, F_IMAGES, F_STRUCTURED = 1, 2, 4, 8, 16
FIELDS = ["provider", "ctx", "max_out", "flags", "in", "out", "cache_read", "cache_write"]
FLAGS = {
    "tools": F_TOOLS,
    "streaming": F_STREAMING,
    "reasoning": F_REASONING,
    "images": F_IMAGES,
    "structured_output": F_STRUCTURED,
}

#: Providers that are the origin of their own models, in order of preference when several
#: of them list the same bare id: their row is canonical (see ``_canonical``).
FIRST_PARTY = (
    "openai",
    "anthropic",
    "google",
    "mistral",
    "deepseek",
    "xai",
    "cohere",
    "moonshotai",
    "zai",
    "minimax",
    "alibaba",
    "meta",
    "llama",
    "perplexity",
    "amazon-bedrock",
    "groq",
)
AGGREGATOR = "openrouter"


class Row(NamedTuple):
    """One model as one provider offers it."""

    provider: str
    model_id: str
    ctx: int
    max_out: int
    flags: int
    input: float | None
    output: float | None
    cache_read: float | None
    cache_write: float | None

    def data(self) -> tuple:
        return (
            self.ctx,
            self.max_out,
            self.flags,
            self.input,
            self.output,
            self.cache_read,
            self.cache_write,
        )


# --- helpers -------------------------------------------------------------------------------


def _int(value: Any) -> int:
    try:
        n = int(value)
    except (TypeError, ValueError):
        return 0
    return max(n, 0)


def _price(value: float) -> float:
    """Round away float noise (``0.30000000000000004``) to 10 significant digits."""
    return float(f"{value:.10g}")


def _per_million(value: Any) -> float | None:
    """models.dev prices are USD per 1M tokens."""
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        return None
    return _price(value / 1_000_000)


def _per_token_str(value: Any) -> float | None:
    """OpenRouter prices: strings in USD per token; ``"0"`` is free, ``"-1"`` unknown."""
    if value is None or isinstance(value, bool):
        return None
    try:
        n = float(value)
    except (TypeError, ValueError):
        return None
    if n < 0 or n != n:  # "-1" sentinel, NaN
        return None
    return _price(n)


def bare_id(model_id: str) -> str:
    """``Anthropic/Claude-Sonnet-4`` -> ``claude-sonnet-4``."""
    return model_id.strip().lower().rsplit("/", 1)[-1]


# --- parsers -------------------------------------------------------------------------------


def parse_models_dev(api: dict[str, Any]) -> list[Row]:
    """Rows from models.dev ``api.json``: ``{provider_id: {id, name, models: {...}}}``."""
    rows: list[Row] = []
    for provider_key, provider in api.items():
        if not isinstance(provider, dict):
            continue
        provider_id = str(provider.get("id") or provider_key)
        models = provider.get("models") or {}
        if not isinstance(models, dict):
            continue
        for model_key, m in models.items():
            if not isinstance(m, dict):
                continue
            limit = m.get("limit") or {}
            cost = m.get("cost") or {}
            modalities = m.get("modalities") or {}
            flags = F_STREAMING
            if m.get("tool_call"):  # bool, or an object describing tool support
                flags |= F_TOOLS
            if m.get("reasoning"):
                flags |= F_REASONING
            if "image" in (modalities.get("input") or ()):
                flags |= F_IMAGES
            if m.get("structured_output"):
                flags |= F_STRUCTURED
            price_in = _per_million(cost.get("input"))
            price_out = _per_million(cost.get("output"))
            rows.append(
                Row(
                    provider=provider_id,
                    model_id=str(m.get("id") or model_key),
                    ctx=_int(limit.get("context")),
                    max_out=_int(limit.get("output")),
                    flags=flags,
                    input=price_in,
                    output=price_out,
                    cache_read=_per_million(cost.get("cache_read")),
                    cache_write=_per_million(cost.get("cache_write")),
                )
            )
    return rows


def parse_openrouter(payload: dict[str, Any], provider: str = "openrouter") -> list[Row]:
    """Rows from OpenRouter ``GET /api/v1/models``: ``{"data": [...]}``."""
    rows: list[Row] = []
    for m in payload.get("data") or ():
        if not isinstance(m, dict) or not m.get("id"):
            continue
        top = m.get("top_provider") or {}
        pricing = m.get("pricing") or {}
        arch = m.get("architecture") or {}
        params = set(m.get("supported_parameters") or ())
        flags = F_STREAMING
        if "tools" in params:
            flags |= F_TOOLS
        if "reasoning" in params or "include_reasoning" in params:
            flags |= F_REASONING
        if "image" in (arch.get("input_modalities") or ()):
            flags |= F_IMAGES
        if "structured_outputs" in params:
            # ``response_format`` alone means JSON mode, not schema-constrained output.
            flags |= F_STRUCTURED
        rows.append(
            Row(
                provider=provider,
                model_id=str(m["id"]),
                ctx=_int(m.get("context_length") or top.get("context_length")),
                max_out=_int(top.get("max_completion_tokens")),
                flags=flags,
                input=_per_token_str(pricing.get("prompt")),
                output=_per_token_str(pricing.get("completion")),
                cache_read=_per_token_str(pricing.get("input_cache_read")),
                cache_write=_per_token_str(pricing.get("input_cache_write")),
            )
        )
    return rows


def _canonical(rows: list[Row]) -> Row:
    """The first-party provider's row; else the most common data among the providers,
    ties going to OpenRouter (which tracks origin prices), then to the first provider id."""
    by_provider = {r.provider: r for r in rows}
    for p in FIRST_PARTY:
        if p in by_provider:
            return by_provider[p]
    counts = collections.Counter(r.data() for r in rows)
    return min(rows, key=lambda r: (-counts[r.data()], r.provider != AGGREGATOR, r.provider))


def _dedupe(rows: Iterable[Row]) -> dict[str, list[Row]]:
    """Group by bare id, one row per (bare id, provider) (first raw id in sorted order)."""
    grouped: dict[str, dict[str, Row]] = collections.defaultdict(dict)
    for r in sorted(rows, key=lambda r: (bare_id(r.model_id), r.provider, r.model_id)):
        key = bare_id(r.model_id)
        if key:
            grouped[key].setdefault(r.provider, r)
    return {k: list(v.values()) for k, v in grouped.items()}


def _encode_group(group: list[Row]) -> list[Any]:
    """One model's rows as stored: the canonical row first, then each other
    provider's, a bare name where its data equals the canonical's."""
    canon = _canonical(group)
    out: list[Any] = [[canon.provider, *canon.data()]]
    for r in sorted(group, key=lambda r: r.provider):
        if r is canon:
            continue
        out.append(r.provider if r.data() == canon.data() else [r.provider, *r.data()])
    return out


def _registry(
    models: dict[str, list],
    *,
    generated: str,
    sources: list[dict[str, Any]],
    source_rows: int,
    refreshed: str | None = None,
) -> dict[str, Any]:
    providers: set[str] = set()
    n_entries = 0
    for rows in models.values():
        names = [r if isinstance(r, str) else r[0] for r in rows]
        providers.update(names)
        n_entries += len(names)
    head: dict[str, Any] = {"v": FORMAT_VERSION, "generated": generated}
    if refreshed:
        head["refreshed"] = refreshed
    return {
        **head,
        "sources": sources,
        "counts": {
            "models": len(models),
            "entries": n_entries,
            "providers": len(providers),
            "source_rows": source_rows,
        },
        "fields": FIELDS,
        "flags": FLAGS,
        "providers": sorted(providers),
        "models": {k: models[k] for k in sorted(models)},
    }


def build_registry(
    rows: Iterable[Row], *, generated: str, sources: list[dict[str, Any]]
) -> dict[str, Any]:
    rows = list(rows)
    grouped = _dedupe(rows)
    models = {key: _encode_group(grouped[key]) for key in sorted(grouped)}
    return _registry(models, generated=generated, sources=sources, source_rows=len(rows))


def _expand(key: str, rows: list[Any]) -> dict[str, Row]:
    """A stored model's rows, each provider's whole again."""
    if not rows:
        return {}
    canon = rows[0]
    out = {canon[0]: Row(canon[0], key, *canon[1:])}
    for r in rows[1:]:
        if isinstance(r, str):
            out[r] = Row(r, key, *canon[1:])
        else:
            out[r[0]] = Row(r[0], key, *r[1:])
    return out


def merge_registries(base: dict[str, Any], fresh: dict[str, Any]) -> dict[str, Any]:
    """``fresh`` laid over ``base``: each model's rows from ``fresh`` replace that
    provider's rows in ``base``; every other provider and model of ``base`` stays
    (a source that did not answer loses nothing).  The sources of both are named;
    ``generated`` stays ``base``'s, ``refreshed`` is when ``fresh`` was made."""
    models = dict(base.get("models") or {})
    for key, rows in (fresh.get("models") or {}).items():
        merged = _expand(key, list(models.get(key) or ()))
        merged.update(_expand(key, list(rows)))
        models[key] = _encode_group(list(merged.values()))
    counts = (base.get("counts") or {}, fresh.get("counts") or {})
    return _registry(
        models,
        generated=str(base.get("generated") or ""),
        sources=list(base.get("sources") or ()) + list(fresh.get("sources") or ()),
        source_rows=sum(int(c.get("source_rows") or 0) for c in counts),
        refreshed=str(fresh.get("refreshed") or fresh.get("generated") or "") or None,
    )


def dumps(registry: dict[str, Any]) -> str:
    """Compact JSON, one model per line (readable diffs), deterministic."""

    def c(v: Any) -> str:
        return json.dumps(v, separators=(",", ":"), ensure_ascii=False, allow_nan=False)

    head = {k: v for k, v in registry.items() if k != "models"}
    lines = ["{" + c(head)[1:-1] + ',"models":{']
    items = sorted(registry["models"].items())
    for i, (key, rows) in enumerate(items):
        lines.append(c(key) + ":" + c(rows) + ("," if i < len(items) - 1 else ""))
    lines.append("}}")
    return "\n".join(lines) + "\n"
