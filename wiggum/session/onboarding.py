"""What the first-run form decides: provider → key → Test connection → model → start.

The form (``wiggum.web.views.onboarding``) is shown in Chief's tab while no
provider works.  Decided here:

- choosing a provider fills its base URL, first model and proxy default; a
  half-set-up provider already in the settings is where the form starts;
- the proxy field takes a worker's address or a template with ``{href}``;
- "Start chatting" is offered only after a test passed (or found the provider
  but not the model, which the list then helps choose), so what is saved
  works; any change after that asks for a new test;
- a test blaming browser calls turns the proxy box on, which is the fix;
- the model servers on this computer are looked for as the form opens where
  that greets the visit with no browser prompt, else when asked
  (:class:`LocalList`), and "Use" takes one that answered as it is.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple, Protocol

from pydantic import SecretStr

from wiggum.llm.transport import Transport
from wiggum.ui.connection import Diagnosis, check_connection, proxy_template_from_worker
from wiggum.ui.markup.onboarding import LocalRow
from wiggum.ui.models import ModelOption
from wiggum.ui.presets import preset
from wiggum.ui.settings import ProviderSettings

from .local_servers import NONE_FOUND, Found, probe_on_open, rows
from .settings import Latest

__all__ = [
    "Chosen",
    "FirstRun",
    "FirstRunFields",
    "LocalList",
    "Prefill",
    "QuickStart",
    "TestFollowUp",
    "draft",
    "prefill",
    "proxy_offered",
]


class QuickStart(Protocol):
    """The ways in without a key to paste, as the first screen asks for them."""

    def connect_openrouter(self) -> None: ...

    def demo(self) -> None: ...

    def find_local(self) -> Awaitable[list[Found]]: ...


class LocalList:
    """The model servers found on this computer, as the first screen lists them."""

    def __init__(self, origin: str, find: Callable[[], Awaitable[list[Found]]]) -> None:
        self.find = find
        #: Look as the form opens (no browser prompt greets the visit), else on the button.
        self.on_open = probe_on_open(origin)
        self.found: list[Found] = []
        self.tests = Latest()

    async def look(self) -> tuple[str, list[LocalRow]] | None:
        """What the list says and shows once every port answered (``None``: a
        later look replaced this one)."""
        n = self.tests.begin()
        found = await self.find()
        if not self.tests.current(n):
            return None
        self.found = found
        return ("" if found else NONE_FOUND), rows(found)

    def chosen(self, index: str) -> ProviderSettings | None:
        """The provider "Use" keeps: the server as it answered, its first model."""
        if not index.isdigit() or int(index) >= len(self.found):
            return None
        found = self.found[int(index)]
        return None if found.fix is not None else found.settings()


@dataclass(frozen=True, slots=True)
class FirstRunFields:
    """The form as the person filled it."""

    preset_id: str
    base_url: str = ""
    api_key: str = ""
    model: str = ""
    proxy: bool = False
    #: The proxy's URL: a worker's address, or a template with ``{href}``.
    proxy_url: str = ""


@dataclass(frozen=True, slots=True)
class Prefill:
    """Where the form starts from a provider already there; ``None``: what the preset gave."""

    preset_id: str
    base_url: str | None
    api_key: str | None
    model: str | None
    proxy: bool
    proxy_url: str | None


class Chosen(NamedTuple):
    """What "Start chatting" keeps: the tested provider and the proxy template."""

    provider: ProviderSettings
    template: str


@dataclass(frozen=True, slots=True)
class TestFollowUp:
    """What the form does after a test."""

    #: Show the model row (and "Start chatting").
    offer_models: bool = False
    models: list[ModelOption] = field(default_factory=list)
    #: The model to put in the field, when the one there is not offered.
    model: str | None = None
    #: Turn the proxy box on: the test blamed browser calls.
    turn_on_proxy: bool = False


def proxy_offered(preset_id: str) -> bool:
    """Whether the form offers the CORS proxy for this provider: not for a server
    on this machine or network (a proxy on the web cannot reach it, and what
    such a server needs is to allow this page's origin)."""
    return preset(preset_id).browser != "local"


def prefill(p: ProviderSettings | None, proxy_template: str) -> Prefill | None:
    if p is None:
        return None
    return Prefill(
        preset(p.preset).id,
        p.base_url or None,
        p.key or None,
        p.model or None,
        p.proxy,
        proxy_template or None,
    )


def draft(f: FirstRunFields) -> tuple[ProviderSettings, str]:
    """The provider the form describes, and the proxy template it names."""
    raw = f.proxy_url.strip()
    template = (proxy_template_from_worker(raw) or raw) if raw else ""
    p = ProviderSettings.from_preset(
        preset(f.preset_id).id,
        base_url=f.base_url.strip(),
        api_key=SecretStr(f.api_key.strip()),
        model=f.model.strip(),
        proxy=f.proxy,
    )
    return p, template


class FirstRun:
    """The form's state between a test and "Start chatting"."""

    def __init__(self, origin: str, transport: Transport | None = None) -> None:
        self.origin = origin
        #: A test passed for what the form holds now.
        self.tested = False
        self.tests = Latest()
        self._transport = transport

    def changed(self) -> None:
        """A change after a passed test asks for a new one."""
        self.tested = False

    def test(self, f: FirstRunFields) -> Coroutine[Any, Any, Diagnosis | None]:
        """The coroutine of a test of what the form holds, numbered now so
        that an earlier test's answer is never read as this one's: it gives
        ``None`` when a later test replaced it."""
        return self._test(f, self.tests.begin())

    async def _test(self, f: FirstRunFields, n: int) -> Diagnosis | None:
        p, template = draft(f)
        d = await check_connection(
            p, proxy_template=template, origin=self.origin, transport=self._transport
        )
        return d if self.tests.current(n) else None

    def follow_up(self, d: Diagnosis, model: str) -> TestFollowUp:
        if d.ok or d.cause == "model_missing":
            self.tested = True
            pick = d.models[0].id if d.models and not any(m.id == model for m in d.models) else None
            return TestFollowUp(True, d.models, pick)
        return TestFollowUp(turn_on_proxy=d.field == "proxy")

    def start(self, f: FirstRunFields) -> Chosen | Literal["model"] | None:
        """What "Start chatting" does: the provider and template to keep, the
        field to fill first (``"model"``), or nothing (no passed test)."""
        if not self.tested:
            return None
        p, template = draft(f)
        if not p.model:
            return "model"
        return Chosen(p, template)
