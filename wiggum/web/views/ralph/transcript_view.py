"""Ralph's transcript on screen: one card per iteration, his run ends, and the summary.

Draws each event of :mod:`wiggum.ralph.transcript` as it comes (or all of them
after a read); what each one says and its tree are
:mod:`wiggum.ui.markup.ralph`'s, this decides only where it goes.
An event goes into its iteration's card, in the order it happened; a run's
start begins new cards (the next run counts its iterations from 1 again, or
from where a resumed run was).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from wiggum.ralph.transcript import (
    CheckpointEvent,
    IterationEvent,
    PressureEvent,
    RalphEvent,
    ResultEvent,
    RunEvent,
    StallEvent,
    UsageEvent,
)
from wiggum.ui.markdown import El
from wiggum.ui.markup import ralph as markup
from wiggum.ui.ralph_transcript import IterationTally, iteration_title

from ...dom import Parts, mount, mount_all

__all__ = ["TranscriptView"]


class TranscriptView:
    """The transcript (:attr:`el`) and the last run's summary (:attr:`summary`)."""

    def __init__(self, tab: Parts) -> None:
        """``tab``: the mounted tab (``markup.tab``)."""
        self.el, self.summary = tab.transcript, tab.summary
        #: Each iteration's card as mounted (``markup.card``: its title, usage, body).
        self._cards: dict[int, Parts] = {}
        #: What each card's iteration has used so far.
        self._tallies: dict[int, IterationTally] = {}
        self._draw: dict[type[RalphEvent], Callable[[Any], None]] = {
            RunEvent: self._run,
            IterationEvent: self._iteration,
            UsageEvent: self._usage,
            StallEvent: lambda event: self.add(markup.stall(event)),
            PressureEvent: self._pressure,
            ResultEvent: self._result,
            # Shown in the run list, beside its iteration.
            CheckpointEvent: lambda event: None,
            # What he meant to do, his reasoning, a tool call, the checks: in their card.
            **dict.fromkeys(markup.CARD_EVENTS, self._in_card),
        }

    def clear(self) -> None:
        self._cards = {}
        self.el.replaceChildren()
        self.summary.hidden = True
        self.summary.replaceChildren()

    def render(self, event: RalphEvent) -> None:
        self._draw[type(event)](event)

    def add(self, tree: El) -> None:
        """A line at the end: in the latest iteration's card, if there is one."""
        host = self._cards[max(self._cards)].body if self._cards else self.el
        host.appendChild(mount(tree).el)

    def _card(self, i: int, max_iterations: int | None = None) -> Parts:
        if i not in self._cards:
            self._cards[i] = mount(markup.card(i, max_iterations))
            self._tallies[i] = IterationTally()
            self.el.appendChild(self._cards[i].el)
        return self._cards[i]

    def _run(self, event: RunEvent) -> None:
        self.el.appendChild(mount(markup.run_start(event)).el)
        self.summary.hidden = True
        self._cards = {}

    def _iteration(self, event: IterationEvent) -> None:
        card = self._card(event.iteration, event.max_iterations)
        card.title.textContent = iteration_title(event.iteration, event.max_iterations)

    def _in_card(self, event: markup.CardEvent) -> None:
        self._card(event.iteration).body.appendChild(mount(markup.block(event)).el)

    def _usage(self, event: UsageEvent) -> None:
        self._card(event.iteration).usage.textContent = self._tallies[event.iteration].add(
            event.call
        )

    def _pressure(self, event: PressureEvent) -> None:
        host = self._card(event.iteration).body if event.iteration else self.el
        host.appendChild(mount(markup.pressure(event)).el)

    def _result(self, event: ResultEvent) -> None:
        self.summary.replaceChildren(*mount_all(markup.summary(event)))
        self.summary.setAttribute("data-status", event.status)
        self.summary.hidden = False
        self.el.appendChild(mount(markup.run_end(event)).el)
