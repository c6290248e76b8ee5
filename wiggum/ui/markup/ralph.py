"""Ralph's tab as markup: the bar with his state, the resume banner, the
workspace's slot, the "Start Ralph" form, the run list and the transcript, and
the trees of what his run adds (an iteration's card, a tool call, the checks,
the summary).  ``wiggum.web.views.ralph`` mounts these and drives them.

The words are :mod:`wiggum.ui.ralph_transcript`'s and :mod:`wiggum.ui.runs`';
an event's tree is made here from them (:func:`block` for what goes in an
iteration's card), so the view only decides where it goes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from wiggum.ralph.transcript import (
    GatesEvent,
    IntentEvent,
    PressureEvent,
    RalphEvent,
    ReasoningEvent,
    ResultEvent,
    RunEvent,
    StallEvent,
    ToolEvent,
)

from ..history import REVERT_LABEL, diff_line_class
from ..markdown import El
from ..ralph_transcript import (
    gates_text,
    iteration_title,
    pressure_note,
    result_text,
    run_line,
    stall_text,
    tool_text,
)
from ..runs import IterationStep, RunRow, row_text, step_counts
from ..tree import btn, e

__all__ = [
    "CARD_EVENTS",
    "HOW_TO_START",
    "INTRO",
    "CardEvent",
    "badge",
    "block",
    "card",
    "file_diff",
    "line",
    "pressure",
    "run_end",
    "run_row",
    "run_start",
    "stall",
    "step",
    "step_diff_head",
    "summary",
    "tab",
]

INTRO = (
    "Ralph is the builder: he takes a plan and writes the project's files, one iteration "
    "at a time, checking his work after each step. Everything he does shows up here as he "
    "does it."
)
HOW_TO_START = (
    "To start, agree on a plan with Chief and tell him to hand it over (say “go”), or type "
    "a task for Ralph below."
)


def badge() -> El:
    """His state on the tab's button (``● [3/20]``, ``✓ DONE``); hidden when idle."""
    return e("span", "ralph-badge", testid="ralph-badge", hidden=True)


def tab() -> El:
    """The tab: the bar (status line, total, Stop), the resume banner, the
    workspace's slot (files and preview), and what scrolls: the "Start Ralph"
    form, the run list, the transcript and the last run's summary."""
    bar = e(
        "div",
        "ralph-bar",
        e("span", "ralph-status", testid="ralph-status", ref="status_line"),
        e("span", "header-spacer"),
        e("span", "usage ralph-total", testid="ralph-total", ref="total"),
        btn(
            "Stop",
            action="ralph-stop",
            testid="ralph-stop",
            cls="btn btn-stop",
            hidden=True,
            ref="stop",
        ),
    )
    resume = e(
        "div",
        "ralph-resume",
        e("span", "banner-text", testid="ralph-resume-text", ref="resume_text"),
        e(
            "div",
            "banner-actions",
            btn(
                "Resume",
                action="ralph-resume",
                testid="ralph-resume-button",
                cls="btn btn-primary btn-small",
                ref="resume_button",
            ),
            btn("Dismiss", action="ralph-dismiss", testid="ralph-dismiss", cls="btn btn-small"),
        ),
        testid="ralph-resume",
        role="alert",
        hidden=True,
        ref="resume",
    )
    scroller = e(
        "div",
        "ralph-scroll",
        _task_form(),
        _runs(),
        e(
            "div",
            "ralph-transcript",
            testid="ralph-transcript",
            role="log",
            aria_label="Ralph's work",
            aria_live="polite",
            tabindex="0",
            ref="transcript",
        ),
        e("div", "ralph-summary", testid="ralph-summary", hidden=True, ref="summary"),
        ref="scroller",
    )
    workspace = e("div", "ralph-workspace", testid="ralph-workspace", ref="workspace")
    return e("div", "ralph", bar, resume, approval(), workspace, scroller)


def approval() -> El:
    """Ralph's run waits: the change he wants, the files, Approve and Refuse."""
    approve = btn("Approve", action="ralph-approve", testid="ralph-approve", cls="btn btn-primary")
    refuse = btn("Refuse", action="ralph-refuse", testid="ralph-refuse", cls="btn")
    parts = [
        e("p", "banner-text", testid="ralph-approval-text", ref="approval_text"),
        e("ul", "approval-files", testid="ralph-approval-files", ref="approval_files"),
        e("div", "banner-actions", approve, refuse),
    ]
    asks = "Ralph asks before changing your files"
    return e(
        "div",
        "ralph-approval",
        parts,
        testid="ralph-approval",
        role="alertdialog",
        aria_label=asks,
        hidden=True,
        ref="approval",
    )


def approval_files(files: Sequence[str]) -> list[El]:
    return [e("li", None, e("code", None, text=f)) for f in files]


