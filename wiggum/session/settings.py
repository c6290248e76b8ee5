"""What the Settings dialog decides: the draft it edits, what Save keeps, another tab's save.

The dialog (``wiggum.web.views.settings``) draws a :class:`SettingsEditor` and
hands it what the form holds as :class:`DialogFields`; the editor keeps the
draft (a deep copy: Cancel drops it), says which fields keep the provider from
working, and turns Save into the settings to store or the problems to show.

Decided here:

- every reading of the form is stored into the draft at once (switching
  provider keeps what was typed for the one left); the idle timeout is clamped
  to 5-3600 s, the answer timeout to 10-3600 s, and an emptied field keeps
  the saved value; web search stays off where the provider cannot search;
- Ralph's iteration limit is clamped to 1-500 (emptied: the saved one kept);
  an emptied or zero cap is no cap of that kind;
- Save checks the proxy template and the shown provider's fields, but not its
  model: the model list may need the key saved first, and the chat says when
  a model is missing;
- when another tab saves the settings, a dialog without edits shows theirs at
  once (on the same provider); one with edits keeps them and offers theirs, so
  neither tab's changes are lost without the person choosing;
- a test or a model list still under way when another starts (or the dialog
  closes) is dropped: only the latest answer is shown (:class:`Latest`).

:func:`after_onboarding` is what the first-run form's tested provider does to
the settings.
"""

from __future__ import annotations

from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any

from pydantic import SecretStr

from wiggum.llm import LLMError
from wiggum.llm.transport import Transport
from wiggum.ui.connection import Diagnosis, check_connection, proxy_template_from_worker
from wiggum.ui.models import ModelOption, list_models
from wiggum.ui.provider_form import WORKER_URL_PROBLEM, models_failed_text, models_loaded_text
from wiggum.ui.settings import (
    PRESETS,
    ProviderSettings,
    Settings,
    validate_base_url,
    validate_proxy_template,
)

__all__ = [
    "DialogFields",
    "Latest",
    "ProviderFields",
    "SaveResult",
    "SettingsEditor",
    "after_onboarding",
    "ask_limit",
    "base_url_for_kind",
    "cap",
    "idle_seconds",
    "iterations",
    "provider_fields",
    "request_seconds",
]

#: The idle timeout's bounds, in seconds (the stored model refuses others).
IDLE_MIN, IDLE_MAX = 5.0, 3600.0
#: The answer timeout's bounds, in seconds (likewise).
REQUEST_MIN, REQUEST_MAX = 10.0, 3600.0
_LOCAL_HOSTS = ("://localhost", "://127.0.0.1", "://[::1]")


@dataclass(frozen=True, slots=True)
class ProviderFields:
    """One provider as the form shows it (text as typed, not yet stripped)."""

    name: str = ""
    kind: str = "openai"
    base_url: str = ""
    api_key: str = ""
    model: str = ""
    proxy: bool = False
    #: The web-search box: ticked and enabled.
    web_search: bool = False


@dataclass(frozen=True, slots=True)
class DialogFields:
    provider: ProviderFields
    proxy_template: str = ""
    idle_seconds: str = ""
    request_seconds: str = ""
    #: Ralph's runs: iterations, and the default cap in US dollars and in tokens.
    ralph_iterations: str = ""
    cap_usd: str = ""
    cap_tokens: str = ""
    reflect: bool = True
    #: "Ask before deleting or overwriting more than N files" (empty: never ask).
    ask_before_changing: str = ""


@dataclass(frozen=True, slots=True)
class SaveResult:
    """Save's outcome: the settings to store, or ``{field: reason}`` to show."""

    settings: Settings | None = None
    problems: dict[str, str] = field(default_factory=dict)


class Latest:
    """Numbers requests so that only the latest one's answer is used."""

    def __init__(self) -> None:
        self._n = 0

    def begin(self) -> int:
        self._n += 1
        return self._n

    def cancel(self) -> None:
        """Drop whatever is under way (the dialog closed)."""
        self._n += 1

    def current(self, n: int) -> bool:
        return n == self._n


def _seconds(text: str, saved: float, low: float, high: float) -> float:
    try:
        value = float(text)
    except ValueError:  # an emptied field keeps the saved value
        value = saved
    if value != value:  # "nan" reads as a float and is no wait at all
        value = saved
    return min(high, max(low, value))


#: The iteration limit's bounds (the stored model refuses others).
ITERATIONS_MIN, ITERATIONS_MAX = 1, 500


def iterations(text: str, saved: int) -> int:
    """The iteration limit typed, clamped; an emptied (or unreadable) field keeps the saved one."""
    try:
        value = int(float(text))
    except (ValueError, OverflowError):
        return saved
    return min(ITERATIONS_MAX, max(ITERATIONS_MIN, value))


