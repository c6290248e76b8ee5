"""The lines under Chief's conversation: what he is doing, the countdown to a
retry, a notice (Ralph's news), and the error banner.

What each says is decided elsewhere (the session's refusals, ``explain`` for
a failed reply, :func:`wiggum.ui.turns.wait_text` for the countdown); this
draws it.  The banner's ``data-kind`` tells the page's styles and tests why it
shows: ``paused`` (another tab owns the project), ``setup`` (no provider
works: it goes once one does), ``save`` (a write was refused), none for an error.
"""

from __future__ import annotations

import asyncio

from wiggum.session.refusals import Refusal
from wiggum.ui.errors import Explanation
from wiggum.ui.markup import chat as markup
from wiggum.ui.turns import countdown, wait_text

from ...dom import Parts, mount_all, now_ms, say, spawn

__all__ = ["Banners"]


class Banners:
    """The lines of ``view``, Chief's tab as mounted (``markup.view``)."""

    def __init__(self, view: Parts) -> None:
        self.activity, self.notice, self.banner = view.activity, view.notice, view.banner
        self.wait, self.wait_text = view.wait, view.wait_text
        self.notice_text = view.notice_text
        self.banner_text, self.banner_settings = view.banner_text, view.settings
        self._wait_gen = 0

    # ------------------------------------------------------------ the banner

    def show_error(self, explanation: Explanation | None) -> None:
        if explanation is None:
            return
        words = markup.error_text(explanation.title, explanation.message)
        self.banner_text.replaceChildren(*mount_all(words))
        self.banner_settings.hidden = not explanation.settings
        self.banner.removeAttribute("data-kind")
        self.banner.hidden = False

    def show_message(self, title: str, message: str, *, settings: bool = False) -> None:
        self.show_error(Explanation(title, message, "notice", settings=settings))

    def show_refusal(self, refusal: Refusal) -> None:
        self.show_message(refusal.title, refusal.message, settings=refusal.fix == "settings")
        self.banner.setAttribute("data-kind", "paused" if refusal.fix == "use-here" else "setup")

    def hide_error(self) -> None:
        self.banner.hidden = True

    def hide_setup(self) -> None:
        """A provider works now: a banner that said it did not goes."""
        if self.banner.getAttribute("data-kind") == "setup":
            self.banner.removeAttribute("data-kind")
            self.hide_error()

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
        say(self.activity, text)

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
            left, pause = countdown((end - now_ms()) / 1000)
            self.wait_text.textContent = wait_text(reason, left)
            if left <= 0:
                break
            await asyncio.sleep(pause)