def _task_form() -> El:
    """What the tab shows before his first run: what he does, and a task box."""
    task = e(
        "textarea",
        "chat-input",
        testid="ralph-task-input",
        rows="3",
        aria_label="A task for Ralph",
        placeholder="e.g. A one-page site for my bakery: menu, opening hours, map.",
        ref="task_input",
    )
    start = btn("Start Ralph", action="ralph-start", testid="ralph-start", cls="btn btn-primary")
    # Why a task was not started (another tab owns the project) shows under the box.
    note = e(
        "p",
        "ralph-task-note file-error",
        testid="ralph-task-note",
        role="status",
        hidden=True,
        ref="task_note",
    )
    return e(
        "div",
        "chat-empty ralph-empty",
        e("h2", text="Ralph builds here"),
        e("p", text=INTRO),
        e("p", text=HOW_TO_START),
        e("div", "ralph-task", task, e("div", "composer-bar", start), note),
        ref="task_form",
    )


def _runs() -> El:
    """The folding "Runs (n)" list, newest on top; hidden until there is a run.
    Under it, what its buttons say (a restore's outcome) and the diff of the
    iteration the person opened (one at a time; it stays while the list redraws)."""
    diff = e(
        "section",
        "ralph-run-diff",
        e("div", "ralph-run-diff-head", ref="run_diff_head"),
        e("div", "ralph-run-diff-body", ref="run_diff_body"),
        testid="ralph-run-diff",
        aria_label="What an iteration changed",
        hidden=True,
        ref="run_diff",
    )
    return e(
        "details",
        "ralph-runs",
        e("summary", "ralph-runs-title", text="Runs", ref="runs_title"),
        e("ol", "ralph-runs-list", ref="runs_list"),
        e("p", "ralph-run-status", testid="ralph-run-status", role="status", ref="run_status"),
        diff,
        testid="ralph-runs",
        hidden=True,
        ref="runs",
    )


def run_row(row: RunRow, *, current: bool, open_steps: bool = False) -> El:
    """One run: when it began, how it went, what it changed and cost; then its
    iterations, each beside its checkpoint (open for the current run, or when
    ``open_steps``)."""
    text = row_text(row)
    steps = [step(s) for _, s in sorted(row.steps.items())]
    key = str(row.started or 0)
    iterations = None
    if steps:
        iterations = e(
            "details",
            "ralph-steps",
            e(
                "summary",
                "ralph-steps-title",
                text=f"Iterations ({len(steps)})",
                data_action="ralph-steps",
                data_run=key,
            ),
            e("ol", "ralph-steps-list", steps),
            open=current or open_steps,
        )
    return e(
        "li",
        "ralph-run-row is-current" if current else "ralph-run-row",
        e("span", "ralph-run-when", text=text.when),
        e("span", "ralph-run-outcome", text=text.outcome),
        e("span", "ralph-run-meta usage", text=text.meta),
        e("span", "ralph-run-files", text=text.files) if text.files else None,
        iterations,
        testid="ralph-run",
        data_outcome=row.outcome,
        data_run=key,
    )


def step(s: IterationStep) -> El:
    """An iteration: its number, what he meant to do, what its checkpoint changed
    (counts), and, when it made one, the checkpoint's diff and a restore to it."""
    intent = next((x.strip() for x in s.intent.splitlines() if x.strip()), "")
    tools = None
    if s.checkpoint:
        tools = e(
            "span",
            "ralph-step-tools",
            e("code", "ralph-step-id", text=s.checkpoint[:7]),
            None
            if not (s.added or s.changed or s.removed)
            else btn(
                "Diff",
                action="ralph-step-diff",
                testid="ralph-step-diff",
                cls="file-op",
                data_id=s.checkpoint,
                title="What this iteration changed, file by file",
            ),
            btn(
                REVERT_LABEL,
                action="ralph-step-restore",
                testid="ralph-step-restore",
                cls="file-op history-revert",
                data_id=s.checkpoint,
                title="Make the project what it was after this iteration (a new checkpoint)",
            ),
        )
    return e(
        "li",
        "ralph-step",
        e("span", "ralph-step-n", text=f"#{s.iteration}"),
        e("span", "ralph-step-intent", text=intent or None),
        e("span", "ralph-step-counts usage", text=step_counts(s), testid="ralph-step-counts"),
        tools,
        testid="ralph-step",
        data_iteration=s.iteration,
        data_checkpoint=s.checkpoint or None,
    )


def step_diff_head(title: str, intent: str) -> list[El]:
    """The diff's head: which iteration and checkpoint, his intent, close."""
    return [
        e("strong", "ralph-run-diff-title", text=title),
        btn("×", action="ralph-diff-close", cls="history-close", aria_label="Close the changes"),
        e("p", "ralph-intent", text=intent) if intent else None,
    ]


