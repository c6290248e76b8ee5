"""What Ralph's transcript says for each of his events (``wiggum.ralph.transcript``).

The view draws an iteration as a card (title, usage, body) and puts each
event in it; the words, and what a call's one-line summary shows, are decided
here so CPython tests read them:

- a tool call's summary names the argument that says what it did (the
  ``command``, ``path``, ``pattern`` or ``query``, first line only) and the first
  :data:`SHORT_OUTPUT` characters of what came back; the detail shows a shell
  command as written and other arguments as JSON;
- an iteration's usage is the sum of its calls (:class:`IterationTally`); the
  tab's total follows the latest usage event, then the run's end;
- a run's end is said once per place, each in its own words: the tab's status
  line says his state ("Ralph finished", :data:`~wiggum.ui.ralph_tab.END_LABEL`),
  the transcript's line says how the run ended (:data:`RUN_END`: "Run complete
  after 1 iteration."), and the summary card under it says what he did
  (:data:`CARD_TITLE`, Ralph's summary, the error when it says more, files,
  iterations and cost), so that one screen never says "Ralph finished" three
  times, nor "Ralph was stopped" five.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from wiggum.llm.types import UsageData
from wiggum.ralph.transcript import (
    GatesEvent,
    PressureEvent,
    RalphEvent,
    ResultEvent,
    RunEvent,
    StallEvent,
    ToolEvent,
    UsageEvent,
)

from .format import usage_line
from .ralph_tab import of_max

__all__ = [
    "SHORT_OUTPUT",
    "GateLine",
    "GatesText",
    "IterationTally",
    "ResultText",
    "ToolText",
    "gates_text",
    "iteration_title",
    "key_args",
    "pressure_note",
    "refusal_text",
    "result_text",
    "run_line",
    "short",
    "stall_text",
    "tool_text",
    "total_text",
]

#: How much of a tool's output the one-line summary shows.
SHORT_OUTPUT = 80
#: The arguments that say what a call did, in the order they are looked for.
_KEY_ARGS = ("command", "path", "pattern", "query")


def short(text: str, limit: int = SHORT_OUTPUT) -> str:
    """``text`` on one line, cut to ``limit`` characters with ``…``."""
    line = " ".join(str(text).split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def key_args(args: dict[str, Any]) -> str:
    """The arguments that say what a call did (path, command…), briefly."""
    for key in _KEY_ARGS:
        if key in args:
            value = str(args[key])
            first = value.splitlines()[0] if value else ""
            more = " …" if "\n" in value.strip() else ""
            return short(first, 60) + more
    return short(json.dumps(args, ensure_ascii=False), 60)


def iteration_title(iteration: int, max_iterations: int | None) -> str:
    return f"Iteration {of_max(iteration, max_iterations or 0)}"


def run_line(event: RunEvent) -> str:
    return "Resumed the run." if event.resumed else "Started a new run."


def stall_text(event: StallEvent) -> str:
    return f"Stall: the same tool calls {event.count} times in a row."


def pressure_note(event: PressureEvent) -> str:
    """The transcript's line for a context-pressure event."""
    left = max(0.0, event.headroom) * 100
    return (
        f"Context nearly full: about {event.estimated:,} of {event.window:,} tokens "
        f"({left:.0f}% left). Older tool output may be shortened."
    )


def refusal_text(error: BaseException) -> str:
    """Said in the transcript when storage refuses it for a full quota."""
    return f"Ralph's transcript is not saved. {error}"


@dataclass(frozen=True, slots=True)
class ToolText:
    name: str
    #: The arguments that say what it did, briefly.
    args: str
    #: ``→`` and the start of the output.
    result: str
    #: The arguments whole (a shell command as written); ``""`` without any.
    detail: str
    output: str
    is_error: bool


