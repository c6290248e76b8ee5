"""Ralph's tab: his state (badge, status line, total, Stop), the resume banner, the
workspace slot, and his transcript with the run list and the "Start Ralph" form.

The view draws what it is given: a :class:`~wiggum.ralph.transcript.RalphTranscript`
(:meth:`RalphView.bind`; it follows the transcript's changes) and the
Coordinator's state (:meth:`RalphView.show_state`, texts from
:func:`wiggum.ui.ralph_tab.tab_state`).  What the person does goes to
:class:`RalphActions`; the view never stores nor decides.  The tab's elements
are :func:`wiggum.ui.markup.ralph.tab`; "Start Ralph" may be refused (another
tab owns the project), said under the task box, with the task kept as typed.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

from wiggum.coordinator.state import CoordinatorState
from wiggum.ralph.transcript import (
    Appended,
    CheckpointEvent,
    IntentEvent,
    IterationEvent,
    RalphEvent,
    RalphTranscript,
    Reloaded,
    ResultEvent,
    RunEvent,
    TranscriptChange,
    UsageEvent,
    WriteRefused,
)
from wiggum.session.approval import ApprovalView
from wiggum.ui.markup import ralph as markup
from wiggum.ui.ralph_tab import tab_state
from wiggum.ui.ralph_transcript import refusal_text, total_text
from wiggum.ui.runs import run_rows, steps_by_checkpoint

from ...dom import Listeners, dispatch, mount, mount_all, say, spawn
from .budget_view import BudgetActions, BudgetView
from .run_review import HistoryOf, RunReview
from .transcript_view import TranscriptView

__all__ = ["RalphActions", "RalphView"]

log = logging.getLogger("wiggum.web.ralph")

#: The events that change a row of the run list.
_RUN_LIST_EVENTS = (
    RunEvent,
    IterationEvent,
    ResultEvent,
    UsageEvent,
    IntentEvent,
    CheckpointEvent,
)


class RalphActions(BudgetActions, Protocol):
    """What Ralph's tab asks of his session (``wiggum.session.ralph.RalphSession``)."""

    async def start_task(self, task: str) -> None:
        """Start a run on a task typed here (not through Chief)."""
        ...

    async def resume(self) -> None: ...

    async def stop(self) -> None: ...

    def refuse(self) -> bool:
        """True, after saying why (:meth:`RalphView.refused`), when this tab may
        not change the project now (another tab owns it)."""
        ...

    def answer_approval(self, approved: bool) -> None:
        """Approve (``True``) or Refuse the change his paused run waits on."""
        ...


