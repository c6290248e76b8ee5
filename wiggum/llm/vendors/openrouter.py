"""OpenRouter: one OpenAI-compatible API in front of many vendors' models.

Model ids name the upstream vendor (``anthropic/claude-sonnet-4``) and may
end in a variant suffix (:data:`MODEL_VARIANTS`; ``:free`` is priced at zero
by the registry).  While a reply is being prepared the stream sends SSE
comment lines (``: OPENROUTER PROCESSING``), which the SSE decoder drops.
Its model list gives each model's ``context_length`` and ``pricing`` (USD per
token, as strings), which the settings dialog shows.
"""

from __future__ import annotations

from .base import Answers, Vendor, WebSearch

#: Variant suffixes of a model id (``…:free``, ``…:thinking``).
MODEL_VARIANTS = frozenset(
    {"free", "thinking", "nitro", "beta", "extended", "floor", "online", "exacto"}
)

VENDOR = Vendor(
    id="openrouter",
    base_url="https://openrouter.ai/api/v1",
    # Stored settings from before entries had ids of their own call it so.
    ids=("openrouter",),
    key_url="https://openrouter.ai/settings/keys",
    # Attribution: the app's page and name on OpenRouter's rankings.
    chat_headers={"HTTP-Referer": "https://wiggum.dev", "X-Title": "Wiggum"},
    # Usage only when asked; it then carries ``cost``, the USD it billed
    # (the reply's cost is the provider's, not the registry's guess).
    chat_fields={"usage": {"include": True}},
    browser="yes",
    browser_source="https://github.com/open-pencil/open-pencil/issues/247",
    registry_id="openrouter",
    # Its ``web`` plugin searches for any model and bills per request.
    web_search=WebSearch(field="plugins", entry={"id": "web"}, limit="max_results"),
    # It passes Anthropic's prompt caching through: the markers are Anthropic's.
    cache_markers_for=("anthropic/",),
    answers=Answers(
        # Reasoning text in ``reasoning``; the same again, structured, in
        # ``reasoning_details`` (read only when ``reasoning`` is absent).
        reasoning="reasoning",
        reasoning_parts="reasoning_details",
        # An upstream's error is wrapped: its own words are in
        # ``error.metadata.raw``.  Errors after the 200 come as a chunk with
        # ``error`` (its ``code`` an HTTP status) and ``finish_reason: "error"``.
        error_detail=("metadata", "raw"),
    ),
)
