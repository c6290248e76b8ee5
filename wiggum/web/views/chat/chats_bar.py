"""The bar above Chief's conversation: which conversation is open, and New,
Rename, Delete.  The list is the open project's (``wiggum.ui.conversations``);
what each action does is the session's."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import js  # type: ignore[import-not-found]

from wiggum.ui.conversations import RENAME_PROMPT, choices, delete_question, open_chat
from wiggum.ui.markup import chat as markup

from ...dom import Listeners, Parts, mount_all

__all__ = ["ChatsBar"]


class ChatsBar:
    """The bar of ``view``, Chief's tab as mounted (``markup.view``)."""

    def __init__(self, view: Parts, on_pick: Callable[[str], None]) -> None:
        self._on_pick = on_pick
        self._chats: Mapping[str, Any] = {}
        self.el, self.select = view.chats, view.select
        self.listeners = Listeners()
        self.listeners.on(self.select, "change", self._picked)

    def show(self, data: Mapping[str, Any]) -> None:
        """The project's conversations, the open one selected."""
        self.select.replaceChildren(*mount_all(markup.chat_options(choices(data))))
        self.select.value = data.get("current") or ""
        self.el.hidden = False
        self._chats = data

    def ask_name(self) -> tuple[str, str] | None:
        """Rename: the new name the person typed for the open conversation."""
        current = open_chat(self._chats)
        if current is None:
            return None
        name = js.window.prompt(RENAME_PROMPT, current[1])
        return None if name is None else (current[0], str(name))

    def confirm_delete(self) -> str | None:
        current = open_chat(self._chats)
        if current is None:
            return None
        chat_id, title = current
        return chat_id if js.window.confirm(delete_question(title)) else None

    def _picked(self, event: Any) -> None:
        chat_id = str(self.select.value)
        if chat_id:
            self._on_pick(chat_id)

    def close(self) -> None:
        self.listeners.close()
