"""Chief's turns: streaming a reply, running its tool calls, asking again.

:class:`ChiefChat` is one of a project's conversations with Chief
(:class:`~wiggum.chief.conversation.Conversation`: its records, listeners and
storage) plus the turn engine.  A *turn* starts with the person
(:meth:`~ChiefChat.send`, :meth:`~ChiefChat.edit`) or a button
(:meth:`~ChiefChat.retry`, :meth:`~ChiefChat.continue_reply`,
:meth:`~ChiefChat.regenerate`) and runs until Chief has answered in words:
each reply streams through :func:`wiggum.llm.stream`, and a reply that calls
tools has them run (:mod:`wiggum.chief.tool_round`) and the model asked
again, up to ``max_tool_rounds`` times.  One turn runs at a time (``busy``);
:meth:`~ChiefChat.stop` aborts it and keeps what arrived
(``status="stopped"``); a failed reply keeps it too, with an
:class:`ErrorRecord` that the page explains.

Pure Python: storage, transport, clock and sleep are injected.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any, Protocol

from wiggum.llm import (
    AbortController,
    AbortError,
    LLMError,
    LLMResponse,
    Message,
    ProviderConfig,
    RequestOptions,
    stream,
)
from wiggum.llm.normalize import DEFAULT_QUIRKS, has_images
from wiggum.llm.transport import Transport
from wiggum.persist import AppStorage

from . import branches, request
from .attachments import Attachment
from .continuation import continuation_messages
from .conversation import AGENT, AUTOSAVE_SECONDS, ChatEvent, Conversation, Listener
from .drafting import WRITING_PLAN, PlanDraft
from .lease import LeaseKeeper, ProviderGate
from .prompt import CHIEF_SYSTEM_PROMPT
from .records import ChatRecord, ErrorRecord, records_to_messages
from .request import MIN_RECENT_MESSAGES
from .tool_round import Toolbox, UiEvent, activity_for, hands_off, run_call, tool_record

__all__ = [
    "AGENT",
    "AUTOSAVE_SECONDS",
    "MAX_TOOL_ROUNDS",
    "MIN_RECENT_MESSAGES",
    "ChatEvent",
    "ChatRecord",
    "ChiefChat",
    "ChiefCoordinator",
    "ErrorRecord",
    "Listener",
    "records_to_messages",
]

logger = logging.getLogger("wiggum.chief")

UiEventHandler = Callable[[UiEvent], Any]


class ChiefCoordinator(ProviderGate, Protocol):
    """What a turn needs of the Coordinator: the provider's lock, Ralph's news."""

    async def post_build_notice(self) -> str | None: ...


#: Tool-call rounds one turn may take before Chief has to answer in words.
MAX_TOOL_ROUNDS = 8


class ChiefChat(Conversation):
    """One project's conversation with Chief, and the turns that add to it."""

    def __init__(
        self,
        storage: AppStorage,
        project_id: str,
        *,
        system_prompt: str = CHIEF_SYSTEM_PROMPT,
        transport: Transport | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Any] | None = None,
        agent: str = AGENT,
        toolbox: Toolbox | None = None,
        coordinator: ChiefCoordinator | None = None,
        on_ui_event: UiEventHandler | None = None,
        max_tool_rounds: int = MAX_TOOL_ROUNDS,
        autosave_seconds: float = AUTOSAVE_SECONDS,
    ) -> None:
        super().__init__(
            storage,
            project_id,
            system_prompt=system_prompt,
            clock=clock,
            agent=agent,
            autosave_seconds=autosave_seconds,
        )
        self.transport = transport
        self.sleep = sleep
        #: ``definitions()`` and ``async dispatch(call)`` (``ChiefToolbox``).
        self.toolbox = toolbox
        #: The Coordinator: its provider lock around each call, its post-build notice.
        self.coordinator = coordinator
        self.on_ui_event = on_ui_event
        self.max_tool_rounds = max_tool_rounds
        #: What Chief is doing while tools run ("Chief is reading files…"), else None.
        self.activity: str | None = None
        #: The plan-writing tool call streaming now (``None``: none).
        self.draft: PlanDraft | None = None
        #: While the client waits to retry (a 429's Retry-After): the seconds it
        #: waits and why (``RateLimitError``…); ``None`` otherwise.
        self.retry_wait: tuple[float, str] | None = None
        self._leases = LeaseKeeper(coordinator, agent)

    @property
    def drafting_text(self) -> str | None:
        """ "Chief is writing the plan…" while a plan-writing call streams, else ``None``."""
        return WRITING_PLAN if self.draft is not None else None

    def _set_activity(self, text: str | None, reply: ChatRecord) -> None:
        self.activity = text
        self._emit("activity", reply)

    # ------------------------------------------------------------ entry points

    @contextlib.asynccontextmanager
    async def _turn_scope(self) -> AsyncIterator[AbortController]:
        """One turn: refused while another runs, aborted by :meth:`stop`, and
        however it ends, the chat is idle again after it."""
        if self.busy:
            raise RuntimeError("Chief is already answering")
        controller = AbortController()
        self._controller = controller
        try:
            yield controller
        finally:
            self._controller = None
            self.activity = None
            self.retry_wait = None
            await self._leases.release()

    async def send(
        self,
        text: str | None,
        provider: ProviderConfig,
        *,
        proxy_template: str | None = None,
        options: RequestOptions | None = None,
        images: Sequence[Attachment] = (),
    ) -> ChatRecord:
        """Send the person's ``text`` (``None``: only pending notes, e.g. Ralph's
        post-build notice) with ``images``; returns the last reply record when
        the turn has ended.

        With a toolbox, a reply that calls tools has them run, their results
        appended, and the model asked again, up to ``max_tool_rounds`` times.
        """
        async with self._turn_scope() as controller:
            notes: list[ChatRecord] = []
            notice = await self._take_notice()
            if notice:
                note = ChatRecord(seq=len(self.records), role="user", content=notice, note=True)
                notes.append(self._append(note))
            if (text is not None and text.strip()) or images:
                said = ChatRecord(
                    seq=len(self.records), role="user", content=text or "", images=list(images)
                )
                notes.append(self._append(said))
            if not notes:
                raise ValueError("nothing to send")
            for record in notes:
                self._emit("added", record)
                await self._save(record)
            return await self._turn(provider, controller, proxy_template, options)

    async def retry(
        self,
        provider: ProviderConfig,
        *,
        proxy_template: str | None = None,
        options: RequestOptions | None = None,
    ) -> ChatRecord:
        """Ask again for the last reply, which failed, was stopped or interrupted.

        The failed reply is kept but superseded (out of the history and the
        view), so the provider gets the person's message exactly once.
        """
        if not self.can_retry():
            raise RuntimeError("there is no failed reply to retry")
        async with self._turn_scope() as controller:
            failed = self._last()
            failed.superseded = True
            await self._save(failed)
            self._emit("superseded", failed)
            return await self._turn(provider, controller, proxy_template, options)

    async def continue_reply(
        self,
        provider: ProviderConfig,
        *,
        proxy_template: str | None = None,
        options: RequestOptions | None = None,
    ) -> ChatRecord:
        """Ask the model to continue the last, cut-off reply; what it writes is
        appended to the same reply (see :mod:`wiggum.chief.continuation`)."""
        if not self.can_continue():
            raise RuntimeError("there is no cut-off reply to continue")
        async with self._turn_scope() as controller:
            reply = self._last()
            reply.status = "streaming"
            reply.error = None
            await self._save(reply)
            self._emit("updated", reply)
            await self._run(
                reply, provider, controller, proxy_template, options, tools=False, resume=True
            )
            return reply

    async def regenerate(
        self,
        provider: ProviderConfig,
        *,
        proxy_template: str | None = None,
        options: RequestOptions | None = None,
    ) -> ChatRecord:
        """A new answer to the last message; the previous one stays as an alternative."""
        async with self._turn_scope() as controller:
            start = self.last_turn_start()
            if start is None:
                raise ValueError("nothing to regenerate")
            await self._move_path(start)
            return await self._turn(provider, controller, proxy_template, options)

    async def edit(
        self,
        seq: int,
        text: str,
        provider: ProviderConfig,
        *,
        proxy_template: str | None = None,
        options: RequestOptions | None = None,
    ) -> ChatRecord:
        """Send ``text`` in place of the person's message ``seq``; that message
        and what followed it stay as the earlier branch."""
        async with self._turn_scope() as controller:
            old = self.records[seq]
            if not branches.editable(old, text):
                raise ValueError("only the person's messages can be edited")
            parent = branches.parent_of(old)
            await self._move_path(parent)
            edited = ChatRecord(seq=len(self.records), role="user", content=text, parent=parent)
            await self._add(edited)
            return await self._turn(provider, controller, proxy_template, options)

    # ------------------------------------------------------------ the engine

    async def _turn(
        self,
        provider: ProviderConfig,
        controller: AbortController,
        proxy_template: str | None,
        options: RequestOptions | None,
    ) -> ChatRecord:
        reply = await self._new_reply(provider)
        rounds = 0
        while True:
            await self._run(reply, provider, controller, proxy_template, options)
            if (
                reply.status != "complete"
                or not reply.tool_calls
                or self.toolbox is None
                or controller.signal.aborted
            ):
                break
            rounds += 1
            await self._run_tools(reply, provider)
            if controller.signal.aborted:
                break
            reply = await self._new_reply(provider)
            if rounds >= self.max_tool_rounds:
                # One last call without tools, so the turn ends in words.
                await self._run(reply, provider, controller, proxy_template, options, tools=False)
                break
        return reply

    async def _take_notice(self) -> str | None:
        if self.coordinator is None:
            return None
        try:
            return await self.coordinator.post_build_notice()
        except Exception:
            logger.exception("chief: could not take the post-build notice")
            return None

    async def _new_reply(self, provider: ProviderConfig) -> ChatRecord:
        return await self._add(
            ChatRecord(
                seq=len(self.records),
                role="assistant",
                status="streaming",
                provider=provider.id,
                provider_name=provider.name or provider.id,
                model=provider.model,
            )
        )

    async def _run_tools(self, reply: ChatRecord, provider: ProviderConfig) -> None:
        """Run the reply's tool calls in order; one tool record per call.

        The provider is free while tools run, except around a hand-off: Chief
        reserves it for his acknowledgement first (:mod:`wiggum.chief.lease`).
        """
        if hands_off(reply.tool_calls):
            await self._leases.reserve(provider)
        for call in reply.tool_calls:
            self._set_activity(activity_for(call.name), reply)
            outcome = await run_call(self.toolbox, call)
            await self._add(tool_record(len(self.records), call, outcome))
            if outcome.ui_event is not None and self.on_ui_event is not None:
                try:
                    self.on_ui_event(outcome.ui_event)
                except Exception:
                    logger.exception("chief: ui event handler failed")
        self._set_activity(None, reply)

    async def _run(
        self,
        reply: ChatRecord,
        provider: ProviderConfig,
        controller: AbortController,
        proxy_template: str | None,
        options: RequestOptions | None,
        *,
        tools: bool = True,
        resume: bool = False,
    ) -> None:
        opts = request.call_options(
            options,
            signal=controller.signal,
            proxy_template=proxy_template,
            tools=self.toolbox.definitions() if self.toolbox is not None else None,
            use_tools=tools,
            sleep=self.sleep,
            on_retry=lambda seconds, err: self._waiting_to_retry(reply, seconds, err),
        )
        prefix = ""
        try:
            messages, budget = self.prepare(provider, opts.tools, opts.max_tokens)
            reply.trimmed = budget.trimmed
            if resume:
                messages, prefix = continuation_messages(messages, provider.kind)
                reply.content = prefix
            if controller.signal.aborted:
                raise AbortError(provider.id, provider.model, controller.signal.reason)
            waiting = self._leases.waiting_for(provider)
            if waiting:
                self._set_activity(waiting, reply)
            async with self._leases.for_call(provider):
                if waiting:
                    self._set_activity(None, reply)
                if controller.signal.aborted:
                    raise AbortError(provider.id, provider.model, controller.signal.reason)
                await self._stream(reply, provider, messages, opts, prefix)
                reply.images_stripped = has_images(messages) and (
                    DEFAULT_QUIRKS.refuses_images(provider)
                )
        except AbortError as err:
            self._keep_partial(reply, err.partial, prefix)
            reply.status = "stopped"
        except LLMError as err:
            self._keep_partial(reply, err.partial, prefix)
            reply.status = "error"
            reply.error = ErrorRecord.from_error(err, provider, proxy_template)
        except asyncio.CancelledError:
            reply.status = "stopped"
            await self._end_reply(reply)
            raise
        except Exception as err:
            logger.exception("chief: the reply failed")
            reply.status = "error"
            reply.error = ErrorRecord.from_error(err, provider, proxy_template)
        self._waiting_to_retry(reply, None, None)
        await self._end_reply(reply)

    async def _end_reply(self, reply: ChatRecord) -> None:
        """Write the reply as it ended, after the autosaves still in flight."""
        await self._flush()
        await self._save(reply)
        self._emit("updated", reply)

    def _waiting_to_retry(self, reply: ChatRecord, seconds: float | None, err: Any) -> None:
        """Tell the page the client waits ``seconds`` before trying again
        (``None``: the wait is over)."""
        wait = None if seconds is None else (float(seconds), getattr(err, "name", "error"))
        if wait == self.retry_wait:
            return
        self.retry_wait = wait
        self._emit("retry-wait", reply)

    async def _stream(
        self,
        reply: ChatRecord,
        provider: ProviderConfig,
        messages: list[Message],
        opts: RequestOptions,
        prefix: str = "",
    ) -> None:
        result = await stream(provider, messages, opts, transport=self.transport)
        # The reply so far is the stream's own accumulator (``result.partial``),
        # read after each delta, never summed here a second time.  A continued
        # reply keeps the words (``prefix``) and the reasoning it had before.
        so_far, thought = result.partial, reply.reasoning or ""

        def read() -> None:
            reply.content = prefix + so_far.content
            reply.reasoning = (thought + so_far.reasoning) or None

        try:
            async for delta in result.deltas:
                if self.retry_wait is not None:
                    self._waiting_to_retry(reply, None, None)
                kind = delta.type
                if kind == "usage":
                    reply.usage = delta.data
                    continue
                if kind == "tool_call_start" or kind == "tool_call_delta":
                    self._drafting(reply, delta)
                    continue
                if kind != "content" and kind != "reasoning":
                    continue
                read()
                self._emit("delta", reply)
                self._autosave(reply)
        finally:
            if self.draft is not None:
                self.draft = None
                self._emit("drafting", reply)
        try:
            response = await result.response
        except LLMError:
            # Finishing the failed reply may have flushed a held-back tail (a
            # half-read ``<think`` that was text after all): read it once more.
            read()
            raise
        self._complete(reply, response, prefix, thought)

    def _drafting(self, reply: ChatRecord, delta: Any) -> None:
        """A plan-writing call starts or grows: the page shows it as it is written."""
        if delta.type == "tool_call_start":
            draft = PlanDraft.starts(delta.name, delta.index)
            if draft is None:
                return
            self.draft = draft
        elif self.draft is None or delta.index != self.draft.index:
            return
        else:
            self.draft.feed(delta.args)
        self._emit("drafting", reply)

    @staticmethod
    def _complete(
        reply: ChatRecord, response: LLMResponse, prefix: str = "", thought: str = ""
    ) -> None:
        """The finished reply: the response is the accumulator's reply made whole."""
        reply.content = prefix + response.content
        reply.reasoning = (thought + (response.reasoning or "")) or None
        reply.tool_calls = list(response.tool_calls)
        reply.thinking = list(response.thinking)
        reply.usage = response.usage or reply.usage
        reply.finish_reason = str(response.finish_reason)
        reply.citations = list(response.citations)
        reply.provider_blocks = list(response.provider_blocks)
        reply.status = "complete"

    @staticmethod
    def _keep_partial(reply: ChatRecord, partial: LLMResponse | None, prefix: str = "") -> None:
        """After a failed or stopped call.  The reply's text is already the
        accumulator's: ``_stream`` read it after every delta and once more on
        the error, so nothing is compared or summed again here.  ``partial``
        (the error's reply, built from that same accumulator) adds its usage."""
        if partial is not None and partial.usage is not None:
            reply.usage = partial.usage
