"""What the dialogs and forms are built of, as trees: a labelled field, a hint,
an error line, an input, a checkbox row, a link, a modal dialog and its header.

One spelling for Settings, the first-run form, the projects dialogs and
Publish, so that their fields look and read alike (``.field``,
``.field-hint``, ``.field-error`` in ``static/app.css``).  What a field shows
later (a reason in its error line, a value) is the view's.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..markdown import El
from ..tree import btn, e

__all__ = [
    "checkbox",
    "error_line",
    "field",
    "heading",
    "hint",
    "link",
    "modal",
    "options",
    "submit",
    "text_input",
]


def field(label: str, control: El, *after: Any, for_id: str, **attrs: Any) -> El:
    """A field: its label (for ``for_id``), the control, then a hint, an error line…"""
    return e("div", "field", e("label", None, label, for_=for_id), control, *after, **attrs)


def hint(*children: Any, **attrs: Any) -> El:
    return e("p", "field-hint", *children, **attrs)


def error_line(testid: str, ref: str) -> El:
    """A field's error: hidden until the view gives it a reason."""
    return e("p", "field-error", testid=testid, hidden=True, role="alert", ref=ref)


def text_input(
    id_: str,
    testid: str,
    *,
    type_: str = "text",
    placeholder: str | None = None,
    ref: str | None = None,
    **attrs: Any,
) -> El:
    """An input that the browser neither fills in nor spell-checks (``spellcheck=None``
    leaves the browser's own choice); other keywords are attributes as for ``e``."""
    attrs = {"autocomplete": "off", "spellcheck": "false", **attrs}
    return e(
        "input", None, testid=testid, ref=ref, id=id_, type=type_, placeholder=placeholder, **attrs
    )


def modal(cls: str, testid: str, title_id: str, *children: Any, ref: str | None = None) -> El:
    """A ``<dialog>`` named by its heading (``title_id``), for ``showModal()``."""
    return e("dialog", cls, *children, testid=testid, ref=ref, aria_labelledby=title_id)


def submit(label: str, testid: str, ref: str | None = None) -> El:
    """A form's primary button: Enter in a field presses it too."""
    return e("button", "btn btn-primary", label, testid=testid, ref=ref, type="submit")


def checkbox(id_: str, testid: str, label: str, ref: str) -> El:
    """A checkbox row: the box (named ``ref``), then its label, on one line."""
    box = e("input", None, testid=testid, ref=ref, id=id_, type="checkbox")
    return e("div", "field field-check", box, e("label", None, label, for_=id_))


def link(
    testid: str,
    *children: Any,
    href: str | None = None,
    cls: str | None = None,
    ref: str | None = None,
) -> El:
    """A link that opens in a new tab, telling the page it came from nothing."""
    return e(
        "a",
        cls,
        *children,
        testid=testid,
        ref=ref,
        href=href,
        target="_blank",
        rel="noopener noreferrer",
    )


def options(pairs: Iterable[tuple[str, str]]) -> list[El]:
    """A select's ``<option>``s from ``(value, text)`` pairs."""
    return [e("option", None, value=value, text=text) for value, text in pairs]


def heading(cls: str, title: str, title_id: str, *, close: str = "", label: str = "") -> El:
    """A dialog's header: the title that names it and, with ``close``, a ✕ button
    of that ``data-action`` (``label`` is what a screen reader says for it)."""
    x = btn("✕", action=close, cls="icon-btn", aria_label=label) if close else None
    return e("header", cls, e("h2", None, title, id=title_id), x)
