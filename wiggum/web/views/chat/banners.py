"""The lines under Chief's conversation: what he is doing, the countdown to a
retry, a notice (Ralph's news), and the error banner.

What each says is decided elsewhere (the session's refusals, ``explain`` for
a failed reply, :func:`wiggum.ui.turns.wait_text` for the countdown); this
draws it.  The banner's ``data-kind`` tells the page's styles and tests why it
shows: ``paused`` (another tab owns the project), ``save`` (a write was
refused), none for an error.
"""

from __future__ import annotations

import asyncio
import math
from typing import Any

from wiggum.session.refusals import Refusal
from wiggum.ui.errors import Explanation
from wiggum.ui.turns import wait_text

from ...dom import button, h, now_ms, spawn

__all__ = ["Banners"]


def _dismiss(action: str, label: str) -> Any:
    return button("✕", action=action, cls="icon-btn", aria_label=label)


class Banners:
    def __init__(self) -> None:
        self.activity = h(
            "div", {"class": "chief-activity", "data-testid": "chief-activity", "hidden": True}
        )
        self.wait_text = h("span", {"class": "banner-text", "data-testid": "retry-countdown"})
        self.wait = h(
            "div",
            {"class": "chief-wait", "data-testid": "retry-wait", "role": "status", "hidden": True},
            self.wait_text,
            button("Cancel", action="stop", testid="retry-cancel", cls="btn btn-small"),
        )
        self._wait_gen = 0
        self.notice_text = h("span", {"class": "banner-text"})
        self.notice = h(
            "div",
            {
                "class": "chief-notice",
                "data-testid": "chief-notice",
                "role": "status",
                "hidden": True,
            },
            self.notice_text,
            _dismiss("notice-dismiss", "Dismiss notice"),
        )
        self.banner_text = h("div", {"class": "banner-text"})
        self.banner_settings = button(
            "Open Settings", action="banner-settings", cls="btn btn-small"
        )
        self.banner = h(
            "div",
            {
                "class": "error-banner",
                "data-testid": "error-banner",
                "role": "alert",
                "hidden": True,
            },
            self.banner_text,
            h(
                "div",
                {"class": "banner-actions"},
                self.banner_settings,
                _dismiss("banner-dismiss", "Dismiss error"),
            ),
        )

    # ------------------------------------------------------------ the banner

    def show_error(self, explanation: Explanation | None) -> None:
        if explanation is None:
            return
        self.banner_text.replaceChildren(
            h("strong", {"text": explanation.title}), " ", explanation.message
        )
        self.banner_settings.hidden = not explanation.settings
        self.banner.removeAttribute("data-kind")
        self.banner.hidden = False

    def show_message(self, title: str, message: str, *, settings: bool = False) -> None:
        self.show_error(Explanation(title, message, "notice", settings=settings))

    def show_refusal(self, refusal: Refusal) -> None:
        self.show_message(refusal.title, refusal.message, settings=refusal.fix == "settings")
        if refusal.fix == "use-here":
            self.banner.setAttribute("data-kind", "paused")

    def hide_error(self) -> None:
        self.banner.hidden = True

    def show_save_state(self, text: str | None) -> None:
        """A refused write (``text`` says why), or ``None``: stored again."""
        if text is None:
            if self.banner.getAttribute("data-kind") == "save":
                self.banner.removeAttribute("data-kind")
                self.hide_error()
            return
        self.show_message("Not saved.", text)
        self.banner.setAttribute("data-kind", "save")

    # ------------------------------------------------------------ the others

    def show_notice(self, text: str) -> None:
        self.notice_text.textContent = text
        self.notice.hidden = False

    def hide_notice(self) -> None:
        self.notice.hidden = True

    def show_activity(self, text: str | None) -> None:
        self.activity.textContent = text or ""
        self.activity.hidden = not text

    def show_retry_wait(self, wait: tuple[float, str] | None) -> None:
        """A countdown while the client waits to try again (a 429's Retry-After)."""
        self._wait_gen += 1
        if wait is None:
            self.wait.hidden = True
            return
        seconds, reason = wait
        spawn(self._count_down(self._wait_gen, reason, seconds), what="retry countdown")

    async def _count_down(self, gen: int, reason: str, seconds: float) -> None:
        end = now_ms() + seconds * 1000
        self.wait.hidden = False
        while gen == self._wait_gen:
            left = max(0, math.ceil((end - now_ms()) / 1000))
            self.wait_text.textContent = wait_text(reason, left)
            if left <= 0:
                break
            await asyncio.sleep(min(1.0, max(0.05, (end - now_ms()) / 1000 - (left - 1))))
