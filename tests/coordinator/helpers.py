"""A scripted stand-in for Ralph's loop and a deterministic clock."""

from __future__ import annotations

import asyncio

from wiggum.llm import UsageData
from wiggum.ralph.types import (
    GateResult,
    RalphCallbacks,
    RalphCompletion,
    RalphResult,
    RalphStatus,
    RunRequest,
)


class Clock:
    """Starts at a fixed time; tests move it by hand."""

    def __init__(self, now: float = 1_700_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def complete_result(iterations: int = 2) -> RalphResult:
    return RalphResult(
        status=RalphStatus.COMPLETE,
        iterations=iterations,
        summary="Built a one-page portfolio with a contact form.",
        completion=RalphCompletion(
            status="complete",
            summary="Built a one-page portfolio with a contact form.",
            files_created=["index.html", "style.css"],
        ),
        gate_results=[
            GateResult(gate="html", passed=True),
            GateResult(gate="links", passed=False, message="about.html is linked but missing"),
        ],
        usage=UsageData(prompt_tokens=1200, completion_tokens=300, total_tokens=1500, cost=0.0042),
    )


class FakeRunner:
    """Reports ``iterations`` iteration starts, then waits for ``release``.

    After the release it raises ``error`` if set, else returns ``result``.
    """

    def __init__(
        self,
        *,
        iterations: int = 2,
        max_iterations: int = 5,
        result: RalphResult | None = None,
        error: BaseException | None = None,
    ) -> None:
        self.iterations = iterations
        self.max_iterations = max_iterations
        self.result = result or complete_result(iterations)
        self.error = error
        self.requests: list[RunRequest] = []
        self.callbacks: RalphCallbacks | None = None
        self.started = asyncio.Event()
        self.release = asyncio.Event()
        self.cancelled = False

    async def __call__(self, request: RunRequest, callbacks: RalphCallbacks) -> RalphResult:
        self.requests.append(request)
        self.callbacks = callbacks
        for i in range(1, self.iterations + 1):
            callbacks.on_iteration_start(i, self.max_iterations)
            callbacks.on_status(RalphStatus.RUNNING, i)
        self.started.set()
        try:
            await self.release.wait()
        except asyncio.CancelledError:
            self.cancelled = True
            raise
        if self.error is not None:
            callbacks.on_error(self.error)
            raise self.error
        callbacks.on_complete(self.result)
        return self.result
