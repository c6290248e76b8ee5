"""The banner at the top of a tab whose project another tab owns: what the tab
lock says (``TabLock.banner()``) and its "Use here" button.  A refused action
makes it flash, to draw the eye to the fix.  Its markup is
:func:`wiggum.ui.markup.shell.lock_banner`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from wiggum.ui.markup import shell as markup
from wiggum.ui.tab_lock import LockState, TabLock

from ..dom import Listeners, mount

__all__ = ["LockBanner"]


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
