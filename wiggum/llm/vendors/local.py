"""An OpenAI-compatible server on this machine: LM Studio, llama.cpp, vLLM.

A base URL on this machine that no other vendor claims is this one.  Their
reasoning parsers put a reasoning model's thoughts in ``reasoning_content``;
without one, the thoughts come inline between ``<think>`` tags (the
accumulator splits them out).
"""

from __future__ import annotations

from .base import Answers, Vendor

#: Hosts that are this machine.
LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "::1", "0.0.0.0"})


def is_local_host(host: str) -> bool:
    """``host`` is this machine, or a name on the local network (``*.local``)."""
    return host in LOCAL_HOSTS or host.endswith(".local")


VENDOR = Vendor(
    id="local",
    base_url="http://localhost:1234/v1",
    needs_key=False,
    # It answers a page once told to accept the page's origin (LM Studio's
    # "Enable CORS", vLLM's --allowed-origins).
    browser="local",
    browser_source="https://lmstudio.ai/docs/cli/server-start",
    answers=Answers(reasoning="reasoning_content"),
)
