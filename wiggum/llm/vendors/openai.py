"""OpenAI: the Chat Completions API, the wire format most vendors copy.

Its answers define the OpenAI dialect's base shape (``wiggum/llm/dialects/openai.py``):
errors as ``{"error": {"message", "type", "code"}}``; usage with
``prompt_tokens_details.cached_tokens`` and reasoning tokens counted inside
``completion_tokens``; a stream asks for its usage (``stream_options``) and
gets it in a last chunk with no choices.  Stream chunks carry a random
``obfuscation`` string (padding against length side channels), which the
dialect's event templates expect to change in every chunk.
"""

from __future__ import annotations

from .base import Vendor

VENDOR = Vendor(
    id="openai",
    base_url="https://api.openai.com/v1",
    key_url="https://platform.openai.com/api-keys",
    # Browsers may call it; an organisation can forbid that in its settings, and
    # then the key is refused with a message naming CORS (ui/connection.py says so).
    browser="yes",
    browser_source="https://github.com/Niek/chatgpt-web/issues/330",
    registry_id="openai",
    # ``response_format: json_schema`` works for every current chat model.
    native_schema=True,
    # Its reasoning models refuse ``max_tokens``; ``max_completion_tokens`` works for all.
    max_tokens_field="max_completion_tokens",
)
