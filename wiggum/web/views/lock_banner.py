"""The banners at the top of a tab.

``LockBanner``: the project is owned by another tab; what the tab lock says
(``TabLock.banner()``) and its "Use here" button.  A refused action makes it
flash, to draw the eye to the fix.  ``UpdateBanner``: a new version is ready
(``static/offline.mjs`` says so with a ``wiggum:update`` event once the service
worker holds it); its Reload asks :func:`wiggum.ui.update.reload_refusal` first,
so it never reloads under Ralph or a reply.  Their markup is
``wiggum.ui.markup.shell``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import js  # type: ignore[import-not-found]

from wiggum.ui.markup import shell as markup
from wiggum.ui.tab_lock import LockState, TabLock
from wiggum.ui.update import Busy, reload_refusal

from ..dom import Listeners, mount

__all__ = ["LockBanner", "UpdateBanner"]


class LockBanner:
    def __init__(self, use_here: Callable[[], None]) -> None:
        parts = mount(markup.lock_banner())
        self.el, self.text, self.button = parts.el, parts.text, parts.button
        self.listeners = Listeners()
        self.listeners.on(self.button, "click", lambda e: use_here())

    def show(self, machine: TabLock, root: Any) -> None:
        banner = machine.banner()
        root.setAttribute("data-tab-lock", str(machine.state))
        self.el.hidden = banner is None
        if banner is None:  # shown again later, it should not flash by itself
            self.el.classList.remove("is-flash")
        else:
            self.text.textContent, self.button.textContent = banner
        self.button.disabled = machine.state == LockState.TAKING_OVER

    def flash(self) -> None:
        """Once more, with feeling: the banner with "Use here" draws the eye."""
        self.el.classList.remove("is-flash")
        _ = self.el.offsetWidth  # restart the animation
        self.el.classList.add("is-flash")

    def close(self) -> None:
        self.listeners.close()


class UpdateBanner:
    def __init__(self, busy: Callable[[], Busy]) -> None:
        parts = mount(markup.update_banner())
        self.el, self.text, self.busy = parts.el, parts.text, busy
        self.listeners = Listeners()
        self.listeners.on(js.window, "wiggum:update", lambda e: self.show())
        self.listeners.on(parts.button, "click", lambda e: self.reload())

    def show(self) -> None:
        self.el.hidden = False

    def reload(self) -> None:
        refusal = reload_refusal(self.busy())
        if refusal is None:
            js.wiggumBoot.applyUpdate()
        else:  # the notice stays, saying why it waits
            self.text.textContent = refusal
