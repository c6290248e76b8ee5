"""The provider's own model list, annotated with registry facts.

Where the list is, which headers it wants and how it reads are the vendor's
(``Vendor.models``: ``GET {base}/models`` for the OpenAI-compatible ones,
``/v1/models`` with Anthropic's version and browser headers, Ollama's
``/api/tags``).  It goes through the same
:class:`~wiggum.llm.transport.Transport` seam as chat, and through the CORS
proxy when the provider's toggle is on.  Prices and context windows come
from the list where the vendor gives them (OpenRouter), else the registry.

Errors are the client's :class:`~wiggum.llm.LLMError` classes (so the
settings dialog can explain them like any other); the dialog falls back to
a free-text model field when the list cannot be fetched.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from wiggum.llm import NetworkError, ProviderConfig, apply_proxy, lookup_model
from wiggum.llm.errors import MalformedResponseError
from wiggum.llm.http_errors import error_from_response
from wiggum.llm.transport import HttpRequest, Transport, get_default_transport
from wiggum.llm.vendors import ModelList, registry_hint, vendor_for

from .settings import ProviderSettings

__all__ = [
    "ModelOption",
    "list_models",
    "models_request",
    "parse_models",
    "price_label",
]


@dataclass(slots=True, frozen=True)
class ModelOption:
    id: str
    #: A display name when the provider gives one.
    name: str = ""
    context_window: int | None = None
    #: USD per 1M tokens.
    input_per_m: float | None = None
    output_per_m: float | None = None

    @property
    def label(self) -> str:
        """``gpt-4o · 128k context · $2.50 / $10.00 per 1M``."""
        parts = [self.id]
        if self.context_window:
            parts.append(f"{_kilo(self.context_window)} context")
        price = price_label(self.input_per_m, self.output_per_m)
        if price:
            parts.append(price)
        return " · ".join(parts)


def _kilo(n: int) -> str:
    if n >= 1_000_000:
        v = n / 1_000_000
        return f"{v:.0f}M" if v == int(v) else f"{v:.1f}M"
    return f"{round(n / 1000)}k" if n >= 1000 else str(n)


def price_label(input_per_m: float | None, output_per_m: float | None) -> str:
    if input_per_m is None or output_per_m is None:
        return ""
    if input_per_m == 0 and output_per_m == 0:
        return "free"

    def money(v: float) -> str:
        return f"${v:.2f}" if v >= 0.1 or v == 0 else f"${v:.3g}"

    return f"{money(input_per_m)} / {money(output_per_m)} per 1M"


def _config(provider: ProviderSettings | ProviderConfig) -> ProviderConfig:
    return provider.to_config() if isinstance(provider, ProviderSettings) else provider


def models_request(
    provider: ProviderSettings | ProviderConfig, proxy_template: str | None = None
) -> HttpRequest:
    """The ``GET`` that lists the provider's models."""
    config = _config(provider)
    vendor = vendor_for(config)
    headers = {"Accept": "application/json", **vendor.headers, **vendor.browser_headers}
    headers.update(vendor.key_headers(config.secret()))
    url = vendor.models.url(config.base_url.strip())
    return HttpRequest("GET", apply_proxy(url, config, proxy_template), headers)


def _per_m(value: Any) -> float | None:
    try:
        return float(value) * 1_000_000 if value is not None else None
    except (TypeError, ValueError):
        return None


def _annotate(config: ProviderConfig, model_id: str, name: str, raw: dict) -> ModelOption:
    entry = lookup_model(model_id, registry_hint(config))
    window = raw.get("context_length") or raw.get("context_window")
    pricing = raw.get("pricing") if isinstance(raw.get("pricing"), dict) else {}
    inp, out = _per_m(pricing.get("prompt")), _per_m(pricing.get("completion"))
    if entry is not None:
        window = window or entry.capability.context_window
        if inp is None and entry.cost is not None:
            inp = entry.cost.input_per_token * 1_000_000
            out = entry.cost.output_per_token * 1_000_000
    return ModelOption(
        id=model_id,
        name=name if name and name != model_id else "",
        context_window=int(window) if isinstance(window, int | float) and window else None,
        input_per_m=inp,
        output_per_m=out,
    )


def _first(entry: dict, fields: tuple[str, ...]) -> Any:
    return next((entry[f] for f in fields if entry.get(f)), None)


def _rows(spec: ModelList, data: Any) -> list[tuple[str, str, dict]]:
    """``(id, name, entry)`` of each model the answer lists, as the vendor's list reads."""
    items = data.get(spec.items) if isinstance(data, dict) else data
    rows: list[tuple[str, str, dict]] = []
    for m in items or []:
        if isinstance(m, dict):
            mid = _first(m, spec.id_fields)
            if mid:
                rows.append((str(mid), str(_first(m, spec.name_fields) or ""), m))
        elif isinstance(m, str):
            rows.append((m, "", {}))
    return rows


def parse_models(config: ProviderConfig, data: Any) -> list[ModelOption]:
    seen: set[str] = set()
    out = []
    for mid, name, raw in _rows(vendor_for(config).models, data):
        if mid in seen:
            continue
        seen.add(mid)
        out.append(_annotate(config, mid, name, raw))
    out.sort(key=lambda o: o.id.lower())
    return out


async def list_models(
    provider: ProviderSettings | ProviderConfig,
    transport: Transport | None = None,
    *,
    proxy_template: str | None = None,
    timeout: float | None = 20.0,
) -> list[ModelOption]:
    """The models the provider offers, sorted by id, each with registry facts.

    Raises :class:`~wiggum.llm.LLMError` subclasses (``AuthenticationError``,
    ``NotFoundError``, ``NetworkError`` …) when the list cannot be had.
    """
    config = _config(provider)
    if config.proxy and (not proxy_template or "{href}" not in proxy_template):
        # Never fall back to a direct call the person turned the proxy on to avoid.
        raise NetworkError(
            "The proxy is on but no proxy URL is set",
            config.name or config.id,
            config.model,
            maybe_cors=True,
        )
    request = models_request(config, proxy_template)
    request.timeout = timeout
    transport = transport or get_default_transport()
    label = config.name or config.id
    try:
        response = await transport.send(request)
    except NetworkError as err:
        err.provider, err.model = label, config.model
        raise
    try:
        body = await response.aread()
    finally:
        await response.aclose()
    if response.status >= 400:
        text = body.decode("utf-8", "replace")
        message = None
        try:
            obj = json.loads(text)
            e = obj.get("error") if isinstance(obj, dict) else None
            message = (
                e.get("message") if isinstance(e, dict) else (e if isinstance(e, str) else None)
            )
        except ValueError:
            # A plain-text answer (the CORS proxy's "proxy: …" refusals) is the detail.
            message = " ".join(text.split())[:300] or None
        raise error_from_response(
            response.status, text, response.headers, label, config.model, message=message
        )
    try:
        data = json.loads(body)
    except ValueError as exc:
        raise MalformedResponseError("The model list is not JSON", label, config.model) from exc
    try:
        return parse_models(config, data)
    except (AttributeError, TypeError) as exc:
        raise MalformedResponseError("Unexpected model list shape", label, config.model) from exc
