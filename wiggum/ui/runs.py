"""Ralph's run list, read from his transcript's events.

The transcript (:mod:`wiggum.ralph.transcript`) is a list of typed events:
a run began (or resumed), an iteration, a tool call, usage, the run's end…
:func:`run_rows` turns it into one row per run — when it started, how many
iterations, which files it changed, what it cost, how it ended — newest
first, so every run stays listed after the next one starts.  A resumed run
continues its row.  :func:`row_text` is what the list shows for a row.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from wiggum.ralph.transcript import (
    CheckpointEvent,
    IntentEvent,
    IterationEvent,
    RalphEvent,
    ResultEvent,
    RunEvent,
    ToolEvent,
    UsageEvent,
)
from wiggum.ralph.types import RalphStatus

from .format import format_cost, format_tokens

__all__ = [
    "OUTCOME",
    "WRITE_TOOLS",
    "IterationStep",
    "RunRow",
    "RunRowText",
    "clock_time",
    "row_text",
    "run_rows",
    "step_counts",
    "steps_by_checkpoint",
]

#: Tools whose ``path`` argument is a file the call changed.
WRITE_TOOLS = frozenset({"write_file", "edit_file", "append_file", "delete_file", "move_file"})
#: Shell redirections (``cat > index.html``) change files too.
_REDIRECT = (">", ">>")


@dataclass(slots=True)
class IterationStep:
    """One iteration of a run beside its History checkpoint (``checkpoint`` is
    ``""`` when it changed no file, or before its checkpoint is taken)."""

    iteration: int
    intent: str = ""
    checkpoint: str = ""
    added: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)


def step_counts(step: IterationStep) -> str:
    """``2 added · 1 changed · 1 removed`` (the kinds it has), or why there is no diff."""
    if not step.checkpoint:
        return "no files changed"
    parts = [
        f"{len(paths)} {word}"
        for paths, word in (
            (step.added, "added"),
            (step.changed, "changed"),
            (step.removed, "removed"),
        )
        if paths
    ]
    return " · ".join(parts) or "only his notes changed"


class RunRow:
    """One run of the list."""

    __slots__ = (
        "cost",
        "ended",
        "files",
        "iterations",
        "outcome",
        "resumes",
        "started",
        "steps",
        "tokens",
    )

    def __init__(self, started: float | None) -> None:
        self.started = started
        self.iterations = 0
        self.files: list[str] = []
        self.tokens = 0
        self.cost: float | None = None
        #: ``complete``, ``cancelled``, ``error``… or ``running`` / ``interrupted``.
        self.outcome = "running"
        self.ended = False
        self.resumes = 0
        #: Each iteration with its checkpoint, by iteration number.
        self.steps: dict[int, IterationStep] = {}

    def step(self, iteration: int) -> IterationStep:
        if iteration not in self.steps:
            self.steps[iteration] = IterationStep(iteration)
        return self.steps[iteration]

    def _file(self, path: Any) -> None:
        path = str(path or "").strip()
        if path and path not in self.files and not path.startswith(".ralph/"):
            self.files.append(path)


def _command_lines(command: str) -> list[str]:
    """The command's lines without heredoc bodies (their ``>`` is content)."""
    out: list[str] = []
    end: str | None = None
    for line in command.splitlines():
        if end is not None:
            if line.strip() == end:
                end = None
            continue
        out.append(line)
        if "<<" in line:
            word = line.split("<<", 1)[1].strip().lstrip("-").split()
            end = word[0].strip("'\"") if word else None
    return out


def _shell_targets(command: str) -> list[str]:
    out = []
    for line in _command_lines(command):
        words = line.replace(">>", " >> ").replace(">", " > ").split()
        for i, word in enumerate(words[:-1]):
            if word in _REDIRECT:
                target = words[i + 1]
                if target != "/dev/null" and not target.startswith("&"):
                    out.append(target)
    return out


