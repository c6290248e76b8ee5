"""Chief's conversation as it is stored: one record per message.

:class:`ChatRecord` is what ``AppStorage.put_message`` keeps for each message
of a conversation (the person's, Chief's replies, tool results, notes), and
:class:`ErrorRecord` what a failed reply keeps so the page can explain it.
Records convert to and from the canonical :class:`~wiggum.llm.Message` (tool
calls, tool results, reasoning and thinking signatures, provider blocks), so
the history sent back to the provider is what it wrote.

Records already in people's browsers must keep loading: fields are only ever
added, with defaults (``parent`` is ``None`` in records from before branches,
which :mod:`wiggum.chief.branches` reads as "the record before").

:func:`records_to_messages` decides what of the stored conversation goes into
the next request.  Pure: tested under CPython.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Sequence
from typing import Any, Literal

from pydantic import BaseModel, Field

from wiggum.llm import (
    Citation,
    LLMError,
    Message,
    ParsedToolCall,
    ProviderConfig,
    ThinkingBlock,
    UsageData,
)
from wiggum.llm.types import ImagePart, TextPart
from wiggum.tools.fence import fence

from .attachments import Attachment

__all__ = [
    "ChatRecord",
    "ErrorRecord",
    "Role",
    "Status",
    "records_from_rows",
    "records_to_messages",
]

logger = logging.getLogger("wiggum.chief")

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
    #: The bound a request waited for an answer before it was given up
    #: (``RequestTimeoutError``).
    timeout_seconds: float | None = None

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
            timeout_seconds=getattr(err, "timeout_seconds", None),
        )


#: What a record and a :class:`Message` both carry, copied across as they are
#: (lists as copies); the content is not among them: a record keeps text and
#: images apart, a message has parts.
_SHARED_FIELDS = ("role", "tool_call_id", "name", "is_error", "reasoning")
_SHARED_LISTS = ("tool_calls", "thinking", "provider_blocks")


def _shared_with_message(source: ChatRecord | Message) -> dict[str, Any]:
    return {name: getattr(source, name) for name in _SHARED_FIELDS} | {
        name: list(getattr(source, name)) for name in _SHARED_LISTS
    }


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
        return Message(content=content, **_shared_with_message(self))

    @classmethod
    def from_message(cls, message: Message, seq: int, **meta: Any) -> ChatRecord:
        return cls(seq=seq, content=message.text, **_shared_with_message(message), **meta)

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
    without its result.  A tool's result goes fenced as data
    (``wiggum.tools.fence``); the record keeps it as the tool gave it.
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
        elif r.role == "tool" and not r.is_error:
            # What a tool read reaches the model as data, never as instructions.
            fenced = fence(r.content, r.name or "tool")
            out.append(r.to_message().model_copy(update={"content": fenced}))
        else:
            out.append(r.to_message())
    return out


def records_from_rows(rows: Iterable[dict[str, Any]]) -> list[ChatRecord]:
    """The stored rows as records; a row that no longer reads is skipped (and
    logged) rather than losing the whole conversation."""
    records = []
    for row in rows:
        try:
            records.append(ChatRecord.from_storage(row))
        except Exception:
            logger.warning("chief: skipped an unreadable message record")
    return records
