"""What Ralph's tab shows before his first run: what he does, and a task box to start him.

The "Start Ralph" button carries ``data-action="ralph-start"``: the panel's
click table handles it (and may refuse it, saying why under the box, with the
task kept as typed).
"""

from __future__ import annotations

from ...dom import button, el

__all__ = ["TaskForm"]

INTRO = (
    "Ralph is the builder: he takes a plan and writes the project's files, one iteration "
    "at a time, checking his work after each step. Everything he does shows up here as he "
    "does it."
)
HOW_TO_START = (
    "To start, agree on a plan with Chief and tell him to hand it over (say “go”), or type "
    "a task for Ralph below."
)


class TaskForm:
    """The empty state (:attr:`el`) with its task box."""

    def __init__(self) -> None:
        self.note = el(
            "p", "ralph-task-note file-error", testid="ralph-task-note", role="status", hidden=True
        )
        self.input = el(
            "textarea",
            "chat-input",
            testid="ralph-task-input",
            rows="3",
            aria_label="A task for Ralph",
            placeholder="e.g. A one-page site for my bakery: menu, opening hours, map.",
        )
        start = button(
            "Start Ralph", action="ralph-start", testid="ralph-start", cls="btn btn-primary"
        )
        form = el("div", "ralph-task", self.input, el("div", "composer-bar", start), self.note)
        self.el = el(
            "div",
            "chat-empty ralph-empty",
            el("h2", "", text="Ralph builds here"),
            el("p", "", text=INTRO),
            el("p", "", text=HOW_TO_START),
            form,
        )

    @property
    def task(self) -> str:
        """What was typed, trimmed."""
        return str(self.input.value).strip()

    def focus(self) -> None:
        self.input.focus()

    def started(self) -> None:
        """The task went to Ralph: the box empties, an earlier refusal goes."""
        self.note.hidden = True
        self.input.value = ""

    def say(self, text: str) -> None:
        """Why the task was not started, under the box."""
        self.note.textContent = text
        self.note.hidden = False

    def show(self, shown: bool) -> None:
        self.el.hidden = not shown
