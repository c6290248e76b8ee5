"""Work cut into steps and run a time slice at a time, so that no task of the page is long.

The page renders a streaming reply in tasks of its own: each task runs
:meth:`Slices.run`, which takes steps until ``budget`` seconds have passed and
then says whether work is left (the page then posts another task: the browser
paints, takes input and reads the network in between).  A job is an iterator:
each ``next()`` is one step, small enough to run whole (one element built, a
few highlighted tokens, one parse of the still-open block).

Two queues: ``urgent`` jobs (the text of the reply on screen) run before
``later`` ones (colouring code blocks already shown).  Between the two sits
``refill``: asked for a new urgent job whenever none is queued, it is how the
page coalesces chunks: it hands out one render of the *latest* text, however
many chunks arrived since the last one.

:class:`Pacer` says when the latest text of a streaming reply is rendered:
chunks that arrive before the next render coalesce, and renders are at least
an interval apart.

Hand-written: a clock and two deques.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["BUDGET", "Pacer", "Slices"]

#: Seconds of work per task: well under the 50 ms of a long task even on a busy
#: machine, where one step can take several times what it takes on an idle one.
BUDGET = 0.005


class Slices:
    def __init__(
        self,
        *,
        budget: float = BUDGET,
        clock: Callable[[], float] = time.perf_counter,
        refill: Callable[[], Iterator[Any] | None] | None = None,
    ) -> None:
        self.budget = budget
        self.clock = clock
        self.refill = refill
        self.urgent: deque[Iterator[Any]] = deque()
        self.later: deque[Iterator[Any]] = deque()
        #: Steps taken in the last :meth:`run`, and its longest step: (seconds, where).
        self.steps = 0
        self.longest: tuple[float, str] = (0.0, "")

    def add(self, job: Iterator[Any], *, urgent: bool = True) -> None:
        (self.urgent if urgent else self.later).append(job)

    def __bool__(self) -> bool:
        """Whether jobs are queued (``refill`` may have more besides)."""
        return bool(self.urgent or self.later)

    def run(self) -> bool:
        """Take steps until the budget is spent or nothing is left; whether jobs are left
        (the caller knows whether ``refill`` has more).

        At least one step is taken when there is work, so a slice always moves on.
        """
        start = before = self.clock()
        self.steps = 0
        self.longest = (0.0, "")
        while True:
            queue = self._next_queue()
            if queue is None:
                return False
            where = _where(queue[0])
            self._step(queue)
            self.steps += 1
            now = self.clock()
            if now - before > self.longest[0]:
                self.longest = (now - before, where)
            before = now
            if now - start >= self.budget:
                return bool(self)

    def drain(self, *, urgent_only: bool = True) -> None:
        """Run queued jobs to their end at once (``later`` ones too unless ``urgent_only``);
        ``refill`` is not asked."""
        while self.urgent or (not urgent_only and self.later):
            self._step(self.urgent if self.urgent else self.later)

    def _next_queue(self) -> deque[Iterator[Any]] | None:
        if self.urgent:
            return self.urgent
        if self.refill is not None:
            job = self.refill()
            if job is not None:
                self.urgent.append(job)
                return self.urgent
        return self.later if self.later else None

    @staticmethod
    def _step(queue: deque[Iterator[Any]]) -> None:
        try:
            next(queue[0])
        except StopIteration:
            queue.popleft()


class Pacer:
    """When a streaming reply's latest text is rendered.

    Only the latest text fed is kept (the chunks before it coalesce), and two
    renders are at least ``interval`` seconds apart: each render changes the
    page, and each change costs a frame its style, layout and paint."""

    def __init__(self, interval: float, clock: Callable[[], float] = time.perf_counter) -> None:
        self.interval = interval
        self.clock = clock
        #: The text fed and not yet rendered.
        self.latest: str | None = None
        #: A timer brings the next render (the caller's, set when :meth:`next` said to wait).
        self.waiting = False
        self._rendered_at = float("-inf")

    @property
    def ready(self) -> bool:
        """There is text to render and no timer to wait for."""
        return self.latest is not None and not self.waiting

    def next(self) -> str | float | None:
        """The text to render now; or the seconds to wait first (the caller sets a
        timer, then calls :meth:`woke`); or ``None``: nothing to render yet."""
        if not self.ready:
            return None
        wait = self._rendered_at + self.interval - self.clock()
        if wait > 0:
            self.waiting = True
            return wait
        text, self.latest = self.latest, None
        self._rendered_at = self.clock()
        return text

    def woke(self) -> bool:
        """The timer is done: whether there is text to render."""
        self.waiting = False
        return self.latest is not None


def _where(job: Iterator[Any]) -> str:
    """A generator job's function and line (for figures: which step was slow)."""
    code = getattr(job, "gi_code", None)
    frame = getattr(job, "gi_frame", None)
    if code is None:
        return type(job).__name__
    return f"{code.co_name}:{frame.f_lineno if frame is not None else 0}"