def cap(text: str, kind: type) -> Any:
    """A cap typed (``$``, spaces and thousands commas allowed); empty, zero or
    unreadable is no cap of that kind."""
    cleaned = text.replace("$", "").replace(",", "").replace("_", "").strip()
    try:
        value = kind(float(cleaned)) if cleaned else None
    except (ValueError, OverflowError):
        return None
    if value is None or value != value or value <= 0:
        return None
    return value


def idle_seconds(text: str, saved: float) -> float:
    return _seconds(text, saved, IDLE_MIN, IDLE_MAX)


def request_seconds(text: str, saved: float) -> float:
    return _seconds(text, saved, REQUEST_MIN, REQUEST_MAX)


def ask_limit(text: str) -> int | None:
    """The approval threshold as typed: a whole number of files, or ``None`` (never
    ask) for an empty or unreadable field."""
    try:
        value = int(text.strip())
    except ValueError:
        return None
    return min(max(value, 0), 10_000)


def base_url_for_kind(kind: str, base_url: str) -> str | None:
    """The base URL to show when the kind changes: a URL left empty or at a
    preset's default follows the kind (``None``: keep the one typed)."""
    defaults = {p.base_url for p in PRESETS if p.base_url}
    if base_url.strip() and base_url not in defaults:
        return None
    match = next((p for p in PRESETS if p.kind == kind and p.base_url), None)
    return None if match is None else match.base_url


def provider_fields(p: ProviderSettings) -> ProviderFields:
    """The form's reading of ``p`` (what loading it into the form shows)."""
    return ProviderFields(p.name, p.kind, p.base_url, p.key, p.model, p.proxy, p.web_search)


