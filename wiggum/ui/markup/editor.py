"""The editor pane of one open text file, as markup: its bar (Save, the key
that saves, whether it is saved, a message line), the bar that offers a way
out when Ralph changed the file under the person's unsaved edits, and the box
CodeMirror is put into.  ``wiggum.web.views.workspace.editor`` mounts it."""

from __future__ import annotations

from ..editor_buffer import CONFLICT_TEXT, theirs_label
from ..markdown import El
from ..tree import btn, e

__all__ = ["LOADING", "LOAD_FAILED", "SCRIPT_ID", "editor", "script"]

LOADING = "Opening the editor…"
LOAD_FAILED = (
    "The editor could not load (static/editor.mjs or CodeMirror is missing). "
    "Rebuild the page with `python build.py`, then reload."
)
#: The glue module's ``<script>``, added on the first open (one in the page).
SCRIPT_ID = "wiggum-editor-module"


def script() -> El:
    """CodeMirror's glue module (``static/editor.mjs``, resolved by the import map)."""
    return e("script", type="module", id=SCRIPT_ID, src="./static/editor.mjs")


def editor(path: str, hint: str) -> El:
    """The pane for ``path``; ``hint`` names the keys that save."""
    bar = e(
        "div",
        "editor-bar",
        btn(
            "Save",
            testid="editor-save",
            cls="editor-save",
            title=f"Save this file ({hint})",
            ref="save",
        ),
        e("kbd", "editor-hint", text=hint),
        e("span", "editor-state", testid="editor-state", ref="state"),
        e("span", "editor-message", testid="editor-message", role="status", ref="message"),
    )
    # Which of his version, mine, his: a data-conflict each (the view's click table).
    conflict = e(
        "div",
        "editor-conflict",
        e("p", text=CONFLICT_TEXT),
        e(
            "div",
            "editor-conflict-actions",
            btn(theirs_label(False), cls="", data_conflict="show"),
            btn("Keep mine", cls="", data_conflict="mine"),
            btn("Take his", cls="", data_conflict="his"),
        ),
        e("pre", "editor-theirs", testid="editor-theirs", hidden=True, ref="theirs"),
        testid="editor-conflict",
        role="alert",
        hidden=True,
        ref="conflict",
    )
    host = e(
        "div",
        "editor-host",
        e("p", "editor-loading", text=LOADING, ref="loading"),
        testid="editor-host",
        ref="host",
    )
    return e(
        "div", "editor", bar, conflict, host, testid="editor", data_path=path, data_kind="text"
    )
