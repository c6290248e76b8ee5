"""The style inspector: a selected element's common styles, changed in the project's CSS.

Mounted into the container it is given; :meth:`InspectorView.show` draws a
:class:`~wiggum.session.inspector.StyleTarget` with the files it was read
from (``read_style_files``), and Apply hands the planned
:class:`~wiggum.session.inspector.StyleEdit` to the ``apply`` callable it was
given (the session's ``write_style_edit``: the files and one checkpoint;
anything answering an :class:`~wiggum.session.inspector.Applied` will do).
What the fields show, where a change goes, what a value may be and what the
plan writes are decided in :mod:`wiggum.session.inspector`; this gathers what
was typed and draws the answers (markup: ``wiggum.ui.markup.inspector``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from wiggum.session.inspector import (
    Applied,
    Destination,
    StyleEdit,
    StyleRefused,
    StyleTarget,
    after_apply,
    changed_values,
    chosen_destination,
    class_choices,
    destinations,
    inspector_fields,
    plan_style_edit,
    same_element,
    unseen,
)
from wiggum.ui.markup import inspector as markup
from wiggum.ui.style_values import swatch_value

from ..dom import Listeners, mount, mount_all, say, spawn

__all__ = ["InspectorView"]


class InspectorView:
    def __init__(self, container: Any, apply: Callable[[StyleEdit], Awaitable[Applied]]) -> None:
        self.apply = apply
        self.parts = p = mount(markup.panel())
        self.el = p.el
        self.el.hidden = True
        container.appendChild(self.el)
        self.target: StyleTarget | None = None
        self.files: dict[str, str] = {}
        self.places: list[Destination] = []
        #: The last edit applied, and its element: shown again, the element
        #: tells whether the page computes what was written.
        self.applied: tuple[StyleTarget, StyleEdit] | None = None
        self.listeners = Listeners()
        self.listeners.on(p.form, "submit", self._on_submit)
        self.listeners.on(p.form, "input", self._on_input)
        self.listeners.on(p.form, "change", lambda e: self._show_where())

    # ------------------------------------------------------------ drawing

    def show(self, target: StyleTarget, files: Mapping[str, str]) -> None:
        """Draw ``target`` (read from ``files``): its fields, where a change goes;
        the element of the last Apply shown again says when the page does not
        show what was written."""
        self.target, self.files = target, dict(files)
        if self.applied is not None and not same_element(self.applied[0], target):
            self.applied = None
        p = self.parts
        p.element.textContent = target.label
        p.source.textContent = f"{target.html_path}:{target.line}"
        rows = [
            markup.field_row(f.prop, f.label, f.kind, f.value, f.options)
            for f in inspector_fields(target)
        ]
        p.fields.replaceChildren(*mount_all(rows))
        for swatch in p.fields.querySelectorAll("[data-swatch]"):
            field = self._field(str(swatch.getAttribute("data-swatch")))
            swatch.value = swatch_value(str(field.value)) or "#000000"
        self.places = destinations(target, self.files)
        choices = class_choices(self.places)
        p.destination.replaceChildren(*mount_all(markup.choice_options([d.label for d in choices])))
        p.choice.hidden = len(choices) < 2
        p.only_this.checked = not choices
        p.only_this.disabled = not choices  # nothing else offered: the attribute it is
        say(p.error, None)
        lost = unseen(self.applied[1], target.computed) if self.applied else None
        p.status.setAttribute("data-error", "true" if lost else "false")
        say(p.status, lost)
        self._show_where()
        self.el.hidden = False

    def recheck(self, target: StyleTarget) -> None:
        """The element of the last Apply reported again (the preview reloaded),
        its fields left as they are: say when it does not compute what was written."""
        if self.applied is None or not same_element(self.applied[0], target):
            return
        lost = unseen(self.applied[1], target.computed)
        if lost is not None:
            self.parts.status.setAttribute("data-error", "true")
            say(self.parts.status, lost)

    def hide(self) -> None:
        self.el.hidden = True
        self.target = None

    def _field(self, prop: str) -> Any:
        return self.parts.fields.querySelector(f"[data-prop={prop}]")

    def _destination(self) -> Destination:
        p = self.parts
        value = str(p.destination.value or "0")  # the options' values are their indices
        index = int(value) if value.isdigit() else 0
        return chosen_destination(self.places, index, bool(p.only_this.checked))

    def _show_where(self) -> None:
        if self.places:
            self.parts.where.textContent = markup.where_line(self._destination().label)

    def _on_input(self, event: Any) -> None:
        """A colour input and its text field say the same colour."""
        el = event.target
        prop = el.getAttribute("data-swatch")
        if prop:
            self._field(str(prop)).value = el.value
            return
        prop = el.getAttribute("data-prop")
        swatch = self.parts.fields.querySelector(f"[data-swatch={prop}]") if prop else None
        if swatch:
            hex_ = swatch_value(str(el.value))
            if hex_ is not None:
                swatch.value = hex_

    # ------------------------------------------------------------ apply

    def _entered(self) -> dict[str, str]:
        return {
            str(el.getAttribute("data-prop")): str(el.value)
            for el in self.parts.fields.querySelectorAll("[data-prop]")
        }

    def _show_refusal(self, refused: StyleRefused) -> None:
        for line in self.parts.fields.querySelectorAll("[data-error]"):
            say(line, refused.fields.get(str(line.getAttribute("data-error"))))
        say(self.parts.error, None if refused.fields else str(refused))

    def _on_submit(self, event: Any) -> None:
        event.preventDefault()
        if self.target is None:
            return
        changes = changed_values(self.target, self._entered())
        try:
            edit = plan_style_edit(self.target, changes, self.files, self._destination())
        except StyleRefused as refused:
            self._show_refusal(refused)
            return
        self._show_refusal(StyleRefused(""))
        self.parts.apply.disabled = True
        spawn(self._apply(self.target, edit), what="apply a style")

    async def _apply(self, target: StyleTarget, edit: StyleEdit) -> None:
        p = self.parts
        try:
            written = await self.apply(edit)
        finally:
            p.apply.disabled = False
        p.status.setAttribute("data-error", "true" if written.error else "false")
        say(p.status, written.message)
        if not written.error and self.target is target:
            status = written.message
            self.applied = (target, edit)
            self.show(*after_apply(target, edit, self.files))
            say(p.status, status)

    def close(self) -> None:
        self.listeners.close()
        self.el.remove()
