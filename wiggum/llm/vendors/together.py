"""Together: an OpenAI-compatible API serving open models.

Reasoning models (DeepSeek-R1 and its kin) write their thoughts inline in
the content between ``<think>`` tags; the accumulator splits them out.
"""

from __future__ import annotations

from .base import Vendor

VENDOR = Vendor(
    id="together",
    base_url="https://api.together.xyz/v1",
    hosts=("api.together.xyz", "api.together.ai"),
    key_url="https://api.together.ai/settings/api-keys",
    registry_id="togetherai",
)
