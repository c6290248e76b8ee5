"""A tab list's keyboard, as the WAI-ARIA tabs pattern has it: the arrow keys
move to the next or the previous tab (round the ends), Home and End to the
first and the last; any other key is left to the browser.  The page's Chief |
Ralph tabs use it (``wiggum.web.shell``)."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["tab_after"]


def tab_after(key: str, active: str, tabs: Sequence[str]) -> str | None:
    """The tab ``key`` moves to from ``active``, or ``None`` (not a key of the list's)."""
    i = tabs.index(active)
    moves = {"ArrowLeft": i - 1, "ArrowRight": i + 1, "Home": 0, "End": len(tabs) - 1}
    return tabs[moves[key] % len(tabs)] if key in moves else None
