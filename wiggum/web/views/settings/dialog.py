"""The Settings dialog: providers (from presets), their fields, the proxy, the idle timeout.

The dialog draws a :class:`~wiggum.session.settings.SettingsEditor`, which
edits a copy of the settings and decides what the fields mean; Save hands
the editor's settings to ``on_save`` (which applies and stores them), Cancel
and Escape drop the copy.  The API key field is a password input; its value
is only ever read into the settings model's ``SecretStr``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from wiggum.session.settings import DialogFields, SettingsEditor, base_url_for_kind
from wiggum.ui.connection import Diagnosis
from wiggum.ui.provider_form import ELSEWHERE_TEXT
from wiggum.ui.settings import ProviderSettings, Settings

from ...dom import Listeners, button, el, is_null, spawn
from ..forms import dispatch, heading, modal, say, submit
from .connection_test import ConnectionTest
from .model_picker import ModelPicker
from .provider_form import ProviderForm
from .proxy_panel import ProxyPanel

__all__ = ["SettingsDialog"]


class SettingsDialog:
    def __init__(self, on_save: Callable[[Settings], Awaitable[None]], origin: str = "") -> None:
        self.on_save = on_save
        #: This page's origin, for the proxy's ALLOWED_ORIGINS and local servers' allow-lists.
        self.origin = origin
        self.editor = SettingsEditor()
        self._return_focus: Any = None
        self.listeners = Listeners()
        self.provider_form = ProviderForm()
        self.picker = ModelPicker(self.editor)
        self.test = ConnectionTest(
            action="test-connection", testid="test-connection", result_testid="connection-result"
        )
        self.proxy = ProxyPanel()
        #: Said when another tab saves the settings while this dialog has edits.
        self.elsewhere = el(
            "div",
            "settings-elsewhere",
            el("p", None, ELSEWHERE_TEXT),
            button(
                "Use the other tab's settings",
                action="use-theirs",
                testid="settings-use-theirs",
                cls="btn btn-small",
            ),
            testid="settings-elsewhere",
            role="status",
            hidden=True,
        )
        self.form = el(
            "form",
            "settings-form",
            heading(
                "dialog-head", "Settings", "settings-title", close="cancel", label="Close settings"
            ),
            self.elsewhere,
            el(
                "section",
                "dialog-section",
                el("h3", None, "Model provider", id="providers-title"),
                [*self.provider_form.head, self.picker.el, self.test.el, *self.provider_form.tail],
                aria_labelledby="providers-title",
            ),
            self.proxy.el,
            el(
                "footer",
                "dialog-foot",
                button("Cancel", action="cancel"),
                submit("Save", "settings-save"),
            ),
            method="dialog",
        )
        self.el = modal("settings-dialog", "settings-dialog", "settings-title", self.form)
        #: What each ``data-action`` in the dialog does.
        self._actions: dict[str, Callable[[], None]] = {
            "cancel": self.close,
            "load-models": self._load_models,
            "remove-provider": self._remove,
            "test-connection": self._test,
            "use-worker": self._use_worker,
            "use-theirs": self._use_theirs,
        }
        f = self.provider_form
        self.listeners.on(self.form, "submit", self._on_submit)
        self.listeners.on(self.el, "click", self._on_click)
        self.listeners.on(self.el, "cancel", self._on_cancel)
        self.listeners.on(f.provider_select, "change", lambda e: self._pick())
        self.listeners.on(f.add_select, "change", lambda e: self._add())
        self.listeners.on(f.kind, "change", lambda e: self._kind_changed())
        self.listeners.on(self.picker.model, "input", lambda e: self.picker.show_info())
        for control in (f.base_url, f.api_key):
            self.listeners.on(control, "change", lambda e: self._auto_models())

    # ------------------------------------------------------------ open / close

    def open(self, settings: Settings) -> None:
        self._show(settings)
        self._return_focus = self.el.ownerDocument.activeElement
        self.el.showModal()
        first = self.editor.first_problem()
        (self._errors()[first][1] if first else self.provider_form.provider_select).focus()
        self._auto_models()

    def _show(self, settings: Settings, current: str | None = None) -> None:
        """Fill the form from ``settings`` (on ``current``'s provider if it has it)."""
        editor = self.editor
        editor.show(settings, current)
        self.proxy.load(editor.draft.proxy_template, editor.draft.stream_idle_seconds, self.origin)
        self.provider_form.fill_select(editor.draft.providers, editor.current)
        self._load_form()
        editor.loaded(self._fields())
        self.elsewhere.hidden = True

    def saved_elsewhere(self, settings: Settings) -> None:
        """Another tab saved ``settings`` (the editor decides what that does to edits)."""
        if not self.el.open:
            return
        if self.editor.saved_elsewhere(settings, self._fields()):
            self._show(settings, self.editor.current)
        else:
            self.elsewhere.hidden = False

    def _use_theirs(self) -> None:
        theirs = self.editor.theirs
        if theirs is not None:
            self._show(theirs, self.editor.current)
            self.provider_form.provider_select.focus()

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
            self.provider_form.read(self.picker.value),
            str(self.proxy.template.value),
            str(self.proxy.idle_seconds.value),
        )

    def _store(self) -> None:
        self.editor.store(self._fields())

    def _load_form(self) -> None:
        p = self.editor.provider()
        if p is None:
            return
        self.provider_form.load(p)
        self._clear_errors()
        self.picker.load(p)

    def _errors(self) -> dict[str, tuple[Any, Any]]:
        """Each field the editor can blame: its error line and its control."""
        f, proxy = self.provider_form, self.proxy
        return {
            "base_url": (f.base_url_error, f.base_url),
            "api_key": (f.key.error, f.api_key),
            "model": (self.picker.error, self.picker.model),
            "proxy_template": (proxy.template_error, proxy.template),
            "proxy": (f.proxy_check_error, f.proxy),
        }

    def _clear_errors(self) -> None:
        for line, _ in self._errors().values():
            say(line, None)
        say(self.proxy.worker_error, None)
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
            self.picker.shown(p, d.models)

    def _use_worker(self) -> None:
        problem = self.editor.use_worker(str(self.proxy.worker_url.value), self._fields())
        self.proxy.show_worker(self.editor.draft.proxy_template, problem)
        if problem is None:
            self.provider_form.proxy.checked = True

    def _auto_models(self) -> None:
        self._store()
        self.picker.auto()

    def _load_models(self) -> None:
        self._store()
        self.picker.request()

    def _pick(self) -> None:
        self._store()
        self.editor.pick(str(self.provider_form.provider_select.value))
        self._load_form()
        self._auto_models()

    def _add(self) -> None:
        preset_id = str(self.provider_form.add_select.value)
        self.provider_form.add_select.value = ""
        if not preset_id:
            return
        self._store()
        self.editor.add(preset_id)
        self.provider_form.fill_select(self.editor.draft.providers, self.editor.current)
        self._load_form()
        self.provider_form.name.focus()
        self._auto_models()

    def _kind_changed(self) -> None:
        f = self.provider_form
        url = base_url_for_kind(str(f.kind.value), str(f.base_url.value))
        if url is not None:
            f.base_url.value = url
        self._store()  # web search is only offered where the kind can do it
        p = self.editor.provider()
        if p is not None:
            f.research.load(p)
        self.picker.show_info()

    def _remove(self) -> None:
        if self.editor.remove():
            self.provider_form.fill_select(self.editor.draft.providers, self.editor.current)
            self._load_form()
            self.provider_form.provider_select.focus()

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
