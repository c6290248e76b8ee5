"""A :class:`~wiggum.session.host.Host` for CPython tests: the decisions of the
session layer run against it exactly as they run against the page's.

Its tasks are real asyncio tasks (``settle()`` waits for them and re-raises
what failed, so a broken decision fails its test); its clock is fake, moved by
``sleep`` and ``advance``; packages and checkers are recorded, not loaded.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

from wiggum.session.host import Checkers


class FakeHost:
    def __init__(self, *, origin: str = "http://127.0.0.1:8000", checkers: Checkers | None = None):
        self._origin = origin
        self._checkers = checkers
        self.tasks: list[tuple[str, asyncio.Task]] = []
        self.loaded: list[str] = []
        self.shown = True
        self.clock = 1_000_000.0
        self.slept: list[float] = []

    @property
    def origin(self) -> str:
        return self._origin

    def spawn(self, coro: Coroutine[Any, Any, Any], *, what: str) -> asyncio.Task:
        task = asyncio.ensure_future(coro)
        self.tasks.append((what, task))
        return task

    async def load_packages(self, *names: str) -> None:
        self.loaded.extend(names)

    def checkers(self) -> Checkers | None:
        return self._checkers

    def visible(self) -> bool:
        return self.shown

    def now(self) -> float:
        return self.clock

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.clock += max(0.0, seconds)
        await asyncio.sleep(0)

    def advance(self, seconds: float) -> None:
        self.clock += seconds

    def spawned(self) -> list[str]:
        return [what for what, _ in self.tasks]

    async def settle(self, rounds: int = 50) -> None:
        """Run the spawned tasks (and those they spawn) to their end; re-raise failures."""
        for _ in range(rounds):
            pending = [t for _, t in self.tasks if not t.done()]
            if not pending:
                break
            await asyncio.wait(pending, timeout=5)
        for what, task in self.tasks:
            if task.done() and not task.cancelled() and task.exception() is not None:
                raise AssertionError(f"{what} failed") from task.exception()
