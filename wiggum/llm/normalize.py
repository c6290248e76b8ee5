"""Request normalization that is neither a dialect's nor a vendor's own.

Prompt-caching markers, image stripping, and a per-provider/model memory of
what a model turned out not to support.  What one vendor wants (headers,
usage, web search …) is in its file under ``wiggum/llm/vendors/``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .types import ImagePart, Message, ProviderConfig, TextPart

IMAGE_OMITTED = "[image omitted: this model does not accept images]"


def _mark(blocks: list[dict[str, Any]]) -> None:
    for block in reversed(blocks):
        if block.get("type") == "text":
            block["cache_control"] = {"type": "ephemeral"}
            return


def apply_cache_control(messages: list[dict[str, Any]]) -> None:
    """Mark the system prompt and the last two other messages as cacheable.

    Works on wire dicts whose ``content`` is a string or a list of blocks
    (the OpenAI format through a vendor that passes them on, and Anthropic's
    own).  Anthropic
    allows four breakpoints; this uses at most three.
    """
    for msg in messages:
        if isinstance(msg.get("content"), str) and msg.get("role") != "tool" and msg["content"]:
            msg["content"] = [{"type": "text", "text": msg["content"]}]
    system = next((m for m in messages if m.get("role") == "system"), None)
    if system and isinstance(system.get("content"), list):
        _mark(system["content"])
    others = [m for m in messages if m.get("role") != "system"]
    for msg in others[-2:]:
        if isinstance(msg.get("content"), list):
            _mark(msg["content"])


def has_images(messages: list[Message]) -> bool:
    return any(
        isinstance(m.content, list) and any(isinstance(p, ImagePart) for p in m.content)
        for m in messages
    )


def strip_images(messages: list[Message]) -> list[Message]:
    """Replace images by a short note, keeping every text part beside them."""
    out: list[Message] = []
    for m in messages:
        if isinstance(m.content, list) and any(isinstance(p, ImagePart) for p in m.content):
            parts = [
                p if isinstance(p, TextPart) else TextPart(text=IMAGE_OMITTED) for p in m.content
            ]
            m = m.model_copy(update={"content": parts})
        out.append(m)
    return out


#: Whose model a learned quirk belongs to: see :func:`quirk_key`.
QuirkKey = tuple[str, str, str, str]


def quirk_key(provider: ProviderConfig) -> QuirkKey:
    """The endpoint and model a learned quirk belongs to.

    The provider's id alone is not enough: Settings can point the same entry
    at another kind or server, and one model name (``llava``, ``gpt-4o``) can
    live behind several; what one endpoint's model refused must not be held
    against another's."""
    return (provider.id, provider.kind, provider.base_url.rstrip("/"), provider.model)


@dataclass
class ProviderQuirks:
    """What a provider/model pair turned out not to support, learned at run time
    (for this session: a reload forgets it), keyed by :func:`quirk_key`."""

    no_images: set[QuirkKey] = field(default_factory=set)
    no_streaming: set[QuirkKey] = field(default_factory=set)
    no_native_schema: set[QuirkKey] = field(default_factory=set)

    def refuses_images(self, provider: ProviderConfig) -> bool:
        """The provider's model refused images earlier in this session, or its
        settings say it takes none: images go out stripped."""
        return provider.supports_images is False or quirk_key(provider) in self.no_images


DEFAULT_QUIRKS = ProviderQuirks()
