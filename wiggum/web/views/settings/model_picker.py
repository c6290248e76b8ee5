"""The model field: free text with the provider's list as suggestions, and the chosen model's facts.

"Load models" asks the provider for its list (the dialog's editor does, and
drops an answer a later request replaced); the list becomes the field's
``<datalist>`` (each option with its context window and price), and the line
under the field says what Wiggum knows of the model typed.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any

from wiggum.session.settings import SettingsEditor
from wiggum.ui.models import ModelOption
from wiggum.ui.provider_form import model_info
from wiggum.ui.settings import ProviderSettings

from ...dom import button, el, spawn
from ..forms import error_line, field, text_input

__all__ = ["ModelPicker", "model_options"]

#: What a model list request gives: the models (``None``: none to be had) and
#: the words for it, or ``None`` when a later request replaced it.
Answer = tuple[list[ModelOption] | None, str] | None


def model_options(models: list[ModelOption]) -> list[Any]:
    """A ``<datalist>``'s options: the id to fill in, the label to read."""
    return [el("option", None, value=m.id, label=m.label) for m in models]


class ModelPicker:
    def __init__(self, editor: SettingsEditor) -> None:
        self.editor = editor
        self.models_list = el("datalist", None, id="set-models")
        self.model = text_input(
            "set-model", "provider-model", list="set-models", placeholder="e.g. gpt-4o-mini"
        )
        self.models_btn = button(
            "Load models", action="load-models", testid="models-refresh", cls="btn btn-small"
        )
        self.status = el("p", "field-hint", testid="models-status", aria_live="polite")
        self.info = el("p", "field-hint", testid="model-info")
        self.error = error_line("model-error")
        self.el = field(
            "Model", el("div", "model-row", self.model, self.models_btn), for_id="set-model"
        )
        self.el.append(self.models_list, self.info, self.status, self.error)

    @property
    def value(self) -> str:
        return str(self.model.value)

    def load(self, p: ProviderSettings) -> None:
        self.model.value = p.model
        self.fill(self.editor.known_models())
        self.status.textContent = ""
        self.show_info()

    def fill(self, models: list[ModelOption]) -> None:
        self.models_list.replaceChildren(*model_options(models))

    def show_info(self) -> None:
        p = self.editor.provider()
        known = self.editor.known_models()
        self.info.textContent = "" if p is None else model_info(self.value, p.kind, known)

    def shown(self, p: ProviderSettings, models: list[ModelOption]) -> None:
        """``models`` came for ``p``: suggested when ``p`` is the provider shown."""
        if self.editor.current == p.id:
            self.fill(models)
            self.show_info()

    def auto(self) -> None:
        """Ask for the list unasked, where the editor says it works without a surprise."""
        if self.editor.wants_models():
            self.request()

    def request(self) -> None:
        """Ask for the shown provider's list ("Load models")."""
        p = self.editor.provider()
        if p is None:
            return
        problem = self.editor.models_problem()
        if problem:
            self.status.textContent = problem
            return
        spawn(self.fetch(p, self.editor.load_models(p)), what="list models")

    async def fetch(self, p: ProviderSettings, reading: Awaitable[Answer]) -> None:
        """Show the list ``reading`` (the editor's :meth:`~SettingsEditor.load_models`) gives."""
        self.status.textContent = "Loading models…"
        self.models_btn.disabled = True
        try:
            answer = await reading
        finally:
            self.models_btn.disabled = False
        if answer is not None:
            models, self.status.textContent = answer
            if models is not None:
                self.shown(p, models)
