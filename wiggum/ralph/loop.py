"""Ralph's loop: fresh context every iteration, files as memory, gates at the end.

One iteration: build the context from ``.ralph/`` -> ``chat()`` with the
tools -> dispatch the calls -> call again with the results, until the model
stops calling tools (it claims completion: structured report, then gates)
or the iteration's tool-call budget is spent, a stall is detected or the
tool calls are all broken.  What went wrong is written to
``.ralph/feedback.md`` for the next, equally fresh, iteration.

Consistency under cancellation: every file is written whole and
``status.txt`` is written last when an iteration ends, so at any await
point the status either still shows the last finished iteration or (when
the loop got to say so) ``cancelled``.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any

from wiggum.fs import FileStore
from wiggum.llm import (
    AbortError,
    AbortSignal,
    ContextOverflowError,
    EmptyResponseError,
    LLMError,
    LLMResponse,
    MalformedToolCallError,
    Message,
    ProviderConfig,
    ProviderError,
    ToolDefinition,
    UsageData,
    chat,
    is_empty_response,
    log_event,
    parse_output,
    validate_tool_calls,
)
from wiggum.llm.transport import Transport
from wiggum.preview.entry import site_files
from wiggum.tools import Tool, ToolContext, ToolRegistry, default_tools, dispatch_for_model
from wiggum.tools.fence import fence_result

from . import feedback as fb
from .acceptance import (
    has_probes,
    probe_feedback,
    read_criteria,
    unmet,
)
from .approval import gated
from .config import RalphConfig
from .context import ContextBuilder, StateSnapshot
from .gates import Gate, check_gates, default_gates
from .guard import RunGuard
from .impact import GetImpactTool
from .memory import latest_reflections, reflect
from .prompt import COMPLETION_REQUEST, build_system_prompt
from .run_state import RunState, Stop, open_run, run_result
from .site_checks import SiteReport
from .state import TMP_DIR, RalphState
from .summary import IterationLog, render_completion
from .types import (
    RalphCallbacks,
    RalphCompletion,
    RalphReflection,
    RalphResult,
    RalphRunner,
    RalphStatus,
    RunBudget,
    RunRequest,
)
from .words import describe_error, overflow_message

__all__ = ["RalphConfig", "RalphLoop", "RalphStalledError", "make_runner"]


#: The site checks run after each iteration (``wiggum.ralph.site_checks``).
SiteChecks = Callable[[FileStore], Awaitable[SiteReport]]


class RalphStalledError(Exception):
    """Reported through ``on_error`` when the loop stops on a stall."""


class RalphLoop:
    def __init__(
        self,
        provider: ProviderConfig,
        fs: FileStore,
        *,
        config: RalphConfig | None = None,
        callbacks: RalphCallbacks | None = None,
        transport: Transport | None = None,
        gates: Sequence[Gate] | None = None,
        llm_lock: AbstractAsyncContextManager[Any] | None = None,
        logger: logging.Logger | None = None,
        tools: Sequence[Tool] | None = None,
        site_checks: SiteChecks | None = None,
    ) -> None:
        self.provider = provider
        #: Run over the site after every iteration; what fails goes into the next one's context.
        self.site_checks = site_checks
        self.fs = fs
        self.config = config or RalphConfig()
        self.callbacks = callbacks or RalphCallbacks()
        self.transport = transport
        self.gates = list(default_gates() if gates is None else gates)
        self.llm_lock = llm_lock
        self.logger = logger or logging.getLogger("wiggum.ralph")
        self.registry = ToolRegistry(
            [*default_tools(), GetImpactTool()] if tools is None else tools
        )
        self.definitions: list[ToolDefinition] = self.registry.definitions()
        self.state = RalphState(fs, now=self.config.now)
        self.tool_ctx = ToolContext(
            # His tools ask the person before changing more than N of their files.
            fs=gated(fs, self.config.ask_before_changing, self.config.approve),
            tmp_dir=TMP_DIR,
            logger=self.logger.getChild("tools"),
            env=dict(self.config.tool_env),
        )
        self.builder = ContextBuilder(
            provider,
            build_system_prompt(self.definitions),
            self.definitions,
            fs,
            max_tokens=self.config.max_tokens,
            on_pressure=self.callbacks.on_context_pressure,
            logger=self.logger,
        )

    # ------------------------------------------------------------------ run

    async def run(self, request: RunRequest) -> RalphResult:
        run: RunState | None = None
        try:
            run = await self._start(request)
            first = run.record.iteration + 1
            self.callbacks.on_status(RalphStatus.RUNNING, first)
            await self._forecast(run, first)
            for iteration in range(first, run.max_iterations + 1):
                run.iteration = iteration
                self._check_abort()
                await self._iteration(run, iteration)
            raise Stop(
                RalphStatus.MAX_ITERATIONS,
                f"Stopped after {run.max_iterations} iterations without passing the checks.",
            )
        except Stop as stop:
            if run is None:
                return self._bare_result(stop)
            return await self._finish(run, stop)
        except AbortError:
            if run is None:
                return self._bare_result(Stop(RalphStatus.CANCELLED))
            return await self._finish(run, Stop(RalphStatus.CANCELLED, "Cancelled."))
        except asyncio.CancelledError:
            if run is not None:
                await self._record_cancel(run)
            raise
        except ContextOverflowError as err:
            stop = Stop(RalphStatus.ERROR, overflow_message(err), cause=err)
            return await self._finish(run, stop) if run else self._bare_result(stop)
        except LLMError as err:
            describe = self.config.describe_error or describe_error
            stop = Stop(RalphStatus.ERROR, describe(err), cause=err)
            return await self._finish(run, stop) if run else self._bare_result(stop)
        except Exception as err:
            self.logger.exception("ralph: the loop failed")
            stop = Stop(RalphStatus.ERROR, f"Ralph failed: {type(err).__name__}: {err}", cause=err)
            return await self._finish(run, stop) if run else self._bare_result(stop)

    async def _start(self, request: RunRequest) -> RunState:
        opened = await open_run(self.state, self.config, self.provider, request)
        if isinstance(opened, str):
            raise Stop(RalphStatus.ERROR, opened)
        self._use_limits(opened.guard)
        return opened

    def _use_limits(self, guard: RunGuard) -> None:
        """Calls from now on respect the limits refusals taught (window, reply size)."""
        self.provider = guard.provider(self.provider)
        self.builder.use_provider(self.provider)

    async def _forecast(self, run: RunState, first: int) -> None:
        """Before the first call: what the run is estimated to spend, said with its cap."""
        built = await self.builder.build(first, run.max_iterations, await self._snapshot(), [])
        start, most = built.preflight.estimated_tokens, run.max_iterations
        forecast = run.guard.forecast(start, most, done=first - 1)
        log_event(self.logger, "ralph:forecast", tokens=forecast.tokens, cost=forecast.cost)
        self.callbacks.on_budget(run.guard.budget or RunBudget(), forecast.text(run.guard.budget))

    # ------------------------------------------------------------------ one iteration

    async def _iteration(self, run: RunState, iteration: int) -> None:
        cfg = self.config
        cb = self.callbacks
        cb.on_iteration_start(iteration, run.max_iterations)
        snapshot = await self._snapshot()
        log = IterationLog(iteration)
        transcript: list[Message] = []
        feedback: list[str] = []
        calls_used = 0
        empty_retried = False
        malformed_streak = 0
        learned_retry = False
        while True:
            self._check_abort()
            built = await self.builder.build(iteration, run.max_iterations, snapshot, transcript)
            try:
                response = await self._call(
                    run, iteration, built.messages, built.preflight.estimated_tokens
                )
            except ContextOverflowError as err:
                # The provider's window is smaller than known: keep it, build again once.
                if learned_retry or not run.guard.learn(err, built.preflight.estimated_tokens):
                    raise
                learned_retry = True
                self._use_limits(run.guard)
                continue
            if response is None or is_empty_response(response):
                if empty_retried:
                    raise Stop(
                        RalphStatus.ERROR,
                        "The model returned an empty reply twice in a row. Try again, or "
                        "choose another model.",
                    )
                # One retry, with the problem in the feedback the fresh context shows.
                empty_retried = True
                log_event(self.logger, "llm:empty-response", iteration=iteration)
                snapshot.feedback = f"{snapshot.feedback.strip()}\n\n{fb.empty_feedback()}".strip()
                await self.state.write_feedback(snapshot.feedback + "\n")
                continue
            if response.reasoning:
                cb.on_reasoning(iteration, response.reasoning)
            if not response.tool_calls:
                await self._claim(run, iteration, snapshot, transcript, response, feedback, log)
                return
            if response.content.strip():
                cb.on_intent(iteration, response.content)
                log.intent(response.content)

            repeats = self._track_stall(run, iteration, response.tool_call_signature)
            if repeats >= cfg.stall_abort_at:
                cb.on_stall(repeats, response.tool_call_signature or "")
                log.outcome(f"stalled: the same tool calls {repeats} times in a row")
                raise Stop(
                    RalphStatus.STALLED,
                    f"Ralph stalled: he made the same tool calls {repeats} times in a row "
                    "without making progress.",
                    cause=RalphStalledError(f"identical tool calls {repeats} times in a row"),
                )
            if repeats >= cfg.stall_feedback_at:
                cb.on_stall(repeats, response.tool_call_signature or "")
                failures = run.record.gate_failures.get("stall", 0) + 1
                run.record.gate_failures["stall"] = failures
                feedback.append(fb.stall_feedback(repeats, failures))
                log.outcome(f"stall detected ({repeats} identical replies); iteration ended")
                break

            checked = validate_tool_calls(response.tool_calls)
            transcript.append(response.to_message())
            for bad in checked.malformed:
                message = f"Error: {bad.message}"
                transcript.append(
                    Message.tool(bad.call.id, message, bad.call.name or None, is_error=True)
                )
                cb.on_tool_call(iteration, bad.call.name or "", bad.call.args, message, True)
                log.action(bad.call.name or "(no name)", bad.call.args, message, True)
                calls_used += 1
            if checked.malformed and not checked.valid:
                malformed_streak += 1
                if malformed_streak >= cfg.max_malformed_replies:
                    feedback.append(fb.malformed_feedback([m.message for m in checked.malformed]))
                    log.outcome("every tool call was malformed; iteration ended")
                    break
            else:
                malformed_streak = 0
            for call in checked.valid:
                if calls_used >= cfg.max_tool_calls_per_iteration:
                    # Every call needs an answer for the history to stay valid.
                    transcript.append(
                        Message.tool(call.id, "Not run: the tool-call budget is spent.", call.name)
                    )
                    continue
                self._check_abort()
                result, model_text = await dispatch_for_model(self.registry, call, self.tool_ctx)
                # What a tool read reaches the model as data, never as instructions.
                shown = (
                    model_text
                    if result.is_error
                    else fence_result(model_text, call.name, call.args)
                )
                transcript.append(Message.tool(call.id, shown, call.name, is_error=result.is_error))
                cb.on_tool_call(iteration, call.name, call.args, result.output, result.is_error)
                log.action(call.name, call.args, result.output, result.is_error)
                run.guard.note_output(call.name, result.output)
                calls_used += 1
            if calls_used >= cfg.max_tool_calls_per_iteration:
                feedback.append(fb.budget_feedback(cfg.max_tool_calls_per_iteration))
                log.outcome(f"tool-call budget ({cfg.max_tool_calls_per_iteration}) spent")
                break
        await self._end_iteration(run, iteration, feedback, log)

    async def _claim(
        self,
        run: RunState,
        iteration: int,
        snapshot: StateSnapshot,
        transcript: list[Message],
        response: LLMResponse,
        feedback: list[str],
        log: IterationLog,
    ) -> None:
        """The model stopped calling tools: get its report, then run the gates."""
        completion, error = parse_output(response.content, RalphCompletion)
        if completion is None and response.content.strip():
            self.callbacks.on_intent(iteration, response.content)
            log.intent(response.content)
        if completion is None:
            self._check_abort()
            transcript.append(response.to_message())
            ask = [Message.user(COMPLETION_REQUEST)]
            built = await self.builder.build(
                iteration, run.max_iterations, snapshot, transcript, extra=ask
            )
            reply = await self._call(
                run,
                iteration,
                built.messages,
                built.preflight.estimated_tokens,
                output_schema=RalphCompletion,
                # Anthropic wants the tools declared when the history has tool calls.
                tool_choice="none",
            )
            if reply is not None:
                if isinstance(reply.output, RalphCompletion):
                    completion = reply.output
                else:
                    completion, error = parse_output(reply.content, RalphCompletion)
        if completion is None:
            feedback.append(fb.completion_feedback(error))
            log.outcome("claimed completion without a readable report")
            await self._end_iteration(run, iteration, feedback, log)
            return
        if completion.status != "complete":
            log.outcome(f"reported {completion.status}")
            raise Stop(RalphStatus.BLOCKED, completion.summary, completion=completion)
        counts = run.record.gate_failures
        results = run.gate_results = await check_gates(
            self.gates, self.fs, counts, self._check_abort
        )
        self.callbacks.on_gates(iteration, results)
        failed = [r for r in results if not r.passed]
        checked = frozenset(r.gate for r in results)
        if failed:
            feedback.append(fb.gate_feedback(failed, counts))
            log.outcome("completion claimed; checks failed: " + ", ".join(r.gate for r in failed))
            await self._end_iteration(run, iteration, feedback, log, checked)
            return
        criteria = await read_criteria(self.fs)
        probed = bool(criteria) or await has_probes(self.fs)
        report = await self._site_report() if probed else None
        waived = [u.criterion for u in completion.unprobed]
        if report is None or not unmet(report.probes, criteria, waived):
            log.outcome("completion claimed; all checks passed")
            raise Stop(RalphStatus.COMPLETE, completion=completion, gate_results=results)
        # Done means every criterion checked: the probes' failures go into his next context.
        log.outcome("completion claimed; acceptance probes failed")
        await self._end_iteration(run, iteration, feedback, log, checked, report, claimed=True)

    # ------------------------------------------------------------------ pieces

    async def _call(
        self,
        run: RunState,
        iteration: int,
        messages: list[Message],
        estimated: int,
        *,
        output_schema: type[RalphCompletion] | None = None,
        tool_choice: str | None = None,
    ) -> LLMResponse | None:
        """One ``chat()`` (under the provider lock); ``None`` for an empty reply.

        Not made when its estimate (``estimated`` tokens sent, and a reply)
        would pass the run's cap: the run stops there, resumable.  A reply
        whose tool calls all lack a name comes back as the reply, so its calls
        are answered with errors like any other malformed call.
        """
        cfg = self.config
        over = run.guard.before_call(estimated, run.ledger.total)
        if over is not None:
            raise Stop(RalphStatus.BUDGET_SPENT, over)
        wait = run.guard.wait_left()
        if wait > 0:
            await (cfg.sleep or asyncio.sleep)(wait)
        options = cfg.request_options(
            tools=self.definitions,
            output_schema=output_schema,
            tool_choice=tool_choice,
            max_tokens=run.guard.reply_limit(cfg.max_tokens),
            temperature=cfg.temperature,
            reasoning_budget=cfg.reasoning_budget,
        )
        response: LLMResponse | None
        try:
            async with self.llm_lock or contextlib.nullcontext():
                response = await chat(self.provider, messages, options, transport=self.transport)
        except EmptyResponseError as err:
            response = None
            await self._account(run, iteration, err.partial)
        except MalformedToolCallError as err:
            response = err.partial
            await self._account(run, iteration, response)
        except ProviderError as err:
            run.guard.learn(err, estimated)  # a reply limit, a rate limit: kept for the next call
            raise
        else:
            await self._account(run, iteration, response)
        return response

    async def _account(self, run: RunState, iteration: int, response: LLMResponse | None) -> None:
        usage = response.usage if response is not None else None
        if usage is None:
            return
        model = response.model or self.provider.model
        run.ledger.add(iteration, usage, model, self.config.now())
        run.guard.saw(usage)
        self.callbacks.on_usage(iteration, usage, run.ledger.total or UsageData())
        await self.state.write_usage(run.ledger)

    def _track_stall(self, run: RunState, iteration: int, signature: str | None) -> int:
        """How many replies in a row made exactly these calls (1 = new)."""
        if signature is not None and signature == run.last_signature:
            run.repeats += 1
        else:
            run.repeats = 1 if signature is not None else 0
        run.last_signature = signature
        if run.repeats >= self.config.stall_warn_at:
            log_event(
                self.logger,
                "llm:stall-detected",
                iteration=iteration,
                consecutive=run.repeats,
                signature=signature,
            )
        return run.repeats

    def _check_abort(self) -> None:
        signal: AbortSignal | None = self.config.signal
        if signal is not None and signal.aborted:
            raise AbortError(self.provider.id, self.provider.model, signal.reason)

    async def _snapshot(self) -> StateSnapshot:
        s = self.state
        return StateSnapshot(
            task=await s.task(),
            plan=await s.plan(),
            progress=await s.progress(),
            feedback=await s.feedback(),
            summary=await s.summary(),
            files=await site_files(self.fs),
            reflections=latest_reflections(await s.reflections()),
        )

    async def _end_iteration(
        self,
        run: RunState,
        iteration: int,
        feedback: list[str],
        log: IterationLog,
        checked: frozenset[str] = frozenset(),
        report: SiteReport | None = None,
        *,
        claimed: bool = False,
    ) -> None:
        """``checked``: the gates that ran this iteration (their failures are in
        ``feedback`` already); ``report``: the site checks' round already run;
        ``claimed``: Ralph said he was done (the probes say he is not)."""
        report = report or await self._site_report()
        if report is not None:
            text = fb.site_feedback([r for r in report.failed if r.gate not in checked])
            criteria = await read_criteria(self.fs)
            probes = probe_feedback(report.probes, criteria, claimed=claimed)
            feedback += [t for t in (text, probes) if t]
        # Status last: a cancel before it leaves the previous iteration on record.
        await self.state.write_feedback("\n".join(feedback))
        await self.state.write_summary(log.render())
        run.record.iteration = iteration
        await self.state.write_status(run.record)

    async def _site_report(self) -> SiteReport | None:
        """A round of the site checks and the probes (``None``: none are run here)."""
        if self.site_checks is None:
            return None
        self._check_abort()
        return await self.site_checks(self.fs)

    async def _finish(self, run: RunState, stop: Stop) -> RalphResult:
        cb = self.callbacks
        record = run.record
        iteration = run.iteration or record.iteration
        if stop.status in (RalphStatus.CANCELLED, RalphStatus.BUDGET_SPENT):
            iteration = record.iteration  # the interrupted iteration did not finish
        if stop.status is not RalphStatus.CANCELLED:
            if stop.completion is not None:
                await self.state.write_summary(render_completion(iteration, stop.completion))
            if stop.status is RalphStatus.COMPLETE:
                await self.state.write_feedback("")
            record.iteration = iteration
        record.status = stop.status
        record.error = stop.error
        reflection = None
        if self.config.reflect and stop.status is not RalphStatus.CANCELLED:
            reflection = await self._reflect(run, stop)
        await self.state.write_status(record)
        result = run_result(run, stop, iteration, reflection)
        cb.on_status(stop.status, iteration)
        if stop.cause is not None:
            cb.on_error(stop.cause)
        if stop.status in (RalphStatus.COMPLETE, RalphStatus.BLOCKED):
            cb.on_complete(result)
        return result

    async def _reflect(self, run: RunState, stop: Stop) -> RalphReflection:
        """His look back at the run (``.ralph/reflections.md``); the call is made
        only if it fits the cap, and counts toward it."""

        async def ask(messages: list[Message]) -> LLMResponse | None:
            if stop.status is RalphStatus.ERROR:
                return None  # the provider just failed: what is known is written instead
            estimated = self.builder.check(messages).estimated_tokens
            if run.guard.before_call(estimated, run.ledger.total) is not None:
                return None
            options = self.config.request_options(output_schema=RalphReflection)
            reply = await chat(self.provider, messages, options, transport=self.transport)
            await self._account(run, run.iteration or run.record.iteration, reply)
            return reply

        return await reflect(
            self.state, ask, run.record.run_id, stop.status.value, stop.error, run.guard.missing
        )

    async def _record_cancel(self, run: RunState) -> None:
        """Best effort after a task cancel: say ``cancelled``, keep the last finished iteration."""
        run.record.status = RalphStatus.CANCELLED
        run.record.error = "Cancelled."
        try:
            await self.state.write_status(run.record)
        except Exception:  # the status still shows the last finished iteration
            self.logger.warning("ralph: could not record the cancellation")
        self.callbacks.on_status(RalphStatus.CANCELLED, run.record.iteration)

    def _bare_result(self, stop: Stop) -> RalphResult:
        """A run that ended before it had any state (nothing to resume, no task)."""
        self.callbacks.on_status(stop.status, 0)
        if stop.cause is not None:
            self.callbacks.on_error(stop.cause)
        return RalphResult(status=stop.status, iterations=0, error=stop.error)


def make_runner(provider: ProviderConfig, fs: FileStore, **options: Any) -> RalphRunner:
    """A :data:`RalphRunner` for the Coordinator: a fresh loop per run.

    ``options`` are :class:`RalphLoop`'s keywords (``config``, ``transport``,
    ``gates``, ``llm_lock``, …) but ``callbacks``, which each run brings.
    """
    if "callbacks" in options:
        raise TypeError("make_runner: callbacks come with each run, not with the runner")
    inspect.signature(RalphLoop).bind(provider, fs, **options)  # a wrong keyword fails here

    async def runner(request: RunRequest, callbacks: RalphCallbacks) -> RalphResult:
        loop = RalphLoop(provider, fs, callbacks=callbacks, **options)
        return await loop.run(request)

    return runner
