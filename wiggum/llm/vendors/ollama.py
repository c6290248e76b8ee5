"""Ollama: its native ``/api/chat``, a wire format of its own (``dialects/ollama.py``).

Answers, read by that dialect: NDJSON lines; ``thinking`` beside
``content``; tool-call arguments as objects, not JSON text; usage as
``prompt_eval_count`` / ``eval_count`` on the last line; errors as
``{"error": "…"}``.  It silently truncates a prompt longer than its
``num_ctx``, so the dialect sizes ``num_ctx`` for every request.
"""

from __future__ import annotations

from .base import ModelList, Vendor

#: Paths a base URL may end in that are not the server's root.
_SUFFIXES = ("/api/chat", "/api/tags", "/api", "/v1")


def root(base_url: str) -> str:
    """The server's root, whether the base URL names ``/api``, ``/v1`` or neither."""
    base = base_url.strip().rstrip("/")
    for suffix in _SUFFIXES:
        if base.endswith(suffix):
            return base[: -len(suffix)]
    return base


def models_url(base_url: str) -> str:
    return root(base_url) + "/api/tags"


VENDOR = Vendor(
    id="ollama",
    dialect="ollama",
    base_url="http://localhost:11434",
    # A local server needs no key; one given is sent (an authenticating reverse
    # proxy, or ollama.com).
    needs_key=False,
    # It answers a page once started with the page's origin in OLLAMA_ORIGINS.
    browser="local",
    browser_source="https://docs.ollama.com/faq#how-can-i-allow-additional-web-origins-to-access-ollama",
    models=ModelList(
        url=models_url,
        items="models",
        id_fields=("model", "name"),
        name_fields=("name",),
    ),
    # ``format`` takes a JSON schema for any model.
    native_schema=True,
)
