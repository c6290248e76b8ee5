"""DeepSeek: an OpenAI-compatible API."""

from __future__ import annotations

from .base import Answers, Vendor

VENDOR = Vendor(
    id="deepseek",
    base_url="https://api.deepseek.com/v1",
    hosts=("deepseek.com",),
    key_url="https://platform.deepseek.com/api_keys",
    browser="yes",
    browser_source="https://github.com/logancyang/obsidian-copilot/issues/1491",
    registry_id="deepseek",
    # Its reasoning models want an assistant turn's ``reasoning_content`` back
    # in the history (for tool-use turns above all), and so do its models
    # served elsewhere (a local deepseek-r1, a gateway).
    reasoning_back=True,
    model_family="deepseek",
    answers=Answers(
        reasoning="reasoning_content",
        # Cache hits are ``usage.prompt_cache_hit_tokens``, not OpenAI's details.
        cached_tokens="prompt_cache_hit_tokens",
    ),
)
