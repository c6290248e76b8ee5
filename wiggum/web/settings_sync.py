"""Settings saved in one tab reach the app's other tabs.

Settings (providers, keys, per-project model choices, the GitHub token) are one
record for the whole origin, outside the per-project tab lock: a tab that kept
the copy it read at start-up and then saved (a model picked, a token pasted)
wrote that old copy over what another tab had saved since, e.g. a provider just
added.  After each save this tab says so on a ``BroadcastChannel``; the others
read the record again and show it.  The message carries no settings (nothing
secret crosses the channel), only that they changed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import js  # type: ignore[import-not-found]

from .dom import Listeners

__all__ = ["CHANNEL", "SettingsSync"]

CHANNEL = "wiggum:settings"

log = logging.getLogger("wiggum.web")


class SettingsSync:
    """``announce()`` after a save; ``on_changed`` runs when another tab saved."""

    def __init__(self, on_changed: Callable[[], None]) -> None:
        self.on_changed = on_changed
        self.channel: Any = None
        self.listeners = Listeners()
        if not hasattr(js, "BroadcastChannel"):
            return
        try:
            self.channel = js.BroadcastChannel.new(CHANNEL)
            self.listeners.on(self.channel, "message", self._message)
        except Exception as exc:  # the app works without it, as before
            log.warning("settings sync: no BroadcastChannel (%s)", type(exc).__name__)
            self.channel = None

    def announce(self) -> None:
        if self.channel is not None:
            # A channel never delivers to its own sender, so this tab does not re-read.
            self.channel.postMessage("saved")

    def close(self) -> None:
        self.listeners.close()
        if self.channel is not None:
            self.channel.close()
            self.channel = None

    def _message(self, event: Any) -> None:
        if str(event.data) == "saved":
            self.on_changed()
