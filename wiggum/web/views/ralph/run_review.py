"""Ralph's run list read back: an iteration's diff and a revert to its checkpoint.

Each iteration row of the run list (``wiggum.ui.markup.ralph.step``) has
**Diff** and **Revert project to here**; the diff opens under the list, one
iteration at a time, and stays while the list redraws during a run.  What is
read and done is :mod:`wiggum.session.run_review`'s and
:mod:`wiggum.session.history`'s (the History panel's revert, which asks for a
second click and makes a new checkpoint); this only draws.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from wiggum.session.history import HistorySource, revert
from wiggum.session.run_review import checkpoint_diffs, step_files
from wiggum.ui.history import REVERT_ASK
from wiggum.ui.markup import ralph as markup
from wiggum.ui.runs import IterationStep

from ...dom import Listeners, Parts, mount_all, on_action, spawn

__all__ = ["HistoryOf", "RunReview"]

#: The open project's history service now (``None``: no project open).
HistoryOf = Callable[[], "HistorySource | None"]


class RunReview:
    """The run list's iteration buttons, in the mounted tab ``tab``; ``source()``
    is the open project's history service, ``steps()`` its iterations by checkpoint."""

    def __init__(
        self,
        tab: Parts,
        source: HistoryOf,
        steps: Callable[[], Mapping[str, IterationStep]],
    ) -> None:
        self.tab = tab
        self._source = source
        self._steps = steps
        #: The runs (their ``data-run``) whose iterations the person opened.
        self.opened: set[str] = set()
        self.listeners = Listeners()
        self._actions: dict[str, Callable[[Any], None]] = {
            "ralph-steps": self._toggle,
            "ralph-step-diff": self._diff,
            "ralph-step-restore": self._restore,
            "ralph-diff-close": lambda _target: setattr(tab.run_diff, "hidden", True),
        }
        self.listeners.on(tab.runs, "click", lambda event: on_action(event, self._actions))

    def close(self) -> None:
        self.listeners.close()

    def clear(self) -> None:
        """Another project's list: no diff, no status of this one's."""
        self.tab.run_diff.hidden = True
        self.tab.run_status.textContent = ""
        self.opened.clear()

    def _toggle(self, summary: Any) -> None:
        # The click toggles the <details> after this handler: it was closed, it opens.
        key = str(summary.getAttribute("data-run"))
        if summary.parentElement.open:
            self.opened.discard(key)
        else:
            self.opened.add(key)

    def _diff(self, button: Any) -> None:
        step = self._steps().get(str(button.getAttribute("data-id")))
        if step is not None:
            spawn(self._show(step), what="an iteration's diff")

    async def _show(self, step: IterationStep) -> None:
        source = self._source()
        if source is None:
            return
        self.tab.run_status.textContent = "Reading the changes…"
        diffs = await checkpoint_diffs(source, step.checkpoint, step_files(step))
        title = f"Iteration {step.iteration} · checkpoint {step.checkpoint[:7]}"
        self.tab.run_diff_head.replaceChildren(
            *mount_all(markup.step_diff_head(title, step.intent))
        )
        trees = (markup.file_diff(d.path, d.kind, d.text, d.added, d.removed) for d in diffs)
        self.tab.run_diff_body.replaceChildren(*mount_all(trees))
        self.tab.run_diff.hidden = False
        self.tab.run_status.textContent = ""

    def _restore(self, button: Any) -> None:
        if button.getAttribute("data-confirm") != "yes":
            button.setAttribute("data-confirm", "yes")
            button.textContent = REVERT_ASK
            return
        cid = str(button.getAttribute("data-id"))
        spawn(self._revert(cid), what="revert to an iteration")

    async def _revert(self, cid: str) -> None:
        source = self._source()
        if source is None:
            return
        acted = await revert(source, cid)
        self.tab.run_status.textContent = acted.status
        if acted.done:
            self.tab.run_diff.hidden = True
