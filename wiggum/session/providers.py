"""The provider a role talks to, decided in one place.

Chief's turns, Ralph's runs, the context meter, the images warning and the
provider chip all need "the active provider, as a config, with the model this
project chose for this role".  That was derived three times (the app's
``_provider_config`` and ``current_provider``, the chat view's images
warning); :func:`provider_for` is the one derivation, and it says why a
provider is not ready instead of returning nothing.

Also here: the request options of Chief's turn (the answer timeout and the
idle timeout from Settings, web search where the person turned it on), the
project's model choice, the fix text for a local server that refuses the
page's origin, and what the provider chip says.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from wiggum.chief.attachments import images_warning as _images_warning
from wiggum.chief.research import research_options
from wiggum.llm import ProviderConfig, RequestOptions
from wiggum.llm.limits import apply_limits, limits_key
from wiggum.llm.normalize import DEFAULT_QUIRKS, ProviderQuirks
from wiggum.ui.presets import preset
from wiggum.ui.settings import ProviderSettings, Settings

from .refusals import Refusal, setup

__all__ = [
    "Chip",
    "Role",
    "chip",
    "chip_after_test",
    "choose_model",
    "images_warning",
    "local_fix",
    "model_for",
    "model_list_key",
    "provider_for",
    "ready_provider",
    "request_options",
]

Role = Literal["chief", "ralph"]


def ready_provider(settings: Settings) -> ProviderSettings | Refusal:
    """The active provider entry if it can be used, else why not (Settings fixes it)."""
    p = settings.active()
    if p is None:
        return setup("No provider", "Choose a model provider in Settings first.")
    problems = p.problems(settings.proxy_template)
    if problems:
        return setup(
            "Provider not set up", f"{p.label}: " + " ".join(problems) + " Open Settings to finish."
        )
    return p


def model_for(settings: Settings, project_id: str | None, role: Role) -> str:
    """The model ``role`` uses in ``project_id``: the project's choice made on the
    active provider, else the provider's own model (``""`` with no provider)."""
    p = settings.active()
    endpoint = p.endpoint if p is not None else None
    chosen = settings.model_for(project_id, role, endpoint)
    return chosen or (p.model if p is not None else "")


def provider_for(
    settings: Settings, project_id: str | None, role: Role
) -> ProviderConfig | Refusal:
    """The active provider as a config for ``role`` in ``project_id``, or why not;
    with what refusals taught about that model there (its window, its largest
    reply), so Chief's preflight sizes his requests to it too."""
    p = ready_provider(settings)
    if isinstance(p, Refusal):
        return p
    config = p.to_config().model_copy(update={"model": model_for(settings, project_id, role)})
    learned = settings.learned_limits.get(limits_key(config.base_url, config.model))
    return apply_limits(config, learned)


def request_options(settings: Settings, provider: ProviderConfig) -> RequestOptions:
    """Chief's request options: how long to wait for an answer and for the
    stream's next part, and web search where the person turned it on for this
    provider (every search is billed)."""
    options = RequestOptions(
        timeout=settings.request_timeout_seconds, idle_timeout=settings.stream_idle_seconds
    )
    chosen = settings.provider(provider.id)
    enabled = bool(chosen is not None and chosen.web_search)
    return research_options(provider, enabled, options) or options


def choose_model(settings: Settings, project_id: str, role: Role, model: str) -> Settings | None:
    """The settings after the person chose ``model`` for ``role`` in the project
    (``None``: no provider, no model).  Choosing the provider's own model forgets
    the project's choice, so a later change of the provider's model applies to
    the project again."""
    p = settings.active()
    if p is None or not model:
        return None
    updated = settings.model_copy(deep=True)
    key = f"{project_id}:{role}"
    if model == p.model:
        updated.project_models.pop(key, None)
        updated.project_model_endpoints.pop(key, None)
    else:
        updated.project_models[key] = model
        updated.project_model_endpoints[key] = p.endpoint
    return updated


def model_list_key(settings: Settings) -> str | None:
    """Which model list the active provider has: one per provider, server and
    route (through the proxy or not); ``None`` with no usable provider."""
    p = ready_provider(settings)
    if isinstance(p, Refusal):
        return None
    return f"{p.id}|{p.base_url}|{p.proxy}|{settings.proxy_template}"


def local_fix(settings: Settings, origin: str) -> str | None:
    """For a server on this machine: how to make it accept this page's ``origin``."""
    p = settings.active()
    if p is None:
        return None
    pr = preset(p.preset)
    if pr.browser != "local" and not (pr.id == "custom" and p.is_local):
        return None
    fix = pr.origin_fix or preset("local").origin_fix
    return fix.format(origin=origin)


def images_warning(
    settings: Settings,
    project_id: str | None,
    count: int,
    listed: list[str],
    quirks: ProviderQuirks = DEFAULT_QUIRKS,
) -> str | None:
    """What to tell the person before ``count`` images go to Chief's model (or
    ``None``): the model takes none, or none that this session has seen."""
    p = settings.active()
    if p is None:
        return None
    provider = p.to_config().model_copy(update={"model": model_for(settings, project_id, "chief")})
    refused = {
        m
        for m in (provider.model, *listed)
        if quirks.refuses_images(provider.model_copy(update={"model": m}))
    }
    return _images_warning(provider, count, listed, refused=refused)


@dataclass(frozen=True, slots=True)
class Chip:
    """The provider chip in the header: what it reads and its tooltip."""

    name: str
    model: str | None  # ``None``: setup is not finished, ``name`` says what is missing
    title: str

    @property
    def ready(self) -> bool:
        return self.model is not None


def chip(settings: Settings, project_id: str | None) -> Chip:
    """A provider with problems is not a provider the person has: the chip says
    what is missing rather than naming a model no request can reach."""
    p = ready_provider(settings)
    if isinstance(p, Refusal):
        active = settings.active()
        what = "Set up a provider" if active is None else f"{active.label}: finish setup"
        return Chip(what, None, f"{what} (open settings)")
    model = model_for(settings, project_id, "chief") or "no model"
    return Chip(p.label, model, f"{p.label} · {model} (open settings)")


def chip_after_test(label: str) -> Chip:
    """The chip once the first-run form's connection test passed: the provider
    answered, so the chip says so (its model is still to be chosen there, and
    "Start chatting" keeps it)."""
    return Chip(
        f"{label}: ready",
        None,
        f"{label} answered the connection test: choose its model and press Start chatting",
    )
