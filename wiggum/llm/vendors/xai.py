"""xAI (Grok): an OpenAI-compatible API.

Usage counts reasoning apart: ``total_tokens`` is prompt + completion +
``reasoning_tokens``; the OpenAI dialect bills the gap as output.
"""

from __future__ import annotations

from .base import Answers, Vendor

VENDOR = Vendor(
    id="xai",
    base_url="https://api.x.ai/v1",
    key_url="https://console.x.ai",
    registry_id="xai",
    answers=Answers(reasoning="reasoning_content"),
)
