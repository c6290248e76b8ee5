"""Point at the page, as markup: the toolbar's Select toggle, the selection panel
under the page or beside it in a wide pane (what is selected, where it is
written, what can be done with it) and the element chip an "Ask" puts before
the message box.

``wiggum.web.views.point`` mounts these and fills the texts
:mod:`wiggum.session.point` decides.
"""

from __future__ import annotations

from ..markdown import El
from ..tree import btn, e

__all__ = ["chip", "panel", "select_button"]


def select_button() -> El:
    """Beside the widths: select mode on and off (``aria-pressed``)."""
    return btn(
        "Select",
        testid="preview-select",
        cls="file-op preview-select",
        aria_pressed="false",
        title="Select an element of the page to see where it is written and change it "
        "(Esc leaves, arrow keys move to its parent, child and neighbours)",
    )


def _link_form() -> El:
    inputs = [
        e(
            "input",
            "point-input",
            type="text",
            testid=f"point-link-{name}",
            aria_label=label,
            spellcheck="false",
            ref=f"link_{name}",
        )
        for name, label in (("text", "The link's text"), ("href", "The link's address"))
    ]
    save = btn("Save link", testid="point-link-save", cls="btn", type="submit")
    return e(
        "form", "point-link", inputs, save, testid="point-link-form", ref="link_form", hidden=True
    )


#: The panel's actions: (label, action and test id's tail, ref).
ACTIONS = (
    ("Edit text", "edit-text", "edit"),
    ("Edit link", "edit-link", "link"),
    ("Replace image…", "replace-image", "image"),
    ("Undo", "undo", "undo"),
    ("Ask Chief about this", "ask-chief", "ask_chief"),
    ("Ask Ralph to change this", "ask-ralph", "ask_ralph"),
)


def _ralph_form() -> El:
    task = e(
        "textarea",
        "point-task",
        testid="point-ralph-task",
        aria_label="What Ralph should change",
        placeholder="What should change? (Ralph gets the element with it)",
        rows="2",
        ref="ralph_task",
    )
    start = btn("Start Ralph", testid="point-ralph-start", cls="btn primary", type="submit")
    cancel = btn("Cancel", action="ralph-cancel", testid="point-ralph-cancel", cls="file-op")
    return e(
        "form",
        "point-ralph",
        e("div", "point-chip-slot", ref="ralph_chip"),
        task,
        e("div", "point-row", start, cancel),
        testid="point-ralph-form",
        ref="ralph_form",
        hidden=True,
    )


def panel() -> El:
    """The selection panel (hidden until select mode is on)."""
    head = e(
        "div",
        "point-head",
        e("code", "point-selector", testid="point-selector", ref="selector"),
        btn(
            "Where it is written",
            action="open-source",
            testid="point-where",
            cls="file-op point-where",
            title="Open the file at this line",
            ref="where",
        ),
        e("span", "point-size", testid="point-size", ref="size"),
    )
    image = e(
        "input",
        type="file",
        accept="image/*",
        testid="point-image-input",
        aria_label="Replacement image",
        hidden=True,
        ref="image_input",
    )
    buttons = [
        btn(label, action=name, testid=f"point-{name}", cls="file-op", ref=ref)
        for label, name, ref in ACTIONS
    ]
    actions = e("div", "point-actions", buttons, image)
    hint = e(
        "p",
        "point-hint",
        text="Click an element of the page. Double-click text to type in it; Enter keeps it, "
        "Esc puts it back.",
        testid="point-hint",
        ref="hint",
    )
    return e(
        "section",
        "point-panel",
        hint,
        e("div", "point-selected", head, actions, ref="selected", hidden=True),
        e("p", "point-note", testid="point-note", role="status", ref="note"),
        _link_form(),
        _ralph_form(),
        e("div", "point-inspector", testid="point-inspector", ref="inspector"),
        testid="point-panel",
        aria_label="Selected element",
        hidden=True,
    )


def chip(label: str, where: str, context: str) -> El:
    """The element an Ask carries, shown before the message goes: what goes with
    it on hover (``context``), × leaves it out."""
    return e(
        "span",
        "context-chip",
        e("code", None, label),
        f" · {where}",
        btn(
            "×",
            action="drop-context",
            testid="context-chip-remove",
            cls="context-chip-remove",
            aria_label=f"Leave {label} out of the message",
            title="Leave the element out",
        ),
        testid="context-chip",
        title=context,
    )
