"""What the provider forms say: the key field, a model's facts, the model list, a test result.

Shared by the Settings dialog and the first-run form (``wiggum.web.views``),
which word the key field differently: Settings names a hosted provider and
says a local server usually needs no key; the first run hides the key field
where no key is needed (except for a custom server, which may want one).
"""

from __future__ import annotations

from dataclasses import dataclass

from wiggum.llm import LLMError, lookup_model

from .connection import Diagnosis
from .errors import explain
from .models import ModelOption, price_label
from .presets import Preset, preset
from .settings import ProviderSettings

__all__ = [
    "ELSEWHERE_TEXT",
    "KINDS",
    "WORKER_URL_PROBLEM",
    "KeyField",
    "diagnosis_class",
    "key_link",
    "model_info",
    "models_failed_text",
    "models_loaded_text",
    "onboarding_key_field",
    "settings_key_field",
]

#: The kinds of API a provider speaks, as the Kind select lists them.
KINDS = (
    ("openai", "OpenAI-compatible"),
    ("anthropic", "Anthropic"),
    ("ollama", "Ollama"),
)

WORKER_URL_PROBLEM = (
    "Paste the worker's address, starting with https:// "
    "(for example https://wiggum-cors-proxy.you.workers.dev)."
)
ELSEWHERE_TEXT = (
    "These settings were just saved in another tab. Save here to replace them with what you "
    "see, or take theirs (your edits here are dropped)."
)
UNKNOWN_MODEL = "Not in Wiggum's model list: limits and prices unknown."


@dataclass(frozen=True, slots=True)
class KeyField:
    label: str
    placeholder: str
    #: ``(href, text)`` of "Make a key at …", or ``None`` (the link is hidden).
    link: tuple[str, str] | None
    #: Whether the field is shown at all.
    shown: bool = True


def key_link(pr: Preset) -> tuple[str, str] | None:
    if not pr.key_url:
        return None
    return pr.key_url, f"Make a key at {pr.key_url.split('://')[1]}"


def settings_key_field(p: ProviderSettings) -> KeyField:
    pr = preset(p.preset)
    name = pr.name if pr.id not in ("custom", "local") else ""
    if p.needs_key:
        placeholder = f"Paste your {name or 'provider'} key"
    else:
        placeholder = "Usually not needed for a local server"
    return KeyField(f"{name} API key" if name else "API key", placeholder, key_link(pr))


def onboarding_key_field(pr: Preset) -> KeyField:
    custom = pr.id == "custom"
    return KeyField(
        "API key" if custom else f"{pr.name} API key",
        "Paste your key" if pr.needs_key else "Only if your server needs one",
        key_link(pr),
        shown=pr.needs_key or custom,
    )


def model_info(model_id: str, kind: str, known: list[ModelOption]) -> str:
    """A model's context window and price, from the provider's list or Wiggum's registry."""
    mid = model_id.strip()
    if not mid:
        return ""
    option = next((m for m in known if m.id == mid), None)
    if option is None:
        entry = lookup_model(mid, kind)
        if entry is None:
            return UNKNOWN_MODEL
        cost = entry.cost
        option = ModelOption(
            mid,
            context_window=entry.capability.context_window,
            input_per_m=cost.input_per_token * 1e6 if cost else None,
            output_per_m=cost.output_per_token * 1e6 if cost else None,
        )
    parts = []
    if option.context_window:
        parts.append(f"{option.context_window:,} tokens of context")
    price = price_label(option.input_per_m, option.output_per_m)
    parts.append(
        price.replace("per 1M", "per million tokens (in / out)") if price else "price unknown"
    )
    return " · ".join(parts)


def models_loaded_text(models: list[ModelOption]) -> str:
    return f"{len(models)} models available." if models else "The provider listed no models."


def models_failed_text(err: LLMError, p: ProviderSettings, proxy_template: str) -> str:
    e = explain(err, provider_name=p.label, proxy=p.proxy, proxy_template=proxy_template)
    return (
        f"Could not load the model list ({e.message if e else err.name}) "
        "You can still type a model name."
    )


def diagnosis_class(d: Diagnosis | None) -> str:
    """The result box's classes: plain while testing, then good or bad."""
    if d is None:
        return "conn-result"
    return "conn-result " + ("conn-ok" if d.ok else "conn-bad")
