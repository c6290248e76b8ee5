"""What the preview's console and Checks panel hold, and what their buttons do.

One per app, beside the preview: the site's storage for the open project
(:meth:`open`), the console of the page shown (what the frame posts comes
through :meth:`take`, checked there; a reload clears it), the last round of
the site checks (:meth:`show_report`), and each button of the two panels
pressed as ``(action, index)`` (:meth:`press`): **Fix** and **Ask Chief** go
to the :class:`~wiggum.session.site_fix.ProblemActions`, Run checks to
``run_checks()``.  The preview's view (``wiggum.web.views.preview``) mounts
:meth:`panels`, draws :meth:`shown` when ``draw(panel)`` asks and hands each
click to :meth:`press`.

A chatty site can log thousands of lines a second: a panel is drawn again at
most once per :data:`DRAW_AFTER` seconds, whatever arrives meanwhile.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from wiggum.preview.console import ConsoleEntry, SiteConsole, locate, read_console_message
from wiggum.preview.runtime import CONSOLE_MESSAGE
from wiggum.preview.storage import STORAGE_MESSAGE
from wiggum.ralph.types import GateIssue
from wiggum.ui.markdown import El
from wiggum.ui.markup import checks as checks_markup
from wiggum.ui.markup import console as console_markup

from .site_fix import ProblemActions, ProblemDesk, check_problem, console_problem
from .site_storage import SiteStorage, SiteStorages

__all__ = ["DRAW_AFTER", "PANELS", "SitePanels", "site_panels"]

#: The panels, in the order they stand under the frame.
PANELS = ("console", "checks")
#: Seconds a redraw waits for the rest of a burst of messages.
DRAW_AFTER = 0.05


def _in_background(coro: Any, *, what: str) -> Any:
    """A task on the running loop (the app passes its own ``spawn``, which logs failures)."""
    return asyncio.ensure_future(coro)


class SitePanels:
    """``storages``: the site storage of each project (none: this tab's only);
    ``actions``: what Fix and Ask Chief do; ``run_checks()``: a round of the site
    checks (a coroutine, run in the background by ``spawn(coro, what=...)``)."""

    def __init__(
        self,
        storages: SiteStorages | None = None,
        actions: ProblemActions | None = None,
        run_checks: Callable[[], Awaitable[Any]] | None = None,
        spawn: Callable[..., Any] = _in_background,
    ) -> None:
        self.storages = storages or SiteStorages(None)
        self.storage = SiteStorage(None, None)
        self.actions = actions
        self.run_checks = run_checks
        self.spawn = spawn
        self.console = SiteConsole()
        self.issues: list[tuple[str, GateIssue]] = []
        self.checks_summary = checks_markup.NOT_RUN
        #: Draws a panel (of :data:`PANELS`) again, now (the view sets it).
        self.draw: Callable[[str], Any] = lambda _panel: None
        self._due: set[str] = set()
        self._page_gen = 0

    def open(self, project_id: str) -> None:
        """The project now open: its site's storage is the one pages get."""
        self.storage = self.storages.for_project(project_id)

    # ------------------------------------------------------------ the page shown

    def clear(self) -> None:
        """A page (re)loads, or the person pressed Clear: the console starts empty."""
        self._page_gen += 1
        self.console.clear()
        self.changed("console")

    def take(self, kind: Any, data: Any, fs: Any, page: str) -> bool:
        """A message the preview's frame posted (``data``: plain JSON) while ``page``
        of the files ``fs`` is shown; whether it was a storage or console message."""
        if kind == STORAGE_MESSAGE and isinstance(data, dict):
            self.storage.apply(data.get("area"), data.get("items"))
        elif kind == CONSOLE_MESSAGE:
            entry = read_console_message(data)
            if entry is not None and entry.kind == "resource" and not entry.file:
                # A reference the page makes: its line is where the page writes it.
                where = self._place(entry, fs, entry.page or page, self._page_gen)
                self.spawn(where, what="place a console message")
            elif entry is not None:
                self._add(entry)
        return kind in (STORAGE_MESSAGE, CONSOLE_MESSAGE)

    async def _place(self, entry: ConsoleEntry, fs: Any, page: str, gen: int) -> None:
        try:
            source = await fs.read_text(page)
        except Exception:  # the page is gone: the message keeps no place
            source = ""
        line = locate(source, entry.text.partition("> ")[2])
        if line:
            entry.file, entry.line = page, line
        if gen == self._page_gen:
            self._add(entry)

    def _add(self, entry: ConsoleEntry) -> None:
        if self.console.add(entry) is not None:
            self.changed("console")

    # ------------------------------------------------------------ the checks

    def show_report(self, report: Any) -> None:
        """A round of the site checks (a ``SiteReport``): every issue of every failed check."""
        self.issues = [(r.gate, i) for r in report.failed for i in r.issues]
        ran = [r for r in report.results if not r.message.startswith("not run")]
        failed = len(report.failed)
        self.checks_summary = checks_markup.summary(failed, len(self.issues), len(ran))
        self.changed("checks")

    # ------------------------------------------------------------ drawing, pressing

    def changed(self, panel: str) -> None:
        """``panel`` has something new: draw it soon (a burst is drawn once)."""
        if not self._due:
            self.spawn(self._draw_soon(), what="draw the console")
        self._due.add(panel)

    async def _draw_soon(self) -> None:
        await asyncio.sleep(DRAW_AFTER)
        due, self._due = self._due, set()
        for panel in PANELS:
            if panel in due:
                self.draw(panel)

    def panels(self) -> list[tuple[str, El]]:
        """Each panel's name and markup (its ``list`` and ``summary`` named), in order."""
        return [("console", console_markup.panel()), ("checks", checks_markup.panel())]

    def shown(self, panel: str) -> tuple[list[El], str]:
        """The rows and the summary line ``panel`` shows."""
        if panel == "checks":
            rows = [
                checks_markup.issue(name, item, n) for n, (name, item) in enumerate(self.issues)
            ]
            return rows, self.checks_summary
        entries = self.console.entries
        rows = [console_markup.entry(item, n) for n, item in enumerate(entries)]
        return rows or [console_markup.empty()], self.console.summary()

    def press(self, action: Any, row: Any) -> None:
        """The button ``action`` (its ``data-action``) of the row ``row`` (its
        ``data-index``, ``None`` for a panel's own button) was pressed."""
        index = int(row) if isinstance(row, str) and row.isdigit() else -1
        if action == "console-clear":
            self.clear()
        elif action == "checks-run" and self.run_checks is not None:
            self.checks_summary = checks_markup.CHECKING
            self.changed("checks")
            self.spawn(self.run_checks(), what="check the site")
        elif self.actions is None:
            return
        elif action in ("console-fix", "console-ask") and 0 <= index < len(self.console.entries):
            problem = console_problem(self.console.entries[index])
            if action == "console-fix":
                self.actions.fix(problem, list(self.console.recent))
            else:
                self.actions.ask(problem)
        elif action == "checks-fix" and 0 <= index < len(self.issues):
            self.actions.fix(check_problem(*self.issues[index]), [])


def site_panels(
    storage: Any, project: Any, put_in_chief: Callable[[str], Any], spawn: Callable[..., Any]
) -> SitePanels:
    """The app's: the site storage kept in the app's ``storage``; **Fix** starts
    Ralph in ``project`` (a ``ProjectSession``) on its files, **Ask Chief** puts
    the question in his box (``put_in_chief``), Run checks runs a round on them."""
    desk = ProblemDesk(lambda: project.fs, project.ralph.start_task, put_in_chief, spawn)

    def run() -> Awaitable[Any]:
        return project.ralph.check_site(project.fs)

    return SitePanels(SiteStorages(storage), desk, run, spawn)
