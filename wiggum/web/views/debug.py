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

import js  # type: ignore[import-not-found]
from pyodide.ffi import JsException  # type: ignore[import-not-found]

from wiggum.ui.debuglog import DebugEntry, format_entries, format_fields, format_time

from ..dom import Listeners, closest_action, h, is_null, spawn

__all__ = ["DebugPanel"]

#: Entries shown at most (the stored log is a ring of the same size).
MAX_SHOWN = 500


class DebugPanel:
    def __init__(
        self,
        *,
        on_clear: Callable[[], Awaitable[None]],
        on_drain: Callable[[], int],
    ) -> None:
        self.on_clear = on_clear
        self.on_drain = on_drain
        self.entries: list[DebugEntry] = []
        self.unseen = 0
        self.listeners = Listeners()
        self._return_focus: Any = None

        self.badge = h(
            "span", {"class": "debug-badge", "data-testid": "debug-badge", "hidden": True}
        )
        self.button = h(
            "button",
            {
                "type": "button",
                "class": "icon-btn debug-btn",
                "data-testid": "debug-button",
                "aria-label": "Debug log",
                "title": "Debug log",
                "aria-haspopup": "dialog",
            },
            h("span", {"class": "debug-btn-label", "aria-hidden": "true", "text": "Log"}),
            self.badge,
        )
        self.list = h(
            "ol", {"class": "debug-list", "data-testid": "debug-entries", "aria-live": "polite"}
        )
        self.empty = h(
            "p",
            {
                "class": "debug-empty",
                "data-testid": "debug-empty",
                "text": "Nothing logged yet. When a request fails, the requests and events "
                "that led to it appear here.",
            },
        )
        self.status = h("span", {"class": "debug-status", "role": "status"})
        self.el = h(
            "dialog",
            {
                "class": "debug-dialog",
                "data-testid": "debug-dialog",
                "aria-labelledby": "debug-title",
            },
            h(
                "header",
                {"class": "dialog-head"},
                h("h2", {"id": "debug-title", "text": "Debug log"}),
                h(
                    "button",
                    {
                        "type": "button",
                        "class": "icon-btn",
                        "data-action": "close",
                        "aria-label": "Close debug log",
                        "text": "✕",
                    },
                ),
            ),
            h(
                "p",
                {
                    "class": "field-hint debug-intro",
                    "text": "Requests and events of this project, kept quietly and written here "
                    "when something goes wrong. No messages, file contents or API keys.",
                },
            ),
            h("div", {"class": "debug-body"}, self.empty, self.list),
            h(
                "footer",
                {"class": "dialog-foot"},
                self.status,
                _button("drain", "Show recent activity", "Add what was logged since then"),
                _button("copy", "Copy", "Copy the log as text"),
                _button("clear", "Clear", "Empty this project's log"),
            ),
        )
        self.listeners.on(self.button, "click", lambda e: self.open())
        self.listeners.on(self.el, "click", self._on_click)
        self.listeners.on(self.el, "close", lambda e: self._restore_focus())

    # ------------------------------------------------------------ entries

    def show(self, entries: list[DebugEntry]) -> None:
        """Replace the list (another project was opened)."""
        self.entries = list(entries[-MAX_SHOWN:])
        self.unseen = 0
        self.list.replaceChildren(*[_row(e) for e in self.entries])
        self._update()

    def add(self, entry: DebugEntry) -> None:
        self.entries.append(entry)
        self.list.appendChild(_row(entry))
        if len(self.entries) > MAX_SHOWN:
            del self.entries[0]
            self.list.firstElementChild.remove()
        if entry.is_problem and not self.el.open:
            self.unseen += 1
        self._update()

    def _update(self) -> None:
        self.empty.hidden = bool(self.entries)
        self.badge.hidden = self.unseen == 0
        self.badge.textContent = str(self.unseen) if self.unseen < 100 else "99+"
        label = "Debug log"
        if self.unseen:
            label += f" ({self.unseen} new problem{'s' if self.unseen != 1 else ''})"
        self.button.setAttribute("aria-label", label)
        self.button.classList.toggle("has-problems", self.unseen > 0)

    # ------------------------------------------------------------ open / close

    def open(self) -> None:
        self.unseen = 0
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
        target = closest_action(event)
        if target is None:
            return
        action = target.getAttribute("data-action")
        if action == "close":
            self.close()
        elif action == "drain":
            count = self.on_drain()
            self.status.textContent = (
                f"{count} recent entr{'y' if count == 1 else 'ies'} added"
                if count
                else "Nothing new since the last entry"
            )
        elif action == "copy":
            spawn(self._copy(), what="copy debug log")
        elif action == "clear":
            spawn(self._clear(), what="clear debug log")

    async def _copy(self) -> None:
        try:
            await js.navigator.clipboard.writeText(format_entries(self.entries))
            self.status.textContent = f"Copied {len(self.entries)} entries"
        except (JsException, AttributeError):
            self.status.textContent = "Copy failed: this browser did not allow the clipboard"
        await asyncio.sleep(3)
        self.status.textContent = ""

    async def _clear(self) -> None:
        await self.on_clear()
        self.show([])
        self.status.textContent = "Cleared"

    def close_listeners(self) -> None:
        self.listeners.close()


def _button(action: str, text: str, title: str) -> Any:
    attrs = {"type": "button", "class": "btn", "data-action": action, "title": title}
    return h("button", {**attrs, "data-testid": f"debug-{action}"}, text)


def _row(entry: DebugEntry) -> Any:
    level = entry.level.lower()
    fields = format_fields(entry.fields) if entry.fields else None
    return h(
        "li",
        {
            "class": f"debug-entry level-{level}",
            "data-testid": "debug-entry",
            "data-level": entry.level,
            "data-logger": entry.logger,
        },
        h(
            "time",
            {
                "class": "debug-time",
                "text": format_time(entry.time),
                "title": format_time(entry.time, utc=True),
            },
        ),
        h("span", {"class": "debug-level", "text": entry.level}),
        h("span", {"class": "debug-logger", "text": entry.logger}),
        h("span", {"class": "debug-msg", "data-testid": "debug-message", "text": entry.message}),
        h("code", {"class": "debug-fields", "text": fields}) if fields else None,
        h(
            "details",
            {"class": "debug-exc"},
            h("summary", {"text": "Traceback"}),
            h("pre", {"text": entry.exception}),
        )
        if entry.exception
        else None,
    )
