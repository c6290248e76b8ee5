"""The web sources under one of Chief's replies, made safe to show as links.

The provider's search returns whatever URLs the web holds, and the model
picks among them: only ``http(s)`` addresses become links (never
``javascript:`` or ``data:``), each once, labelled by its title or its host.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

MAX_LABEL = 120


def safe_sources(citations: Iterable[Any]) -> list[tuple[str, str]]:
    """``(url, label)`` for each citation whose URL may be a link, in order, once each."""
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    for c in citations:
        url = (getattr(c, "url", None) or "").strip()
        title = (getattr(c, "title", None) or "").strip()
        try:
            parts = urlsplit(url)
        except ValueError:
            continue
        if parts.scheme.lower() not in ("http", "https") or not parts.hostname or url in seen:
            continue
        seen.add(url)
        label = " ".join(title.split()) or parts.hostname
        if len(label) > MAX_LABEL:
            label = label[: MAX_LABEL - 1] + "…"
        out.append((url, label))
    return out