def file_diff(path: str, kind: str, text: str, added: int, removed: int) -> El:
    """One file of a checkpoint: its name, how it changed and by how many lines, its diff."""
    lines = [e("span", diff_line_class(x), text=x) for x in text.splitlines(keepends=True)]
    return e(
        "section",
        f"ralph-file-diff history-{kind}",
        e(
            "div",
            "ralph-file-diff-head",
            e("span", "history-path", text=path),
            e("span", "history-tag", text=kind),
            e("span", "history-add", text=f"+{added}"),
            e("span", "history-del", text=f"−{removed}"),
        ),
        e("pre", "history-diff-body", lines),
        testid="ralph-file-diff",
        data_path=path,
        data_kind=kind,
    )


# ------------------------------------------------------------------ the transcript


def card(iteration: int, max_iterations: int | None) -> El:
    """An iteration's section: its title, its usage line, the body its events join."""
    head = e(
        "header",
        "ralph-iter-head",
        e("span", "ralph-iter-title", text=iteration_title(iteration, max_iterations), ref="title"),
        e("span", "usage", testid="ralph-iteration-usage", ref="usage"),
    )
    body = e("div", "ralph-iter-body", ref="body")
    return e(
        "section", "ralph-iter", head, body, testid="ralph-iteration", data_iteration=iteration
    )


def line(text: str, cls: str, testid: str = "ralph-line") -> El:
    """A line of the transcript (a run's start, a stall, a refused write…)."""
    return e("p", f"ralph-line {cls}", text=text, testid=testid)


def run_start(event: RunEvent) -> El:
    return line(run_line(event), "ralph-run")


def stall(event: StallEvent) -> El:
    return line(stall_text(event), "ralph-stall", "ralph-stall")


def pressure(event: PressureEvent) -> El:
    return line(pressure_note(event), "ralph-pressure", "ralph-pressure")


def _intent(event: IntentEvent) -> El:
    return e("p", "ralph-intent", text=event.text, testid="ralph-intent")


def _reasoning(event: ReasoningEvent) -> El:
    return e(
        "details",
        "reasoning",
        e("summary", text="Reasoning"),
        e("div", "reasoning-text", text=event.text),
        testid="ralph-reasoning",
    )


def _action(event: ToolEvent) -> El:
    """A tool call: its name, what it did and the start of its result; open, the
    arguments whole and the output."""
    t = tool_text(event)
    summary = e(
        "summary",
        None,
        e("code", "action-name", text=t.name),
        " ",
        e("code", "action-args", text=t.args),
        e("span", "action-out", text=t.result, testid="ralph-action-result"),
    )
    return e(
        "details",
        "ralph-action is-error" if t.is_error else "ralph-action",
        summary,
        e("pre", "action-detail", text=t.detail) if t.detail else None,
        e("pre", "action-detail action-output", text=t.output),
        testid="ralph-action",
        data_tool=t.name,
        data_error="true" if t.is_error else "false",
    )


def _gates(event: GatesEvent) -> El:
    """The quality checks run when he said he was done, each passed or not."""
    g = gates_text(event)
    items = [
        e(
            "li",
            "gate gate-pass" if check.passed else "gate gate-fail",
            text=check.text,
            data_gate=check.gate,
            data_passed="true" if check.passed else "false",
        )
        for check in g.lines
    ]
    return e(
        "div",
        "ralph-gates",
        e("div", "ralph-gates-title", text=g.title),
        e("ul", None, items),
        testid="ralph-gates",
        data_passed="true" if g.passed else "false",
    )


#: The events that add a block of their own to their iteration's card.
CardEvent = IntentEvent | ReasoningEvent | ToolEvent | GatesEvent

_BLOCKS: dict[type[RalphEvent], Callable[..., El]] = {
    IntentEvent: _intent,
    ReasoningEvent: _reasoning,
    ToolEvent: _action,
    GatesEvent: _gates,
}
#: :data:`CardEvent`'s types, for a view's table.
CARD_EVENTS = tuple(_BLOCKS)


def block(event: CardEvent) -> El:
    """What ``event`` adds to its iteration's card: what he meant to do, his
    reasoning, a tool call, the checks."""
    return _BLOCKS[type(event)](event)


def summary(event: ResultEvent) -> list[El]:
    """The last run's summary under the transcript: how it ended, Ralph's
    summary, the error when it says more, the files, iterations and cost."""
    r = result_text(event)
    parts = [
        e("h3", "ralph-summary-title", text=r.label),
        e("p", "ralph-summary-text", text=r.summary) if r.summary else None,
        e("p", "ralph-summary-error", text=r.error, testid="ralph-error") if r.error else None,
        e("p", "ralph-summary-files", text=r.files) if r.files else None,
        e("p", "usage", text=r.meta, testid="ralph-summary-usage"),
    ]
    return [p for p in parts if p is not None]


def run_end(event: ResultEvent) -> El:
    """The transcript's line where a run ended."""
    r = result_text(event)
    return e(
        "p",
        "ralph-line ralph-run-end",
        text=r.end_line,
        testid="ralph-run-end",
        data_status=r.status,
    )
