"""The debug panel: what the fingers-crossed log flushed, for the open project.

A header button opens a ``<dialog>`` listing entries (time, level, logger,
category and fields; tracebacks folded).  The button shows how many warnings
and errors arrived since the panel was last opened.  "Show recent activity"
drains the fingers-crossed buffer on request, so the trail can be read even
when nothing failed; Copy puts the log on the clipboard as text; Clear
empties it (and its stored copy, through ``on_clear``).

Entries are already scrubbed (``wiggum.ui.debuglog``) and are shown through
``textContent`` only.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from wiggum.ui.debuglog import (
    DebugEntry,
    LogShown,
    badge_text,
    button_label,
    copied_text,
    drained_text,
    format_entries,
)
from wiggum.ui.markup import debug as markup

from ..clipboard import write_clipboard
from ..dom import Listeners, dispatch, is_null, mount, mount_all, spawn

__all__ = ["DebugPanel"]


class DebugPanel:
    def __init__(
        self,
        *,
        on_clear: Callable[[], Awaitable[None]],
        on_drain: Callable[[], int],
    ) -> None:
        self.on_clear = on_clear
        self.on_drain = on_drain
        self.shown = LogShown()
        self.listeners = Listeners()
        self._return_focus: Any = None

        button, dialog = mount(markup.button()), mount(markup.dialog())
        self.button, self.badge = button.el, button.badge
        self.el, self.list = dialog.el, dialog.list
        self.empty, self.status = dialog.empty, dialog.status
        self._actions: dict[str, Callable[[], Any]] = {
            "close": self.close,
            "drain": self._drain,
            "copy": lambda: spawn(self._copy(), what="copy debug log"),
            "clear": lambda: spawn(self._clear(), what="clear debug log"),
        }
        self.listeners.on(self.button, "click", lambda e: self.open())
        self.listeners.on(self.el, "click", self._on_click)
        self.listeners.on(self.el, "close", lambda e: self._restore_focus())

    # ------------------------------------------------------------ entries

    def show(self, entries: list[DebugEntry]) -> None:
        """Replace the list (another project was opened)."""
        self.shown.replace(entries)
        self.list.replaceChildren(*mount_all(markup.entry(e) for e in self.shown.entries))
        self._update()

    def add(self, entry: DebugEntry) -> None:
        self.list.appendChild(mount(markup.entry(entry)).el)
        if self.shown.add(entry, open_=bool(self.el.open)):
            self.list.firstElementChild.remove()
        self._update()

    def _update(self) -> None:
        unseen = self.shown.unseen
        self.empty.hidden = bool(self.shown.entries)
        self.badge.hidden = unseen == 0
        self.badge.textContent = badge_text(unseen)
        self.button.setAttribute("aria-label", button_label(unseen))
        self.button.classList.toggle("has-problems", unseen > 0)

    # ------------------------------------------------------------ open / close

    def open(self) -> None:
        self.shown.unseen = 0
        self._update()
        self.status.textContent = ""
        self._return_focus = self.el.ownerDocument.activeElement
        if not self.el.open:
            self.el.showModal()
        last = self.list.lastElementChild
        if not is_null(last):
            last.scrollIntoView(False)  # newest at the bottom of the list, in view

    def close(self) -> None:
        if self.el.open:
            self.el.close()

    def _restore_focus(self) -> None:
        target, self._return_focus = self._return_focus, None
        if not is_null(target) and hasattr(target, "focus"):
            target.focus()

    def _on_click(self, event: Any) -> None:
        if event.target == self.el:  # the backdrop
            self.close()
            return
        dispatch(event, self._actions)

    def _drain(self) -> None:
        self.status.textContent = drained_text(self.on_drain())

    async def _copy(self) -> None:
        copied = await write_clipboard(format_entries(self.shown.entries))
        self.status.textContent = copied_text(copied, len(self.shown.entries))
        await asyncio.sleep(3)
        self.status.textContent = ""

    async def _clear(self) -> None:
        await self.on_clear()
        self.show([])
        self.status.textContent = "Cleared"

    def close_listeners(self) -> None:
        self.listeners.close()
