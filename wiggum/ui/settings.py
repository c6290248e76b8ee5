"""The person's settings: providers (with presets), the active one, the proxy template.

Pure pydantic.  API keys are :class:`~pydantic.SecretStr`: ``repr``, ``str``,
``model_dump()`` and ``model_dump_json()`` show ``**********``.  Only
:meth:`Settings.to_storage` reveals them, to hand the record to
``AppStorage.put_settings`` (the key stays on this device).
"""

from __future__ import annotations

import re
import uuid
from typing import Any, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, Field, SecretStr

from wiggum.llm import ProviderConfig, web_search_supported
from wiggum.llm.limits import LearnedLimits
from wiggum.llm.vendors import host_of
from wiggum.llm.vendors.local import is_local_host

from .presets import PRESETS, Preset, preset

__all__ = [
    "PRESETS",
    "Preset",
    "ProviderSettings",
    "Settings",
    "default_settings",
    "preset",
    "validate_base_url",
    "validate_proxy_template",
]

Kind = Literal["openai", "anthropic", "ollama"]
_KIND_NAMES: dict[str, str] = {
    "openai": "OpenAI-compatible",
    "anthropic": "Anthropic",
    "ollama": "Ollama",
}


class ProviderSettings(BaseModel):
    """One configured provider, as the settings dialog edits it."""

    id: str = Field(default_factory=lambda: "p-" + uuid.uuid4().hex[:8])
    name: str = ""
    preset: str = "custom"
    kind: Kind = "openai"
    base_url: str = ""
    api_key: SecretStr = SecretStr("")
    model: str = ""
    proxy: bool = False
    #: Chief may search the web through this provider (billed per search; off
    #: unless the person turns it on; only where ``research_available``).
    web_search: bool = False

    @classmethod
    def from_preset(cls, preset_id: str, **overrides: Any) -> ProviderSettings:
        p = preset(preset_id)
        data: dict[str, Any] = {
            "name": p.name,
            "preset": p.id,
            "kind": p.kind,
            "base_url": p.base_url,
            "model": p.model,
            "proxy": p.proxy,
        }
        data.update(overrides)
        return cls(**data)

    @property
    def endpoint(self) -> str:
        """Which provider and server this entry talks to (a model choice made
        for one does not carry over to another)."""
        return f"{self.id}|{self.kind}|{self.base_url.strip().rstrip('/')}"

    @property
    def label(self) -> str:
        pr = preset(self.preset)
        if self.kind != pr.kind and self.name in ("", pr.name):
            # The entry was switched to another kind in Settings: its preset's
            # name ("OpenAI") would now name the wrong provider.
            return _KIND_NAMES[self.kind]
        return self.name or pr.name or self.base_url or "Provider"

    @property
    def key(self) -> str:
        return self.api_key.get_secret_value()

    def problems(self, proxy_template: str | None = None) -> list[str]:
        """What keeps this provider from being usable, in words for the person.

        With ``proxy_template`` given, a proxy turned on without a usable
        template is a problem too (the call would otherwise go out directly).
        """
        return list(self.field_problems(proxy_template).values())

    def field_problems(self, proxy_template: str | None = None) -> dict[str, str]:
        """``{field: reason}`` for Save to show beside each field."""
        out: dict[str, str] = {}
        err = validate_base_url(self.base_url)
        if err:
            out["base_url"] = err
        if not self.model.strip():
            out["model"] = "Choose a model."
        if self.needs_key and not self.key:
            out["api_key"] = f"Enter your {preset(self.preset).name} API key."
        if proxy_template is not None and self.proxy:
            t = proxy_template.strip()
            if not t:
                out["proxy_template"] = (
                    "The proxy is on for this provider but no proxy URL is set: enter your "
                    "proxy's URL below, or turn the proxy off."
                )
            else:
                terr = validate_proxy_template(t)
                if terr:
                    out["proxy_template"] = terr
        return out

    @property
    def is_local(self) -> bool:
        return is_local_host(host_of(self.base_url.strip()))

    @property
    def needs_key(self) -> bool:
        """A hosted vendor's API (its ``needs_key``) cannot work without a key."""
        return preset(self.preset).needs_key and self.preset != "custom" and not self.is_local

    @property
    def research_available(self) -> bool:
        """The provider's vendor searches the web itself (its ``web_search``)."""
        return web_search_supported(self.to_config())

    def to_config(self) -> ProviderConfig:
        return ProviderConfig(
            id=self.id,
            kind=self.kind,
            base_url=self.base_url.strip(),
            model=self.model.strip(),
            api_key=self.api_key,
            proxy=self.proxy,
            name=self.label,
        )


