"""The style inspector as markup: its frame (the selected element, the fields'
place, where the change is written, "Only this element", Apply, the result
line) and one row per property (a colour input beside a colour's text field,
a list for weight and alignment, a text field for sizes).

``wiggum.web.views.inspector`` mounts these and reads the fields by their
``data-prop``; what they show is :mod:`wiggum.session.inspector`'s.
"""

from __future__ import annotations

from ..markdown import El
from ..tree import e
from .forms import checkbox, error_line, submit, text_input

__all__ = ["ONLY_THIS", "choice_options", "field_row", "panel", "where_line"]

ONLY_THIS = "Only this element (a style attribute)"


def panel() -> El:
    """The inspector; refs ``element``, ``source``, ``form``, ``fields``, ``choice``,
    ``destination``, ``only_this``, ``where``, ``error``, ``apply``, ``status``."""
    head = e(
        "header",
        "inspector-head",
        e("h3", None, "Style", id="inspector-title"),
        e("code", "inspector-element", testid="inspector-element", ref="element"),
        e("span", "inspector-source", testid="inspector-source", ref="source"),
    )
    where_id = "inspector-destination"
    destination = e("select", None, testid=where_id, id=where_id, ref="destination")
    label = e("label", None, "Write to", for_=where_id)
    choice = e(
        "div", "field", label, destination, testid="inspector-choice", ref="choice", hidden=True
    )
    form = e(
        "form",
        "inspector-form",
        e("div", "inspector-fields", testid="inspector-fields", ref="fields"),
        choice,
        checkbox("inspector-only-this", "inspector-only-this", ONLY_THIS, "only_this"),
        e("p", "inspector-where field-hint", testid="inspector-where", ref="where"),
        error_line("inspector-error", "error"),
        e(
            "div",
            "inspector-actions",
            submit("Apply", "inspector-apply", ref="apply"),
            e("p", "inspector-status", testid="inspector-status", ref="status", role="status"),
        ),
        novalidate=True,
        ref="form",
    )
    return e(
        "section",
        "inspector",
        head,
        form,
        testid="inspector",
        aria_labelledby="inspector-title",
    )


def field_row(prop: str, label: str, kind: str, value: str, choices: tuple[str, ...] = ()) -> El:
    """One property's row: its label, its control(s) (``data-prop`` on the one
    whose value is written), its error line."""
    id_ = f"inspector-{prop}"
    if kind == "choice":
        control = e(
            "select",
            None,
            [e("option", None, value=c, text=c, selected=c == value) for c in choices],
            testid=id_,
            id=id_,
            data_prop=prop,
            data_shown=value,
        )
    else:
        control = text_input(id_, id_, value=value, data_prop=prop, data_shown=value)
    swatch = None
    if kind == "colour":
        swatch = e(
            "input",
            "inspector-swatch",
            testid=f"{id_}-swatch",
            type="color",
            data_swatch=prop,
            aria_label=f"{label}: pick a colour",
        )
    error = e("p", "field-error", testid=f"{id_}-error", hidden=True, role="alert", data_error=prop)
    return e(
        "div",
        f"field inspector-field inspector-{kind}",
        e("label", None, label, for_=id_),
        e("div", "inspector-control", swatch, control),
        error,
        data_field=prop,
    )


def choice_options(labels: list[str]) -> list[El]:
    """The "Write to" list's options, by index (the first is the inspector's choice)."""
    return [e("option", None, value=str(i), text=label) for i, label in enumerate(labels)]


def where_line(label: str) -> str:
    """What the inspector says it will write: "Writes to site.css · .cta"."""
    return f"Writes to {label}"
