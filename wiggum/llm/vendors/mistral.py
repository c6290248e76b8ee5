"""Mistral: an OpenAI-compatible API.

Its reasoning models send ``content`` as a list of parts; the reasoning is a
``{"type": "thinking", "thinking": [{"text": …}]}`` part beside the text
parts (the OpenAI dialect reads content parts of either kind).
"""

from __future__ import annotations

from .base import Vendor

VENDOR = Vendor(
    id="mistral",
    base_url="https://api.mistral.ai/v1",
    key_url="https://console.mistral.ai/api-keys",
    browser="yes",
    browser_source="https://github.com/mistralai/client-js/issues/21",
    registry_id="mistral",
)
