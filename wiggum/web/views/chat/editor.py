"""Editing one of the person's messages in place: a box where the message was,
Cancel and Send.  Sending is the session's (``ChiefSession.edit``); what
followed the message stays as the earlier version."""

from __future__ import annotations

from typing import Any

from wiggum.ui.markup import chat as markup

from ...dom import is_null, mount

__all__ = ["close_editor", "edited_text", "is_editing", "open_editor"]


def open_editor(article: Any) -> None:
    body = article.querySelector(".msg-body")
    if is_null(body) or not is_null(article.querySelector(".msg-editor")):
        return
    parts = mount(markup.edit_box(body.textContent))
    editor, box = parts.el, parts.box
    body.hidden = True
    body.after(editor)
    box.focus()


def close_editor(article: Any) -> None:
    editor = article.querySelector(".msg-editor")
    if not is_null(editor):
        editor.remove()
    body = article.querySelector(".msg-body")
    if not is_null(body):
        body.hidden = False


def edited_text(article: Any) -> tuple[int, str] | None:
    """The message's ``seq`` and the new text typed for it."""
    seq = article.getAttribute("data-seq") or ""
    box = article.querySelector(".msg-editor-input")
    text = "" if is_null(box) else str(box.value).strip()
    return (int(seq), text) if seq.isdigit() and text else None


def is_editing(container: Any) -> bool:
    return not is_null(container.querySelector(".msg-editor"))