class RalphView:
    """Ralph's tab for the active project (rebound to a project's transcript)."""

    def __init__(self, actions: RalphActions, history: HistoryOf = lambda: None) -> None:
        """``history()``: the open project's history service (the run list's diffs)."""
        self.actions = actions
        self.listeners = Listeners()
        self._transcript: RalphTranscript | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._state: CoordinatorState | None = None
        self._running = False
        #: Another tab owns the project: a run shown as going is going there.
        self.elsewhere = False

        #: The tab's elements (``markup.tab``); what others use has a name here.
        self.parts = tab = mount(markup.tab())
        self.el, self.workspace, self.stop_btn = tab.el, tab.workspace, tab.stop
        #: What scrolls: the transcript pane of the workspace layout.
        self.scroller = tab.scroller
        #: What shows before his first run, with the task box.
        self.task_form = tab.task_form
        #: On the tab's button (the app puts it there).
        self.badge = mount(markup.badge()).el
        self.transcript = TranscriptView(tab)
        self.review = RunReview(tab, history, lambda: steps_by_checkpoint(run_rows(self._events)))
        #: The forecast and Continue under the resume banner, Start fresh by the run list.
        self.budget = BudgetView(actions)
        self.budget.place(tab.resume, tab.runs)
        self._clicks: dict[str, Callable[[], None]] = {
            "ralph-stop": self._stop,
            "ralph-resume": self._resume,
            "ralph-dismiss": lambda: setattr(self.parts.resume, "hidden", True),
            "ralph-start": self._start,
            "ralph-approve": lambda: self.actions.answer_approval(True),
            "ralph-refuse": lambda: self.actions.answer_approval(False),
        }
        self.listeners.on(self.el, "click", lambda event: dispatch(event, self._clicks))

    # ------------------------------------------------------------ the transcript

    def bind(self, transcript: RalphTranscript) -> None:
        """Show ``transcript`` (a project's, read already) and follow its changes."""
        if self._unsubscribe is not None:
            self._unsubscribe()
        self._transcript = transcript
        self.review.clear()
        self._unsubscribe = transcript.subscribe(self._on_change)
        self._draw_all()

    def close(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        self.listeners.close()
        self.review.close()
        self.budget.close()

    @property
    def _events(self) -> Sequence[RalphEvent]:
        return () if self._transcript is None else self._transcript.events

    def _on_change(self, change: TranscriptChange) -> None:
        if isinstance(change, Appended):
            self._add(change.event)
        elif isinstance(change, Reloaded):
            self._draw_all()
        elif isinstance(change, WriteRefused):
            self.storage_refused(refusal_text(change.error))

    def _render(self, event: RalphEvent) -> None:
        try:
            self.transcript.render(event)
        except Exception:
            log.exception("ralph: could not render a %s event", event.kind)
        total = total_text(event)
        if total is not None:
            self.parts.total.textContent = total

    def _add(self, event: RalphEvent) -> None:
        self._render(event)
        self.task_form.hidden = True
        if isinstance(event, _RUN_LIST_EVENTS):
            self._render_runs()
        self.scroll_to_end()

    def _draw_all(self) -> None:
        self.transcript.clear()
        self.parts.total.textContent = ""
        self.parts.resume.hidden = True
        events = self._events
        for event in events:
            self._render(event)
        self.task_form.hidden = bool(events)
        self._render_runs()
        self.scroll_to_end()

    def _render_runs(self) -> None:
        rows = run_rows(self._events, running=self._running)
        self.parts.runs.hidden = not rows
        self.parts.runs.open = True
        opened = self.review.opened
        self.parts.runs_list.replaceChildren(
            *(
                mount(
                    markup.run_row(row, current=n == 0, open_steps=str(row.started or 0) in opened)
                ).el
                for n, row in enumerate(rows)
            )
        )
        self.parts.runs_title.textContent = f"Runs ({len(rows)})"

    def storage_refused(self, text: str) -> None:
        """A write refused for space (a history checkpoint, the transcript): said
        in the transcript, not stored (storing it would be refused too)."""
        self.transcript.add(markup.line(text, "ralph-storage file-error", "ralph-storage"))
        self.scroll_to_end()

    def scroll_to_end(self) -> None:
        self.scroller.scrollTop = self.scroller.scrollHeight

    # ------------------------------------------------------------ state

    def set_elsewhere(self, elsewhere: bool) -> None:
        """Whether another tab owns the project (this one is paused on it)."""
        if elsewhere != self.elsewhere:
            self.elsewhere = elsewhere
            if self._state is not None:
                self.show_state(self._state)

    def show_state(self, state: CoordinatorState) -> None:
        """Badge, status line, total, Stop and the resume banner for ``state``."""
        self._state = state
        ran_here = any(isinstance(e, RunEvent) for e in self._events)
        shown = tab_state(state, elsewhere=self.elsewhere, ran_here=ran_here)
        say(self.badge, shown.badge)
        self.badge.setAttribute("data-status", shown.badge_status)
        self.stop_btn.hidden = not shown.show_stop
        self.parts.status_line.textContent = shown.status_line
        if shown.total is not None:
            self.parts.total.textContent = shown.total
        self._running = shown.running
        if shown.resume is not None:
            self.parts.resume_text.textContent = shown.resume.text
            self.parts.resume_button.textContent = shown.resume.label
        self.parts.resume.hidden = shown.resume is None
        self.budget.show(state, running=shown.running, elsewhere=self.elsewhere)
        self._render_runs()

    def show_approval(self, view: ApprovalView | None) -> None:
        """The question his paused run waits on (``None``: answered, or gone)."""
        parts = self.parts
        parts.approval.hidden = view is None
        if view is None:
            if self._state is not None:
                self.show_state(self._state)  # the status line as his state says
        else:
            parts.status_line.textContent = view.status
            parts.approval_text.textContent = view.text
            parts.approval_files.replaceChildren(*mount_all(markup.approval_files(view.files)))

    def refused(self, text: str) -> None:
        """A start refused (another tab owns the project): said under the task box."""
        say(self.parts.task_note, text)

    # ------------------------------------------------------------ clicks

    def _stop(self) -> None:
        self.stop_btn.disabled = True
        spawn(self._call(self.actions.stop()), what="stop ralph")

    def _resume(self) -> None:
        if self.actions.refuse():
            return
        self.parts.resume.hidden = True
        spawn(self._call(self.actions.resume()), what="resume ralph")

    def _start(self) -> None:
        task = str(self.parts.task_input.value).strip()
        if not task:
            self.parts.task_input.focus()
            return
        if self.actions.refuse():  # another tab owns the project: the task stays
            return
        self.parts.task_note.hidden = True  # an earlier refusal goes with it
        self.parts.task_input.value = ""
        spawn(self._call(self.actions.start_task(task)), what="start ralph")

    async def _call(self, action: Awaitable[None]) -> None:
        try:
            await action
        finally:
            self.stop_btn.disabled = False
