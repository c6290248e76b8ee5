"""The Settings dialog's provider form: which provider, its name, kind, URL, key,
model, proxy box and web search; and what the first-run form shares with it
(the key field's words, the model's suggestions, Test connection).

It draws a :class:`~wiggum.ui.settings.ProviderSettings` and reads the form
back as :class:`~wiggum.session.settings.ProviderFields`; what the fields
mean is the dialog's editor (``wiggum.session.settings``), their markup
``wiggum.ui.markup.settings``.  The model is free text with the provider's
list as suggestions: "Load models" asks the editor for the list (it drops an
answer a later request replaced), which becomes the field's ``<datalist>``
(each option with its context window and price), and the line under the
field says what Wiggum knows of the model typed.

Test connection (one cheap call through the chat's own route, and what its
failure means: ``wiggum.ui.connection``) is handed over by the caller's
session object as a coroutine that gives ``None`` when a later test replaced
it.  Its line carries ``data-cause`` (``pending`` from the click on, so an
earlier result is never read as this one's).
"""

from __future__ import annotations

from collections.abc import Awaitable, Coroutine
from typing import Any

from wiggum.session.settings import ProviderFields, SettingsEditor
from wiggum.ui.connection import Diagnosis
from wiggum.ui.markup.settings import diagnosis, model_options, provider_options, web_search_text
from wiggum.ui.models import ModelOption
from wiggum.ui.provider_form import KeyField, diagnosis_class, model_info, settings_key_field
from wiggum.ui.settings import ProviderSettings

from ...dom import Parts, mount_all, spawn

__all__ = ["ConnectionTest", "ProviderForm", "show_key", "show_models"]

#: What a model list request gives: the models (``None``: none to be had) and
#: the words for it, or ``None`` when a later request replaced it.
Answer = tuple[list[ModelOption] | None, str] | None


def show_key(f: Parts, key: KeyField) -> None:
    """Word the key field (``markup.settings.key_field``) for a provider."""
    f.key_field.hidden = not key.shown
    f.key_label.textContent = key.label
    f.api_key.placeholder = key.placeholder
    f.key_link.hidden = key.link is None
    if key.link is not None:
        f.key_link.href, f.key_link.textContent = key.link


def show_models(datalist: Any, models: list[ModelOption]) -> None:
    """Suggest ``models`` in the model field's ``<datalist>``."""
    datalist.replaceChildren(*mount_all(model_options(models)))


class ConnectionTest:
    def __init__(self, parts: Parts) -> None:
        self.button, self.result = parts.test, parts.test_result

    def pending(self) -> None:
        self.result.setAttribute("data-cause", "pending")

    def clear(self) -> None:
        self.result.textContent = ""
        self.result.removeAttribute("data-cause")

    async def run(self, test: Coroutine[Any, Any, Diagnosis | None]) -> Diagnosis | None:
        """Show "Testing…" while ``test`` runs, then its diagnosis (unless replaced)."""
        self.button.disabled = True
        self.result.className = diagnosis_class(None)
        self.pending()
        self.result.textContent = "Testing…"
        try:
            d = await test
        finally:
            self.button.disabled = False
        if d is not None:
            self.show(d)
        return d

    def show(self, d: Diagnosis) -> None:
        self.result.className = diagnosis_class(d)
        self.result.setAttribute("data-cause", d.cause)
        self.result.replaceChildren(*mount_all(diagnosis(d.title, d.message)))


class ProviderForm:
    def __init__(self, editor: SettingsEditor, parts: Parts) -> None:
        self.editor = editor
        #: The dialog's parts: ``name``, ``kind``, ``base_url``, ``api_key``, ``model``…
        self.f = parts

    def fill_select(self, providers: list[ProviderSettings], current: str | None) -> None:
        options = provider_options((p.id, p.label) for p in providers)
        self.f.provider_select.replaceChildren(*mount_all(options))
        self.f.provider_select.value = current or ""
        self.f.remove.disabled = len(providers) <= 1

    def load(self, p: ProviderSettings) -> None:
        f = self.f
        f.name.value = p.name
        f.kind.value = p.kind
        f.base_url.value = p.base_url
        f.api_key.value = p.key
        f.proxy.checked = p.proxy
        self.load_web_search(p)
        show_key(f, settings_key_field(p))
        f.model.value = p.model
        show_models(f.models, self.editor.known_models())
        f.models_status.textContent = ""
        self.show_info()

    def load_web_search(self, p: ProviderSettings) -> None:
        """Off by default, disabled (with the reason beside it) where ``p`` cannot search."""
        available = p.research_available
        self.f.web_search.disabled = not available
        self.f.web_search.checked = bool(p.web_search) and available
        self.f.web_search_hint.textContent = web_search_text(available)

    def read(self) -> ProviderFields:
        f = self.f
        return ProviderFields(
            name=str(f.name.value),
            kind=str(f.kind.value),
            base_url=str(f.base_url.value),
            api_key=str(f.api_key.value),
            model=str(f.model.value),
            proxy=bool(f.proxy.checked),
            web_search=bool(f.web_search.checked) and not bool(f.web_search.disabled),
        )

    # ------------------------------------------------------------ the model's suggestions

    def show_info(self) -> None:
        p = self.editor.provider()
        known = self.editor.known_models()
        model = str(self.f.model.value)
        self.f.model_info.textContent = "" if p is None else model_info(model, p.kind, known)

    def shown(self, p: ProviderSettings, models: list[ModelOption]) -> None:
        """``models`` came for ``p``: suggested when ``p`` is the provider shown."""
        if self.editor.current == p.id:
            show_models(self.f.models, models)
            self.show_info()

    def auto_models(self) -> None:
        """Ask for the list unasked, where the editor says it works without a surprise."""
        if self.editor.wants_models():
            self.request_models()

    def request_models(self) -> None:
        """Ask for the shown provider's list ("Load models")."""
        p = self.editor.provider()
        if p is None:
            return
        problem = self.editor.models_problem()
        if problem:
            self.f.models_status.textContent = problem
            return
        spawn(self.fetch_models(p, self.editor.load_models(p)), what="list models")

    async def fetch_models(self, p: ProviderSettings, reading: Awaitable[Answer]) -> None:
        """Show the list ``reading`` (the editor's :meth:`~SettingsEditor.load_models`) gives."""
        f = self.f
        f.models_status.textContent = "Loading models…"
        f.models_btn.disabled = True
        try:
            answer = await reading
        finally:
            f.models_btn.disabled = False
        if answer is not None:
            models, f.models_status.textContent = answer
            if models is not None:
                self.shown(p, models)
