"""What a dialect needs to build one request: the resolved facts of a call."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .types import Message, ProviderConfig, RequestOptions

if TYPE_CHECKING:
    from .registry import ModelCapability


@dataclass(slots=True)
class Call:
    provider: ProviderConfig
    messages: list[Message]
    options: RequestOptions
    capability: ModelCapability
    #: The output budget to ask for (``None``: let the provider decide).
    max_tokens: int | None
    #: Ask for structured output in the provider's native JSON-schema mode.
    native_schema: bool = False
    #: The tokens the prompt is estimated to take (Ollama sizes ``num_ctx`` from it).
    estimated_tokens: int = 0

    @property
    def label(self) -> tuple[str, str]:
        return self.provider.id, self.provider.model
