"""Provider presets: the settings dialog's labels and help text over the vendors' facts.

Where each provider lives, how its key is sent, whether a web page may call it
(and the public source that fact was checked against), where keys are made:
those are the vendor's, in its file under ``wiggum/llm/vendors/``.  A preset
adds what the page says about it: its name in the list, a sensible first
model, and for a server on this machine how to make it accept this page.

``browser="unverified"`` means no public source was found either way: the
proxy stays off (a direct call is the fastest first run) and Test connection
tells the person at once when the browser blocks it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, model_validator

from wiggum.llm.vendors import Vendor, vendor, web_searchers

__all__ = ["PRESETS", "Preset", "preset", "web_search_hint"]

Kind = Literal["openai", "anthropic", "ollama"]
Browser = Literal["yes", "no", "local", "unverified"]
ModelsFrom = Literal["provider", "registry"]


class Preset(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    kind: Kind
    base_url: str
    #: The proxy's default for this provider: on only where browsers are refused.
    proxy: bool
    #: A sensible first model, for the free-text field.
    model: str = ""
    needs_key: bool = True
    #: The request header that carries the key.
    key_header: str = "Authorization: Bearer"
    #: Does the provider answer a web page's cross-origin call?
    browser: Browser = "unverified"
    #: A header the browser call needs (Anthropic's opt-in), ``name: value``.
    browser_header: str = ""
    #: Where the source for ``browser`` was read.
    browser_source: str = ""
    #: Where the model list comes from: the provider's list endpoint or Wiggum's registry.
    models_from: ModelsFrom = "provider"
    #: Where keys are made.
    key_url: str = ""
    #: What to do when the local server refuses this page's origin ({origin} is filled in).
    origin_fix: str = ""

    @model_validator(mode="after")
    def _consistent(self) -> Preset:
        if self.browser in ("yes", "no") and not self.browser_source.startswith("https://"):
            raise ValueError(f"{self.id}: a browser fact needs its source")
        if self.browser == "no" and not self.proxy:
            raise ValueError(f"{self.id}: a provider refusing browsers needs the proxy on")
        if self.needs_key and not self.key_url and self.id != "custom":
            raise ValueError(f"{self.id}: a provider needing a key needs a key page")
        return self


def _preset(v: Vendor, name: str, *, model: str = "", origin_fix: str = "") -> Preset:
    """The preset of vendor ``v``, shown as ``name``."""
    return Preset(
        id=v.id,
        name=name,
        kind=v.dialect,
        base_url=v.base_url,
        proxy=v.browser == "no",
        model=model,
        needs_key=v.needs_key,
        key_header=v.key_label(),
        browser=v.browser,
        browser_header="; ".join(f"{k}: {value}" for k, value in v.browser_headers.items()),
        browser_source=v.browser_source,
        models_from=v.models_from,
        key_url=v.key_url,
        origin_fix=origin_fix,
    )


PRESETS: tuple[Preset, ...] = (
    _preset(vendor("openai"), "OpenAI", model="gpt-4o-mini"),
    _preset(vendor("anthropic"), "Anthropic", model="claude-sonnet-4-20250514"),
    _preset(vendor("openrouter"), "OpenRouter", model="openai/gpt-4o-mini"),
    _preset(vendor("gemini"), "Google Gemini", model="gemini-2.0-flash"),
    _preset(vendor("groq"), "Groq", model="llama-3.3-70b-versatile"),
    _preset(vendor("deepseek"), "DeepSeek", model="deepseek-chat"),
    _preset(vendor("mistral"), "Mistral", model="mistral-small-latest"),
    _preset(vendor("xai"), "xAI", model="grok-3-mini"),
    _preset(vendor("together"), "Together", model="meta-llama/Llama-3.3-70B-Instruct-Turbo"),
    _preset(
        vendor("ollama"),
        "Ollama",
        model="llama3.2",
        origin_fix="Start Ollama with OLLAMA_ORIGINS={origin} (for example "
        "`OLLAMA_ORIGINS={origin} ollama serve`) so it accepts this page.",
    ),
    _preset(
        vendor("local"),
        "LM Studio / llama.cpp / vLLM",
        origin_fix="Let the server accept this page ({origin}): in LM Studio turn on "
        "“Enable CORS” in the Developer tab (or `lms server start --cors`); for vLLM "
        "pass --allowed-origins '[\"{origin}\"]'.",
    ),
    _preset(vendor("custom"), "Custom (OpenAI-compatible)"),
)

_PRESETS_BY_ID = {p.id: p for p in PRESETS}


def preset(preset_id: str) -> Preset:
    return _PRESETS_BY_ID.get(preset_id, _PRESETS_BY_ID["custom"])


def web_search_hint() -> str:
    """Why "Let Chief search the web" is off for a provider: who can search."""
    names = [preset(v.id).name for v in web_searchers()]
    return f"Only {' and '.join(names)} search the web themselves."
