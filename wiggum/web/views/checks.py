"""The preview's Checks panel: draws the last round of the site checks
(``SiteChecked``), runs a round when asked, and forwards **Fix** to the
:class:`~wiggum.web.views.console.ProblemActions` the console uses.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from wiggum.ralph.types import GateIssue
from wiggum.session.site_fix import Problem
from wiggum.ui.markup import checks as markup

from ..dom import Listeners, mount, mount_all, on_action
from .console import ProblemActions

__all__ = ["ChecksView"]


class ChecksView:
    """``run()`` starts a round of the checks (``None``: the button does nothing)."""

    def __init__(
        self, run: Callable[[], Any] | None = None, actions: ProblemActions | None = None
    ) -> None:
        self.run = run
        self.actions = actions
        self.issues: list[tuple[str, GateIssue]] = []
        parts = mount(markup.panel())
        self.el, self.list_el, self.summary_el = parts.el, parts.list, parts.summary
        self.listeners = Listeners()
        table = {
            "checks-run": lambda _el: self._run(),
            "checks-fix": self._fix,
        }
        self.listeners.on(self.el, "click", lambda event: on_action(event, table))

    def show(self, report: Any) -> None:
        """Draw ``report`` (a ``SiteReport``): every issue of every failed check."""
        self.issues = [(r.gate, i) for r in report.failed for i in r.issues]
        self.list_el.replaceChildren(
            *mount_all(markup.issue(name, item, n) for n, (name, item) in enumerate(self.issues))
        )
        ran = [r for r in report.results if not r.message.startswith("not run")]
        self.summary_el.textContent = markup.summary(len(report.failed), len(self.issues), len(ran))

    def _run(self) -> None:
        if self.run is not None:
            self.summary_el.textContent = "Checking…"
            self.run()

    def _fix(self, el: Any) -> None:
        index = int(str(el.getAttribute("data-index") or -1))
        if self.actions is None or not 0 <= index < len(self.issues):
            return
        check, item = self.issues[index]
        what = f"A site check ({markup.LABELS.get(check, check)})"
        problem = Problem(what, item.message, item.path, item.line or 0, hint=item.hint)
        self.actions.fix(problem, [])

    def close(self) -> None:
        self.listeners.close()
