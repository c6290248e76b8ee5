"""Ralph's runs, newest on top: when each began, how it went, what it changed and cost.

Rows and their words come from :mod:`wiggum.ui.runs`; this draws them.
"""

from __future__ import annotations

from collections.abc import Iterable

from wiggum.ralph.transcript import RalphEvent
from wiggum.ui.runs import row_text, run_rows

from ...dom import el

__all__ = ["RunsList"]


class RunsList:
    """The folding "Runs (n)" list (:attr:`el`); hidden until there is a run."""

    def __init__(self) -> None:
        self.title = el("summary", "ralph-runs-title", text="Runs")
        self.list = el("ol", "ralph-runs-list")
        self.el = el(
            "details", "ralph-runs", self.title, self.list, testid="ralph-runs", hidden=True
        )

    def render(self, events: Iterable[RalphEvent], *, running: bool) -> None:
        rows = run_rows(events, running=running)
        self.el.hidden = not rows
        self.el.open = True
        items = []
        for n, row in enumerate(rows):
            text = row_text(row)
            items.append(
                el(
                    "li",
                    "ralph-run-row" + (" is-current" if n == 0 else ""),
                    el("span", "ralph-run-when", text=text.when),
                    el("span", "ralph-run-outcome", text=text.outcome),
                    el("span", "ralph-run-meta usage", text=text.meta),
                    el("span", "ralph-run-files", text=text.files) if text.files else None,
                    testid="ralph-run",
                    data_outcome=row.outcome,
                )
            )
        self.list.replaceChildren(*items)
        self.title.textContent = f"Runs ({len(rows)})"
