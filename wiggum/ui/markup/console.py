"""The preview's console as markup: its head (what it holds, Clear) and one
entry per distinct message, with **Fix** and **Ask Chief** on errors and
warnings.  ``wiggum.web.views.site_panels`` mounts these; what an entry holds
is :mod:`wiggum.preview.console`'s, which rows are shown
:mod:`wiggum.session.site_panels`'.
"""

from __future__ import annotations

from wiggum.preview.console import ConsoleEntry

from ..markdown import El
from ..tree import e
from .problems import panel as problems_panel
from .problems import tool

__all__ = ["EMPTY", "empty", "entry", "panel"]

EMPTY = "Nothing yet: the site's errors, warnings and logs show here."
_LEVEL_WORDS = {"error": "Error", "warn": "Warning", "log": "Log"}


def panel() -> El:
    """The console: a head (title, ``summary``, Clear) and the ``list``."""
    clear = tool("Clear", "console-clear", "Clear the console (a reload clears it too)")
    # Announced as it grows (what role="log" would say) while staying a list: a role
    # of its own would leave its rows list items outside any list.
    return problems_panel(
        "console", "Console", "", clear, aria_live="polite", aria_relevant="additions"
    )


def empty() -> El:
    """The list's one row while the page said nothing."""
    return e("li", "console-empty", text=EMPTY, testid="console-empty")


def entry(item: ConsoleEntry, index: int) -> El:
    """One message: level, text, count, where it came from, Fix / Ask Chief, its stack."""
    count = e("span", "console-count", text=f"×{item.count}", testid="console-count")
    where = e("code", "console-where", text=item.where, testid="console-where")
    actions = None
    if item.fixable:
        fix = "Ask Ralph to fix this (a one-off task with the error and its code)"
        ask = "Put a question about this in Chief's message box"
        actions = e(
            "span",
            "console-actions",
            tool("Fix", "console-fix", fix, index),
            tool("Ask Chief", "console-ask", ask, index),
        )
    stack = None
    if item.stack.strip():
        stack = e(
            "details",
            "console-stack",
            e("summary", text="Stack"),
            e("pre", text=item.stack.strip()),
        )
    return e(
        "li",
        f"console-entry console-{item.level}",
        e("span", "console-level", text=_LEVEL_WORDS[item.level]),
        e("span", "console-text", text=item.text, testid="console-text"),
        count if item.count > 1 else None,
        where if item.where else None,
        actions,
        stack,
        testid="console-entry",
        data_level=item.level,
        data_kind=item.kind,
    )
