"""Ralph's workspace as markup: the boxes the views mount into, the panes and
splitters they are arranged in, and the file operations above the tree.

``wiggum.web.workspace_mount`` and ``wiggum.web.views.workspace`` mount these.
The panes' names, labels and attributes are :mod:`wiggum.ui.layout`'s (the
arithmetic of their sizes is there too); the toolbar's buttons and the forms
they open are :mod:`wiggum.ui.workspace`'s.
"""

from __future__ import annotations

from ..layout import (
    LABELS,
    PANES,
    ROW,
    SPLITTERS,
    STAGE,
    pane_element,
    splitter_attrs,
    stage_tab_element,
    tab_element,
)
from ..markdown import El
from ..tree import btn, e
from ..workspace import FILE_OPS

__all__ = ["CODE_HINT", "box", "code_hint", "download_link", "file_ops", "panes", "tabs"]

#: Where the code pane points before a file is open.
CODE_HINT = "Choose a file in Files to see it here."


def box(name: str) -> El:
    """Where one of the workspace's views mounts (before the layout moves it)."""
    return e("div", f"workspace-{name}")


def tabs() -> El:
    """The sub-tabs, one per pane (shown when the window is narrow); each ``tab_<pane>``."""
    buttons = [btn(LABELS[n], cls="ws-tab", ref=f"tab_{n}", **tab_element(n)) for n in PANES]
    return e("div", "ws-tabs", buttons, role="tablist", aria_label="Workspace")


def panes() -> El:
    """The row of panes (``pane_<name>``) with a splitter (``split_<name>``) right of each
    sized pane, and the stage: its switch (``show_<name>``, shown when the window is wide)
    over the panes it shows one at a time."""
    cells = {n: e("div", None, ref=f"pane_{n}", **pane_element(n)) for n in PANES}
    for name in SPLITTERS:
        cells[f"|{name}"] = e("div", None, ref=f"split_{name}", **splitter_attrs(name))
    switch = [btn(LABELS[n], cls="ws-show", ref=f"show_{n}", **stage_tab_element(n)) for n in STAGE]
    bar = e("div", "ws-stage-tabs", switch, role="tablist", aria_label="Show", ref="stage_tabs")
    cells["stage"] = e(
        "div", "ws-stage", bar, [cells[n] for n in STAGE], testid="ws-stage", ref="stage"
    )
    return e("div", "ws-row", [cells[n] for n in ROW], testid="ws-row")


def code_hint() -> El:
    return e("p", "ws-hint", testid="ws-code-hint", text=CODE_HINT)


def file_ops() -> El:
    """The toolbar (a button per operation, the hidden file picker), the inline
    form an operation opens (its label, name box and OK filled in by the view)
    and the line that says what happened."""
    buttons = [
        btn(label, action=f"op-{action}", testid=f"file-op-{action}", cls="file-op", title=title)
        for action, label, title in FILE_OPS
    ]
    # Never shown: Upload clicks it.
    picker = e(
        "input", type="file", multiple=True, hidden=True, testid="file-op-picker", ref="picker"
    )
    form = e(
        "form",
        "file-op-form",
        # Named by its label (the one change to this form's DOM with the markup: it had no name).
        e("label", "file-op-label", for_="file-op-input", ref="label"),
        e(
            "input",
            "file-op-input",
            type="text",
            id="file-op-input",
            testid="file-op-input",
            ref="input",
        ),
        btn("OK", testid="file-op-ok", cls="file-op", type="submit", ref="ok"),
        btn("Cancel", action="op-cancel", testid="file-op-cancel", cls="file-op"),
        testid="file-op-form",
        hidden=True,
        ref="form",
    )
    message = e("p", "file-op-message", testid="file-op-message", role="status", ref="message")
    bar = e("div", "file-ops-bar", buttons, picker)
    return e("div", "file-ops", bar, form, message, testid="file-ops")


def download_link(url: str, name: str) -> El:
    """The link a download clicks (never shown; ``wiggum.web.dom.download``)."""
    return e("a", href=url, download=name, hidden=True)