class Settings(BaseModel):
    providers: list[ProviderSettings] = Field(default_factory=list)
    active_provider: str | None = None
    #: CORS proxy URL template with ``{href}``; empty = no proxy configured.
    proxy_template: str = ""
    #: ``"<project id>:<chief|ralph>"`` → model id: each project's choice per agent.
    project_models: dict[str, str] = Field(default_factory=dict)
    #: The same keys → the :attr:`ProviderSettings.endpoint` the choice was made on.
    project_model_endpoints: dict[str, str] = Field(default_factory=dict)

    def model_for(
        self, project_id: str | None, role: str, endpoint: str | None = None
    ) -> str | None:
        """The model this project chose for ``role``, if any; with ``endpoint``,
        only a choice made on that endpoint (one made on another provider, or on
        this entry before it was pointed at another kind or server, would send
        that provider a model it does not have)."""
        if not project_id:
            return None
        key = f"{project_id}:{role}"
        made_on = self.project_model_endpoints.get(key)
        if endpoint is not None and made_on is not None and made_on != endpoint:
            return None
        return self.project_models.get(key) or None

    #: Seconds a reply may stream without a part of it (keep-alive bytes do not
    #: count) before Chief gives up on it.
    stream_idle_seconds: float = Field(default=90.0, ge=5.0, le=3600.0)
    #: Seconds Chief and Ralph wait for an answer to begin (and for each part of
    #: a whole answer) before a request is given up.  Settings stored before it
    #: existed load with this default.
    request_timeout_seconds: float = Field(default=300.0, ge=10.0, le=3600.0)
    #: Ralph asks before deleting or overwriting more than this many of the
    #: person's files in a run (``None``: he never asks).
    ask_before_changing: int | None = Field(default=None, ge=0, le=10_000)
    #: Publishing (``wiggum.deploy``): the person's fine-grained GitHub token, kept like
    #: provider keys, and the API base (GitHub Enterprise: ``https://HOST/api/v3``).
    github_token: SecretStr = SecretStr("")
    github_api: str = "https://api.github.com"
    #: Ralph's runs: iterations a run may take, and its default cap (US dollars,
    #: tokens; ``None``: none of that kind), which a hand-off or Continue may change.
    ralph_max_iterations: int = Field(default=20, ge=1, le=500)
    ralph_cap_usd: float | None = Field(default=2.0, ge=0.0)
    ralph_cap_tokens: int | None = Field(default=None, ge=1)
    #: One structured call at the end of each run writes what he learned
    #: (``.ralph/reflections.md``); off, it is written from what is known, without a call.
    ralph_reflect: bool = True
    #: What providers' refusals taught, per endpoint and model (``wiggum.llm.limits``).
    learned_limits: dict[str, LearnedLimits] = Field(default_factory=dict)

    def active(self) -> ProviderSettings | None:
        for p in self.providers:
            if p.id == self.active_provider:
                return p
        return self.providers[0] if self.providers else None

    def provider(self, provider_id: str) -> ProviderSettings | None:
        return next((p for p in self.providers if p.id == provider_id), None)

    def to_storage(self) -> dict[str, Any]:
        """The record for ``AppStorage.put_settings``: the only dump that holds the keys."""
        data = self.model_dump(mode="json")
        for out, p in zip(data["providers"], self.providers, strict=True):
            out["api_key"] = p.key
        data["github_token"] = self.github_token.get_secret_value()
        data["version"] = 1
        return data

    @classmethod
    def from_storage(cls, data: dict[str, Any] | None) -> Settings:
        if not data:
            return default_settings()
        data = {k: v for k, v in data.items() if k != "version"}
        try:
            return cls.model_validate(data)
        except Exception:
            # A damaged record must not lock the person out; start afresh.
            return default_settings()


def default_settings() -> Settings:
    first = ProviderSettings.from_preset("openai")
    return Settings(providers=[first], active_provider=first.id)


def validate_proxy_template(template: str) -> str | None:
    """``None`` when usable (or empty), else what is wrong, in words."""
    t = template.strip()
    if not t:
        return None
    if t.count("{href}") != 1:
        return "The proxy URL must contain {href} exactly once, where the provider's URL goes."
    parts = urlsplit(t.replace("{href}", "x"))
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return "The proxy URL must start with https:// (or http:// for a local proxy)."
    if re.search(r"\s", t):
        return "The proxy URL must not contain spaces."
    return None


def validate_base_url(url: str) -> str | None:
    u = url.strip()
    if not u:
        return "Enter the provider's base URL."
    parts = urlsplit(u)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return "The base URL must start with https:// or http://."
    return None