def run_rows(events: Iterable[RalphEvent], *, running: bool = False) -> list[RunRow]:
    """The runs in ``events``, newest first.  A run with no end is ``running``
    when ``running`` says one is going now, else ``interrupted``."""
    rows: list[RunRow] = []
    row: RunRow | None = None
    for e in events:
        if isinstance(e, RunEvent):
            if e.resumed and row is not None:
                row.resumes += 1
                row.ended = False
                row.outcome = "running"
                continue
            row = RunRow(e.started)
            rows.append(row)
            continue
        if row is None:  # events from before run records existed
            row = RunRow(None)
            rows.append(row)
        if isinstance(e, IterationEvent):
            row.iterations = max(row.iterations, e.iteration)
            row.step(e.iteration)
        elif isinstance(e, IntentEvent):
            step = row.step(e.iteration)
            step.intent = step.intent or e.text.strip()
        elif isinstance(e, CheckpointEvent):
            step = row.step(e.iteration)
            step.checkpoint = e.checkpoint
            step.added, step.changed, step.removed = e.added, e.changed, e.removed
        elif isinstance(e, ToolEvent) and not e.is_error:
            if e.name in WRITE_TOOLS:
                row._file(e.args.get("path"))
            elif "command" in e.args:
                for target in _shell_targets(str(e.args["command"])):
                    row._file(target)
        elif isinstance(e, UsageEvent):
            call = e.call
            row.tokens += call.total_tokens or (call.prompt_tokens + call.completion_tokens)
            if call.cost is not None:
                row.cost = (row.cost or 0.0) + call.cost
        elif isinstance(e, ResultEvent):
            row.outcome = e.status or "ended"
            row.ended = True
            row.iterations = max(row.iterations, e.iterations or 0)
            for path in e.files or ():
                row._file(path)
    for r in rows:
        if not r.ended:
            r.outcome = "running" if running and r is rows[-1] else "interrupted"
    return list(reversed(rows))


def steps_by_checkpoint(rows: Iterable[RunRow]) -> dict[str, IterationStep]:
    """Each checkpoint id of the runs' iterations -> its iteration."""
    return {s.checkpoint: s for r in rows for s in r.steps.values() if s.checkpoint}


#: How a row says its run went.
OUTCOME = {
    "running": "Running",
    "interrupted": "Interrupted",
    RalphStatus.COMPLETE: "Finished",
    RalphStatus.BLOCKED: "Needs input",
    RalphStatus.MAX_ITERATIONS: "Out of iterations",
    RalphStatus.STALLED: "Stalled",
    RalphStatus.ERROR: "Failed",
    RalphStatus.CANCELLED: "Stopped",
    RalphStatus.BUDGET_SPENT: "Stopped at the cap",
}
#: The files a row names before ``+N``.
SHOWN_FILES = 6


def clock_time(stamp: float, now: float | None = None) -> str:
    """``14:05`` on the day of ``now``, else ``25 Nov 14:05`` (local time)."""
    t = time.localtime(stamp)
    if time.localtime(now)[:3] == t[:3]:
        return time.strftime("%H:%M", t)
    return time.strftime("%d %b %H:%M", t)


def _count(n: int, what: str) -> str:
    return f"{n} {what}" + ("" if n == 1 else "s")


@dataclass(frozen=True, slots=True)
class RunRowText:
    when: str
    outcome: str
    #: ``2 iterations · 3 files changed · 1,240 tokens · $0.0002``.
    meta: str
    #: The files it changed, the first few; ``""`` without any.
    files: str


def row_text(row: RunRow, now: float | None = None) -> RunRowText:
    """What the run list shows for ``row`` (``now``: the clock, for "today")."""
    cost = format_cost(row.cost) if row.tokens or row.cost is not None else "no usage"
    meta = [
        _count(row.iterations, "iteration"),
        _count(len(row.files), "file") + " changed",
        (format_tokens(row.tokens) + " · " + cost) if row.tokens else cost,
    ]
    more = len(row.files) - SHOWN_FILES
    return RunRowText(
        when="earlier" if row.started is None else clock_time(row.started, now),
        outcome=OUTCOME.get(row.outcome, row.outcome),
        meta=" · ".join(meta),
        files=", ".join(row.files[:SHOWN_FILES]) + (f" +{more}" if more > 0 else ""),
    )
