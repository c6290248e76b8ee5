"""Which model each agent uses in the open project, the lists to choose from,
and Chief's context meter.

The choice is per project and per role (:func:`wiggum.session.providers.choose_model`);
the list is the provider's own, fetched once per provider, server and route
through the chat's own route (the proxy when it is on, never around it),
else the configured model alone.  Chief's meter is what his next request
would carry (system prompt, history, tools) against the model's window.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from wiggum.ui.model_choice import Meter, meter
from wiggum.ui.models import ModelOption

from . import providers
from .events import Emitter
from .providers import Role

if TYPE_CHECKING:
    from .project import ProjectSession
    from .settings_store import SettingsStore

__all__ = ["METER_EVERY", "ChiefMeterShown", "ModelBarsShown", "ModelChoice"]

log = logging.getLogger("wiggum.session")
ROLES: tuple[Role, ...] = ("chief", "ralph")
#: While a reply streams, Chief's meter is counted again at most this often:
#: recounting the whole conversation per delta (~20 ms in the page) held back
#: each chunk's text on screen, and the meter moves only a little per delta.
METER_EVERY = 1.0


@dataclass(frozen=True, slots=True)
class ModelBarsShown:
    """What the model bars show: per role the chosen model (``{}``: hidden, no
    usable provider), the list to choose from and the provider's kind."""

    chosen: dict[str, str]
    models: list[ModelOption]
    kind: str


@dataclass(frozen=True, slots=True)
class ChiefMeterShown:
    meter: Meter


class ModelChoice:
    """``settings`` is the :class:`~wiggum.session.settings_store.SettingsStore`;
    ``project`` the open project's session (its id, its chat, ``refuse``)."""

    def __init__(self, host: Any, settings: SettingsStore, project: ProjectSession) -> None:
        self.host = host
        self.settings = settings
        self.project = project
        self.events = Emitter(log)
        #: Model lists by provider, server and route (``providers.model_list_key``).
        self.lists: dict[str, list[ModelOption]] = {}
        self._meter_due = self._meter_waits = False
        self._unfollow: Callable[[], None] | None = None
        project.chief.subscribe(self._on_chief)

    def subscribe(self, listener: Callable[[Any], None]) -> Callable[[], None]:
        return self.events.subscribe(listener)

    def listed(self) -> list[str]:
        key = providers.model_list_key(self.settings())
        return [m.id for m in self.lists.get(key or "", [])]

    def show(self) -> None:
        """The bars as the settings and the project say; the list is fetched once."""
        settings = self.settings()
        key = providers.model_list_key(settings)
        p = settings.active()
        if key is None or p is None:
            self.events.emit(ModelBarsShown({}, [], ""))
            return
        project_id = self.project.project_id
        chosen = {role: providers.model_for(settings, project_id, role) for role in ROLES}
        self.events.emit(ModelBarsShown(chosen, self.lists.get(key, []), p.kind))
        self.update_meter()
        if key not in self.lists:
            self.lists[key] = []
            self.host.spawn(self._load(key), what="list models")

    async def _load(self, key: str) -> None:
        from wiggum.llm import LLMError
        from wiggum.ui.models import list_models

        settings = self.settings()
        p = settings.active()
        if p is None:
            return
        try:
            models = await list_models(
                p,
                self.project.transport,
                proxy_template=settings.proxy_template if p.proxy else None,
            )
        except LLMError:
            return  # the configured model alone; the chat names any real problem
        self.lists[key] = models
        if providers.model_list_key(self.settings()) == key:
            self.show()

    def pick(self, role: Role, model: str) -> None:
        """The person chose ``model`` for ``role`` in this project: a write of the project."""
        project_id = self.project.project_id
        if project_id is None or self.project.refuse("other"):
            self.show()  # the bar shows the choice still in force
            return
        updated = providers.choose_model(self.settings(), project_id, role, model)
        if updated is not None:
            self.host.spawn(self.settings.save(updated), what="choose model")

    def _on_chief(self, event: Any) -> None:
        """Chief's meter follows the conversation shown."""
        from .chief import ChatBound

        if not isinstance(event, ChatBound):
            return
        if self._unfollow is not None:
            self._unfollow()
        self._unfollow = event.chat.subscribe(self._on_chat)
        self.update_meter()

    def _on_chat(self, event: str, _record: Any) -> None:
        if event != "delta":
            self._meter_due = False
            self.update_meter()
            return
        self._meter_due = True
        if not self._meter_waits:
            self._meter_waits = True
            self.host.spawn(self._meter_later(), what="update the context meter")

    async def _meter_later(self) -> None:
        await self.host.sleep(METER_EVERY)
        self._meter_waits = False
        if self._meter_due:
            self._meter_due = False
            self.update_meter()

    def update_meter(self) -> None:
        """Chief's meter: what the next request would carry, and the cost so far."""
        settings = self.settings()
        p = settings.active()
        chat = self.project.chat
        if p is None or chat is None:
            return
        model = providers.model_for(settings, self.project.project_id, "chief")
        tools = chat.toolbox.definitions() if chat.toolbox is not None else None
        self.events.emit(
            ChiefMeterShown(meter(list(chat.records), chat.history(), model, p.kind, tools))
        )
