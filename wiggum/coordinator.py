"""The Coordinator: the seam between Chief (planner) and Ralph (build loop).

It owns three things, and nothing else:

- **Ralph's run**: starts the runner as an asyncio task (:meth:`send_to_ralph`,
  :meth:`resume_ralph`), cancels it (:meth:`stop_ralph`), and keeps a
  :class:`CoordinatorState` snapshot that subscribers receive on every change.
- **``.chief/`` files**, written through the FileStore as things happen, so a
  reload finds them (:meth:`recover_state`):

  ``prompt.md``      the task Ralph was given (Chief's hand-off), verbatim
  ``plan.md``        the agreed plan (:meth:`write_plan`)
  ``status.txt``     ``key: value`` lines: state, run_id, iteration, timestamps
  ``last_result.json`` the last :class:`RalphResult` (summary, gates, usage)
  ``notice.json``    a finished run Chief has not been told about yet

- **One LLM caller at a time per provider** (:meth:`llm_lock`).  Policy: a
  provider is a ``ProviderConfig.id`` (one endpoint + key, so one rate limit);
  Chief and Ralph take the provider's lock around each *call* (request through
  the end of its stream), never around a whole iteration or run.  Waiters are
  served first come, first served (``asyncio.Lock``), nobody is pre-empted, so
  a message typed to Chief while Ralph works goes out as soon as Ralph's
  current call ends, between two of his calls.  Different providers never
  wait for each other.  :meth:`is_busy` lets the input say so beforehand.
  Wiring (one ``ProviderLocks`` per page, shared)::

      locks = ProviderLocks()
      runner = make_runner(provider, fs, llm_lock=locks.hold(provider.id, "ralph"))
      coordinator = Coordinator(fs, ralph_runner=runner, locks=locks)
      async with coordinator.llm_lock(chief_provider.id, "chief"):
          ...  # one stream() call, read to its end

A run interrupted by a reload is never silently lost nor silently restarted:
:meth:`recover_state` reports it as *interrupted* and ``resumable``; only
:meth:`resume_ralph` continues it (``RunRequest(task=None, resume=True)``).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import secrets
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, replace
from typing import Any, Literal

from pydantic import ValidationError

from wiggum.chief.awareness import BuildReport, notice_banner, post_build_notice_text
from wiggum.fs import FileNotFound, FileStore, FileStoreError, PathError
from wiggum.llm import UsageData
from wiggum.ralph.types import (
    GateResult,
    RalphCallbacks,
    RalphResult,
    RalphRunner,
    RalphStatus,
    RunRequest,
)

__all__ = [
    "FEEDBACK_PATH",
    "NOTICE_PATH",
    "PLAN_PATH",
    "PROMPT_PATH",
    "RALPH_STATUS_PATH",
    "RESULT_PATH",
    "STATUS_PATH",
    "Coordinator",
    "CoordinatorEvent",
    "CoordinatorState",
    "HandoffRefused",
    "ProviderLease",
    "ProviderLocks",
    "Recovery",
    "parse_status_text",
]

logger = logging.getLogger("wiggum.coordinator")

PROMPT_PATH = ".chief/prompt.md"
PLAN_PATH = ".chief/plan.md"
STATUS_PATH = ".chief/status.txt"
RESULT_PATH = ".chief/last_result.json"
NOTICE_PATH = ".chief/notice.json"
RALPH_STATUS_PATH = ".ralph/status.txt"
FEEDBACK_PATH = ".ralph/feedback.md"
RALPH_SUMMARY_PATH = ".ralph/summary.md"

#: ``status.txt`` state of a run that was going when the page went away.
INTERRUPTED = "interrupted"

_TERMINAL = frozenset(RalphStatus) - {RalphStatus.IDLE, RalphStatus.RUNNING}

EventKind = Literal[
    "started",  # a run began (or resumed)
    "iteration",  # Ralph began an iteration
    "status",  # the loop reported a status
    "usage",  # token usage / cost moved
    "gates",  # quality gates were checked
    "finished",  # the run ended (see state.status)
    "recovered",  # recover_state() read the files after a reload
    "plan",  # .chief/plan.md was written
    "notice",  # the post-build notice was taken by Chief
]


class HandoffRefused(RuntimeError):
    """Ralph cannot be started now; the message says why, in words for the person."""


@dataclass(frozen=True, slots=True)
class CoordinatorState:
    """A snapshot: subscribers may keep it, nothing mutates it."""

    status: RalphStatus = RalphStatus.IDLE
    run_id: str | None = None
    iteration: int = 0
    max_iterations: int = 0
    started_at: float | None = None
    updated_at: float | None = None
    finished_at: float | None = None
    last_result: RalphResult | None = None
    last_error: str | None = None
    #: Running total while a run goes; the result's total after it.
    usage: UsageData | None = None
    gate_results: tuple[GateResult, ...] = ()
    #: The page went away while this run was going (status stays ``running``
    #: in the files' history but no task is alive).
    interrupted: bool = False
    #: ``resume_ralph()`` may continue this run from ``.ralph/``.
    resumable: bool = False
    #: The one-line plan summary given with the hand-off, for the page.
    handoff_summary: str | None = None

    @property
    def running(self) -> bool:
        return self.status == RalphStatus.RUNNING and not self.interrupted

    @property
    def label(self) -> str:
        """``interrupted`` or the status value: what a badge shows."""
        return INTERRUPTED if self.interrupted else self.status.value


@dataclass(frozen=True, slots=True)
class CoordinatorEvent:
    kind: EventKind
    state: CoordinatorState


@dataclass(frozen=True, slots=True)
class Recovery:
    """What :meth:`Coordinator.recover_state` found."""

    state: CoordinatorState
    has_plan: bool
    has_prompt: bool
    notice_pending: bool
    #: One sentence for the person (empty when there is nothing to say).
    message: str

    @property
    def interrupted(self) -> bool:
        return self.state.interrupted

    @property
    def resumable(self) -> bool:
        return self.state.resumable


Subscriber = Callable[[CoordinatorEvent], Any]


class ProviderLease:
    """``async with lease:`` holds the provider for one LLM call.

    Reusable, like an ``asyncio.Lock``: Ralph's loop keeps one lease and enters
    it around each of its calls (``make_runner(..., llm_lock=lease)``).
    """

    def __init__(self, locks: ProviderLocks, provider_id: str, who: str = "") -> None:
        self._locks = locks
        self.provider_id = provider_id
        self.who = who

    async def __aenter__(self) -> ProviderLease:
        await self._locks._acquire(self.provider_id, self.who)
        return self

    async def __aexit__(self, *_exc: object) -> None:
        self._locks._release(self.provider_id)


class ProviderLocks:
    """One LLM call at a time per provider id (see the module docstring)."""

    def __init__(self) -> None:
        self._locks: dict[str, asyncio.Lock] = {}
        self._holders: dict[str, str] = {}
        self._waiting: dict[str, int] = {}

    def hold(self, provider_id: str, who: str = "") -> ProviderLease:
        """A reusable async context manager around one call to ``provider_id``."""
        return ProviderLease(self, provider_id, who)

    async def _acquire(self, provider_id: str, who: str) -> None:
        lock = self._locks.setdefault(provider_id, asyncio.Lock())
        self._waiting[provider_id] = self._waiting.get(provider_id, 0) + 1
        try:
            await lock.acquire()
        finally:
            self._waiting[provider_id] -= 1
        self._holders[provider_id] = who

    def _release(self, provider_id: str) -> None:
        self._holders.pop(provider_id, None)
        self._locks[provider_id].release()

    def is_busy(self, provider_id: str) -> bool:
        lock = self._locks.get(provider_id)
        return lock is not None and lock.locked()

    def holder(self, provider_id: str) -> str | None:
        """Who holds the provider (``"chief"``, ``"ralph"``, ...), when busy."""
        return self._holders.get(provider_id) if self.is_busy(provider_id) else None

    def waiting(self, provider_id: str) -> int:
        return self._waiting.get(provider_id, 0)


def parse_status_text(text: str | None) -> dict[str, str]:
    """``key: value`` lines -> dict.  A bare first word (``running``) is the state.

    Tolerant on purpose: ``.ralph/status.txt`` is written by the loop, whose
    format may be a single word; ``status`` is taken as a synonym of ``state``.
    """
    out: dict[str, str] = {}
    for n, raw in enumerate((text or "").splitlines()):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = line.partition(":")
        if sep and key.strip().replace("_", "").isalnum():
            out[key.strip().lower()] = value.strip()
        elif n == 0 or "state" not in out:
            out.setdefault("state", line.split()[0].lower())
    if "state" not in out and "status" in out:
        out["state"] = out["status"].lower()
    return out


def _status_or_none(value: str | None) -> RalphStatus | None:
    try:
        return RalphStatus(value) if value else None
    except ValueError:
        return None


def _float_or_none(value: str | None) -> float | None:
    try:
        return float(value) if value else None
    except ValueError:
        return None


def _int(value: str | None) -> int:
    try:
        return int(value) if value else 0
    except ValueError:
        return 0


def _one_line(text: str, limit: int = 200) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


class Coordinator:
    """Chief <-> Ralph.  One per open project; all state lives on the instance."""

    def __init__(
        self,
        fs: FileStore,
        *,
        ralph_runner: RalphRunner,
        clock: Callable[[], float] = time.time,
        callbacks: RalphCallbacks | None = None,
        locks: ProviderLocks | None = None,
    ) -> None:
        self.fs = fs
        self._runner = ralph_runner
        self._clock = clock
        #: UI callbacks chained after the Coordinator's own, for every run.
        self._ui_callbacks = callbacks
        #: Shareable so a runner built before the Coordinator can use the same locks.
        self.locks = locks or ProviderLocks()
        self._state = CoordinatorState()
        self._subscribers: list[Subscriber] = []
        self._task: asyncio.Task[None] | None = None
        #: True from the moment a run is accepted until its end is recorded;
        #: set before any await so two quick hand-offs cannot both start.
        self._active = False
        self._notice: BuildReport | None = None
        self._feedback = ""
        self._write_lock = asyncio.Lock()
        self._write_queued = False
        self._background: set[asyncio.Task[Any]] = set()
        #: The iteration whose context pressure was last logged as a warning.
        self._pressure_iteration: int | None = None
        #: The last storage failure (the run goes on; the page may show it).
        self.write_error: BaseException | None = None

    # ------------------------------------------------------------ state + events

    @property
    def state(self) -> CoordinatorState:
        return self._state

    @property
    def is_running(self) -> bool:
        return self._active

    def subscribe(self, callback: Subscriber) -> Callable[[], None]:
        """Call ``callback(event)`` on every change; returns the unsubscribe function."""
        self._subscribers.append(callback)

        def unsubscribe() -> None:
            with contextlib.suppress(ValueError):
                self._subscribers.remove(callback)

        return unsubscribe

    def _emit(self, kind: EventKind) -> None:
        event = CoordinatorEvent(kind, self._state)
        for callback in list(self._subscribers):
            try:
                callback(event)
            except Exception:  # one broken view must not silence the others
                logger.exception("coordinator: subscriber failed on %s", kind)

    def _set(self, kind: EventKind, *, persist: bool = True, **changes: Any) -> None:
        self._state = replace(self._state, updated_at=self._clock(), **changes)
        self._emit(kind)
        if persist:
            self._persist_soon()

    # ------------------------------------------------------------ files

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.ensure_future(coro)
        # Held until done: the loop keeps only weak references to tasks.
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def flush(self) -> None:
        """Wait for status writes scheduled from (synchronous) loop callbacks."""
        while self._background:
            await asyncio.gather(*list(self._background), return_exceptions=True)

    def _persist_soon(self) -> None:
        # Coalesced: one queued write renders whatever the state is when it runs.
        if self._write_queued:
            return
        self._write_queued = True
        self._spawn(self._persist(queued=True))

    async def _persist(self, *, queued: bool = False) -> None:
        async with self._write_lock:
            if queued:
                self._write_queued = False
            await self._write(STATUS_PATH, self._render_status())

    async def _write(self, path: str, text: str) -> bool:
        try:
            await self.fs.write_text(path, text)
        except (FileStoreError, PathError, OSError) as err:
            # Storage trouble is reported, never allowed to break Ralph's run.
            self.write_error = err
            logger.warning("coordinator: could not write %s: %s", path, err)
            return False
        return True

    async def _read(self, path: str) -> str | None:
        try:
            return await self.fs.read_text(path)
        except (FileStoreError, PathError):
            return None

    async def _remove(self, path: str) -> None:
        try:
            await self.fs.remove(path)
        except FileNotFound:
            pass
        except (FileStoreError, PathError) as err:
            self.write_error = err
            logger.warning("coordinator: could not remove %s: %s", path, err)

    def _render_status(self) -> str:
        s = self._state
        fields: list[tuple[str, object]] = [
            ("state", s.label),
            ("run_id", s.run_id),
            ("iteration", s.iteration),
            ("max_iterations", s.max_iterations or None),
            ("resumable", "yes" if s.resumable else None),
            ("started_at", s.started_at),
            ("updated_at", s.updated_at),
            ("finished_at", s.finished_at),
            ("summary", _one_line(s.handoff_summary) if s.handoff_summary else None),
            ("error", _one_line(s.last_error) if s.last_error else None),
        ]
        lines = []
        for key, value in fields:
            if value is None:
                continue
            if isinstance(value, float):
                value = f"{value:.3f}"
            lines.append(f"{key}: {value}")
        return "\n".join(lines) + "\n"

    async def write_plan(self, content: str) -> str:
        """Save the agreed plan to ``.chief/plan.md``; returns the path."""
        text = content.strip()
        if not text:
            raise ValueError("the plan is empty")
        if not await self._write(PLAN_PATH, text + "\n"):
            raise OSError(f"could not save {PLAN_PATH}: {self.write_error}")
        self._set("plan", persist=False)
        return PLAN_PATH

    # ------------------------------------------------------------ runs

    async def send_to_ralph(
        self,
        prompt: str,
        *,
        plan_summary: str | None = None,
        callbacks: RalphCallbacks | None = None,
    ) -> str:
        """Write the hand-off and start Ralph on ``prompt``; returns a confirmation.

        Raises :class:`HandoffRefused` (with a message for the person) when a
        run is going or the prompt is empty.
        """
        task = prompt.strip()
        if self._active:
            raise HandoffRefused(self._busy_message())
        if not task:
            raise HandoffRefused("Nothing to send: the prompt for Ralph is empty.")
        self._active = True
        try:
            run_id = self._new_run_id()
            now = self._clock()
            self._notice = None
            self._set(
                "started",
                persist=False,
                status=RalphStatus.RUNNING,
                run_id=run_id,
                iteration=0,
                max_iterations=0,
                started_at=now,
                finished_at=None,
                last_error=None,
                usage=None,
                gate_results=(),
                interrupted=False,
                resumable=False,
                handoff_summary=(plan_summary or "").strip() or None,
            )
            await self._write(PROMPT_PATH, task + "\n")
            # A finished run's notice Chief never saw is superseded by this hand-off.
            await self._remove(NOTICE_PATH)
            await self._persist()
        except BaseException:
            self._active = False
            raise
        self._start(RunRequest(task=task), callbacks)
        return f"Ralph has started building (run {run_id})."

    async def resume_ralph(self, *, callbacks: RalphCallbacks | None = None) -> str:
        """Continue the interrupted (or stopped) run recorded in ``.ralph/``."""
        if self._active:
            raise HandoffRefused(self._busy_message())
        if not self._state.resumable:
            raise HandoffRefused("There is no interrupted run to resume.")
        self._active = True
        try:
            self._notice = None
            self._set(
                "started",
                persist=False,
                status=RalphStatus.RUNNING,
                finished_at=None,
                last_error=None,
                interrupted=False,
                resumable=False,
            )
            await self._persist()
        except BaseException:
            self._active = False
            raise
        self._start(RunRequest(task=None, resume=True), callbacks)
        return f"Ralph is resuming run {self._state.run_id} from iteration {self._state.iteration}."

    async def wait(self) -> CoordinatorState:
        """Wait until the current run (if any) has ended and its files are written."""
        task = self._task
        if task is not None:
            # asyncio.wait never raises the task's own cancellation into the waiter.
            await asyncio.wait({task})
        await self.flush()
        return self._state

    async def stop_ralph(self) -> str:
        """Cancel the run; status becomes ``cancelled`` once its files are written."""
        task = self._task
        # state.running turns false before the end is written: never cancel that write.
        if not self._state.running or task is None or task.done():
            return "Ralph isn't running."
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        return f"Stopped Ralph at iteration {self._state.iteration}."

    def _busy_message(self) -> str:
        s = self._state
        where = f" (iteration {s.iteration} of {s.max_iterations})" if s.max_iterations else ""
        return (
            f"Ralph is already working on run {s.run_id}{where}. "
            "Wait for him to finish, or stop him first."
        )

    def _new_run_id(self) -> str:
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(self._clock()))
        return f"{stamp}-{secrets.token_hex(2)}"

    def _start(self, request: RunRequest, callbacks: RalphCallbacks | None) -> None:
        self._task = asyncio.ensure_future(self._run(request, callbacks))

    async def _run(self, request: RunRequest, callbacks: RalphCallbacks | None) -> None:
        self._pressure_iteration = None
        wired = self._wire(callbacks)
        try:
            result = await self._runner(request, wired)
        except asyncio.CancelledError:
            await self._finish(
                RalphResult(
                    status=RalphStatus.CANCELLED,
                    iterations=self._state.iteration,
                    error="stopped before it finished",
                    usage=self._state.usage,
                    gate_results=list(self._state.gate_results),
                )
            )
            raise
        except Exception as err:
            logger.exception("coordinator: Ralph's run failed")
            result = RalphResult(
                status=RalphStatus.ERROR,
                iterations=self._state.iteration,
                error=f"{type(err).__name__}: {err}",
                usage=self._state.usage,
                gate_results=list(self._state.gate_results),
            )
        if result.status not in _TERMINAL:
            result = result.model_copy(
                update={
                    "status": RalphStatus.ERROR,
                    "error": f"the loop ended while reporting status {result.status.value}",
                }
            )
        await self._finish(result)

    async def _finish(self, result: RalphResult) -> None:
        now = self._clock()
        cancelled = result.status == RalphStatus.CANCELLED
        # Memory first (synchronously), so the state is right even if a write fails.
        self._set(
            "finished",
            persist=False,
            status=result.status,
            iteration=max(result.iterations, self._state.iteration),
            finished_at=now,
            last_result=result,
            last_error=None if result.status == RalphStatus.COMPLETE else result.error,
            usage=result.usage or self._state.usage,
            gate_results=tuple(result.gate_results) or self._state.gate_results,
            # The loop's state is on disk mid-run, so a stopped run can go on,
            # and a failed iteration can be run again (Retry).
            resumable=cancelled or result.status == RalphStatus.ERROR,
        )
        try:
            self._feedback = (await self._read(FEEDBACK_PATH) or "").strip()
            await self._write(RESULT_PATH, result.model_dump_json(indent=2))
            if not cancelled:  # the person stopped it: they need no news
                report = BuildReport.from_result(
                    result,
                    run_id=self._state.run_id or "",
                    max_iterations=self._state.max_iterations,
                    feedback=self._feedback,
                    finished_at=now,
                )
                self._notice = report
                await self._write(NOTICE_PATH, report.model_dump_json(indent=2))
            await self._persist()
        finally:
            # Busy until the files agree with the state, so a new hand-off
            # cannot interleave with this run's last writes.
            self._active = False
            self._task = None

    def _wire(self, ui: RalphCallbacks | None) -> RalphCallbacks:
        """The loop's callbacks: the Coordinator's own first, then the UI's."""
        own = RalphCallbacks(
            on_iteration_start=self._on_iteration_start,
            on_usage=self._on_usage,
            on_gates=self._on_gates,
            on_context_pressure=self._on_context_pressure,
            on_status=self._on_status,
            on_error=self._on_error,
        )
        chains = [c for c in (self._ui_callbacks, ui) if c is not None]
        if not chains:
            return own
        wired = {}
        default = RalphCallbacks()
        for f in dataclasses.fields(RalphCallbacks):
            handlers = [getattr(own, f.name)] + [
                getattr(c, f.name)
                for c in chains
                if getattr(c, f.name) is not getattr(default, f.name)
            ]
            wired[f.name] = _chain(f.name, handlers)
        return RalphCallbacks(**wired)

    def _on_iteration_start(self, iteration: int, max_iterations: int) -> None:
        self._set("iteration", iteration=iteration, max_iterations=max_iterations)

    def _on_usage(self, _iteration: int, _call: UsageData, total: UsageData) -> None:
        self._set("usage", persist=False, usage=total)

    def _on_gates(self, _iteration: int, results: list[GateResult]) -> None:
        self._set("gates", persist=False, gate_results=tuple(results))

    def _on_context_pressure(self, estimated: int, window: int, headroom: float) -> None:
        """Log that Ralph's context is nearly full (numbers only, never content).

        The loop reports it for every call built under 10% headroom; the first
        report of an iteration is a warning, the repeats are debug records.
        """
        iteration = self._state.iteration
        first = iteration != self._pressure_iteration
        self._pressure_iteration = iteration
        logger.log(
            logging.WARNING if first else logging.DEBUG,
            "coordinator: Ralph's context is nearly full (run %s, iteration %d): "
            "~%d of %d tokens, %.1f%% left",
            self._state.run_id,
            iteration,
            estimated,
            window,
            headroom * 100,
        )

    def _on_status(self, status: RalphStatus, iteration: int) -> None:
        # The run's end is recorded from the runner's result, not from here:
        # a terminal status reported early must not release the busy flag.
        if status == RalphStatus.RUNNING:
            self._set("status", iteration=max(iteration, self._state.iteration))
        else:
            self._emit("status")

    def _on_error(self, err: BaseException) -> None:
        self._set("status", last_error=f"{type(err).__name__}: {err}")

    # ------------------------------------------------------------ reload

    async def recover_state(self) -> Recovery:
        """Read ``.chief/`` and ``.ralph/`` after a reload; report, never restart."""
        has_plan = await self.fs.exists(PLAN_PATH)
        has_prompt = await self.fs.exists(PROMPT_PATH)
        if self._active:  # a live run is the truth; nothing to recover
            return Recovery(self._state, has_plan, has_prompt, self._notice is not None, "")
        chief = parse_status_text(await self._read(STATUS_PATH))
        ralph = parse_status_text(await self._read(RALPH_STATUS_PATH))
        self._feedback = (await self._read(FEEDBACK_PATH) or "").strip()
        self._notice = self._load_model(BuildReport, await self._read(NOTICE_PATH))
        last = self._load_model(RalphResult, await self._read(RESULT_PATH))

        chief_state = chief.get("state")
        ralph_status = _status_or_none(ralph.get("state"))
        started = _float_or_none(chief.get("started_at"))
        if ralph_status in _TERMINAL and started is not None:
            # A finished status older than the run we started is the previous run's
            # (the loop stamps ``updated``; the file's mtime is the fallback).
            written = _float_or_none(ralph.get("updated"))
            if written is None:
                with contextlib.suppress(FileStoreError, PathError):
                    written = (await self.fs.stat(RALPH_STATUS_PATH)).modified
            if written is not None and written < started:
                ralph_status = None
        was_running = chief_state in (RalphStatus.RUNNING.value, INTERRUPTED) or (
            not chief_state and ralph_status == RalphStatus.RUNNING
        )
        status = _status_or_none(chief_state) or RalphStatus.IDLE
        interrupted = False
        resumable = chief.get("resumable") == "yes"
        if was_running and ralph_status in _TERMINAL:
            # The loop wrote its own end after our last write: believe the loop.
            status = ralph_status
            resumable = ralph_status in (RalphStatus.CANCELLED, RalphStatus.ERROR)
            if self._notice is None and ralph_status != RalphStatus.CANCELLED:
                summary = (await self._read(RALPH_SUMMARY_PATH) or "").strip()
                self._notice = BuildReport(
                    run_id=chief.get("run_id", ""),
                    status=ralph_status,
                    iterations=_int(ralph.get("iteration") or chief.get("iteration")),
                    max_iterations=_int(chief.get("max_iterations")),
                    summary=summary,
                    feedback=self._feedback,
                    finished_at=self._clock(),
                )
                await self._write(NOTICE_PATH, self._notice.model_dump_json(indent=2))
        elif was_running:
            status, interrupted = RalphStatus.RUNNING, True
            resumable = has_prompt or ralph_status is not None
        self._state = CoordinatorState(
            status=status,
            run_id=chief.get("run_id") or None,
            iteration=_int(chief.get("iteration")),
            max_iterations=_int(chief.get("max_iterations")),
            started_at=started,
            updated_at=_float_or_none(chief.get("updated_at")),
            finished_at=_float_or_none(chief.get("finished_at")),
            last_result=last if status in _TERMINAL else None,
            last_error=chief.get("error") or None,
            usage=last.usage if last and status in _TERMINAL else None,
            gate_results=tuple(last.gate_results) if last and status in _TERMINAL else (),
            interrupted=interrupted,
            resumable=resumable,
            handoff_summary=chief.get("summary") or None,
        )
        self._emit("recovered")
        if chief or ralph:
            await self._persist()
        return Recovery(
            self._state, has_plan, has_prompt, self._notice is not None, self._recovery_message()
        )

    def _recovery_message(self) -> str:
        s = self._state
        if s.interrupted:
            at = f" at iteration {s.iteration}" if s.iteration else ""
            of = f" of {s.max_iterations}" if s.iteration and s.max_iterations else ""
            return (
                f"Ralph was interrupted{at}{of} when the page closed. "
                "His work so far is saved; you can resume the run."
            )
        if self._notice is not None:
            return notice_banner(self._notice)
        return ""

    @staticmethod
    def _load_model(model: Any, text: str | None) -> Any:
        if not text:
            return None
        try:
            return model.model_validate_json(text)
        except (ValidationError, json.JSONDecodeError, ValueError):
            logger.warning("coordinator: ignored an unreadable %s file", model.__name__)
            return None

    # ------------------------------------------------------------ for Chief

    @property
    def pending_notice(self) -> BuildReport | None:
        """The finished run Chief has not been told about (peek; not consumed)."""
        return self._notice

    def notice_banner(self) -> str | None:
        """A short line for the page while a notice is pending."""
        return notice_banner(self._notice) if self._notice else None

    async def post_build_notice(self) -> str | None:
        """The post-build message for Chief, once: taking it removes it for good.

        Async because consuming it is durable (``.chief/notice.json`` is
        removed), so a reload does not tell Chief the same news twice.
        """
        report = self._notice
        if report is None:
            return None
        self._notice = None
        await self._remove(NOTICE_PATH)
        self._emit("notice")
        return post_build_notice_text(report)

    def check_ralph_status(self) -> str:
        """Ralph's status as a few lines a person (or Chief) can read."""
        s = self._state
        if s.interrupted:
            return self._recovery_message()
        if s.status == RalphStatus.IDLE:
            return "Ralph is idle: nothing has been sent to him yet."
        if s.running:
            of = f" of {s.max_iterations}" if s.max_iterations else ""
            lines = [
                f"Ralph is running (run {s.run_id}): iteration {s.iteration}{of}"
                f"{self._ago(s.started_at, ', started ')}."
            ]
            if s.last_error:
                lines.append(f"Last problem reported: {s.last_error}")
        else:
            result = s.last_result
            lines = [
                f"Ralph's last run ({s.run_id}) ended: {s.status.value}"
                f" after {s.iteration} iteration{'s' if s.iteration != 1 else ''}"
                f"{self._ago(s.finished_at, ', ')}."
            ]
            summary = ""
            if result is not None:
                summary = result.summary or (result.completion.summary if result.completion else "")
            if summary:
                lines.append(f"Summary: {summary.strip()}")
            if s.last_error:
                lines.append(f"Reason: {s.last_error}")
            if s.resumable:
                lines.append("The run can be resumed.")
        failed = [g for g in s.gate_results if not g.passed]
        if failed:
            lines.append(f"Quality gates failed ({len(failed)} of {len(s.gate_results)}):")
            lines += [f"- {g.gate}: {g.message or 'failed'}" for g in failed]
        elif s.gate_results:
            lines.append(f"Quality gates: all {len(s.gate_results)} passed.")
        if self._feedback and not s.running:
            cut = self._feedback[:1500]
            more = " […]" if len(self._feedback) > 1500 else ""
            lines.append(f"Feedback (.ralph/feedback.md):\n{cut}{more}")
        if s.usage is not None:
            lines.append(_usage_line(s.usage))
        return "\n".join(lines)

    def _ago(self, when: float | None, prefix: str) -> str:
        if when is None:
            return ""
        secs = max(0, int(self._clock() - when))
        if secs < 60:
            return f"{prefix}{secs}s ago"
        if secs < 3600:
            return f"{prefix}{secs // 60} min ago"
        return f"{prefix}{secs // 3600} h ago"

    # ------------------------------------------------------------ LLM providers

    def llm_lock(self, provider_id: str, who: str = "") -> ProviderLease:
        """``async with coordinator.llm_lock(provider.id, "chief"):`` around one LLM call.

        The lease is reusable: hand one to Ralph's loop as its ``llm_lock``.
        """
        return self.locks.hold(provider_id, who)

    def is_busy(self, provider_id: str) -> bool:
        """Someone is calling this provider now; a new caller would wait."""
        return self.locks.is_busy(provider_id)

    def llm_holder(self, provider_id: str) -> str | None:
        return self.locks.holder(provider_id)


def _chain(name: str, handlers: list[Callable[..., Any]]) -> Callable[..., None]:
    def call(*args: Any) -> None:
        for handler in handlers:
            try:
                handler(*args)
            except Exception:  # a view's bug must not stop Ralph's loop
                logger.exception("coordinator: callback %s failed", name)

    return call


def _usage_line(usage: UsageData) -> str:
    cost = f", cost ${usage.cost:.4f}" if usage.cost is not None else ""
    return (
        f"Usage: {usage.total_tokens:,} tokens (prompt {usage.prompt_tokens:,}, "
        f"completion {usage.completion_tokens:,}){cost}."
    )
