"""The debug log as markup: the header's Log button (with the count of new
problems), the dialog that lists the entries, and one entry.
``wiggum.web.views.debug`` mounts these; the texts and formats are
:mod:`wiggum.ui.debuglog`'s.

An entry is its time (UTC in the tooltip), level, logger, message, fields
and, folded, its traceback; its level is also in its class, for the colour.
"""

from __future__ import annotations

from ..debuglog import DebugEntry, format_fields, format_time
from ..markdown import El
from ..tree import btn, e

__all__ = ["EMPTY", "INTRO", "button", "dialog", "entry"]

EMPTY = (
    "Nothing logged yet. When a request fails, the requests and events that led to it appear here."
)
INTRO = (
    "Requests and events of this project, kept quietly and written here when something "
    "goes wrong. No messages, file contents or API keys."
)
#: The footer's buttons: (action, label, title).
ACTIONS = (
    ("drain", "Show recent activity", "Add what was logged since then"),
    ("copy", "Copy", "Copy the log as text"),
    ("clear", "Clear", "Empty this project's log"),
)


def button() -> El:
    """The header's Log button; its ``badge`` counts the problems not yet seen."""
    badge = e("span", "debug-badge", testid="debug-badge", hidden=True, ref="badge")
    return btn(
        [e("span", "debug-btn-label", aria_hidden="true", text="Log"), badge],
        testid="debug-button",
        cls="icon-btn debug-btn",
        aria_label="Debug log",
        title="Debug log",
        aria_haspopup="dialog",
    )


def dialog() -> El:
    """The dialog: its title and ✕, what it keeps, the ``list`` (``empty`` said
    while there is none), a ``status`` line and the footer's actions."""
    head = e(
        "header",
        "dialog-head",
        e("h2", id="debug-title", text="Debug log"),
        btn("✕", action="close", cls="icon-btn", aria_label="Close debug log"),
    )
    body = e(
        "div",
        "debug-body",
        e("p", "debug-empty", testid="debug-empty", text=EMPTY, ref="empty"),
        e("ol", "debug-list", testid="debug-entries", aria_live="polite", ref="list"),
    )
    foot = e(
        "footer",
        "dialog-foot",
        e("span", "debug-status", role="status", ref="status"),
        [btn(label, action=a, testid=f"debug-{a}", title=title) for a, label, title in ACTIONS],
    )
    return e(
        "dialog",
        "debug-dialog",
        head,
        e("p", "field-hint debug-intro", text=INTRO),
        body,
        foot,
        testid="debug-dialog",
        aria_labelledby="debug-title",
    )


def entry(item: DebugEntry) -> El:
    """One entry of the list."""
    fields = format_fields(item.fields) if item.fields else None
    traceback = None
    if item.exception:
        traceback = e(
            "details", "debug-exc", e("summary", text="Traceback"), e("pre", text=item.exception)
        )
    return e(
        "li",
        f"debug-entry level-{item.level.lower()}",
        e(
            "time",
            "debug-time",
            text=format_time(item.time),
            title=format_time(item.time, utc=True),
        ),
        e("span", "debug-level", text=item.level),
        e("span", "debug-logger", text=item.logger),
        e("span", "debug-msg", testid="debug-message", text=item.message or None),
        e("code", "debug-fields", text=fields) if fields else None,
        traceback,
        testid="debug-entry",
        data_level=item.level,
        data_logger=item.logger,
    )
