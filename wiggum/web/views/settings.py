"""The settings dialog: providers (from presets), their fields, the proxy template.

The dialog edits a copy of the settings; Save validates, stores it through
``AppStorage.put_settings`` and hands it to the app; Cancel / Escape drop it.
The API key field is a password input; its value is only ever read into the
settings model's ``SecretStr``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from pydantic import SecretStr

from wiggum.llm import LLMError, lookup_model
from wiggum.ui.connection import (
    PROXY_DEPLOY,
    Diagnosis,
    check_connection,
    proxy_template_from_worker,
)
from wiggum.ui.errors import explain
from wiggum.ui.models import ModelOption, list_models, price_label
from wiggum.ui.settings import (
    PRESETS,
    ProviderSettings,
    Settings,
    preset,
    validate_base_url,
    validate_proxy_template,
)

from ..dom import Listeners, closest_action, h, is_null, spawn
from .research_setting import ResearchSetting

__all__ = ["SettingsDialog"]

_KINDS = (
    ("openai", "OpenAI-compatible"),
    ("anthropic", "Anthropic"),
    ("ollama", "Ollama"),
)


def _field(label: str, control: Any, *, hint: Any = None, error: Any = None, for_id: str) -> Any:
    return h(
        "div",
        {"class": "field"},
        h("label", {"for": for_id, "text": label}),
        control,
        hint,
        error,
    )


def _error(testid: str) -> Any:
    return h("p", {"class": "field-error", "hidden": True, "role": "alert", "data-testid": testid})


def _show(el: Any, text: str | None) -> None:
    el.textContent = text or ""
    el.hidden = not text


class SettingsDialog:
    def __init__(self, on_save: Callable[[Settings], Awaitable[None]], origin: str = "") -> None:
        self.on_save = on_save
        #: This page's origin, for the proxy's ALLOWED_ORIGINS and local servers' allow-lists.
        self.origin = origin
        self._test_gen = 0
        self.settings = Settings()
        self.draft = Settings()
        self.current: str | None = None
        self._models_gen = 0
        self._models: dict[str, list[ModelOption]] = {}
        self._return_focus: Any = None
        self.listeners = Listeners()

        self.provider_select = h("select", {"id": "set-provider", "data-testid": "provider-select"})
        self.add_select = h(
            "select",
            {"id": "set-add", "data-testid": "add-provider", "aria-label": "Add a provider"},
            h("option", {"value": "", "text": "Add a provider…"}),
            [h("option", {"value": p.id, "text": p.name}) for p in PRESETS],
        )
        self.remove_btn = h(
            "button",
            {
                "type": "button",
                "class": "btn btn-small btn-quiet",
                "data-action": "remove-provider",
                "data-testid": "remove-provider",
            },
            "Remove",
        )
        self.name = h(
            "input",
            {
                "id": "set-name",
                "type": "text",
                "data-testid": "provider-name",
                "autocomplete": "off",
            },
        )
        self.kind = h(
            "select",
            {"id": "set-kind", "data-testid": "provider-kind"},
            [h("option", {"value": k, "text": label}) for k, label in _KINDS],
        )
        self.base_url = h(
            "input",
            {
                "id": "set-base-url",
                "type": "url",
                "data-testid": "provider-base-url",
                "placeholder": "https://api.example.com/v1",
                "autocomplete": "off",
                "spellcheck": "false",
            },
        )
        self.base_url_error = _error("base-url-error")
        self.api_key = h(
            "input",
            {
                "id": "set-api-key",
                "type": "password",
                "data-testid": "provider-api-key",
                "autocomplete": "off",
                "spellcheck": "false",
            },
        )
        self.api_key_label = h("label", {"for": "set-api-key", "text": "API key"})
        self.api_key_link = h(
            "a", {"target": "_blank", "rel": "noopener noreferrer", "data-testid": "key-link"}
        )
        self.api_key_error = _error("api-key-error")
        self.model_error = _error("model-error")
        self.test_btn = h(
            "button",
            {
                "type": "button",
                "class": "btn",
                "data-action": "test-connection",
                "data-testid": "test-connection",
            },
            "Test connection",
        )
        self.test_result = h(
            "div",
            {"class": "conn-result", "data-testid": "connection-result", "role": "status"},
        )
        self.proxy_check_error = _error("proxy-check-error")
        self.worker_url = h(
            "input",
            {
                "id": "set-worker-url",
                "type": "url",
                "data-testid": "worker-url",
                "placeholder": "https://wiggum-cors-proxy.you.workers.dev",
                "autocomplete": "off",
                "spellcheck": "false",
            },
        )
        self.worker_error = _error("worker-url-error")
        self.deploy_cmd = h("code", {"data-testid": "proxy-deploy-command"})
        self.models_list = h("datalist", {"id": "set-models"})
        self.model = h(
            "input",
            {
                "id": "set-model",
                "type": "text",
                "list": "set-models",
                "data-testid": "provider-model",
                "autocomplete": "off",
                "spellcheck": "false",
                "placeholder": "e.g. gpt-4o-mini",
            },
        )
        self.models_btn = h(
            "button",
            {
                "type": "button",
                "class": "btn btn-small",
                "data-action": "load-models",
                "data-testid": "models-refresh",
            },
            "Load models",
        )
        self.models_status = h(
            "p", {"class": "field-hint", "data-testid": "models-status", "aria-live": "polite"}
        )
        self.model_info = h("p", {"class": "field-hint", "data-testid": "model-info"})
        self.proxy = h(
            "input", {"id": "set-proxy", "type": "checkbox", "data-testid": "provider-proxy"}
        )
        self.research = ResearchSetting()
        self.proxy_template = h(
            "input",
            {
                "id": "set-proxy-template",
                "type": "url",
                "data-testid": "proxy-template",
                "placeholder": "https://your-proxy.example/?url={href}",
                "autocomplete": "off",
                "spellcheck": "false",
            },
        )
        self.proxy_error = _error("proxy-template-error")
        self.idle_seconds = h(
            "input",
            {
                "id": "set-idle-seconds",
                "type": "number",
                "min": "5",
                "max": "3600",
                "step": "1",
                "data-testid": "stream-idle-seconds",
            },
        )
        self.save_btn = h(
            "button",
            {"type": "submit", "class": "btn btn-primary", "data-testid": "settings-save"},
            "Save",
        )

        #: Said when another tab saves the settings while this dialog has edits.
        self.elsewhere = h(
            "div",
            {"class": "settings-elsewhere", "role": "status", "data-testid": "settings-elsewhere"},
            h(
                "p",
                {
                    "text": "These settings were just saved in another tab. Save here to "
                    "replace them with what you see, or take theirs (your edits here are "
                    "dropped)."
                },
            ),
            h(
                "button",
                {
                    "type": "button",
                    "class": "btn btn-small",
                    "data-action": "use-theirs",
                    "data-testid": "settings-use-theirs",
                },
                "Use the other tab's settings",
            ),
        )
        self.elsewhere.hidden = True
        #: The other tab's settings, while ``elsewhere`` offers them.
        self._theirs: Settings | None = None
        #: The draft as the form showed it when it was (re)loaded: no edits yet.
        self._baseline = Settings()

        form = h(
            "form",
            {"method": "dialog", "class": "settings-form"},
            h(
                "header",
                {"class": "dialog-head"},
                h("h2", {"id": "settings-title", "text": "Settings"}),
                h(
                    "button",
                    {
                        "type": "button",
                        "class": "icon-btn",
                        "data-action": "cancel",
                        "aria-label": "Close settings",
                        "text": "✕",
                    },
                ),
            ),
            self.elsewhere,
            h(
                "section",
                {"class": "dialog-section", "aria-labelledby": "providers-title"},
                h("h3", {"id": "providers-title", "text": "Model provider"}),
                h(
                    "div",
                    {"class": "provider-row"},
                    h("label", {"for": "set-provider", "class": "sr-only", "text": "Provider"}),
                    self.provider_select,
                    self.add_select,
                    self.remove_btn,
                ),
                h(
                    "p",
                    {
                        "class": "field-hint",
                        "text": "Chief uses the provider shown here when you save.",
                    },
                ),
                _field("Name", self.name, for_id="set-name"),
                _field(
                    "Kind",
                    self.kind,
                    for_id="set-kind",
                    hint=h(
                        "p",
                        {
                            "class": "field-hint",
                            "text": "The API it speaks. Most services are OpenAI-compatible.",
                        },
                    ),
                ),
                _field("Base URL", self.base_url, for_id="set-base-url", error=self.base_url_error),
                h(
                    "div",
                    {"class": "field"},
                    self.api_key_label,
                    self.api_key,
                    h(
                        "p",
                        {"class": "field-hint"},
                        "Stored on this device only and sent only to this provider "
                        "(through the proxy if you turn it on). ",
                        self.api_key_link,
                    ),
                    self.api_key_error,
                ),
                h(
                    "div",
                    {"class": "field"},
                    h("label", {"for": "set-model", "text": "Model"}),
                    h("div", {"class": "model-row"}, self.model, self.models_btn),
                    self.models_list,
                    self.model_info,
                    self.models_status,
                    self.model_error,
                ),
                h("div", {"class": "conn-row"}, self.test_btn, self.test_result),
                h(
                    "div",
                    {"class": "field field-check"},
                    self.proxy,
                    h(
                        "label",
                        {
                            "for": "set-proxy",
                            "text": "Send this provider's requests through the CORS proxy",
                        },
                    ),
                ),
                self.proxy_check_error,
                self.research.el,
            ),
            h(
                "section",
                {"class": "dialog-section", "aria-labelledby": "proxy-title"},
                h("h3", {"id": "proxy-title", "text": "CORS proxy"}),
                _field(
                    "Proxy URL template",
                    self.proxy_template,
                    for_id="set-proxy-template",
                    hint=h(
                        "p",
                        {
                            "class": "field-hint",
                            "text": "Some providers refuse calls from web pages. A proxy you "
                            "run forwards them; {href} is replaced by the provider's URL.",
                        },
                    ),
                    error=self.proxy_error,
                ),
                _field(
                    "Give up on a silent reply after (seconds)",
                    self.idle_seconds,
                    for_id="set-idle-seconds",
                    hint=h(
                        "p",
                        {
                            "class": "field-hint",
                            "text": "When a reply stops arriving for this long, Chief ends "
                            "it, keeps what arrived and offers Retry.",
                        },
                    ),
                ),
                h(
                    "details",
                    {"class": "proxy-howto", "data-testid": "proxy-howto"},
                    h("summary", {"text": "Run your own proxy"}),
                    h(
                        "p",
                        {
                            "text": "The proxy is a small Cloudflare Worker (the proxy/ folder "
                            "of Wiggum's source) "
                            "that forwards your requests; it keeps nothing and only serves "
                            "the pages you allow."
                        },
                    ),
                    h(
                        "p",
                        {},
                        "Deploy it (free Cloudflare account) with this one command, which also "
                        "sets ALLOWED_ORIGINS to this page's origin:",
                    ),
                    h("pre", {"class": "proxy-cmd"}, self.deploy_cmd),
                    _field(
                        "Your worker's URL",
                        h(
                            "div",
                            {"class": "model-row"},
                            self.worker_url,
                            h(
                                "button",
                                {
                                    "type": "button",
                                    "class": "btn btn-small",
                                    "data-action": "use-worker",
                                    "data-testid": "use-worker",
                                },
                                "Use it",
                            ),
                        ),
                        for_id="set-worker-url",
                        hint=h(
                            "p",
                            {
                                "class": "field-hint",
                                "text": "Paste the URL wrangler printed; Wiggum fills in the "
                                "proxy URL template above and turns the proxy on.",
                            },
                        ),
                        error=self.worker_error,
                    ),
                ),
            ),
            h(
                "footer",
                {"class": "dialog-foot"},
                h("button", {"type": "button", "class": "btn", "data-action": "cancel"}, "Cancel"),
                self.save_btn,
            ),
        )
        self.el = h(
            "dialog",
            {
                "class": "settings-dialog",
                "data-testid": "settings-dialog",
                "aria-labelledby": "settings-title",
            },
            form,
        )
        self.form = form
        self.listeners.on(form, "submit", self._on_submit)
        self.listeners.on(self.el, "click", self._on_click)
        self.listeners.on(self.el, "cancel", self._on_cancel)
        self.listeners.on(self.provider_select, "change", self._on_pick)
        self.listeners.on(self.add_select, "change", self._on_add)
        self.listeners.on(self.kind, "change", self._on_kind)
        self.listeners.on(self.model, "input", lambda e: self._show_model_info())
        for el in (self.base_url, self.api_key):
            self.listeners.on(el, "change", lambda e: self._auto_models())

    # ------------------------------------------------------------ open / close

    def open(self, settings: Settings) -> None:
        self._show(settings)
        self._return_focus = self.el.ownerDocument.activeElement
        self.el.showModal()
        self._focus_first_problem()
        self._auto_models()

    def _show(self, settings: Settings, current: str | None = None) -> None:
        """Fill the form from ``settings`` (on ``current``'s provider if it has it)."""
        self.settings = settings
        self.draft = settings.model_copy(deep=True)
        if not self.draft.providers:
            p = ProviderSettings.from_preset("openai")
            self.draft.providers.append(p)
        active = self.draft.provider(current) if current else None
        active = active or self.draft.active()
        self.current = active.id if active else None
        self.proxy_template.value = self.draft.proxy_template
        self.idle_seconds.value = f"{self.draft.stream_idle_seconds:g}"
        self.proxy_error.hidden = True
        self.deploy_cmd.textContent = PROXY_DEPLOY.format(
            origin=self.origin or "https://you.example"
        )
        self._fill_select()
        self._load_form()
        self._store_form()  # the form's own reading of it, to tell edits by
        self._baseline = self.draft.model_copy(deep=True)
        self._theirs = None
        self.elsewhere.hidden = True

    def saved_elsewhere(self, settings: Settings) -> None:
        """Another tab saved ``settings``.  An open dialog with no edits shows
        them; one with edits keeps them and says so, offering theirs, so that
        neither tab's changes are lost without the person choosing."""
        if not self.el.open:
            return
        self._store_form()
        if self.draft == self._baseline:
            self._show(settings, self.current)
            return
        self._theirs = settings
        self.elsewhere.hidden = False

    def _use_theirs(self) -> None:
        if self._theirs is not None:
            self._show(self._theirs, self.current)
            self.provider_select.focus()

    def _focus_first_problem(self) -> None:
        """Open where the work is: the first field keeping the provider from working."""
        p = self._provider()
        problems = p.field_problems(self.draft.proxy_template) if p is not None else {}
        if problems:
            self._errors_for()[next(iter(problems))][1].focus()
        else:
            self.provider_select.focus()

    def close(self) -> None:
        self._models_gen += 1
        if self.el.open:
            self.el.close()
        target = self._return_focus
        self._return_focus = None
        if not is_null(target) and hasattr(target, "focus"):
            target.focus()

    # ------------------------------------------------------------ form <-> draft

    def _provider(self) -> ProviderSettings | None:
        return self.draft.provider(self.current) if self.current else None

    def _fill_select(self) -> None:
        self.provider_select.replaceChildren(
            *[
                h("option", {"value": p.id, "text": p.label, "selected": p.id == self.current})
                for p in self.draft.providers
            ]
        )
        self.provider_select.value = self.current or ""
        self.remove_btn.disabled = len(self.draft.providers) <= 1

    def _load_form(self) -> None:
        p = self._provider()
        if p is None:
            return
        self.name.value = p.name
        self.kind.value = p.kind
        self.base_url.value = p.base_url
        self.api_key.value = p.key
        self.model.value = p.model
        self.proxy.checked = p.proxy
        self.research.load(p)
        self.base_url_error.hidden = True
        self._clear_errors()
        self._show_key_field(p)
        self._fill_models(self._models.get(p.id, []))
        self.models_status.textContent = ""
        self._show_model_info()

    def _store_form(self) -> None:
        p = self._provider()
        if p is None:
            return
        updated = p.model_copy(
            update={
                "name": str(self.name.value).strip(),
                "kind": str(self.kind.value),
                "base_url": str(self.base_url.value).strip(),
                "api_key": SecretStr(str(self.api_key.value).strip()),
                "model": str(self.model.value).strip(),
                "proxy": bool(self.proxy.checked),
            }
        )
        research = self.research.value() and updated.research_available
        updated = updated.model_copy(update={"web_search": research})
        self.draft.providers = [updated if q.id == p.id else q for q in self.draft.providers]
        self.draft.proxy_template = str(self.proxy_template.value).strip()
        try:
            idle = float(str(self.idle_seconds.value))
        except ValueError:  # an emptied field keeps the saved value
            idle = self.draft.stream_idle_seconds
        self.draft.stream_idle_seconds = min(3600.0, max(5.0, idle))

    def _show_key_field(self, p: ProviderSettings) -> None:
        pr = preset(p.preset)
        name = pr.name if pr.id not in ("custom", "local") else ""
        self.api_key_label.textContent = f"{name} API key" if name else "API key"
        if p.needs_key:
            self.api_key.placeholder = f"Paste your {name or 'provider'} key"
        else:
            self.api_key.placeholder = "Usually not needed for a local server"
        if pr.key_url:
            self.api_key_link.href = pr.key_url
            self.api_key_link.textContent = f"Make a key at {pr.key_url.split('://')[1]}"
            self.api_key_link.hidden = False
        else:
            self.api_key_link.hidden = True

    def _clear_errors(self) -> None:
        for el in (
            self.base_url_error,
            self.api_key_error,
            self.model_error,
            self.proxy_error,
            self.proxy_check_error,
            self.worker_error,
        ):
            _show(el, None)
        self.test_result.textContent = ""
        self.test_result.removeAttribute("data-cause")

    def _errors_for(self) -> dict[str, Any]:
        return {
            "base_url": (self.base_url_error, self.base_url),
            "api_key": (self.api_key_error, self.api_key),
            "model": (self.model_error, self.model),
            "proxy_template": (self.proxy_error, self.proxy_template),
            "proxy": (self.proxy_check_error, self.proxy),
        }

    # ------------------------------------------------------------ test connection

    def _test(self) -> None:
        self._store_form()
        p = self._provider()
        if p is None:
            return
        self.test_result.setAttribute("data-cause", "pending")
        self._test_gen += 1
        spawn(self._run_test(p, self._test_gen), what="test connection")

    async def _run_test(self, p: ProviderSettings, gen: int) -> None:
        self.test_btn.disabled = True
        self.test_result.className = "conn-result"
        self.test_result.textContent = "Testing…"
        self.test_result.setAttribute("data-cause", "pending")
        try:
            d = await check_connection(
                p, proxy_template=self.draft.proxy_template, origin=self.origin
            )
        finally:
            self.test_btn.disabled = False
        if gen != self._test_gen:
            return
        self.show_diagnosis(p, d)

    def show_diagnosis(self, p: ProviderSettings, d: Diagnosis) -> None:
        self.test_result.className = "conn-result " + ("conn-ok" if d.ok else "conn-bad")
        self.test_result.setAttribute("data-cause", d.cause)
        self.test_result.replaceChildren(
            h("strong", {"text": d.title + ". "}), h("span", {"text": d.message})
        )
        if d.models:
            self._models[p.id] = d.models
            if self.current == p.id:
                self._fill_models(d.models)
                self._show_model_info()

    def _use_worker(self) -> None:
        template = proxy_template_from_worker(str(self.worker_url.value))
        if template is None:
            _show(
                self.worker_error,
                "Paste the worker's address, starting with https:// "
                "(for example https://wiggum-cors-proxy.you.workers.dev).",
            )
            self.worker_url.focus()
            return
        _show(self.worker_error, None)
        self.proxy_template.value = template
        self.proxy.checked = True
        _show(self.proxy_error, None)
        self._store_form()

    # ------------------------------------------------------------ models

    def _fill_models(self, models: list[ModelOption]) -> None:
        self.models_list.replaceChildren(
            *[h("option", {"value": m.id, "label": m.label}) for m in models]
        )

    def _show_model_info(self) -> None:
        p = self._provider()
        mid = str(self.model.value).strip()
        if not mid or p is None:
            self.model_info.textContent = ""
            return
        known = next((m for m in self._models.get(p.id, []) if m.id == mid), None)
        if known is None:
            entry = lookup_model(mid, str(self.kind.value))
            if entry is None:
                self.model_info.textContent = (
                    "Not in Wiggum's model list: limits and prices unknown."
                )
                return
            cost = entry.cost
            known = ModelOption(
                mid,
                context_window=entry.capability.context_window,
                input_per_m=cost.input_per_token * 1e6 if cost else None,
                output_per_m=cost.output_per_token * 1e6 if cost else None,
            )
        parts = []
        if known.context_window:
            parts.append(f"{known.context_window:,} tokens of context")
        price = price_label(known.input_per_m, known.output_per_m)
        parts.append(
            price.replace("per 1M", "per million tokens (in / out)") if price else "price unknown"
        )
        self.model_info.textContent = " · ".join(parts)

    def _auto_models(self) -> None:
        """Fetch the list when it can work without a surprise: a key, or a local server."""
        self._store_form()
        p = self._provider()
        if p is None or validate_base_url(p.base_url):
            return
        local = any(host in p.base_url for host in ("://localhost", "://127.0.0.1", "://[::1]"))
        if p.key or local:
            self._load_models()

    def _load_models(self) -> None:
        self._store_form()
        p = self._provider()
        if p is None:
            return
        err = validate_base_url(p.base_url)
        if err:
            self.models_status.textContent = err
            return
        self._models_gen += 1
        spawn(self._fetch_models(p, self._models_gen), what="list models")

    async def _fetch_models(self, p: ProviderSettings, gen: int) -> None:
        self.models_status.textContent = "Loading models…"
        self.models_btn.disabled = True
        try:
            models = await list_models(p, proxy_template=self.draft.proxy_template)
        except LLMError as err:
            if gen != self._models_gen:
                return
            e = explain(
                err, provider_name=p.label, proxy=p.proxy, proxy_template=self.draft.proxy_template
            )
            self.models_status.textContent = (
                f"Could not load the model list ({e.message if e else err.name}) "
                "You can still type a model name."
            )
            return
        finally:
            self.models_btn.disabled = False
        if gen != self._models_gen:
            return
        self._models[p.id] = models
        if self.current == p.id:
            self._fill_models(models)
            self._show_model_info()
        self.models_status.textContent = (
            f"{len(models)} models available." if models else "The provider listed no models."
        )

    # ------------------------------------------------------------ events

    def _on_pick(self, event: Any) -> None:
        self._store_form()
        self.current = str(self.provider_select.value)
        self._load_form()
        self._auto_models()

    def _on_add(self, event: Any) -> None:
        preset_id = str(self.add_select.value)
        self.add_select.value = ""
        if not preset_id:
            return
        self._store_form()
        p = ProviderSettings.from_preset(preset_id)
        self.draft.providers.append(p)
        self.current = p.id
        self._fill_select()
        self._load_form()
        self.name.focus()
        self._auto_models()

    def _on_kind(self, event: Any) -> None:
        # A base URL left at another preset's default follows the kind.
        defaults = {p.base_url for p in PRESETS if p.base_url}
        kind = str(self.kind.value)
        if not str(self.base_url.value).strip() or str(self.base_url.value) in defaults:
            match = next((p for p in PRESETS if p.kind == kind and p.base_url), None)
            if match is not None:
                self.base_url.value = match.base_url
        self._store_form()  # web search is only offered where the kind can do it
        provider = self._provider()
        if provider is not None:
            self.research.load(provider)
        self._show_model_info()

    def _on_click(self, event: Any) -> None:
        if event.target == self.el:  # the backdrop
            return
        target = closest_action(event)
        if target is None:
            return
        action = target.getAttribute("data-action")
        if action == "cancel":
            self.close()
        elif action == "load-models":
            self._load_models()
        elif action == "remove-provider":
            self._remove()
        elif action == "test-connection":
            self._test()
        elif action == "use-worker":
            self._use_worker()
        elif action == "use-theirs":
            self._use_theirs()

    def _on_cancel(self, event: Any) -> None:
        event.preventDefault()
        self.close()

    def _remove(self) -> None:
        if len(self.draft.providers) <= 1 or self.current is None:
            return
        self.draft.providers = [p for p in self.draft.providers if p.id != self.current]
        self.current = self.draft.providers[0].id
        self._fill_select()
        self._load_form()
        self.provider_select.focus()

    def _on_submit(self, event: Any) -> None:
        event.preventDefault()
        self._store_form()
        self._clear_errors()
        problems: dict[str, str] = {}
        err = validate_proxy_template(self.draft.proxy_template)
        if err:
            problems["proxy_template"] = err
        p = self._provider()
        if p is not None:
            # A missing model is told in the chat (the list may need the key saved first).
            found = p.field_problems(self.draft.proxy_template)
            found.pop("model", None)
            problems = {**found, **problems}
        if problems:
            fields = self._errors_for()
            first = None
            for name, reason in problems.items():
                el, control = fields[name]
                _show(el, reason)
                first = first or control
            if first is not None:
                first.focus()
            return
        self.draft.active_provider = self.current
        settings = self.draft
        # Close at once: the app applies the settings synchronously and stores
        # them in the background (a storage failure is reported by the app).
        self.close()
        spawn(self.on_save(settings), what="save settings")
