"""Ralph's runs in the open project, as the app drives them.

The runner the Coordinator calls (the provider for Ralph's role, his gates
with the browser's checks, the site checks after each iteration, shown as
``SiteChecked`` and fed into his next context, one LLM caller per provider), a History checkpoint
after every iteration that changed files (the previous one's when the next
starts, the last once the run's end is written), his context meter, what
the page shows of his state, and the note to Chief when a build ends.

Pure: the browser's checks come from the :class:`~wiggum.session.host.Host`,
the page hears of everything through typed messages (``session.events``).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any

from wiggum.coordinator import Coordinator, CoordinatorEvent, ProviderLocks
from wiggum.fs import StorageFull
from wiggum.llm.limits import limits_key
from wiggum.persist.guarded import ProjectPaused
from wiggum.project.history_errors import HistoryError
from wiggum.project.service import is_agent_memory
from wiggum.ralph.types import RunBudget
from wiggum.ui.errors import explain
from wiggum.ui.model_choice import run_meter
from wiggum.ui.ralph_budget import ContinueRequest
from wiggum.ui.settings import Settings

from .approval import ApprovalDesk
from .events import (
    ActionRefused,
    CheckpointRefused,
    CriteriaWaived,
    MessageShown,
    NoticeShown,
    RalphMeterShown,
    RalphStateShown,
    SiteChecked,
    WorkspaceChanged,
)
from .providers import local_fix, provider_for
from .refusals import NOT_STARTED, Refusal, paused

__all__ = ["RalphSession", "default_budget", "notice_text"]

log = logging.getLogger("wiggum.session")


def notice_text(coordinator: Coordinator) -> str:
    """The line above Chief's box when a build ended: what happened, and to ask him."""
    report = coordinator.pending_notice
    if report is not None and str(report.status) == "complete":
        return "Ralph finished — ask me about the results"
    banner = coordinator.notice_banner() or "Ralph stopped"
    # Most banners already end in their own "— ask me …"; say it once.
    return banner if "— ask me" in banner else banner + " — ask me about it"


def default_budget(settings: Settings) -> RunBudget | None:
    """The settings' cap for a run that names none."""
    budget = RunBudget(settings.ralph_cap_usd, settings.ralph_cap_tokens)
    return budget if budget.capped else None


def checkpoint_refused_text(exc: BaseException) -> str:
    """What to say when a checkpoint could not be kept (the files themselves were
    saved before it): the reason in the person's words, or that the Log has it."""
    if isinstance(exc, StorageFull | HistoryError):
        return f"Saved, but no checkpoint was kept in History. {exc}"
    return (
        "Saved, but no checkpoint was kept in History: something went wrong (the details "
        "are in the Log)."
    )


class _AfterCheckpoint:
    """Ralph's LLM lock, entered once the previous iteration's checkpoint is kept:
    the next iteration's first call (so any file it writes) waits for it, and each
    checkpoint holds its own iteration's changes, however long the first one takes
    (the page loads git's code for it)."""

    def __init__(self, lock: Any, session: RalphSession) -> None:
        self.lock, self.session = lock, session

    async def __aenter__(self) -> Any:
        pending = self.session.pending_checkpoint
        if pending is not None and not pending.done():
            await asyncio.wait([pending])  # its failure is said by the checkpoint itself
        return await self.lock.__aenter__()

    async def __aexit__(self, *exc: Any) -> Any:
        return await self.lock.__aexit__(*exc)


