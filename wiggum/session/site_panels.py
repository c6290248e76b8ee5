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
from wiggum.ui.markup import probes as probes_markup

from .site_fix import ProblemActions, ProblemDesk, check_problem, console_problem, probe_problem
from .site_storage import SiteStorage, SiteStorages

__all__ = ["DRAW_AFTER", "PANELS", "SitePanels", "site_panels"]

#: The panels, in the order they stand under the frame.
PANELS = ("console", "checks", "probes", "map")
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
        bisect: Callable[[str, GateIssue], Awaitable[Any]] | None = None,
    ) -> None:
        self.storages = storages or SiteStorages(None)
        self.storage = SiteStorage(None, None)
        self.actions = actions
        self.run_checks = run_checks
        self.spawn = spawn
        self.console = SiteConsole()
        self.issues: list[tuple[str, GateIssue]] = []
        self.checks_summary = checks_markup.NOT_RUN
        #: The acceptance probes' last round, the criteria Ralph said no probe
        #: can check (with his reasons), and the site's reference graph.
        self.probes: list[Any] = []
        self.waived: list[tuple[str, str]] = []
        self.graph: Any = None
        #: A round was asked for and has not reported yet.
        self.probing = False
        #: ``bisect(check, issue)``: the search for the checkpoint that broke an
        #: issue (a ``wiggum.session.run_review.BisectAnswer``); ``None``: not offered.
        self.bisect = bisect
        #: The search's answer shown over the issues (``SEARCHING`` while it runs).
        self.bisected: Any = None
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
        self.probes, self.graph = list(report.probes), report.graph
        self.probing = False
        for panel in ("checks", "probes", "map"):
            self.changed(panel)

    def show_waived(self, unprobed: Any) -> None:
        """Ralph ended his run saying these criteria cannot be probed (each with why)."""
        self.waived = [(u.criterion, u.reason) for u in unprobed]
        self.changed("probes")

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
        return [
            ("console", console_markup.panel()),
            ("checks", checks_markup.panel()),
            ("probes", probes_markup.panel()),
            ("map", probes_markup.map_panel()),
        ]

    def shown(self, panel: str) -> tuple[list[El], str]:
        """The rows and the summary line ``panel`` shows."""
        if panel == "checks":
            can = self.bisect is not None
            rows = [
                checks_markup.issue(name, item, n, bisect=can)
                for n, (name, item) in enumerate(self.issues)
            ]
            if self.bisected is not None:
                rows.insert(0, _answer_row(self.bisected))
            return rows, self.checks_summary
        if panel == "probes":
            rows = [probes_markup.result(item, n) for n, item in enumerate(self.probes)]
            rows += [probes_markup.waived(c, why) for c, why in self.waived]
            if self.probing:
                return rows, probes_markup.RUNNING
            return rows, probes_markup.summary(self.probes, len(self.waived))
        if panel == "map":
            return self._map()
        entries = self.console.entries
        rows = [console_markup.entry(item, n) for n, item in enumerate(entries)]
        return rows or [console_markup.empty()], self.console.summary()

    def press(self, action: Any, row: Any) -> None:
        """The button ``action`` (its ``data-action``) of the row ``row`` (its
        ``data-index``, ``None`` for a panel's own button) was pressed."""
        index = int(row) if isinstance(row, str) and row.isdigit() else -1
        if action == "console-clear":
            self.clear()
        elif action == "checks-bisect":
            self._press_bisect(index)
        elif action in ("checks-run", "probes-run") and self.run_checks is not None:
            self.checks_summary = checks_markup.CHECKING
            self.probing = True
            self.changed("checks")
            self.changed("probes")
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
        elif action == "probes-fix" and 0 <= index < len(self.probes):
            self.actions.fix(probe_problem(self.probes[index]), [])

    def _map(self) -> tuple[list[El], str]:
        graph = self.graph
        if graph is None:
            return [], probes_markup.MAP_NOT_RUN
        pages = graph.pages()
        rows = [probes_markup.map_page(node) for node in pages]
        unused = graph.unused()
        if unused:
            rows.append(probes_markup.map_unused(unused))
        summary = probes_markup.map_summary(len(pages), len(graph.files), len(graph.broken))
        return rows, summary

    def _press_bisect(self, index: int) -> None:
        if self.bisect is None or not 0 <= index < len(self.issues):
            return
        self.bisected = checks_markup.SEARCHING
        self.changed("checks")
        self.spawn(self._bisect(*self.issues[index]), what="find the iteration that broke a check")

    async def _bisect(self, name: str, issue: GateIssue) -> None:
        assert self.bisect is not None
        self.bisected = await self.bisect(name, issue)
        self.changed("checks")


def _answer_row(answer: Any) -> El:
    """The search's answer (a ``BisectAnswer``), or that it is searching (a text)."""
    from wiggum.ui.markup.ralph import file_diff

    if isinstance(answer, str):
        return checks_markup.bisect_answer(answer, "searching")
    files = [file_diff(f.path, f.kind, f.text, f.added, f.removed) for f in answer.files]
    return checks_markup.bisect_answer(answer.text, answer.verdict, answer.intent, files)


def site_panels(
    storage: Any, project: Any, put_in_chief: Callable[[str], Any], spawn: Callable[..., Any]
) -> SitePanels:
    """The app's: the site storage kept in the app's ``storage``; **Fix** starts
    Ralph in ``project`` (a ``ProjectSession``) on its files, **Ask Chief** puts
    the question in his box (``put_in_chief``), Run checks runs a round on them."""
    desk = ProblemDesk(lambda: project.fs, project.ralph.start_task, put_in_chief, spawn)

    def run() -> Awaitable[Any]:
        return project.ralph.check_site(project.fs)

    async def bisect(name: str, issue: GateIssue) -> Any:
        from .run_review import BisectAnswer, find_breaking, issue_check

        try:
            check = issue_check(name, issue, project.ralph.site_audit())
        except ValueError as exc:
            return BisectAnswer("error", f"This check cannot be searched: {exc}.")
        return await find_breaking(project.history, check, project.ralph.steps())

    return SitePanels(SiteStorages(storage), desk, run, spawn, bisect)
