"""The preview's console as markup: its head (what it holds, Clear) and one
entry per distinct message, with **Fix** and **Ask Chief** on errors and
warnings.  ``wiggum.web.views.console`` mounts these; what an entry holds is
:mod:`wiggum.preview.console`'s.
"""

from __future__ import annotations

from wiggum.preview.console import ConsoleEntry

from ..markdown import El
from ..tree import btn, e

__all__ = ["EMPTY", "entry", "panel"]

EMPTY = "Nothing yet: the site's errors, warnings and logs show here."
_LEVEL_WORDS = {"error": "Error", "warn": "Warning", "log": "Log"}


def panel() -> El:
    """The console: a head (title, ``summary``, Clear) and the ``list``."""
    head = e(
        "div",
        "console-head",
        e("strong", "console-title", text="Console"),
        e("span", "console-summary", testid="console-summary", ref="summary"),
        btn(
            "Clear",
            action="console-clear",
            testid="console-clear",
            cls="file-op console-clear",
            title="Clear the console (a reload clears it too)",
        ),
    )
    empty = e("p", "console-empty", text=EMPTY, ref="empty")
    items = e("ul", "console-list", testid="console-list", role="log", ref="list")
    return e("section", "site-console", head, empty, items, testid="preview-console")


def entry(item: ConsoleEntry, index: int) -> El:
    """One message: level, text, count, where it came from, Fix / Ask Chief, its stack."""
    count = e("span", "console-count", text=f"×{item.count}", testid="console-count")
    where = e("code", "console-where", text=item.where, testid="console-where")
    actions = None
    if item.fixable:
        actions = e(
            "span",
            "console-actions",
            btn(
                "Fix",
                action="console-fix",
                testid="console-fix",
                cls="file-op console-fix",
                data_index=str(index),
                title="Ask Ralph to fix this (a one-off task with the error and its code)",
            ),
            btn(
                "Ask Chief",
                action="console-ask",
                testid="console-ask",
                cls="file-op console-ask",
                data_index=str(index),
                title="Put a question about this in Chief's message box",
            ),
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
