"""The CORS proxy URL template: ``https://proxy.example/?url={href}`` with the
provider's URL put in place of ``{href}``, percent-encoded."""

from __future__ import annotations

from urllib.parse import quote

from .types import ProviderConfig

# encodeURIComponent's unreserved set, so templates behave as in the JS world.
_UNRESERVED = "-_.!~*'()"


def apply_proxy(url: str, provider: ProviderConfig, template: str | None) -> str:
    """Route ``url`` through the proxy when the provider asks for it.

    ``template`` holds ``{href}``, replaced by the target URL percent-encoded,
    e.g. ``https://proxy.example/?url={href}``.
    """
    if not provider.proxy or not template or "{href}" not in template:
        return url
    return template.replace("{href}", quote(url, safe=_UNRESERVED))
