"""The Settings dialog: providers (from presets), their fields, the proxy, the two waits.

Its markup is ``wiggum.ui.markup.settings`` (one tree, its controls named by
what they hold).  The dialog draws a
:class:`~wiggum.session.settings.SettingsEditor`, which edits a copy of the
settings and decides what the fields mean; Save hands the editor's settings
to ``on_save`` (which applies and stores them), Cancel and Escape drop the
copy.  The API key field is a password input; its value is only ever read
into the settings model's ``SecretStr``.  "Refresh model facts" asks the
app's :class:`~wiggum.session.model_facts.ModelFacts` (``facts``) and shows
what it says.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Protocol

from wiggum.session.settings import DialogFields, SettingsEditor, base_url_for_kind
from wiggum.ui.connection import PROXY_DEPLOY, Diagnosis
from wiggum.ui.markup import settings as markup
from wiggum.ui.settings import ProviderSettings, Settings

from ...dom import Listeners, dispatch, is_null, mount, say, spawn
from .provider_form import ConnectionTest, ProviderForm

__all__ = ["FactsPort", "SettingsDialog"]


class FactsPort(Protocol):
    """What the dialog asks of the model facts (``wiggum.session.model_facts.ModelFacts``)."""

    def status(self) -> str: ...

    async def refresh(self) -> Any: ...


class SettingsDialog:
    def __init__(
        self,
        on_save: Callable[[Settings], Awaitable[None]],
        origin: str = "",
        facts: FactsPort | None = None,
        facts_changed: Callable[[], None] = lambda: None,
        connect_openrouter: Callable[[], None] = lambda: None,
    ) -> None:
        self.on_save = on_save
        #: The model facts' refresh (``None``: the section stays hidden).
        self.facts, self.facts_changed = facts, facts_changed
        #: This page's origin, for the proxy's ALLOWED_ORIGINS and local servers' allow-lists.
        self.origin = origin
        self.editor = SettingsEditor()
        self._return_focus: Any = None
        self.listeners = Listeners()
        self.parts = f = mount(markup.dialog())
        self.el, self.form = f.el, f.form
        self.provider_form = ProviderForm(self.editor, f)
        self.test = ConnectionTest(f)
        #: What each ``data-action`` in the dialog does.
        self._actions: dict[str, Callable[[], None]] = {
            "cancel": self.close,
            "connect-openrouter": connect_openrouter,
            "load-models": self._load_models,
            "remove-provider": self._remove,
            "test-connection": self._test,
            "use-worker": self._use_worker,
            "use-theirs": self._use_theirs,
            "refresh-facts": self._refresh_facts,
        }
        self.listeners.on(self.form, "submit", self._on_submit)
        self.listeners.on(self.el, "click", self._on_click)
        self.listeners.on(self.el, "cancel", self._on_cancel)
        self.listeners.on(f.provider_select, "change", lambda e: self._pick())
        self.listeners.on(f.add_select, "change", lambda e: self._add())
        self.listeners.on(f.kind, "change", lambda e: self._kind_changed())
        self.listeners.on(f.model, "input", lambda e: self.provider_form.show_info())
        for control in (f.base_url, f.api_key):
            self.listeners.on(control, "change", lambda e: self._auto_models())

    # ------------------------------------------------------------ open / close

    def open(self, settings: Settings) -> None:
        self._show(settings)
        if self.facts is not None:
            self.parts.facts_status.textContent = self.facts.status()
        self._return_focus = self.el.ownerDocument.activeElement
        self.el.showModal()
        first = self.editor.first_problem()
        (self._errors()[first][1] if first else self.parts.provider_select).focus()
        self._auto_models()

    def _show(self, settings: Settings, current: str | None = None) -> None:
        """Fill the form from ``settings`` (on ``current``'s provider if it has it)."""
        editor = self.editor
        editor.show(settings, current)
        f = self.parts
        f.proxy_template.value = editor.draft.proxy_template
        f.idle_seconds.value = f"{editor.draft.stream_idle_seconds:g}"
        f.request_seconds.value = f"{editor.draft.request_timeout_seconds:g}"
        f.ralph_iterations.value = str(editor.draft.ralph_max_iterations)
        f.cap_usd.value = (
            "" if editor.draft.ralph_cap_usd is None else f"{editor.draft.ralph_cap_usd:g}"
        )
        f.cap_tokens.value = str(editor.draft.ralph_cap_tokens or "")
        f.reflect.checked = editor.draft.ralph_reflect
        limit = editor.draft.ask_before_changing
        f.ask_before_changing.value = "" if limit is None else str(limit)
        f.proxy_template_error.hidden = True
        f.deploy_cmd.textContent = PROXY_DEPLOY.format(origin=self.origin or "https://you.example")
        self.provider_form.fill_select(editor.draft.providers, editor.current)
        self._load_form()
        editor.loaded(self._fields())
        f.elsewhere.hidden = True

    def saved_elsewhere(self, settings: Settings) -> None:
        """Another tab saved ``settings`` (the editor decides what that does to edits)."""
        if not self.el.open:
            return
        if self.editor.saved_elsewhere(settings, self._fields()):
            self._show(settings, self.editor.current)
        else:
            self.parts.elsewhere.hidden = False

    def _use_theirs(self) -> None:
        theirs = self.editor.theirs
        if theirs is not None:
            self._show(theirs, self.editor.current)
            self.parts.provider_select.focus()

    def close(self) -> None:
        self.editor.model_lists.cancel()
        if self.el.open:
            self.el.close()
        target, self._return_focus = self._return_focus, None
        if not is_null(target) and hasattr(target, "focus"):
            target.focus()

    # ------------------------------------------------------------ form <-> editor

    def _fields(self) -> DialogFields:
        return DialogFields(
            self.provider_form.read(),
            str(self.parts.proxy_template.value),
            str(self.parts.idle_seconds.value),
            str(self.parts.request_seconds.value),
            str(self.parts.ralph_iterations.value),
            str(self.parts.cap_usd.value),
            str(self.parts.cap_tokens.value),
            bool(self.parts.reflect.checked),
            ask_before_changing=str(self.parts.ask_before_changing.value),
        )

    def _store(self) -> None:
        self.editor.store(self._fields())

    def _load_form(self) -> None:
        p = self.editor.provider()
        if p is None:
            return
        self.provider_form.load(p)
        self._clear_errors()

    def _errors(self) -> dict[str, tuple[Any, Any]]:
        """Each field the editor can blame: its error line and its control."""
        f = self.parts
        return {name: (getattr(f, f"{name}_error"), getattr(f, name)) for name in markup.BLAMED}

    def _clear_errors(self) -> None:
        for line, _ in self._errors().values():
            say(line, None)
        say(self.parts.worker_error, None)
        self.test.clear()

    # ------------------------------------------------------------ actions

    def _test(self) -> None:
        self._store()
        p = self.editor.provider()
        if p is not None:
            self.test.pending()
            spawn(self._run_test(self.editor.test(p, self.origin), p), what="test connection")

    async def _run_test(
        self, test: Coroutine[Any, Any, Diagnosis | None], p: ProviderSettings
    ) -> None:
        d = await self.test.run(test)
        if d is not None and d.models:
            self.provider_form.shown(p, d.models)

    def _use_worker(self) -> None:
        f = self.parts
        problem = self.editor.use_worker(str(f.worker_url.value), self._fields())
        say(f.worker_error, problem)
        if problem is not None:
            f.worker_url.focus()
            return
        # The worker's address became the template, and the proxy is on.
        f.proxy_template.value = self.editor.draft.proxy_template
        say(f.proxy_template_error, None)
        f.proxy.checked = True

    def _auto_models(self) -> None:
        self._store()
        self.provider_form.auto_models()

    def _load_models(self) -> None:
        self._store()
        self.provider_form.request_models()

    def _pick(self) -> None:
        self._store()
        self.editor.pick(str(self.parts.provider_select.value))
        self._load_form()
        self._auto_models()

    def _add(self) -> None:
        preset_id = str(self.parts.add_select.value)
        self.parts.add_select.value = ""
        if not preset_id:
            return
        self._store()
        self.editor.add(preset_id)
        self.provider_form.fill_select(self.editor.draft.providers, self.editor.current)
        self._load_form()
        self.parts.name.focus()
        self._auto_models()

    def _kind_changed(self) -> None:
        f = self.parts
        url = base_url_for_kind(str(f.kind.value), str(f.base_url.value))
        if url is not None:
            f.base_url.value = url
        self._store()  # web search is only offered where the kind can do it
        p = self.editor.provider()
        if p is not None:
            self.provider_form.load_web_search(p)
        self.provider_form.show_info()

    def _remove(self) -> None:
        if self.editor.remove():
            self.provider_form.fill_select(self.editor.draft.providers, self.editor.current)
            self._load_form()
            self.parts.provider_select.focus()

    def _refresh_facts(self) -> None:
        if self.facts is None:
            return
        self.parts.facts_button.disabled = True
        say(self.parts.facts_result, "Fetching from models.dev and OpenRouter…")
        spawn(self._fetch_facts(self.facts), what="refresh model facts")

    async def _fetch_facts(self, facts: FactsPort) -> None:
        try:
            shown = await facts.refresh()
        finally:
            self.parts.facts_button.disabled = False
        say(self.parts.facts_result, shown.text)
        self.parts.facts_result.setAttribute("data-ok", "true" if shown.ok else "false")
        self.parts.facts_status.textContent = facts.status()
        self.facts_changed()

    def _on_click(self, event: Any) -> None:
        if event.target == self.el:  # the backdrop
            return
        dispatch(event, self._actions)

    def _on_cancel(self, event: Any) -> None:
        event.preventDefault()
        self.close()

    def _on_submit(self, event: Any) -> None:
        event.preventDefault()
        self._store()
        self._clear_errors()
        result = self.editor.save()
        if result.settings is None:
            fields = self._errors()
            for name, reason in result.problems.items():
                say(fields[name][0], reason)
            fields[next(iter(result.problems))][1].focus()
            return
        # Applied at once (eager: before the next click is handled, a Send right
        # after Save goes out with them), stored in the background; the app
        # reports a storage failure.
        spawn(self.on_save(result.settings), what="save settings", eager=True)
        self.close()
