"""Any other OpenAI-compatible API, at the base URL the person gives.

Nothing is known of it beyond the wire format: no key page, no browser fact
(the proxy stays off; Test connection says at once when the browser blocks
it), the registry looks its models up by name.
"""

from __future__ import annotations

from .base import Vendor

VENDOR = Vendor(
    id="custom",
    base_url="",
)
