"""A bound on the waits of one body as one timer, not one per read.

``asyncio.wait_for`` around every body read arms and cancels a loop timer each
time; in the browser that is a ``setTimeout`` and a ``clearTimeout`` through
JavaScript per read, which cost more than handling the read's bytes.  This
watch keeps one timer: each read only notes that it is waiting, and the
timer, when it fires, either finds a read that has waited past the bound
(and cancels the task awaiting it) or sets itself for the time still left.

The clock restarts only when the reader says the body made **progress**
(:meth:`progress`): for a stream that is an event, so a server sending
keep-alive comments and nothing else is given up all the same; for a whole
body it is any chunk.  Only the time spent waiting for the provider counts,
as with ``wait_for``: a consumer that takes its time between deltas is never
cut off (the clock restarts when the next wait begins), and the task is
cancelled only while it is inside the watched await.
"""

from __future__ import annotations

import asyncio


class IdleWatch:
    __slots__ = ("_fresh", "_handle", "_loop", "_task", "fired", "seconds", "since", "waiting")

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._loop = asyncio.get_running_loop()
        self._task: asyncio.Task | None = None
        #: When the clock last restarted (the loop's clock).
        self.since = self._loop.time()
        #: The next wait restarts the clock (progress was made since the last).
        self._fresh = True
        #: A read is being awaited now; set and cleared around each read.
        self.waiting = False
        #: The watch cancelled the task: its ``CancelledError`` is an idle body.
        self.fired = False
        self._handle = self._loop.call_later(seconds, self._check)

    def start(self) -> None:
        """A read begins waiting (in the task that awaits it)."""
        self._task = asyncio.current_task()
        if self._fresh:
            self._fresh = False
            self.since = self._loop.time()
        self.waiting = True

    def progress(self) -> None:
        """The last read made progress: the next wait starts the clock again."""
        self._fresh = True

    def _check(self) -> None:
        if self._fresh and not self.waiting:
            left = self.seconds
        else:
            left = self.since + self.seconds - self._loop.time()
            if left <= 0 and self.waiting and self._task is not None:
                self.fired = True
                self._task.cancel()
                return
        self._handle = self._loop.call_later(max(left, 0.001), self._check)

    def absorb(self) -> None:
        """Take back the cancel this watch made, so the task can go on (with
        the idle error raised in its place)."""
        if self._task is not None:
            self._task.uncancel()

    def stop(self) -> None:
        self._handle.cancel()
