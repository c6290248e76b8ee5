"""Ralph's run: started as an asyncio task, watched through the loop's callbacks,
cancelled on request, and recorded (``.chief/``) when it ends.

Only one run at a time: a hand-off while one goes is refused with a message
for the person (:class:`~wiggum.coordinator.state.HandoffRefused`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from wiggum.llm import UsageData

from .contract import (
    CONTINUABLE,
    GateResult,
    RalphCallbacks,
    RalphResult,
    RalphRunner,
    RalphStatus,
    RunBudget,
    RunRequest,
)
from .files import FEEDBACK_PATH, NOTICE_PATH, PROMPT_PATH, RESULT_PATH, StatusFiles
from .handoff import compose_task
from .notice import BuildReport
from .report import busy_message
from .state import TERMINAL, CoordinatorState, HandoffRefused, News, StateHub

__all__ = ["RalphRuns"]

logger = logging.getLogger("wiggum.coordinator")


@dataclass(eq=False)
class RalphRuns:
    """Starts, watches, stops and records Ralph's runs (one at a time)."""

    runner: RalphRunner
    hub: StateHub
    files: StatusFiles
    news: News
    clock: Callable[[], float]
    #: UI callbacks chained after the Coordinator's own, for every run.
    ui_callbacks: RalphCallbacks | None
    #: Awaited once a run's end is written (``.chief/`` and ``.ralph/`` both
    #: final), before a new hand-off can start: the page takes Ralph's last
    #: checkpoint there, so it holds all of his run's memory.
    after_run: Callable[[CoordinatorState], Awaitable[None]] | None = None
    #: True from the moment a run is accepted until its end is recorded;
    #: set before any await so two quick hand-offs cannot both start.
    active: bool = field(default=False, init=False)
    _task: asyncio.Task[None] | None = field(default=None, init=False)
    #: The iteration whose context pressure was last logged as a warning.
    _pressure_iteration: int | None = field(default=None, init=False)

    async def send(
        self,
        prompt: str,
        *,
        plan_summary: str | None,
        callbacks: RalphCallbacks | None,
        plan: str = "",
        acceptance: Sequence[str] = (),
        budget: RunBudget | None = None,
        fresh: bool = False,
    ) -> str:
        task = prompt.strip()
        self._refuse_if_busy()
        if not task:
            raise HandoffRefused("Nothing to send: the prompt for Ralph is empty.")
        with self._claim():
            run_id = self._new_run_id()
            self._mark_started(
                run_id=run_id,
                iteration=0,
                max_iterations=0,
                started_at=self.clock(),
                usage=None,
                gate_results=(),
                handoff_summary=(plan_summary or "").strip() or None,
            )
            await self.files.write(PROMPT_PATH, task + "\n")
            # A finished run's notice Chief never saw is superseded by this hand-off.
            await self.files.remove(NOTICE_PATH)
            await self.files.persist()
        request = RunRequest(
            task=compose_task(task, plan).strip(),
            plan=plan.strip(),
            acceptance=[c.strip() for c in acceptance if c.strip()],
            budget=budget,
            fresh=fresh,
        )
        self._start(request, callbacks)
        return f"Ralph has started building (run {run_id})."

    async def resume(
        self,
        *,
        callbacks: RalphCallbacks | None,
        budget: RunBudget | None = None,
        more_iterations: int | None = None,
        note: str | None = None,
    ) -> str:
        """Go on with the run in ``.ralph/``: after an interruption, a stop or a
        failed iteration, and ("Continue") after the limit, a stall or the cap,
        with ``more_iterations``, a raised ``budget`` and the person's ``note``."""
        self._refuse_if_busy()
        if not self.hub.state.resumable:
            raise HandoffRefused("There is no interrupted run to resume.")
        with self._claim():
            self._mark_started()
            await self.files.persist()
        request = RunRequest(
            task=None, resume=True, budget=budget, more_iterations=more_iterations, note=note
        )
        self._start(request, callbacks)
        s = self.hub.state
        return f"Ralph is resuming run {s.run_id} from iteration {s.iteration}."

    def _mark_started(self, **changes: Any) -> None:
        """A run starts (a new one, or the interrupted one resumed): it is running,
        with no end and no error yet, and no notice of an earlier run is pending."""
        self.news.notice = None
        self.hub.set(
            "started",
            persist=False,
            status=RalphStatus.RUNNING,
            finished_at=None,
            last_error=None,
            interrupted=False,
            resumable=False,
            forecast=None,  # the loop tells this run's before its first call
            **changes,
        )

    async def wait(self) -> None:
        """Until the current run (if any) has ended; its files are then being written."""
        task = self._task
        if task is not None:
            # asyncio.wait never raises the task's own cancellation into the waiter.
            await asyncio.wait({task})

    async def stop(self) -> str:
        task = self._task
        # state.running turns false before the end is written: never cancel that write.
        if not self.hub.state.running or task is None or task.done():
            return "Ralph isn't running."
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        return f"Stopped Ralph at iteration {self.hub.state.iteration}."

    def _refuse_if_busy(self) -> None:
        if self.active:
            raise HandoffRefused(busy_message(self.hub.state))

    @contextlib.contextmanager
    def _claim(self) -> Iterator[None]:
        """Busy from here (before any await, so two quick hand-offs cannot both
        start); released again if preparing the run fails."""
        self.active = True
        try:
            yield
        except BaseException:
            self.active = False
            raise

    def _new_run_id(self) -> str:
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(self.clock()))
        return f"{stamp}-{secrets.token_hex(2)}"

    def _start(self, request: RunRequest, callbacks: RalphCallbacks | None) -> None:
        self._task = asyncio.ensure_future(self._run(request, callbacks))

    def _ended(self, status: RalphStatus, error: str) -> RalphResult:
        """The result of a run that ended without the loop's own result."""
        s = self.hub.state
        return RalphResult(
            status=status,
            iterations=s.iteration,
            error=error,
            usage=s.usage,
            gate_results=list(s.gate_results),
        )

    async def _run(self, request: RunRequest, callbacks: RalphCallbacks | None) -> None:
        self._pressure_iteration = None
        wired = self._wire(callbacks)
        try:
            result = await self.runner(request, wired)
        except asyncio.CancelledError:
            await self._finish(self._ended(RalphStatus.CANCELLED, "stopped before it finished"))
            raise
        except Exception as err:
            logger.exception("coordinator: Ralph's run failed")
            result = self._ended(RalphStatus.ERROR, f"{type(err).__name__}: {err}")
        if result.status not in TERMINAL:
            result = result.model_copy(
                update={
                    "status": RalphStatus.ERROR,
                    "error": f"the loop ended while reporting status {result.status.value}",
                }
            )
        await self._finish(result)

    async def _finish(self, result: RalphResult) -> None:
        now = self.clock()
        cancelled = result.status == RalphStatus.CANCELLED
        state = self.hub.state
        # Memory first (synchronously), so the state is right even if a write fails.
        self.hub.set(
            "finished",
            persist=False,
            status=result.status,
            iteration=max(result.iterations, state.iteration),
            finished_at=now,
            last_result=result,
            last_error=None if result.status == RalphStatus.COMPLETE else result.error,
            usage=result.usage or state.usage,
            gate_results=tuple(result.gate_results) or state.gate_results,
            # The loop's state is on disk mid-run, so a stopped run can go on,
            # and a failed iteration can be run again (Retry).
            # A run that hit its limit, stalled or reached its cap can go on
            # ("Continue"): nothing of it is lost.
            resumable=cancelled
            or result.status == RalphStatus.ERROR
            or result.status in CONTINUABLE,
        )
        try:
            self.news.feedback = (await self.files.read(FEEDBACK_PATH) or "").strip()
            await self.files.write(RESULT_PATH, result.model_dump_json(indent=2))
            if not cancelled:  # the person stopped it: they need no news
                report = BuildReport.from_result(
                    result,
                    run_id=self.hub.state.run_id or "",
                    max_iterations=self.hub.state.max_iterations,
                    feedback=self.news.feedback,
                    finished_at=now,
                )
                self.news.notice = report
                await self.files.write(NOTICE_PATH, report.model_dump_json(indent=2))
            await self.files.persist()
            await self.files.flush()
            if self.after_run is not None:
                try:
                    await self.after_run(self.hub.state)
                except Exception:  # e.g. a checkpoint that failed: the run's end stands
                    logger.exception("coordinator: after-run hook failed")
        finally:
            # Busy until the files agree with the state, so a new hand-off
            # cannot interleave with this run's last writes.
            self.active = False
            self._task = None

    # ------------------------------------------------------------ the loop's callbacks

    def _wire(self, ui: RalphCallbacks | None) -> RalphCallbacks:
        """The loop's callbacks: the Coordinator's own first, then the UI's."""
        own = RalphCallbacks(
            on_iteration_start=self._on_iteration_start,
            on_usage=self._on_usage,
            on_gates=self._on_gates,
            on_context_pressure=self._on_context_pressure,
            on_status=self._on_status,
            on_error=self._on_error,
            on_budget=self._on_budget,
        )
        chains = [c for c in (self.ui_callbacks, ui) if c is not None]
        if not chains:
            return own
        wired = {}
        default = RalphCallbacks()
        for f in fields(RalphCallbacks):
            handlers = [getattr(own, f.name)] + [
                getattr(c, f.name)
                for c in chains
                if getattr(c, f.name) is not getattr(default, f.name)
            ]
            wired[f.name] = _chain(f.name, handlers)
        return RalphCallbacks(**wired)

    def _on_iteration_start(self, iteration: int, max_iterations: int) -> None:
        self.hub.set("iteration", iteration=iteration, max_iterations=max_iterations)

    def _on_usage(self, _iteration: int, _call: UsageData, total: UsageData) -> None:
        self.hub.set("usage", persist=False, usage=total)

    def _on_gates(self, _iteration: int, results: list[GateResult]) -> None:
        self.hub.set("gates", persist=False, gate_results=tuple(results))

    def _on_context_pressure(self, estimated: int, window: int, headroom: float) -> None:
        """Log that Ralph's context is nearly full (numbers only, never content).

        The loop reports it for every call built under 10% headroom; the first
        report of an iteration is a warning, the repeats are debug records.
        """
        state = self.hub.state
        iteration = state.iteration
        first = iteration != self._pressure_iteration
        self._pressure_iteration = iteration
        logger.log(
            logging.WARNING if first else logging.DEBUG,
            "coordinator: Ralph's context is nearly full (run %s, iteration %d): "
            "~%d of %d tokens, %.1f%% left",
            state.run_id,
            iteration,
            estimated,
            window,
            headroom * 100,
        )

    def _on_status(self, status: RalphStatus, iteration: int) -> None:
        # The run's end is recorded from the runner's result, not from here:
        # a terminal status reported early must not release the busy flag.
        if status == RalphStatus.RUNNING:
            self.hub.set("status", iteration=max(iteration, self.hub.state.iteration))
        else:
            self.hub.emit("status")

    def _on_budget(self, budget: RunBudget, forecast: str) -> None:
        self.hub.set("budget", persist=False, budget=budget, forecast=forecast)

    def _on_error(self, err: BaseException) -> None:
        self.hub.set("status", last_error=f"{type(err).__name__}: {err}")


def _chain(name: str, handlers: list[Callable[..., Any]]) -> Callable[..., None]:
    def call(*args: Any) -> None:
        for handler in handlers:
            try:
                handler(*args)
            except Exception:  # a view's bug must not stop Ralph's loop
                logger.exception("coordinator: callback %s failed", name)

    return call
