"""A tab list as the WAI-ARIA tabs pattern has it: the arrow keys move to the
next or the previous tab (round the ends), Home and End to the first and the
last, any other key is left to the browser; the tab in front is selected and
the one Tab reaches.  The page's Chief | Ralph tabs (``wiggum.web.shell``) and
the workspace's sub-tabs (``wiggum.web.views.workspace.layout``) both are one."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["tab_after", "tab_attrs"]


def tab_after(key: str, active: str, tabs: Sequence[str]) -> str | None:
    """The tab ``key`` moves to from ``active``, or ``None`` (not a key of the list's)."""
    i = tabs.index(active)
    moves = {"ArrowLeft": i - 1, "ArrowRight": i + 1, "Home": 0, "End": len(tabs) - 1}
    return tabs[moves[key] % len(tabs)] if key in moves else None


def tab_attrs(name: str, active: str) -> dict[str, str]:
    """A tab's state: selected, and the one reached by Tab, when it is ``active``."""
    on = name == active
    return {"aria-selected": "true" if on else "false", "tabindex": "0" if on else "-1"}
