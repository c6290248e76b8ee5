"""Anthropic: the Messages API, a wire format of its own (``dialects/anthropic.py``).

Answers, read by that dialect: errors as ``{"type": "error", "error": {"type",
"message"}}``, whose ``type`` names the status (``overloaded_error`` is 529),
and inside a stream as an ``event: error``; usage whose ``input_tokens``
leaves out the tokens read from or written to the cache (the dialect adds
them back) and counts ``server_tool_use.web_search_requests`` (billed per
search, ``wiggum.llm.cost.WEB_SEARCH_PRICE``); reasoning in ``thinking``
blocks whose ``signature`` must go back with a tool-use turn.
"""

from __future__ import annotations

from .base import ModelList, Vendor, WebSearch

#: The API version every request names.
API_VERSION = "2023-06-01"
#: The web search server tool's version (Anthropic's web search tool docs).
WEB_SEARCH_TOOL = "web_search_20250305"


def messages_url(base_url: str) -> str:
    """``/v1/messages``, whether the base URL names ``/v1`` or not."""
    base = base_url.rstrip("/")
    if base.endswith("/messages"):
        return base
    return base + ("/messages" if base.endswith("/v1") else "/v1/messages")


def models_url(base_url: str) -> str:
    base = base_url.strip().rstrip("/")
    # One page of up to 1,000 models: the list is short, and no second request.
    return base + ("/models" if base.endswith("/v1") else "/v1/models") + "?limit=1000"


VENDOR = Vendor(
    id="anthropic",
    dialect="anthropic",
    base_url="https://api.anthropic.com",
    key_header="x-api-key",
    key_prefix="",
    key_url="https://console.anthropic.com/settings/keys",
    headers={"anthropic-version": API_VERSION},
    # Browsers may call it once the request opts in with this header.
    browser_headers={"anthropic-dangerous-direct-browser-access": "true"},
    browser="yes",
    browser_source="https://github.com/anthropics/anthropic-sdk-typescript/issues/703",
    models=ModelList(url=models_url),
    registry_id="anthropic",
    # Its own search: a server tool it runs, billed per search.
    web_search=WebSearch(
        field="tools", entry={"type": WEB_SEARCH_TOOL, "name": "web_search"}, limit="max_uses"
    ),
    # No JSON-schema mode: the schema goes into the prompt.
    native_schema=False,
)
