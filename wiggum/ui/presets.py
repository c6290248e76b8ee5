"""Provider presets as data: where each provider lives and whether a web page may call it.

Each preset carries its browser fact (``browser``: does the provider answer a
page's cross-origin request?) and the public source that fact was checked
against, so a wrong default can be traced and fixed.  ``"unverified"`` means
no public source was found either way: the proxy stays off (a direct call is
the fastest first run) and Test connection tells the person at once when the
browser blocks it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, model_validator

__all__ = ["PRESETS", "Preset", "preset"]

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


PRESETS: tuple[Preset, ...] = (
    Preset(
        id="openai",
        name="OpenAI",
        kind="openai",
        base_url="https://api.openai.com/v1",
        proxy=False,
        model="gpt-4o-mini",
        browser="yes",
        browser_source="https://github.com/Niek/chatgpt-web/issues/330",
        key_url="https://platform.openai.com/api-keys",
    ),
    Preset(
        id="anthropic",
        name="Anthropic",
        kind="anthropic",
        base_url="https://api.anthropic.com",
        proxy=False,
        model="claude-sonnet-4-20250514",
        key_header="x-api-key",
        browser="yes",
        browser_header="anthropic-dangerous-direct-browser-access: true",
        browser_source="https://github.com/anthropics/anthropic-sdk-typescript/issues/703",
        key_url="https://console.anthropic.com/settings/keys",
    ),
    Preset(
        id="openrouter",
        name="OpenRouter",
        kind="openai",
        base_url="https://openrouter.ai/api/v1",
        proxy=False,
        model="openai/gpt-4o-mini",
        browser="yes",
        browser_source="https://github.com/open-pencil/open-pencil/issues/247",
        key_url="https://openrouter.ai/settings/keys",
    ),
    Preset(
        id="gemini",
        name="Google Gemini",
        kind="openai",
        base_url="https://generativelanguage.googleapis.com/v1beta/openai",
        proxy=False,
        model="gemini-2.0-flash",
        key_url="https://aistudio.google.com/apikey",
    ),
    Preset(
        id="groq",
        name="Groq",
        kind="openai",
        base_url="https://api.groq.com/openai/v1",
        proxy=False,
        model="llama-3.3-70b-versatile",
        key_url="https://console.groq.com/keys",
    ),
    Preset(
        id="deepseek",
        name="DeepSeek",
        kind="openai",
        base_url="https://api.deepseek.com/v1",
        proxy=False,
        model="deepseek-chat",
        browser="yes",
        browser_source="https://github.com/logancyang/obsidian-copilot/issues/1491",
        key_url="https://platform.deepseek.com/api_keys",
    ),
    Preset(
        id="mistral",
        name="Mistral",
        kind="openai",
        base_url="https://api.mistral.ai/v1",
        proxy=False,
        model="mistral-small-latest",
        browser="yes",
        browser_source="https://github.com/mistralai/client-js/issues/21",
        key_url="https://console.mistral.ai/api-keys",
    ),
    Preset(
        id="xai",
        name="xAI",
        kind="openai",
        base_url="https://api.x.ai/v1",
        proxy=False,
        model="grok-3-mini",
        key_url="https://console.x.ai",
    ),
    Preset(
        id="together",
        name="Together",
        kind="openai",
        base_url="https://api.together.xyz/v1",
        proxy=False,
        model="meta-llama/Llama-3.3-70B-Instruct-Turbo",
        key_url="https://api.together.ai/settings/api-keys",
    ),
    Preset(
        id="ollama",
        name="Ollama",
        kind="ollama",
        base_url="http://localhost:11434",
        proxy=False,
        model="llama3.2",
        needs_key=False,
        key_header="",
        browser="local",
        browser_source="https://docs.ollama.com/faq#how-can-i-allow-additional-web-origins-to-access-ollama",
        origin_fix="Start Ollama with OLLAMA_ORIGINS={origin} (for example "
        "`OLLAMA_ORIGINS={origin} ollama serve`) so it accepts this page.",
    ),
    Preset(
        id="local",
        name="LM Studio / llama.cpp / vLLM",
        kind="openai",
        base_url="http://localhost:1234/v1",
        proxy=False,
        needs_key=False,
        browser="local",
        browser_source="https://lmstudio.ai/docs/cli/server-start",
        origin_fix="Let the server accept this page ({origin}): in LM Studio turn on "
        "“Enable CORS” in the Developer tab (or `lms server start --cors`); for vLLM "
        "pass --allowed-origins '[\"{origin}\"]'.",
    ),
    Preset(
        id="custom",
        name="Custom (OpenAI-compatible)",
        kind="openai",
        base_url="",
        proxy=False,
    ),
)

_PRESETS_BY_ID = {p.id: p for p in PRESETS}


def preset(preset_id: str) -> Preset:
    return _PRESETS_BY_ID.get(preset_id, _PRESETS_BY_ID["custom"])
