"""What Chief's tab asks of Chief's session: the chat view's one way to the app.

``wiggum.web.views.chat.ChatView`` takes this, never the app;
:class:`~wiggum.session.chief.ChiefSession` is what answers it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

from .chief import SendOutcome
from .turns import TurnActions

if TYPE_CHECKING:
    from wiggum.chief.attachments import Attachment

    from .chief import ChiefEvent

__all__ = ["ChatActions"]


class ChatActions(Protocol):
    """What the chat view asks of Chief's session (``ChiefSession``)."""

    @property
    def actions(self) -> TurnActions: ...

    def subscribe(self, listener: Callable[[ChiefEvent], None]) -> Callable[[], None]: ...

    def send(self, text: str, images: Sequence[Attachment] = ()) -> SendOutcome: ...

    def stop(self) -> None: ...

    def retry(self) -> bool: ...

    def resume(self) -> bool: ...

    def regenerate(self) -> bool: ...

    def edit(self, seq: int, text: str) -> bool: ...

    def switch_version(self, seq: int) -> bool: ...

    def alternatives(self, seq: int) -> list[int]: ...

    def new_chat(self) -> None: ...

    def switch_chat(self, chat_id: str) -> None: ...

    def rename_chat(self, chat_id: str, title: str) -> None: ...

    def delete_chat(self, chat_id: str) -> None: ...

    def local_fix(self) -> str | None: ...

    def images_warning(self, count: int) -> str | None: ...

    def build_plan(self, seq: int | None = None) -> bool: ...

    def plan_again(self) -> bool: ...
