"""What the dialogs and forms are built of: an element in one line, a labelled
field, a hint, an error line, a modal dialog, its primary button.

One spelling for Settings, the first-run form, the projects dialogs and
Publish, so that their fields look and read alike (``.field``,
``.field-hint``, ``.field-error`` in ``static/app.css``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..dom import button, closest_action, el

__all__ = [
    "checkbox",
    "dispatch",
    "error_line",
    "field",
    "heading",
    "hint",
    "link",
    "modal",
    "options",
    "say",
    "submit",
    "text_input",
]


def field(label: str, control: Any, *, for_id: str, hint: Any = None, error: Any = None) -> Any:
    return el("div", "field", el("label", None, label, for_=for_id), control, hint, error)


def hint(*children: Any) -> Any:
    return el("p", "field-hint", *children)


def error_line(testid: str) -> Any:
    """A field's error: hidden until :func:`say` gives it a reason."""
    return el("p", "field-error", testid=testid, hidden=True, role="alert")


def say(element: Any, text: str | None) -> None:
    """Show ``text`` in ``element``, or hide it (``None``)."""
    element.textContent = text or ""
    element.hidden = not text


def text_input(
    id_: str, testid: str, *, type_: str = "text", placeholder: str | None = None, **attrs: Any
) -> Any:
    """An input that the browser neither fills in nor spell-checks (``spellcheck=None``
    leaves the browser's own choice); other keywords are attributes as for :func:`el`."""
    attrs = {"autocomplete": "off", "spellcheck": "false", **attrs}
    return el("input", None, testid=testid, id=id_, type=type_, placeholder=placeholder, **attrs)


def modal(cls: str, testid: str, title_id: str, *children: Any) -> Any:
    """A ``<dialog>`` named by its heading (``title_id``), for ``showModal()``."""
    return el("dialog", cls, *children, testid=testid, aria_labelledby=title_id)


def submit(label: str, testid: str) -> Any:
    """A form's primary button: Enter in a field presses it too."""
    return el("button", "btn btn-primary", label, testid=testid, type="submit")


def checkbox(id_: str, testid: str, label: str) -> tuple[Any, Any]:
    """A checkbox and its row (the box, then its label, on one line)."""
    box = el("input", None, testid=testid, id=id_, type="checkbox")
    return box, el("div", "field field-check", box, el("label", None, label, for_=id_))


def link(testid: str, *children: Any, href: str | None = None, cls: str | None = None) -> Any:
    """A link that opens in a new tab, telling the page it came from nothing."""
    return el(
        "a", cls, *children, testid=testid, href=href, target="_blank", rel="noopener noreferrer"
    )


def options(pairs: Any) -> list[Any]:
    """A select's ``<option>``s from ``(value, text)`` pairs."""
    return [el("option", None, value=value, text=text) for value, text in pairs]


def heading(cls: str, title: str, title_id: str, *, close: str = "", label: str = "") -> Any:
    """A dialog's header: the title that names it and, with ``close``, a ✕ button
    of that ``data-action`` (``label`` is what a screen reader says for it)."""
    x = button("✕", action=close, cls="icon-btn", aria_label=label) if close else None
    return el("header", cls, el("h2", None, title, id=title_id), x)


def dispatch(event: Any, actions: Mapping[str, Callable[[], Any]]) -> None:
    """Run the handler of the ``data-action`` the click happened in, if it has one."""
    target = closest_action(event)
    act = None if target is None else actions.get(str(target.getAttribute("data-action")))
    if act is not None:
        act()
