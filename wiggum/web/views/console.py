"""The preview's console under the frame: draws :class:`~wiggum.preview.console.SiteConsole`
and forwards **Fix** / **Ask Chief** to a :class:`ProblemActions`.

A chatty site can log thousands of lines a second: the list is drawn again
at most once per :data:`DRAW_AFTER` seconds, whatever arrives meanwhile.
"""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

from wiggum.preview.console import ConsoleEntry, SiteConsole
from wiggum.session.site_fix import Problem
from wiggum.ui.markup import console as markup

from ..dom import Listeners, mount, mount_all, on_action, spawn

__all__ = ["DRAW_AFTER", "ConsoleView", "ProblemActions", "console_problem"]

#: Seconds a redraw waits for the rest of a burst of messages.
DRAW_AFTER = 0.05
_WHAT = {
    "error": "An uncaught error in the preview",
    "rejection": "An unhandled promise rejection in the preview",
    "console": "The site's console",
    "resource": "A file the page could not load in the preview",
    "csp": "A Content-Security-Policy violation in the preview",
}


class ProblemActions(Protocol):
    """What **Fix** and **Ask Chief** do (``wiggum.session.site_fix.ProblemDesk``)."""

    def fix(self, problem: Problem, recent: list[str]) -> Any: ...

    def ask(self, problem: Problem) -> Any: ...


def console_problem(entry: ConsoleEntry) -> Problem:
    return Problem(_WHAT[entry.kind], entry.text, entry.file, entry.line, entry.stack)


class ConsoleView:
    def __init__(self, console: SiteConsole, actions: ProblemActions | None = None) -> None:
        self.console = console
        self.actions = actions
        parts = mount(markup.panel())
        self.el, self.list_el = parts.el, parts.list
        self.summary_el, self.empty_el = parts.summary, parts.empty
        self._due = False
        self.listeners = Listeners()
        table = {
            "console-clear": lambda _el: self.clear(),
            "console-fix": lambda el: self._act(el, fix=True),
            "console-ask": lambda el: self._act(el, fix=False),
        }
        self.listeners.on(self.el, "click", lambda event: on_action(event, table))
        self.draw()

    def added(self) -> None:
        """Something came in: draw it soon (a burst is drawn once)."""
        if not self._due:
            self._due = True
            spawn(self._draw_soon(), what="draw the console")

    def clear(self) -> None:
        self.console.clear()
        self.draw()

    def draw(self) -> None:
        self._due = False
        entries = self.console.entries
        self.list_el.replaceChildren(
            *mount_all(markup.entry(item, i) for i, item in enumerate(entries))
        )
        self.empty_el.hidden = bool(entries)
        self.summary_el.textContent = self.console.summary()

    async def _draw_soon(self) -> None:
        await asyncio.sleep(DRAW_AFTER)
        if self._due:
            self.draw()

    def _act(self, el: Any, *, fix: bool) -> None:
        index = int(str(el.getAttribute("data-index") or -1))
        entries = self.console.entries
        if self.actions is None or not 0 <= index < len(entries):
            return
        problem = console_problem(entries[index])
        if fix:
            self.actions.fix(problem, list(self.console.recent))
        else:
            self.actions.ask(problem)

    def close(self) -> None:
        self.listeners.close()