@dataclass(eq=False, kw_only=True)
class RalphSession:
    """``settings()`` is the current settings; ``paused()`` why this tab may not
    write the project (``None``: it may); ``note_turn()`` starts Chief's turn on
    Ralph's report (``ChiefSession.note_turn``); ``emit`` tells the page."""

    host: Any
    settings: Callable[[], Settings]
    locks: ProviderLocks
    paused: Callable[[], str | None]
    note_turn: Callable[[], bool]
    emit: Callable[[Any], None]
    #: The HTTP transport (``None``: the environment's: fetch in the page).
    transport: Any = None
    #: Stores changed settings (a provider limit a refusal taught); ``None``: not kept.
    keep_settings: Callable[[Settings], Awaitable[Any]] | None = None
    coordinator: Coordinator | None = field(default=None, init=False)
    #: The open project's transcript: a run's start and end are written there.
    transcript: Any = field(default=None, init=False)
    project_id: str | None = field(default=None, init=False)
    #: What Ralph said he would do in each iteration of the run going on.
    intents: dict[int, str] = field(default_factory=dict, init=False)
    #: A resume was asked: the next run that starts is that resumption.
    _resuming: bool = field(default=False, init=False)
    #: The previous iteration's checkpoint being taken (the next call waits for it).
    pending_checkpoint: Any = field(default=None, init=False)
    #: Asks the person before Ralph deletes or overwrites more than N of their files.
    approvals: ApprovalDesk = field(init=False)

    def __post_init__(self) -> None:
        self.approvals = ApprovalDesk(self.emit)

    # ------------------------------------------------------------ the runner

    def gates(self) -> Any:
        from wiggum.ralph.gates import default_gates

        checkers = self.host.checkers()
        if checkers is None:
            return default_gates()
        return default_gates(js_checker=checkers.js, preview_checker=checkers.preview)

    async def check_site(self, fs: Any) -> Any:
        """Run the site checks (the files', then the browser's) and show them."""
        from wiggum.ralph.probe_page import probe_site
        from wiggum.ralph.site_checks import run_site_checks, site_check_gates

        checkers = self.host.checkers()
        frame = None if checkers is None else checkers.probe_frame
        probes = None if frame is None else functools.partial(probe_site, make_frame=frame)
        report = await run_site_checks(fs, site_check_gates(), self.site_audit(), probes=probes)
        self.emit(SiteChecked(report))
        return report

    def site_audit(self) -> Any:
        """The browser's audit of the site (a ``BrowserAudit``; ``None`` without one)."""
        from wiggum.ralph.site_checks import audit_site

        checkers = self.host.checkers()
        load = None if checkers is None else checkers.audit
        axe = None if checkers is None else checkers.axe
        return None if load is None else functools.partial(audit_site, load=load, axe=axe)

    def steps(self) -> dict[str, Any]:
        """The iterations of the project's runs by their checkpoint's id (``IterationStep``)."""
        from wiggum.ui.runs import run_rows, steps_by_checkpoint

        if self.transcript is None:
            return {}
        return steps_by_checkpoint(run_rows(self.transcript.events))

    def runner(self, fs: Any, history: Any) -> Callable[[Any, Any], Awaitable[Any]]:
        """The Coordinator's ``ralph_runner`` for the project's files ``fs``."""

        async def run(request: Any, callbacks: Any) -> Any:
            from wiggum.ralph.config import RalphConfig
            from wiggum.ralph.loop import make_runner

            settings = self.settings()
            provider = provider_for(settings, self.project_id, "ralph")
            if isinstance(provider, Refusal):
                raise RuntimeError("No model provider is set up; open Settings first.")
            key = limits_key(provider.base_url, provider.model)
            loop = make_runner(
                provider,
                fs,
                config=RalphConfig(
                    proxy_template=settings.proxy_template,
                    timeout=settings.request_timeout_seconds,
                    describe_error=self._describe(settings),
                    max_iterations=settings.ralph_max_iterations,
                    budget=default_budget(settings),
                    reflect=settings.ralph_reflect,
                    learned_limits=settings.learned_limits.get(key),
                    on_limits_learned=functools.partial(self._learned, key),
                    ask_before_changing=settings.ask_before_changing,
                    approve=self.approvals.ask,
                ),
                gates=self.gates(),
                site_checks=self.check_site,
                llm_lock=_AfterCheckpoint(self.locks.hold(provider.id, "ralph"), self),
                transport=self.transport,
            )
            callbacks = self._with_waivers(
                self._with_meter(callbacks, provider.model, provider.kind)
            )
            return await loop(request, self._with_checkpoints(callbacks, history))

        return run

    def _learned(self, key: str, limits: Any) -> None:
        """A refusal taught a limit: keep it with the settings for the next call."""
        keep = self.keep_settings
        if keep is None:
            return
        settings = self.settings()
        learned = {**settings.learned_limits, key: limits}
        changed = settings.model_copy(update={"learned_limits": learned})
        self.host.spawn(keep(changed), what="keep a provider limit")

    def _describe(self, settings: Any) -> Callable[[Any], str]:
        """A failed call of his in the words Chief's failures are shown in."""
        p = settings.active()
        fix = local_fix(settings, self.host.origin) if p is not None else None

        def describe(err: Any) -> str:
            e = explain(
                err,
                provider_name=p.label if p is not None else None,
                proxy=p.proxy if p is not None else None,
                proxy_template=settings.proxy_template,
                local_fix=fix,
            )
            return f"{e.title}: {e.message}" if e is not None else "Stopped."

        return describe

    def _with_meter(self, callbacks: Any, model: str, kind: str) -> Any:
        """His meter shows what his latest call filled, and the run's cost so far."""
        inner = callbacks.on_usage

        def on_usage(iteration: int, call: Any, total: Any) -> None:
            inner(iteration, call, total)
            self.emit(RalphMeterShown(run_meter(call, total, model, kind)))

        return replace(callbacks, on_usage=on_usage)

    def _with_waivers(self, callbacks: Any) -> Any:
        """A run that ends with criteria Ralph says cannot be probed shows his reasons."""
        inner = callbacks.on_complete

        def on_complete(result: Any) -> None:
            inner(result)
            if result.completion is not None and result.completion.unprobed:
                self.emit(CriteriaWaived(list(result.completion.unprobed)))

        return replace(callbacks, on_complete=on_complete)

    def _with_checkpoints(self, callbacks: Any, history: Any) -> Any:
        """A checkpoint after every iteration that changed files: the previous
        iteration's when the next starts (his memory for it is written by then);
        the last is :meth:`after_run`'s."""
        last = [0]
        inner_start, inner_intent = callbacks.on_iteration_start, callbacks.on_intent
        intents = self.intents = {}

        def on_intent(i: int, text: str) -> None:
            if text.strip() and i not in intents:
                intents[i] = text
            inner_intent(i, text)

        def on_iteration_start(i: int, most: int) -> None:
            if last[0] and history is not None:
                work = self._checkpoint(history, last[0])
                self.pending_checkpoint = self.host.spawn(work, what="checkpoint")
            last[0] = i
            inner_start(i, most)

        return replace(callbacks, on_iteration_start=on_iteration_start, on_intent=on_intent)

    async def _checkpoint(self, history: Any, iteration: int) -> None:
        try:
            cp = await history.ralph_iteration(iteration, self.intents.get(iteration, ""))
            if cp is not None and self.transcript is not None:
                # The run list pairs the iteration with its checkpoint through this.
                files = [(f.path, f.kind) for f in cp.files if not is_agent_memory(f.path)]
                self.transcript.checkpointed(iteration, cp.id, files)
        except ProjectPaused:
            log.info("history: no checkpoint; another tab has the project now")
        except Exception as exc:
            log.exception("history: checkpoint after Ralph's iteration failed")
            self.checkpoint_refused(exc, person=False)

    def after_run(self, history: Any) -> Callable[[Any], Awaitable[None]]:
        """The Coordinator's ``after_run``: Ralph's last checkpoint, once the run's
        end is written to ``.ralph/`` and ``.chief/``, so it holds all the memory
        of his run and none of it is left for the person's next checkpoint."""

        async def after(state: Any) -> None:
            if history is not None and state.iteration:
                await self._checkpoint(history, state.iteration)

        return after

    def checkpoint_refused(self, exc: BaseException, *, person: bool) -> None:
        self.emit(CheckpointRefused(checkpoint_refused_text(exc), person))

    async def restore_meter(self, fs: Any) -> None:
        """His meter as his latest run left it in ``.ralph/usage.json`` (a reload); not
        when his transcript here has no run: the notes came with the project (an
        import), and what they spent was not spent here."""
        from wiggum.ralph.state import RalphState
        from wiggum.ralph.transcript import RunEvent

        transcript = self.transcript
        if transcript is not None and not any(isinstance(e, RunEvent) for e in transcript.events):
            return
        active = self.settings().active()
        try:
            ledger = await RalphState(fs).usage()
        except Exception:  # the meter is a nicety; opening the project goes on
            log.exception("Ralph's context meter could not be restored")
            return
        if ledger.last is None or not ledger.iterations:
            return
        model = ledger.iterations[-1].model
        meter = run_meter(ledger.last, ledger.total, model, active.kind if active else "")
        self.emit(RalphMeterShown(meter))

    # ------------------------------------------------------------ what the page shows

    def on_coordinator(self, event: CoordinatorEvent) -> None:
        state = event.state
        self.emit(RalphStateShown(state))
        transcript = self.transcript
        if event.kind == "started":
            if transcript is not None:
                transcript.run_started(self._resuming)
            self._resuming = False
        elif event.kind == "gates":
            self.emit(WorkspaceChanged(preview=True))
        elif event.kind in ("notice", "plan"):
            # Chief took the notice (.chief/notice.json is gone), or saved the plan
            # (.chief/plan.md): the file tree lists the files again.
            self.emit(WorkspaceChanged())
        elif event.kind == "finished":
            if transcript is not None:
                transcript.run_finished(state.last_result, state.status, state.last_error)
            self.emit(WorkspaceChanged(preview=True))
            if str(state.status) != "cancelled":
                self.host.spawn(self.after_build(self.coordinator), what="post-build notice")

    async def after_build(self, coordinator: Coordinator | None) -> None:
        """Ralph's run ended: say so above Chief's box, and tell Chief now if
        his provider is free (else his next turn reads it)."""
        if coordinator is None:
            return
        await coordinator.wait()
        if coordinator is not self.coordinator or coordinator.pending_notice is None:
            return
        if self.paused() is not None:
            return  # another tab has the project: Chief there hears of it
        self.emit(NoticeShown(notice_text(coordinator)))
        provider = provider_for(self.settings(), self.project_id, "chief")
        if isinstance(provider, Refusal) or self.locks.is_busy(provider.id):
            return
        self.note_turn()

    # ------------------------------------------------------------ the person's buttons

    def refuse(self) -> bool:
        """True (after saying why in Ralph's tab) when this tab may not start him."""
        text = self.paused()
        if text is None:
            return False
        self.emit(ActionRefused(paused(NOT_STARTED, text), "ralph"))
        return True

    async def resume(self) -> None:
        coordinator = self.coordinator
        if coordinator is None or self.refuse():
            return
        self._resuming = True
        try:
            await coordinator.resume_ralph()
        except Exception as err:
            self._resuming = False
            self.emit(RalphStateShown(coordinator.state))
            self.emit(MessageShown("Ralph could not resume", str(err)))

    def iterations(self) -> int:
        """The settings' iteration limit: how many more iterations Continue offers."""
        return self.settings().ralph_max_iterations

    async def continue_run(self, request: ContinueRequest) -> None:
        """Continue after the limit, a stall or the cap: more iterations, the cap
        as the form says, the person's note into his context."""
        coordinator = self.coordinator
        if coordinator is None or self.refuse():
            return
        self._resuming = True
        try:
            await coordinator.resume_ralph(
                budget=request.budget, more_iterations=request.more_iterations, note=request.note
            )
        except Exception as err:
            self._resuming = False
            self.emit(RalphStateShown(coordinator.state))
            self.emit(MessageShown("Ralph could not continue", str(err)))

    async def start_fresh(self) -> None:
        """Delete his memory in ``.ralph/`` (the person confirmed); never while he works."""
        from wiggum.ralph.state import RalphState

        coordinator = self.coordinator
        if coordinator is None or self.refuse():
            return
        if coordinator.is_running:
            self.emit(
                MessageShown("Ralph's memory was kept", "Stop Ralph first, then start fresh.")
            )
            return
        try:
            await RalphState(coordinator.fs).clear()
        except Exception as err:
            self.emit(MessageShown("Ralph's memory could not be deleted", str(err)))
            return
        self.emit(WorkspaceChanged())

    async def start_task(self, task: str) -> None:
        """A task typed on Ralph's tab: a run without Chief's hand-off."""
        coordinator = self.coordinator
        if coordinator is None or self.refuse():
            return
        try:
            await coordinator.send_to_ralph(task)
        except Exception as err:
            self.emit(MessageShown("Ralph could not start", str(err)))

    async def stop(self) -> None:
        if self.coordinator is not None:
            await self.coordinator.stop_ralph()

    def answer_approval(self, approved: bool) -> None:
        """The person's Approve (``True``) or Refuse on Ralph's paused change."""
        if not self.refuse():
            self.approvals.answer(approved)
