"""Every vendor Wiggum knows, one file each; which one a provider is.

Each module here holds everything about one vendor (base URL, key header,
error envelope, usage and reasoning fields, model list, web search, whether
browsers may call it), with a comment per quirk: see :mod:`.base` for what
the facts mean and how dialects consult them.  ``wiggum/ui/presets.py``
adds the labels and help text the settings dialog shows.

:func:`vendor_for` tells which vendor a :class:`ProviderConfig` is: the one
whose host its base URL names (or whose id it has), if that vendor speaks
the provider's dialect; else the dialect's own vendor (an Anthropic- or
Ollama-compatible server gets Anthropic's or Ollama's facts); else, for the
OpenAI format, a server on this machine is ``local`` and anything else
``custom``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import (
    anthropic,
    custom,
    deepseek,
    gemini,
    groq,
    local,
    mistral,
    ollama,
    openai,
    openrouter,
    together,
    xai,
)
from .base import Answers, ModelList, Vendor, WebSearch, host_matches, host_of

if TYPE_CHECKING:
    from ..types import ProviderConfig

__all__ = [
    "OPENAI_ANSWERS",
    "VENDORS",
    "Answers",
    "ModelList",
    "Vendor",
    "WebSearch",
    "host_of",
    "reasoning_back",
    "registry_hint",
    "vendor",
    "vendor_for",
    "web_search_supported",
    "web_searchers",
]

#: Every vendor.  For answers, the order is the order in which the OpenAI
#: dialect tries the vendors' fields when one answer holds several.
VENDORS: tuple[Vendor, ...] = (
    openai.VENDOR,
    anthropic.VENDOR,
    deepseek.VENDOR,
    xai.VENDOR,
    local.VENDOR,
    openrouter.VENDOR,
    groq.VENDOR,
    gemini.VENDOR,
    mistral.VENDOR,
    together.VENDOR,
    ollama.VENDOR,
    custom.VENDOR,
)
_BY_ID = {v.id: v for v in VENDORS}
#: The vendor whose own format a dialect is.
_OF_DIALECT = {"anthropic": anthropic.VENDOR, "ollama": ollama.VENDOR}


def vendor(vendor_id: str) -> Vendor:
    """The vendor of that id (``custom`` for an unknown one)."""
    return _BY_ID.get(vendor_id, custom.VENDOR)


def vendor_for(provider: ProviderConfig) -> Vendor:
    """The vendor ``provider`` talks to (see the module docstring)."""
    host = host_of(provider.base_url)
    for v in VENDORS:
        if v.dialect == provider.kind and (host_matches(host, v.hosts) or provider.id in v.ids):
            return v
    own = _OF_DIALECT.get(provider.kind)
    if own is not None:
        return own
    return local.VENDOR if local.is_local_host(host) else custom.VENDOR


def registry_hint(provider: ProviderConfig) -> str:
    """Whose prices and limits the model registry should give for the provider's model."""
    return vendor_for(provider).registry_id or provider.kind


def reasoning_back(provider: ProviderConfig) -> bool:
    """An assistant turn goes back with its reasoning: the vendor wants it, or
    the model is of a family that does wherever it is served."""
    if vendor_for(provider).reasoning_back:
        return True
    model = provider.model.lower()
    return any(v.reasoning_back and v.model_family in model for v in VENDORS if v.model_family)


def web_search_supported(provider: ProviderConfig) -> bool:
    """The provider can search the web itself (``RequestOptions.web_search``)."""
    return vendor_for(provider).web_search is not None


def web_searchers() -> tuple[Vendor, ...]:
    """The vendors that search the web themselves."""
    return tuple(v for v in VENDORS if v.web_search is not None)


@dataclass(frozen=True, slots=True)
class OpenAIAnswerFields:
    """The answer fields of every OpenAI-compatible vendor, gathered: the
    OpenAI dialect reads them all, whoever it called (see :mod:`.base`)."""

    reasoning: tuple[str, ...]
    reasoning_parts: tuple[str, ...]
    cached_tokens: tuple[str, ...]
    error_details: tuple[tuple[str, ...], ...]
    call_extras: tuple[str, ...]


def _gather(name: str) -> tuple:
    found = (getattr(v.answers, name) for v in VENDORS if v.dialect == "openai")
    return tuple(dict.fromkeys(f for f in found if f))


OPENAI_ANSWERS = OpenAIAnswerFields(
    reasoning=_gather("reasoning"),
    reasoning_parts=_gather("reasoning_parts"),
    cached_tokens=_gather("cached_tokens"),
    error_details=_gather("error_detail"),
    call_extras=_gather("call_extra"),
)
