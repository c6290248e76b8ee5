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
from wiggum.ui.markup.settings import model_options
from wiggum.ui.models import ModelOption
from wiggum.ui.provider_form import model_info
from wiggum.ui.settings import ProviderSettings

from ...dom import Parts, mount_all, spawn

__all__ = ["ModelPicker", "show_models"]

#: What a model list request gives: the models (``None``: none to be had) and
#: the words for it, or ``None`` when a later request replaced it.
Answer = tuple[list[ModelOption] | None, str] | None


def show_models(datalist: Any, models: list[ModelOption]) -> None:
    """Suggest ``models`` in the field's ``<datalist>``."""
    datalist.replaceChildren(*mount_all(model_options(models)))


class ModelPicker:
    def __init__(self, editor: SettingsEditor, parts: Parts) -> None:
        self.editor = editor
        self.model, self.models_btn = parts.model, parts.models_btn
        self.models, self.status, self.info = parts.models, parts.models_status, parts.model_info
        self.error = parts.model_error

    @property
    def value(self) -> str:
        return str(self.model.value)

    def load(self, p: ProviderSettings) -> None:
        self.model.value = p.model
        show_models(self.models, self.editor.known_models())
        self.status.textContent = ""
        self.show_info()

    def show_info(self) -> None:
        p = self.editor.provider()
        known = self.editor.known_models()
        self.info.textContent = "" if p is None else model_info(self.value, p.kind, known)

    def shown(self, p: ProviderSettings, models: list[ModelOption]) -> None:
        """``models`` came for ``p``: suggested when ``p`` is the provider shown."""
        if self.editor.current == p.id:
            show_models(self.models, models)
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
