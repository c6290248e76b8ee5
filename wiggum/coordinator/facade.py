"""The :class:`Coordinator`: one object per open project, the seam Chief and the
page talk to.  It composes the parts that do the work (see the package
docstring) and keeps the one public face they use."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Sequence

from wiggum.fs import FileStore

from .contract import RalphCallbacks, RalphRunner, RunBudget
from .files import NOTICE_PATH, PLAN_PATH, PROMPT_PATH, StatusFiles, render_status
from .handoff import clean_criteria
from .locks import ProviderLease, ProviderLocks
from .notice import BuildReport, notice_banner, post_build_notice_text
from .recovery import read_state
from .report import recovery_message, status_report
from .runs import RalphRuns
from .state import CoordinatorState, News, Recovery, StateHub, Subscriber

__all__ = ["Coordinator"]


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
        after_run: Callable[[CoordinatorState], Awaitable[None]] | None = None,
    ) -> None:
        """``after_run(state)`` is awaited once each run's end is written to
        ``.chief/`` and ``.ralph/``, before another hand-off can start and
        before :meth:`wait` returns."""
        self.fs = fs
        self._clock = clock
        #: Shareable so a runner built before the Coordinator can use the same locks.
        self.locks = locks or ProviderLocks()
        self._files = StatusFiles(fs, lambda: render_status(self._hub.state))
        self._hub = StateHub(clock, self._files.persist_soon)
        self._news = News()
        self._runs = RalphRuns(
            ralph_runner, self._hub, self._files, self._news, clock, callbacks, after_run
        )

    # ------------------------------------------------------------ state + events

    @property
    def state(self) -> CoordinatorState:
        return self._hub.state

    @property
    def is_running(self) -> bool:
        return self._runs.active

    @property
    def write_error(self) -> BaseException | None:
        """The last storage failure (the run goes on; the page may show it)."""
        return self._files.write_error

    def subscribe(self, callback: Subscriber) -> Callable[[], None]:
        """Call ``callback(event)`` on every change; returns the unsubscribe function."""
        return self._hub.subscribe(callback)

    async def flush(self) -> None:
        """Wait for status writes scheduled from (synchronous) loop callbacks."""
        await self._files.flush()

    # ------------------------------------------------------------ files

    async def write_plan(self, content: str) -> str:
        """Save the agreed plan to ``.chief/plan.md``; returns the path."""
        text = content.strip()
        if not text:
            raise ValueError("the plan is empty")
        if not await self._files.write(PLAN_PATH, text + "\n"):
            raise OSError(f"could not save {PLAN_PATH}: {self.write_error}")
        self._hub.set("plan", persist=False)
        return PLAN_PATH

    # ------------------------------------------------------------ runs

    async def send_to_ralph(
        self,
        prompt: str,
        *,
        plan_summary: str | None = None,
        callbacks: RalphCallbacks | None = None,
        plan: str = "",
        acceptance: Sequence[str] = (),
        budget: RunBudget | None = None,
        fresh: bool = False,
    ) -> str:
        """Write the hand-off and start Ralph on ``prompt``; returns a confirmation.

        ``plan`` (the agreed plan: Chief's hand-off and the Build button pass
        :meth:`saved_plan`; a one-off task none) goes with the prompt whole;
        ``acceptance``: the criteria the person agreed to, each of which Ralph
        writes as a probe; ``budget``: this run's cap (``None``: the runner's
        default); ``fresh``: clear his memory first (only when the person
        asked).  Raises :class:`HandoffRefused` (with a message for the person)
        when a run is going or the prompt is empty.
        """
        return await self._runs.send(
            prompt,
            plan_summary=plan_summary,
            callbacks=callbacks,
            plan=plan,
            acceptance=clean_criteria(acceptance),
            budget=budget,
            fresh=fresh,
        )

    async def saved_plan(self) -> str:
        """The plan saved in ``.chief/plan.md`` (``""``: none yet)."""
        return (await self._files.read(PLAN_PATH) or "").strip()

    async def resume_ralph(
        self,
        *,
        callbacks: RalphCallbacks | None = None,
        budget: RunBudget | None = None,
        more_iterations: int | None = None,
        note: str | None = None,
    ) -> str:
        """Continue the run recorded in ``.ralph/``: interrupted, stopped, failed,
        or ended at its limit, a stall or its cap (then with ``more_iterations``,
        a raised ``budget`` and the person's ``note`` for his context)."""
        return await self._runs.resume(
            callbacks=callbacks, budget=budget, more_iterations=more_iterations, note=note
        )

    async def wait(self) -> CoordinatorState:
        """Wait until the current run (if any) has ended and its files are written."""
        await self._runs.wait()
        await self.flush()
        return self._hub.state

    async def stop_ralph(self) -> str:
        """Cancel the run; status becomes ``cancelled`` once its files are written."""
        return await self._runs.stop()

    # ------------------------------------------------------------ reload

    async def recover_state(self) -> Recovery:
        """Read ``.chief/`` and ``.ralph/`` after a reload; report, never restart."""
        has_plan = await self.fs.exists(PLAN_PATH)
        has_prompt = await self.fs.exists(PROMPT_PATH)
        if self._runs.active:  # a live run is the truth; nothing to recover
            return Recovery(self.state, has_plan, has_prompt, self._news.notice is not None, "")
        state, found = await read_state(self._files, self._news, self._clock, has_prompt=has_prompt)
        self._hub.state = state
        self._hub.emit("recovered")
        if found:
            await self._files.persist()
        notice = self._news.notice
        return Recovery(
            state, has_plan, has_prompt, notice is not None, recovery_message(state, notice)
        )

    async def watch_state(self) -> CoordinatorState:
        """Read ``.chief/`` and ``.ralph/`` as another tab's run leaves them.

        For a tab that shows a project another tab owns: a run the files call
        running is going there (not interrupted), and nothing is written.
        Subscribers hear ``recovered`` with the state read.
        """
        if self._runs.active:
            return self.state
        has_prompt = await self.fs.exists(PROMPT_PATH)
        state, _ = await read_state(
            self._files, self._news, self._clock, has_prompt=has_prompt, live=True
        )
        self._hub.state = state
        self._hub.emit("recovered")
        return state

    # ------------------------------------------------------------ for Chief

    @property
    def pending_notice(self) -> BuildReport | None:
        """The finished run Chief has not been told about (peek; not consumed)."""
        return self._news.notice

    def notice_banner(self) -> str | None:
        """A short line for the page while a notice is pending."""
        return notice_banner(self._news.notice) if self._news.notice else None

    async def post_build_notice(self) -> str | None:
        """The post-build message for Chief, once: taking it removes it for good.

        Async because consuming it is durable (``.chief/notice.json`` is
        removed), so a reload does not tell Chief the same news twice.
        """
        report = self._news.notice
        if report is None:
            return None
        self._news.notice = None
        await self._files.remove(NOTICE_PATH)
        self._hub.emit("notice")
        return post_build_notice_text(report)

    def check_ralph_status(self) -> str:
        """Ralph's status as a few lines a person (or Chief) can read."""
        return status_report(
            self._hub.state,
            notice=self._news.notice,
            feedback=self._news.feedback,
            now=self._clock(),
        )

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
