"""The "Sources" list under a reply of Chief's that searched the web (its
markup: :func:`wiggum.ui.markup.reply.sources`)."""

from __future__ import annotations

from typing import Any

from wiggum.ui.markup import reply as markup
from wiggum.ui.sources import safe_sources

from ..dom import mount_all


def show_sources(box: Any, citations: Any) -> None:
    """Fill ``box`` with the reply's sources as links (text only, never markup)."""
    sources = safe_sources(citations or [])
    box.hidden = not sources
    trees = markup.sources(sources) if sources else []
    box.replaceChildren(*mount_all(trees))
