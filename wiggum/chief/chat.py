"""Chief, first version: a streaming conversation, saved as it goes.

:class:`ChiefChat` holds one project's conversation with Chief.  Each
:meth:`~ChiefChat.send` appends the person's message and a reply record,
trims the history to the model's context budget (``budget_messages`` +
``with_trim_note``), streams the reply through :func:`wiggum.llm.stream`
and tells its listeners about every change (``"added"``, ``"delta"``,
``"updated"``), so a view can grow the reply as tokens arrive.

Records are saved write-through with ``AppStorage.put_message``: the reply
when it starts, after every change while it streams (one write in flight at
a time, later changes folded into the next write, so a reload loses at most
what arrived during one write), and when it ends.  :meth:`~ChiefChat.stop`
aborts the request; the partial reply is kept with ``status="stopped"``.
A failed reply keeps what arrived too, with ``status="error"`` and an
:class:`ErrorRecord` that the page explains.

The history is canonical :class:`~wiggum.llm.Message` objects converted
to and from :class:`ChatRecord` (tool calls, tool results, reasoning and
thinking signatures included), ready for the tools a later version adds.

Pure Python: storage, transport, clock and sleep are injected.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import time
from collections.abc import Callable, Sequence
from typing import Any, Literal

from pydantic import BaseModel, Field

from wiggum.llm import (
    AbortController,
    AbortError,
    Citation,
    LLMError,
    LLMResponse,
    Message,
    ParsedToolCall,
    ProviderConfig,
    RequestOptions,
    ThinkingBlock,
    ToolDefinition,
    UsageData,
    budget_messages,
    capability_for,
    stream,
    with_trim_note,
)
from wiggum.llm.budget import BudgetResult
from wiggum.llm.client import DEFAULT_REPLY_BUDGET
from wiggum.llm.normalize import DEFAULT_QUIRKS, has_images
from wiggum.llm.transport import Transport
from wiggum.llm.types import ImagePart, TextPart
from wiggum.persist import CHIEF, AppStorage

from . import branches
from .attachments import Attachment
from .continuation import continuation_messages

__all__ = [
    "AGENT",
    "SYSTEM_PROMPT",
    "ChatRecord",
    "ChiefChat",
    "ErrorRecord",
    "records_to_messages",
]

logger = logging.getLogger("wiggum.chief")

AGENT = CHIEF

SYSTEM_PROMPT = """\
You are Chief, the planner in Wiggum: a web page where a person plans and builds a small \
web project (HTML, CSS, JavaScript) with two AI agents. You talk with the person; later, \
Ralph, an autonomous builder, will write the code from the plan you agree on together.

