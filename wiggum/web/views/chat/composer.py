"""The message box under Chief's conversation: text, images, Send and Stop.

Send and Stop swap with the turn (``show_busy``); the draft stays in the box
until a turn takes it (:meth:`Composer.take`), so nothing typed is lost to a
refusal, a queue or a failure.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from wiggum.ui.markup.chat import PLACEHOLDER

from ...dom import Listeners, Parts
from ..attach import Attachments

if TYPE_CHECKING:
    from wiggum.chief.attachments import Attachment

__all__ = ["Composer"]


class Composer:
    """The message box of ``view``, Chief's tab as mounted (``markup.view``);
    ``on_send()`` runs on Send, Ctrl/⌘+Enter and submit; ``images_warning(n)``
    and ``keeping_end(change)`` are the attachments' (see ``views.attach``)."""

    def __init__(
        self,
        view: Parts,
        on_send: Callable[[], None],
        images_warning: Callable[[int], str | None],
        keeping_end: Callable[[Callable[[], None]], None],
    ) -> None:
        self._on_send = on_send
        self.form, self.input = view.composer, view.input
        self.send_btn, self.stop_btn = view.send, view.stop
        self.attach = Attachments(view, images_warning, keeping_end)
        self.listeners = Listeners()
        self.listeners.on(self.form, "submit", self._on_submit)
        self.listeners.on(self.input, "keydown", self._on_keydown)
        #: An element of the preview going with the next message, and its chip.
        self._context, self._chip = "", None

    @property
    def text(self) -> str:
        typed = str(self.input.value)
        return f"{typed}\n\n{self._context}" if self._context else typed

    def put_context(self, chip: Any, context: str) -> None:
        """``context`` goes with the next message (an element of the preview, asked
        about); its ``chip`` shows before the box, its × leaves it out."""
        self.drop_context()
        self._context, self._chip = context, chip
        remove = chip.querySelector("[data-action=drop-context]")
        self.listeners.on(remove or chip, "click", lambda _e: self.drop_context())
        self.input.before(chip)
        self.input.focus()

    def drop_context(self) -> None:
        if self._chip is not None:
            self._chip.remove()
        self._context, self._chip = "", None

    @property
    def images(self) -> list[Attachment]:
        return self.attach.images

    def take(self) -> None:
        """The draft went out: empty the box and the tray."""
        self.input.value = ""
        self.attach.take()
        self.drop_context()

    def put(self, text: str) -> None:
        self.input.value = text
        self.input.focus()

    def focus(self) -> None:
        self.input.focus()

    def wait_for_setup(self, reason: str | None) -> None:
        """No provider works yet (``reason`` says so, as the placeholder): the box and
        Send wait, disabled, the draft kept; ``None``: live again."""
        self.input.disabled = reason is not None
        self.send_btn.disabled = reason is not None
        self.input.placeholder = reason or PLACEHOLDER

    def show_busy(self, busy: bool) -> None:
        self.send_btn.hidden = busy
        self.stop_btn.hidden = not busy

    def _on_keydown(self, event: Any) -> None:
        if event.key == "Enter" and (event.ctrlKey or event.metaKey):
            event.preventDefault()
            self._on_send()

    def _on_submit(self, event: Any) -> None:
        event.preventDefault()
        self._on_send()

    def close(self) -> None:
        self.listeners.close()
