"""The "Sources" list under a reply of Chief's that searched the web."""

from __future__ import annotations

from typing import Any

from wiggum.ui.sources import safe_sources

from ..dom import h


def show_sources(box: Any, citations: Any) -> None:
    """Fill ``box`` with the reply's sources as links (text only, never markup)."""
    sources = safe_sources(citations or [])
    box.hidden = not sources
    if not sources:
        box.replaceChildren()
        return
    items = [
        h(
            "li",
            None,
            h(
                "a",
                {
                    "href": url,
                    "text": label,
                    "title": url,
                    "target": "_blank",
                    "rel": "noopener noreferrer",
                    "referrerpolicy": "no-referrer",
                },
            ),
        )
        for url, label in sources
    ]
    box.replaceChildren(
        h("p", {"class": "msg-sources-title", "text": "Sources"}),
        h("ol", None, items),
    )