Help the person work out what they want: ask short, concrete questions when something \
important is unclear, suggest sensible defaults, and keep the scope small enough to build \
in one go. Answer in Markdown. Be warm, brief and specific."""

Status = Literal["complete", "streaming", "stopped", "error", "interrupted"]
Role = Literal["system", "user", "assistant", "tool"]


class ErrorRecord(BaseModel):
    """What the page needs to explain a failed reply; never holds a key or prompt text."""

    name: str
    message: str = ""
    status: int | None = None
    error_type: str | None = None
    retry_after: float | None = None
    maybe_cors: bool = False
    detail: str | None = None
    provider: str = ""
    provider_name: str = ""
    model: str = ""
    #: The provider's proxy toggle, and whether a proxy URL was actually applied.
    proxy: bool = False
    proxied: bool = False
    estimated_tokens: int | None = None
    context_window: int | None = None
    #: How long the stream was silent before it was given up (``StreamIdleError``).
    idle_seconds: float | None = None

    @classmethod
    def from_error(
        cls,
        err: BaseException,
        provider: ProviderConfig | None = None,
        proxy_template: str | None = None,
    ) -> ErrorRecord:
        key = provider.secret() if provider is not None else ""

        def scrub(text: Any) -> str | None:
            if text is None:
                return None
            text = str(text)
            return text.replace(key, "****") if key else text

        if not isinstance(err, LLMError):
            return cls(
                name=type(err).__name__,
                message="internal error",
                provider=provider.id if provider else "",
                provider_name=(provider.name or provider.id) if provider else "",
                model=provider.model if provider else "",
            )
        proxy = bool(provider and provider.proxy)
        return cls(
            name=err.name,
            message=scrub(err.message) or "",
            status=getattr(err, "status", None),
            error_type=getattr(err, "error_type", None),
            retry_after=getattr(err, "retry_after", None),
            maybe_cors=bool(getattr(err, "maybe_cors", False)),
            detail=scrub(getattr(err, "detail", None)),
            provider=provider.id if provider else err.provider,
            provider_name=(provider.name or provider.id) if provider else err.provider,
            model=err.model or (provider.model if provider else ""),
            proxy=proxy,
            proxied=proxy and bool(proxy_template and "{href}" in proxy_template),
            estimated_tokens=getattr(err, "estimated_tokens", None),
            context_window=getattr(err, "context_window", None),
            idle_seconds=getattr(err, "idle_seconds", None),
        )


class ChatRecord(BaseModel):
    """One stored message of the conversation (``AppStorage.put_message`` record)."""

    seq: int
    role: Role
    content: str = ""
    reasoning: str | None = None
    tool_calls: list[ParsedToolCall] = Field(default_factory=list)
    tool_call_id: str | None = None
    name: str | None = None
    is_error: bool = False
    thinking: list[ThinkingBlock] = Field(default_factory=list)
    status: Status = "complete"
    finish_reason: str | None = None
    usage: UsageData | None = None
    error: ErrorRecord | None = None
    provider: str | None = None
    provider_name: str | None = None
    model: str | None = None
    created: float = Field(default_factory=time.time)
    #: How many earlier messages were left out of the request for this reply.
    trimmed: int = 0
    #: The person's images on a user message (base64, kept with the record).
    images: list[Attachment] = Field(default_factory=list)
    #: The model took no images: this reply's request went without them.
    images_stripped: bool = False
    #: A user-role note the page wrote, not the person (e.g. Ralph's post-build notice).
    note: bool = False
    #: Web sources the reply cites (the provider searched; see ``chief.research``).
    citations: list[Citation] = Field(default_factory=list)
    #: The reply's blocks as the provider wrote them, server-tool blocks included
    #: (Anthropic's web search): sent back unchanged in the history.
    provider_blocks: list[dict[str, Any]] = Field(default_factory=list, repr=False)

    #: Off the conversation's current path (``wiggum.chief.branches``): a retried
    #: failure, an earlier answer, the branch before an edit.  Kept, not shown or sent.
    superseded: bool = False
    #: The record this one follows; ``None`` in records from before branches (the one before).
    parent: int | None = None

    def __repr_args__(self):
        for name, value in super().__repr_args__():
            if name in ("content", "reasoning") and value:
                yield name, f"<{len(value)} hidden>"
            else:
                yield name, value

    def to_message(self) -> Message:
        content: Any = self.content
        if self.images:
            content = [TextPart(text=self.content)] if self.content else []
            content += [ImagePart(data=a.data, media_type=a.media_type) for a in self.images]
        return Message(
            role=self.role,
            content=content,
            tool_calls=list(self.tool_calls),
            tool_call_id=self.tool_call_id,
            name=self.name,
            is_error=self.is_error,
            reasoning=self.reasoning,
            thinking=list(self.thinking),
            provider_blocks=list(self.provider_blocks),
        )

    @classmethod
    def from_message(cls, message: Message, seq: int, **meta: Any) -> ChatRecord:
        return cls(
            seq=seq,
            role=message.role,
            content=message.text,
            tool_calls=list(message.tool_calls),
            tool_call_id=message.tool_call_id,
            name=message.name,
            is_error=message.is_error,
            reasoning=message.reasoning,
            thinking=list(message.thinking),
            provider_blocks=list(message.provider_blocks),
            **meta,
        )

    def to_storage(self) -> dict[str, Any]:
        return self.model_dump(mode="json", exclude_none=True)

    @classmethod
    def from_storage(cls, data: dict[str, Any]) -> ChatRecord:
        return cls.model_validate(data)


def _unanswered(records: Sequence[ChatRecord]) -> set[int]:
    """Indices of the person's messages whose turn got no answer (it failed or
    was stopped before any text) and that a later message follows: the model
    never saw them, and sending them along with the next one would make it
    answer both (the person retries a failed turn with Retry instead)."""
    out: set[int] = set()
    n = len(records)
    for i, r in enumerate(records):
        if r.role != "user":
            continue
        j = i
        while j < n and records[j].role == "user":
            j += 1
        answered = False
        while j < n and records[j].role != "user":
            a = records[j]
            if a.role == "assistant" and not a.superseded and (a.content.strip() or a.tool_calls):
                answered = True
            j += 1
        if not answered and j < n:
            out.add(i)
    return out


def records_to_messages(records: Sequence[ChatRecord]) -> list[Message]:
    """The records as history for the next request.

    Left out: system records, superseded replies, replies with nothing in
    them (an error before any text), the person's messages of a turn that got
    no answer when a later message follows (see :func:`_unanswered`), and tool
    calls whose results never came (a stopped turn): providers reject a call
    without its result.
    """
    records = [r for r in records if not r.superseded]
    answered = {r.tool_call_id for r in records if r.role == "tool" and r.tool_call_id}
    skip = _unanswered(records)
    out: list[Message] = []
    for i, r in enumerate(records):
        if r.role == "system" or i in skip:
            continue
        if r.role == "assistant":
            calls = [c for c in r.tool_calls if c.id in answered]
            if not r.content.strip() and not calls:
                continue
            msg = r.to_message()
            if len(calls) != len(r.tool_calls):
                msg = msg.model_copy(update={"tool_calls": calls})
            out.append(msg)
        else:
            out.append(r.to_message())
    return out


Listener = Callable[[str, ChatRecord], Any]


class _Held:
    """An already-entered lease used as ``async with``: only releases on exit."""

    def __init__(self, lease: Any) -> None:
        self.lease = lease

    async def __aenter__(self) -> Any:
        return self.lease

    async def __aexit__(self, *exc: object) -> None:
        await self.lease.__aexit__(None, None, None)


UiEventHandler = Callable[[dict[str, Any]], Any]

#: Tool-call rounds one turn may take before Chief has to answer in words.
MAX_TOOL_ROUNDS = 8
#: Seconds between two writes of a streaming reply.  Its end is written when it
#: ends, and the page writes what is left at once when it goes away
#: (:meth:`ChiefChat.save_now` on ``pagehide``), so a reload loses nothing.
AUTOSAVE_SECONDS = 0.25
#: Messages at the end of the history never trimmed: the last two turns (seed 000 §13).
MIN_RECENT_MESSAGES = 4

#: What the page says while Chief's tools run.
ACTIVITY = {
    "list_files": "Chief is reading files…",
    "read_file": "Chief is reading files…",
    "search_skills": "Chief is looking up design notes…",
    "write_plan": "Chief is saving the plan…",
    "send_to_ralph": "Chief is handing the plan to Ralph…",
    "check_ralph_status": "Chief is checking on Ralph…",
}


def activity_for(name: str) -> str:
    return ACTIVITY.get(name, f"Chief is using {name}…")


class ChiefChat:
    """One project's conversation with Chief."""

    def __init__(
        self,
        storage: AppStorage,
        project_id: str,
        *,
        system_prompt: str = SYSTEM_PROMPT,
        transport: Transport | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Any] | None = None,
        agent: str = AGENT,
        toolbox: Any = None,
        coordinator: Any = None,
        on_ui_event: UiEventHandler | None = None,
        max_tool_rounds: int = MAX_TOOL_ROUNDS,
        autosave_seconds: float = AUTOSAVE_SECONDS,
    ) -> None:
        self.storage = storage
        self.project_id = project_id
        self.system_prompt = system_prompt
        self.transport = transport
        self.clock = clock
        self.sleep = sleep
        self.agent = agent
        #: ``ChiefToolbox``-like: ``definitions()`` and ``async dispatch(call)``.
        self.toolbox = toolbox
        #: The Coordinator: its provider lock around each call, its post-build notice.
        self.coordinator = coordinator
        self.on_ui_event = on_ui_event
        self.max_tool_rounds = max_tool_rounds
        #: What Chief is doing while tools run ("Chief is reading files…"), else None.
        self.activity: str | None = None
        #: While the client waits to retry (a 429's Retry-After): the seconds it
        #: waits and why (``RateLimitError``…); ``None`` otherwise.
        self.retry_wait: tuple[float, str] | None = None
        #: A provider lease taken ahead of the next call (see ``_run_tools``).
        self._reserved: Any = None
        self.records: list[ChatRecord] = []
        self._listeners: list[Listener] = []
        self._controller: AbortController | None = None
        #: The last storage failure, if saving ever failed (the chat goes on).
        self.save_error: BaseException | None = None
        #: Records whose last write was refused, by seq: written again after the
        #: next write that succeeds, so a full quota loses nothing once freed.
        self._unsaved: dict[int, ChatRecord] = {}
        #: Streaming records changed since their last write, and the task writing them.
        self._dirty: dict[int, ChatRecord] = {}
        self._writer: asyncio.Future[None] | None = None
        self.autosave_seconds = autosave_seconds
        self._next_write = 0.0  # clock() before which the writer waits
        self._writer_waits = False

    # ------------------------------------------------------------ state

    @property
    def busy(self) -> bool:
        return self._controller is not None

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        self._listeners.append(listener)

        def remove() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return remove

    def _emit(self, event: str, record: ChatRecord) -> None:
        for listener in list(self._listeners):
            try:
                listener(event, record)
            except Exception:  # a view's bug must not break the conversation
                logger.exception("chief: listener failed on %s", event)

    async def load(self, *, recover: bool = True) -> list[ChatRecord]:
        """Read the conversation back; a reply that was streaming when the page
        went away is marked ``interrupted``.  ``recover=False`` (a tab that
        may not write the project: another tab owns it, and may be streaming
        that reply now) reads it as it is, and writes nothing."""
        records = await self._read()
        if not recover:
            self.records = records
            return records
        for r in records:
            if r.status == "streaming":
                r.status = "interrupted"
                await self._save(r)
        # seq is the position: keep it dense even if rows were skipped.
        for i, r in enumerate(records):
            if r.seq != i:
                r.seq = i
                await self._save(r)
        self.records = records
        return records

    async def reread(self) -> bool:
        """Read the conversation again, as another tab wrote it (this tab may
        not write it; nothing is written).  ``False``, and nothing read, while
        this chat is busy."""
        if self.busy:
            return False
        records = await self._read()
        if self.busy:  # started while reading: what it shows wins
            return False
        self.records = records
        self._emit("reread", None)
        return True

    async def _read(self) -> list[ChatRecord]:
        rows = await self.storage.load_messages(self.project_id, self.agent)
        records = []
        for row in rows:
            try:
                records.append(ChatRecord.from_storage(row))
            except Exception:
                logger.warning("chief: skipped an unreadable message record")
        return records

    async def clear(self) -> None:
        self.stop()
        await self.storage.delete_messages(self.project_id, self.agent)
        self.records = []

    async def _save(self, record: ChatRecord) -> None:
        """Write ``record``; a refused write (a full quota: ``StorageFull``) keeps it
        in memory and on screen, tells the page (``save-error``), and is written
        again with the next write that succeeds (then ``saved``)."""
        try:
            await self.storage.put_message(
                self.project_id, self.agent, record.seq, record.to_storage()
            )
        except Exception as exc:  # storage trouble must not lose the reply on screen
            self.save_error = exc
            self._unsaved[record.seq] = record
            logger.warning("chief: could not save message %d: %s", record.seq, type(exc).__name__)
            self._emit("save-error", record)
            return
        self._unsaved.pop(record.seq, None)
        while self._unsaved:
            seq, earlier = next(iter(self._unsaved.items()))
            try:
                await self.storage.put_message(
                    self.project_id, self.agent, earlier.seq, earlier.to_storage()
                )
            except Exception:
                return  # still refused: kept for the next write
            self._unsaved.pop(seq, None)
        if self.save_error is not None:
            self.save_error = None
            self._emit("saved", record)

    def _autosave(self, record: ChatRecord) -> None:
        """Write ``record`` soon, without waiting for it: one write in flight at a
        time, at most one per ``autosave_seconds``, later changes folded into the
        next one.  (Writing the whole reply at every chunk cost the page's main
        thread a serialization and a transaction per chunk.)"""
        self._dirty[record.seq] = record
        if self._writer is None or self._writer.done():
            self._writer = asyncio.ensure_future(self._drain())

    async def _drain(self) -> None:
        while self._dirty:
            wait = self._next_write - self.clock()
            if wait > 0:
                self._writer_waits = True
                try:
                    await asyncio.sleep(wait)
                finally:
                    self._writer_waits = False
            if not self._dirty:
                return
            _, record = self._dirty.popitem()
            self._next_write = self.clock() + self.autosave_seconds
            await self._save(record)

    async def save_now(self) -> None:
        """Write at once what the autosave still holds back (the page goes away).

        Its first write is requested before its first ``await`` returns: the page
        starts it eagerly from a ``pagehide`` handler."""
        pending = list(self._dirty.values())
        self._dirty.clear()
        for record in pending:
            await self._save(record)

    async def _flush(self) -> None:
        """Wait for the pending autosaves (the final write must come after them)."""
        self._dirty.clear()
        writer = self._writer
        if writer is not None and not writer.done():
            if self._writer_waits:  # nothing in flight: the final write replaces it
                writer.cancel()
            await asyncio.wait([writer])

    def _append(self, record: ChatRecord) -> ChatRecord:
        if record.parent is None:
            record.parent = self._leaf()
        self.records.append(record)
        return record

    def _leaf(self) -> int:
        """The last record on the current path (``-1``: none yet)."""
        return next((r.seq for r in reversed(self.records) if not r.superseded), -1)

    # ------------------------------------------------------------ branches

    def alternatives(self, seq: int) -> list[int]:
        """``seq``'s alternatives, itself included (see ``wiggum.chief.branches``)."""
        return branches.alternatives(self.records, seq)

    async def _move_path(self, leaf: int) -> None:
        for record in branches.set_path(self.records, leaf):
            await self._save(record)
        self._emit("reloaded", self.records[leaf] if 0 <= leaf < len(self.records) else None)

    async def switch(self, seq: int) -> None:
        """Show the alternative ``seq`` (with the newest branch under it)."""
        if self.busy:
            raise RuntimeError("Chief is answering")
        await self._move_path(branches.leaf_under(self.records, seq))

    def last_turn_start(self) -> int | None:
        """The person's message (or note) the current path's last answer follows."""
        path = [r for r in self.records if not r.superseded]
        for r in reversed(path):
            if r.role == "user":
                return r.seq
        return None

    async def regenerate(
        self,
        provider: ProviderConfig,
        *,
        proxy_template: str | None = None,
        options: RequestOptions | None = None,
    ) -> ChatRecord:
        """A new answer to the last message; the previous one stays as an alternative."""
        if self.busy:
            raise RuntimeError("Chief is already answering")
        start = self.last_turn_start()
        if start is None:
            raise ValueError("nothing to regenerate")
        controller = AbortController()
        self._controller = controller
        try:
            await self._move_path(start)
            return await self._turn(provider, controller, proxy_template, options)
        finally:
            await self._end_turn()

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
        if self.busy:
            raise RuntimeError("Chief is already answering")
        old = self.records[seq]
        if old.role != "user" or old.note or not text.strip():
            raise ValueError("only the person's messages can be edited")
        controller = AbortController()
        self._controller = controller
        try:
            parent = branches.parent_of(old)
            await self._move_path(parent)
            record = self._append(
                ChatRecord(seq=len(self.records), role="user", content=text, parent=parent)
            )
            self._emit("added", record)
            await self._save(record)
            return await self._turn(provider, controller, proxy_template, options)
        finally:
            await self._end_turn()

    # ------------------------------------------------------------ requests

    def history(self) -> list[Message]:
        """System prompt + the conversation as messages (before budgeting)."""
        msgs = [Message.system(self.system_prompt)] if self.system_prompt else []
        return msgs + records_to_messages(self.records)

    def prepare(
        self,
        provider: ProviderConfig,
        tools: Sequence[ToolDefinition] | None = None,
        max_tokens: int | None = None,
    ) -> tuple[list[Message], BudgetResult]:
        """The messages to send: the history trimmed to the model's budget, with
        a note when anything was left out.

        ``tools`` (the definitions the call will send) count against the budget,
        and the reply reserve is the one ``stream()``'s preflight uses
        (``max_tokens``, else the model's output limit capped at
        ``DEFAULT_REPLY_BUDGET``), so a history trimmed here passes the preflight.
        """
        cap = capability_for(provider)
        reserve = max_tokens or min(cap.max_output_tokens, DEFAULT_REPLY_BUDGET)
        budget = max(1, cap.context_window - reserve)
        history = self.history()
        result = budget_messages(
            history,
            budget,
            protected_indices=(0,) if self.system_prompt else (),
            min_recent_messages=MIN_RECENT_MESSAGES,
            tools=tools,
        )
        return with_trim_note(result), result

    def stop(self, reason: str = "stopped by the person") -> bool:
        """Abort the reply in flight; ``True`` when there was one."""
        controller = self._controller
        if controller is None:
            return False
        controller.abort(reason)
        return True

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
        if self.busy:
            raise RuntimeError("Chief is already answering")
        controller = AbortController()
        self._controller = controller
        try:
            notes: list[ChatRecord] = []
            notice = await self._take_notice()
            if notice:
                notes.append(
                    ChatRecord(seq=len(self.records), role="user", content=notice, note=True)
                )
                self._append(notes[-1])
            if (text is not None and text.strip()) or images:
                notes.append(
                    ChatRecord(
                        seq=len(self.records),
                        role="user",
                        content=text or "",
                        images=list(images),
                    )
                )
                self._append(notes[-1])
            if not notes:
                raise ValueError("nothing to send")
            for record in notes:
                self._emit("added", record)
                await self._save(record)
            return await self._turn(provider, controller, proxy_template, options)
        finally:
            await self._end_turn()

    def can_retry(self) -> bool:
        """The last reply failed, was stopped or interrupted: Retry may run it again."""
        last = next((r for r in reversed(self.records) if not r.superseded), None)
        return (
            not self.busy
            and last is not None
            and last.role == "assistant"
            and last.status in ("error", "stopped", "interrupted")
        )

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
        controller = AbortController()
        self._controller = controller
        try:
            failed = next(r for r in reversed(self.records) if not r.superseded)
            failed.superseded = True
            await self._save(failed)
            self._emit("superseded", failed)
            return await self._turn(provider, controller, proxy_template, options)
        finally:
            await self._end_turn()

    def can_continue(self) -> bool:
        """The last reply was cut off with some words in it (a reload mid-stream,
        Stop, a dropped stream): Continue may ask the model to write on."""
        last = next((r for r in reversed(self.records) if not r.superseded), None)
        return (
            not self.busy
            and last is not None
            and last.role == "assistant"
            and last.status in ("error", "stopped", "interrupted")
            and bool(last.content.strip())
            and not last.tool_calls
        )

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
        controller = AbortController()
        self._controller = controller
        try:
            reply = next(r for r in reversed(self.records) if not r.superseded)
            reply.status = "streaming"
            reply.error = None
            await self._save(reply)
            self._emit("updated", reply)
            await self._run(
                reply, provider, controller, proxy_template, options, tools=False, resume=True
            )
            return reply
        finally:
            await self._end_turn()

    async def _end_turn(self) -> None:
        self._controller = None
        self.activity = None
        self.retry_wait = None
        held, self._reserved = self._reserved, None
        if held is not None:
            await held.__aexit__(None, None, None)

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
        reply = self._append(
            ChatRecord(
                seq=len(self.records),
                role="assistant",
                status="streaming",
                provider=provider.id,
                provider_name=provider.name or provider.id,
                model=provider.model,
            )
        )
        self._emit("added", reply)
        await self._save(reply)
        return reply

    async def _run_tools(self, reply: ChatRecord, provider: ProviderConfig) -> None:
        """Run the reply's tool calls in order; one tool record per call.

        The provider is free while tools run, except around a hand-off: Chief
        reserves it for his acknowledgement first, so the person reads it
        before Ralph's first call goes out (and the calls' order is stable).
        """
        if self.coordinator is not None and any(
            c.name == "send_to_ralph" for c in reply.tool_calls
        ):
            lease = self._lock(provider)
            await lease.__aenter__()
            self._reserved = lease
        for call in reply.tool_calls:
            self.activity = activity_for(call.name)
            self._emit("activity", reply)
            try:
                text, is_error, event = await self.toolbox.dispatch(call)
            except Exception as err:  # dispatch should not raise; never lose the turn
                logger.exception("chief: tool %s failed", call.name)
                text, is_error, event = f"Error: {type(err).__name__}", True, None
            record = self._append(
                ChatRecord(
                    seq=len(self.records),
                    role="tool",
                    content=text,
                    tool_call_id=call.id,
                    name=call.name,
                    is_error=is_error,
                )
            )
            self._emit("added", record)
            await self._save(record)
            if event is not None and self.on_ui_event is not None:
                try:
                    self.on_ui_event(event)
                except Exception:
                    logger.exception("chief: ui event handler failed")
        self.activity = None
        self._emit("activity", reply)

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
        opts = dataclasses.replace(options) if options is not None else RequestOptions()
        opts.signal = controller.signal
        opts.proxy_template = proxy_template
        if self.toolbox is not None:
            opts.tools = self.toolbox.definitions()
            if not tools:  # declared (the history has calls) but not to be used
                opts.tool_choice = "none"
        if self.sleep is not None and opts.sleep is None:
            opts.sleep = self.sleep
        if opts.on_retry is None:
            opts.on_retry = lambda seconds, err: self._waiting_to_retry(reply, seconds, err)
        prefix = ""
        try:
            messages, budget = self.prepare(provider, opts.tools, opts.max_tokens)
            reply.trimmed = budget.trimmed
            if resume:
                messages, prefix = continuation_messages(messages, provider.kind)
                reply.content = prefix
            if controller.signal.aborted:
                raise AbortError(provider.id, provider.model, controller.signal.reason)
            held, self._reserved = self._reserved, None
            waiting = held is None and self._say_waiting(reply, provider)
            async with _Held(held) if held is not None else self._lock(provider):
                if waiting:
                    self.activity = None
                    self._emit("activity", reply)
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
            await self._flush()
            await self._save(reply)
            self._emit("updated", reply)
            raise
        except Exception as err:
            logger.exception("chief: the reply failed")
            reply.status = "error"
            reply.error = ErrorRecord.from_error(err, provider, proxy_template)
        self._waiting_to_retry(reply, None, None)
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

    def _say_waiting(self, reply: ChatRecord, provider: ProviderConfig) -> bool:
        """Tell the page when the call must wait for the provider (one call at a
        time per provider: Ralph may be in the middle of one)."""
        if self.coordinator is None:
            return False
        holder = self.coordinator.llm_holder(provider.id)
        if holder is None or holder == self.agent:
            return False
        who = "Ralph" if holder == "ralph" else holder
        self.activity = f"Waiting for {provider.name or provider.id}: {who} is using it…"
        self._emit("activity", reply)
        return True

    def _lock(self, provider: ProviderConfig) -> Any:
        """The provider's lock for one call (held to the end of its stream)."""
        if self.coordinator is None:
            return contextlib.nullcontext()
        return self.coordinator.llm_lock(provider.id, "chief")

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

        async for delta in result.deltas:
            if self.retry_wait is not None:
                self._waiting_to_retry(reply, None, None)
            kind = delta.type
            if kind == "usage":
                reply.usage = delta.data
                continue
            if kind != "content" and kind != "reasoning":
                continue
            read()
            self._emit("delta", reply)
            self._autosave(reply)
        try:
            response = await result.response
        except LLMError:
            # Finishing the failed reply may have flushed a held-back tail (a
            # half-read ``<think`` that was text after all): read it once more.
            read()
            raise
        self._complete(reply, response, prefix, thought)

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
