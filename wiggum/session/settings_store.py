"""The person's settings as the app keeps them: one record for every tab.

A save here is stored and announced to the other tabs; a save in another tab
is read again here, so nothing saved later writes this tab's older copy over
it.  A save the browser refuses still applies for now, and the person is
told it will be lost when the page closes.  The keys never appear in any log
line here: only the exception's type is logged.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from wiggum.ui.settings import ProviderSettings, Settings

from .events import Emitter, MessageShown
from .settings import after_onboarding

__all__ = ["NOT_STORED", "SettingsChanged", "SettingsStore"]

log = logging.getLogger("wiggum.session")

NOT_STORED = MessageShown(
    "Settings not saved",
    "Your settings apply for now but could not be stored in this browser; "
    "they will be lost when the page closes.",
)


@dataclass(frozen=True, slots=True)
class SettingsChanged:
    """The settings changed: saved here, or (``elsewhere``) read again after another tab saved."""

    settings: Settings
    elsewhere: bool = False


class SettingsStore:
    """``announce()`` tells the other tabs a save happened (``web.settings_sync``)."""

    def __init__(self, storage: Any, announce: Callable[[], None], record: Any = None) -> None:
        self.storage = storage
        self._announce = announce
        self.settings = Settings.from_storage(record)
        self.events = Emitter(log)

    def subscribe(self, listener: Callable[[Any], None]) -> Callable[[], None]:
        return self.events.subscribe(listener)

    def __call__(self) -> Settings:
        return self.settings

    async def save(self, settings: Settings) -> bool:
        """Apply ``settings`` and store them; ``False`` (after saying so) when the
        browser refused to store them."""
        self.settings = settings
        self.events.emit(SettingsChanged(settings))
        try:
            await self.storage.put_settings(settings.to_storage())
            self._announce()
        except Exception as exc:  # never include the record: it holds the keys
            log.warning("settings could not be saved: %s", type(exc).__name__)
            self.events.emit(NOT_STORED)
            return False
        return True

    async def reload(self) -> Settings:
        """Another tab saved the settings: take them."""
        self.settings = Settings.from_storage(await self.storage.get_settings())
        self.events.emit(SettingsChanged(self.settings, elsewhere=True))
        log.info("settings: read again (saved in another tab)")
        return self.settings

    async def onboard(self, provider: ProviderSettings, proxy_template: str) -> bool:
        """The first run's tested provider becomes the active one."""
        return await self.save(after_onboarding(self.settings, provider, proxy_template))
