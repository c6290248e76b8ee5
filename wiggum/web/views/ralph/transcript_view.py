"""Ralph's transcript on screen: one card per iteration, his run ends, and the summary.

Draws each event of :mod:`wiggum.ralph.transcript` as it comes (or all of them
after a read); what each one says is :mod:`wiggum.ui.ralph_transcript`'s.
An event goes into its iteration's card, in the order it happened; a run's
start begins new cards (the next run counts its iterations from 1 again, or
from where a resumed run was).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from wiggum.ralph.transcript import (
    GatesEvent,
    IntentEvent,
    IterationEvent,
    PressureEvent,
    RalphEvent,
    ReasoningEvent,
    ResultEvent,
    RunEvent,
    StallEvent,
    ToolEvent,
    UsageEvent,
)
from wiggum.ui.ralph_transcript import (
    IterationTally,
    gates_text,
    iteration_title,
    pressure_note,
    result_text,
    run_line,
    stall_text,
    tool_text,
)

from ...dom import el, h

__all__ = ["TranscriptView"]


@dataclass(slots=True)
class _Card:
    """An iteration's section: its title, usage line and body."""

    title: Any
    usage: Any
    body: Any
    tally: IterationTally = field(default_factory=IterationTally)


class TranscriptView:
    """The transcript (:attr:`el`) and the last run's summary (:attr:`summary`)."""

    def __init__(self) -> None:
        self.el = el(
            "div",
            "ralph-transcript",
            testid="ralph-transcript",
            role="log",
            aria_label="Ralph's work",
            aria_live="polite",
            tabindex="0",
        )
        self.summary = el("div", "ralph-summary", testid="ralph-summary", hidden=True)
        self._cards: dict[int, _Card] = {}
        self._draw = {
            RunEvent: self._run,
            IterationEvent: self._iteration,
            IntentEvent: self._intent,
            ReasoningEvent: self._reasoning,
            ToolEvent: self._tool,
            UsageEvent: self._usage,
            StallEvent: self._stall,
            PressureEvent: self._pressure,
            GatesEvent: self._gates,
            ResultEvent: self._result,
        }

    def clear(self) -> None:
        self._cards = {}
        self.el.replaceChildren()
        self.summary.hidden = True
        self.summary.replaceChildren()

    def render(self, event: RalphEvent) -> None:
        self._draw[type(event)](event)

    def line(self, text: str, cls: str, testid: str = "ralph-line") -> None:
        """A line at the end: in the latest iteration's card, if there is one."""
        host = self._cards[max(self._cards)].body if self._cards else self.el
        host.appendChild(el("p", f"ralph-line {cls}", text=text, testid=testid))

    def _card(self, i: int, max_iterations: int | None = None) -> _Card:
        found = self._cards.get(i)
        if found is not None:
            return found
        title = el("span", "ralph-iter-title", text=iteration_title(i, max_iterations))
        usage = el("span", "usage", testid="ralph-iteration-usage")
        body = el("div", "ralph-iter-body")
        head = el("header", "ralph-iter-head", title, usage)
        section = el(
            "section", "ralph-iter", head, body, testid="ralph-iteration", data_iteration=str(i)
        )
        self.el.appendChild(section)
        self._cards[i] = card = _Card(title, usage, body)
        return card

    def _run(self, event: RunEvent) -> None:
        self.el.appendChild(
            el("p", "ralph-line ralph-run", text=run_line(event), testid="ralph-line")
        )
        self.summary.hidden = True
        self._cards = {}

    def _iteration(self, event: IterationEvent) -> None:
        card = self._card(event.iteration, event.max_iterations)
        card.title.textContent = iteration_title(event.iteration, event.max_iterations)

    def _intent(self, event: IntentEvent) -> None:
        body = self._card(event.iteration).body
        body.appendChild(el("p", "ralph-intent", text=event.text, testid="ralph-intent"))

    def _reasoning(self, event: ReasoningEvent) -> None:
        summary = h("summary", {"text": "Reasoning"})
        text = el("div", "reasoning-text", text=event.text)
        body = self._card(event.iteration).body
        body.appendChild(el("details", "reasoning", summary, text, testid="ralph-reasoning"))

    def _tool(self, event: ToolEvent) -> None:
        t = tool_text(event)
        summary = h(
            "summary",
            {},
            el("code", "action-name", text=t.name),
            " ",
            el("code", "action-args", text=t.args),
            el("span", "action-out", text=t.result, testid="ralph-action-result"),
        )
        details = el(
            "details",
            "ralph-action" + (" is-error" if t.is_error else ""),
            summary,
            el("pre", "action-detail", text=t.detail) if t.detail else None,
            el("pre", "action-detail action-output", text=t.output),
            testid="ralph-action",
            data_tool=t.name,
            data_error="true" if t.is_error else "false",
        )
        self._card(event.iteration).body.appendChild(details)

    def _usage(self, event: UsageEvent) -> None:
        card = self._card(event.iteration)
        card.usage.textContent = card.tally.add(event.call)

    def _stall(self, event: StallEvent) -> None:
        self.line(stall_text(event), "ralph-stall", "ralph-stall")

    def _pressure(self, event: PressureEvent) -> None:
        host = self._card(event.iteration).body if event.iteration else self.el
        note = pressure_note(event)
        host.appendChild(el("p", "ralph-line ralph-pressure", text=note, testid="ralph-pressure"))

    def _gates(self, event: GatesEvent) -> None:
        g = gates_text(event)
        items = [
            el(
                "li",
                "gate " + ("gate-pass" if line.passed else "gate-fail"),
                text=line.text,
                data_gate=line.gate,
                data_passed=str(line.passed).lower(),
            )
            for line in g.lines
        ]
        title = el("div", "ralph-gates-title", text=g.title)
        box = el(
            "div",
            "ralph-gates",
            title,
            h("ul", {}, items),
            testid="ralph-gates",
            data_passed=str(g.passed).lower(),
        )
        self._card(event.iteration).body.appendChild(box)

    def _result(self, event: ResultEvent) -> None:
        r = result_text(event)
        parts = [
            el("h3", "ralph-summary-title", text=r.label),
            el("p", "ralph-summary-text", text=r.summary) if r.summary else None,
            el("p", "ralph-summary-error", text=r.error, testid="ralph-error") if r.error else None,
            el("p", "ralph-summary-files", text=r.files) if r.files else None,
            el("p", "usage", text=r.meta, testid="ralph-summary-usage"),
        ]
        self.summary.replaceChildren(*[p for p in parts if p is not None])
        self.summary.setAttribute("data-status", r.status)
        self.summary.hidden = False
        end = el("p", "ralph-line ralph-run-end", text=r.end_line, testid="ralph-run-end")
        end.setAttribute("data-status", r.status)
        self.el.appendChild(end)