def tool_text(event: ToolEvent) -> ToolText:
    args = event.args
    if set(args) == {"command"}:
        detail = str(args["command"])
    else:
        detail = json.dumps(args, ensure_ascii=False, indent=2) if args else ""
    return ToolText(
        name=event.name or "?",
        args=key_args(args),
        result="→ " + short(event.output),
        detail=detail,
        output=event.output,
        is_error=event.is_error,
    )


@dataclass(frozen=True, slots=True)
class GateLine:
    gate: str
    passed: bool
    text: str


@dataclass(frozen=True, slots=True)
class GatesText:
    passed: bool
    title: str
    lines: tuple[GateLine, ...]


def gates_text(event: GatesEvent) -> GatesText:
    lines = tuple(
        GateLine(g.gate, g.passed, f"✓ {g.gate}" if g.passed else f"✗ {g.gate}: {g.message}")
        for g in event.results
    )
    passed = all(g.passed for g in event.results)
    return GatesText(passed, "Checks passed" if passed else "Checks failed", lines)


#: How a run ended, on the transcript's line where it did.
RUN_END = {
    "complete": "Run complete",
    "blocked": "Run paused for your answer",
    "max_iterations": "Run out of iterations",
    "stalled": "Run stalled without progress",
    "error": "Run ended by an error",
    "cancelled": "Run stopped by you",
    "budget_spent": "Run stopped at the spending cap",
}

#: The summary card's title: what he did, by how the run ended.
CARD_TITLE = {"complete": "What Ralph built", "blocked": "What Ralph needs from you"}
#: The card's title for a run that ended before it was done.
CARD_SO_FAR = "Ralph's work so far"


@dataclass(frozen=True, slots=True)
class ResultText:
    status: str
    #: The summary card's title: ``What Ralph built``, ``Ralph's work so far``…
    label: str
    summary: str
    #: The error, when it says more than the summary; else ``""``.
    error: str
    #: ``Files: a, b``; ``""`` without files.
    files: str
    #: ``2 iterations · 1,240 tokens · $0.0002``.
    meta: str
    #: The transcript's line where the run ended.
    end_line: str


def result_text(event: ResultEvent) -> ResultText:
    status = str(event.status)
    label = CARD_TITLE.get(status, CARD_SO_FAR)
    summary = event.summary or ""
    n = event.iterations
    count = "iterations: ?" if n is None else f"{n} iteration{'' if n == 1 else 's'}"
    how = RUN_END.get(status, f"Run ended ({status})")
    line = usage_line(event.usage)
    return ResultText(
        status=status,
        label=label,
        summary=summary,
        error=event.error if event.error and event.error != event.summary else "",
        files="Files: " + ", ".join(event.files) if event.files else "",
        meta=count + (f" · {line}" if line else ""),
        end_line=how + ("." if n is None else f" after {count}."),
    )


def total_text(event: RalphEvent) -> str | None:
    """The tab's ``This run: …`` line after ``event``; ``None``: it stays as it was.
    A new run starts it empty: the run before's total is not this run's (a run
    stopped before any usage came back would otherwise show it)."""
    if isinstance(event, RunEvent) and not event.resumed:
        return ""
    if isinstance(event, UsageEvent):
        return "This run: " + usage_line(event.total)
    if isinstance(event, ResultEvent) and event.usage is not None:
        return "This run: " + usage_line(event.usage)
    return None


class IterationTally:
    """An iteration's usage: the sum of its calls (cost unknown until one has one)."""

    def __init__(self) -> None:
        self.usage = UsageData()

    def add(self, call: UsageData) -> str:
        """Count ``call`` in; returns the iteration's usage line."""
        u = self.usage
        cost = u.cost if call.cost is None else (u.cost or 0.0) + call.cost
        self.usage = UsageData(
            prompt_tokens=u.prompt_tokens + call.prompt_tokens,
            completion_tokens=u.completion_tokens + call.completion_tokens,
            cost=cost,
        )
        return usage_line(self.usage)
