"""Wire dialects, one module each, registered by name.

A new dialect is a new module with an object satisfying
:class:`~wiggum.llm.dialects.base.Dialect`, registered here by name.
"""

from __future__ import annotations

from .anthropic import AnthropicDialect
from .base import Dialect
from .ollama import OllamaDialect
from .openai import OpenAIDialect

_DIALECTS: dict[str, Dialect] = {
    "openai": OpenAIDialect(),
    "anthropic": AnthropicDialect(),
    "ollama": OllamaDialect(),
}


def register_dialect(name: str, dialect: Dialect) -> None:
    _DIALECTS[name] = dialect


def get_dialect(name: str) -> Dialect:
    try:
        return _DIALECTS[name]
    except KeyError:
        raise ValueError(f"Unknown provider kind {name!r}; known: {sorted(_DIALECTS)}") from None


__all__ = ["Dialect", "get_dialect", "register_dialect"]