class SettingsEditor:
    """The dialog's draft of the settings and what it does with it."""

    def __init__(self, transport: Transport | None = None) -> None:
        #: The settings the dialog was opened on (or last shown).
        self.settings = Settings()
        self.draft = Settings()
        #: The provider shown in the form.
        self.current: str | None = None
        #: The draft as the form showed it when (re)loaded: no edits yet.
        self._baseline = Settings()
        #: The other tab's settings, while the dialog offers them.
        self.theirs: Settings | None = None
        #: Model lists already fetched, by provider id (kept while the page lives).
        self.models: dict[str, list[ModelOption]] = {}
        self.tests = Latest()
        self.model_lists = Latest()
        self._transport = transport

    # ------------------------------------------------------------ the draft

    def show(self, settings: Settings, current: str | None = None) -> None:
        """Edit a copy of ``settings``, on ``current``'s provider if it has it."""
        self.settings = settings
        self.draft = settings.model_copy(deep=True)
        if not self.draft.providers:
            self.draft.providers.append(ProviderSettings.from_preset("openai"))
        active = (self.draft.provider(current) if current else None) or self.draft.active()
        self.current = active.id if active else None
        self.theirs = None

    def loaded(self, fields: DialogFields) -> None:
        """The form now shows the draft: its own reading of it tells edits by."""
        self.store(fields)
        self._baseline = self.draft.model_copy(deep=True)

    def provider(self) -> ProviderSettings | None:
        return self.draft.provider(self.current) if self.current else None

    def store(self, fields: DialogFields) -> None:
        """Keep what the form holds in the draft."""
        p = self.provider()
        if p is None:
            return
        f = fields.provider
        updated = p.model_copy(
            update={
                "name": f.name.strip(),
                "kind": f.kind,
                "base_url": f.base_url.strip(),
                "api_key": SecretStr(f.api_key.strip()),
                "model": f.model.strip(),
                "proxy": f.proxy,
            }
        )
        research = f.web_search and updated.research_available
        updated = updated.model_copy(update={"web_search": research})
        self.draft.providers = [updated if q.id == p.id else q for q in self.draft.providers]
        self.draft.proxy_template = fields.proxy_template.strip()
        self.draft.stream_idle_seconds = idle_seconds(
            fields.idle_seconds, self.draft.stream_idle_seconds
        )
        self.draft.request_timeout_seconds = request_seconds(
            fields.request_seconds, self.draft.request_timeout_seconds
        )
        self.draft.ralph_max_iterations = iterations(
            fields.ralph_iterations, self.draft.ralph_max_iterations
        )
        self.draft.ralph_cap_usd = cap(fields.cap_usd, float)
        self.draft.ralph_cap_tokens = cap(fields.cap_tokens, int)
        self.draft.ralph_reflect = fields.reflect
        self.draft.ask_before_changing = ask_limit(fields.ask_before_changing)

    def pick(self, provider_id: str) -> None:
        self.current = provider_id

    def add(self, preset_id: str) -> ProviderSettings:
        p = ProviderSettings.from_preset(preset_id)
        self.draft.providers.append(p)
        self.current = p.id
        return p

    @property
    def removable(self) -> bool:
        return len(self.draft.providers) > 1

    def remove(self) -> bool:
        """Remove the shown provider (never the last one); the first is shown then."""
        if not self.removable or self.current is None:
            return False
        self.draft.providers = [p for p in self.draft.providers if p.id != self.current]
        self.current = self.draft.providers[0].id
        return True

    def use_worker(self, url: str, fields: DialogFields) -> str | None:
        """The worker's address (from "Run your own proxy") becomes the proxy
        template and the shown provider's proxy is turned on; else why not."""
        template = proxy_template_from_worker(url)
        if template is None:
            return WORKER_URL_PROBLEM
        self.store(fields)
        self.draft.proxy_template = template
        p = self.provider()
        if p is not None:
            on = p.model_copy(update={"proxy": True})
            self.draft.providers = [on if q.id == p.id else q for q in self.draft.providers]
        return None

    # ------------------------------------------------------------ checks

    def first_problem(self) -> str | None:
        """The first field keeping the shown provider from working (where the dialog opens)."""
        p = self.provider()
        problems = p.field_problems(self.draft.proxy_template) if p is not None else {}
        return next(iter(problems), None)

    def save(self) -> SaveResult:
        problems: dict[str, str] = {}
        err = validate_proxy_template(self.draft.proxy_template)
        if err:
            problems["proxy_template"] = err
        p = self.provider()
        if p is not None:
            # A missing model is told in the chat (the list may need the key saved first).
            found = p.field_problems(self.draft.proxy_template)
            found.pop("model", None)
            problems = {**found, **problems}
        if problems:
            return SaveResult(problems=problems)
        self.draft.active_provider = self.current
        return SaveResult(settings=self.draft)

    def saved_elsewhere(self, settings: Settings, fields: DialogFields) -> bool:
        """Another tab saved ``settings``: ``True`` when they are shown now (no
        edits here), ``False`` when the edits stay and theirs are offered."""
        self.store(fields)
        if self.draft == self._baseline:
            self.show(settings, self.current)
            return True
        self.theirs = settings
        return False

    def use_theirs(self) -> bool:
        if self.theirs is None:
            return False
        self.show(self.theirs, self.current)
        return True

    # ------------------------------------------------------------ models

    def wants_models(self) -> bool:
        """Fetch the list unasked when it can work without a surprise: a key, or a local server."""
        p = self.provider()
        if p is None or validate_base_url(p.base_url):
            return False
        return bool(p.key) or any(host in p.base_url for host in _LOCAL_HOSTS)

    def models_problem(self) -> str | None:
        """Why the list cannot be asked for (no usable base URL)."""
        p = self.provider()
        return None if p is None else validate_base_url(p.base_url)

    def known_models(self) -> list[ModelOption]:
        return self.models.get(self.current or "", [])

    def remember(self, provider_id: str, models: list[ModelOption]) -> bool:
        """Keep ``models`` for the provider; ``True`` when it is the one shown."""
        self.models[provider_id] = models
        return self.current == provider_id

    def load_models(
        self, p: ProviderSettings
    ) -> Coroutine[Any, Any, tuple[list[ModelOption] | None, str] | None]:
        """The provider's models (``None`` when they could not be had) and what
        to say of them; ``None`` when a later request (or closing the dialog)
        made this one stale.  Numbered now, not
        when the coroutine starts: a close in between drops it."""
        return self._load_models(p, self.model_lists.begin())

    async def _load_models(
        self, p: ProviderSettings, n: int
    ) -> tuple[list[ModelOption] | None, str] | None:
        template = self.draft.proxy_template
        try:
            models = await list_models(p, self._transport, proxy_template=template)
        except LLMError as err:
            if not self.model_lists.current(n):
                return None
            return None, models_failed_text(err, p, template)
        if not self.model_lists.current(n):
            return None
        self.remember(p.id, models)
        return models, models_loaded_text(models)

    def test(self, p: ProviderSettings, origin: str) -> Coroutine[Any, Any, Diagnosis | None]:
        """Test connection for ``p``; ``None`` when a later test replaced it."""
        return self._test(p, origin, self.tests.begin())

    async def _test(self, p: ProviderSettings, origin: str, n: int) -> Diagnosis | None:
        d = await check_connection(
            p, proxy_template=self.draft.proxy_template, origin=origin, transport=self._transport
        )
        if not self.tests.current(n):
            return None
        if d.models:
            self.remember(p.id, d.models)
        return d


def after_onboarding(settings: Settings, provider: ProviderSettings, template: str) -> Settings:
    """The first-run form's tested provider becomes the active one; a broken
    active provider it replaces goes (it was the half-set-up one)."""
    out = settings.model_copy(deep=True)
    active = out.active()
    if active is not None and active.problems(out.proxy_template):
        out.providers = [q for q in out.providers if q.id != active.id]
    out.providers.append(provider)
    out.active_provider = provider.id
    if provider.proxy and template:
        out.proxy_template = template
    return out
