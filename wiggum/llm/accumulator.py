"""One accumulator for every dialect, batch and stream alike.

A dialect only translates its wire events into calls on this object;
everything about putting a reply together lives here: content and
reasoning (including ``<think>`` tags inside content), tool calls matched
by id, then index, then array position, the last real finish reason,
usage merged from several events, errors inside a stream, and the end
marker.  :meth:`finalize` runs only after the stream's real end.

In stream mode each call also appends :mod:`types` deltas to ``out``,
which the client drains after every read.  A consumer reads the reply so far
from here too, through a :class:`PartialReply` (``StreamResult.partial``),
instead of summing the deltas a second time.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

from .errors import LLMError
from .finish import normalize_finish_reason
from .repair import ArgumentsParse, parse_tool_arguments
from .think import ThinkSplitter
from .types import (
    Citation,
    ContentDelta,
    FinishReason,
    LLMResponse,
    ParsedToolCall,
    ReasoningDelta,
    StreamDelta,
    ThinkingBlock,
    ToolCallArgsDelta,
    ToolCallEndDelta,
    ToolCallStartDelta,
    UsageData,
)


def _compact(args: dict[str, Any]) -> str:
    return json.dumps(args, ensure_ascii=False, separators=(",", ":"))


def generate_tool_call_id() -> str:
    return "call_" + secrets.token_hex(12)


#: ``parse_error`` of a call split off another call's run-together arguments.
RUN_TOGETHER_ERROR = (
    "these arguments ran on after another call's on the same tool-call slot, with no tool "
    "name of their own; the name is only a guess, so the call was not run"
)


class _ToolSlot:
    __slots__ = (
        "args",
        "args_obj",
        "ended",
        "id",
        "index",
        "name",
        "parsed",
        "provider_data",
        "source",
        "started",
    )

    def __init__(self, index: int) -> None:
        self.index = index
        self.id = ""
        self.name = ""
        self.args: list[str] = []
        self.args_obj: dict[str, Any] | None = None
        self.provider_data: dict[str, Any] | None = None
        self.started = False
        self.ended = False
        #: The parse of ``args``, once the reply has ended.
        self.parsed: ArgumentsParse | None = None
        #: The slot whose run-together arguments this call was split from.
        self.source: _ToolSlot | None = None

    def has_complete_args(self) -> bool:
        if self.args_obj is not None:
            return True
        if not self.args:
            return False
        try:
            return isinstance(json.loads("".join(self.args)), dict)
        except ValueError:
            return False


class _Thinking:
    __slots__ = ("data", "parts", "redacted", "signature")

    def __init__(self, redacted: bool = False, data: str | None = None) -> None:
        self.parts: list[str] = []
        self.signature: str | None = None
        self.redacted = redacted
        self.data = data


def _joined(parts: list[str]) -> str:
    """The pieces as one string, kept as that one piece: reading the text again
    before more arrives costs nothing, and each piece is copied once per read."""
    if len(parts) > 1:
        parts[:] = ["".join(parts)]
    return parts[0] if parts else ""


class ResponseAccumulator:
    def __init__(
        self, *, emit: bool = True, think_tags: bool = True, canonical_args: bool = False
    ) -> None:
        #: Deltas made since the client last drained them (``None`` in batch mode).
        self.out: list[StreamDelta] | None = [] if emit else None
        #: The dialect sends arguments back as objects, so ``raw_args`` is only a
        #: rendering: make it the same compact JSON however the wire spelled it.
        self._canonical_args = canonical_args
        self._content: list[str] = []
        self._reasoning: list[str] = []
        self._think = ThinkSplitter() if think_tags else None
        self._slots: list[_ToolSlot] = []
        self._by_id: dict[str, _ToolSlot] = {}
        self._by_index: dict[int, _ToolSlot] = {}
        self._by_position: dict[int, _ToolSlot] = {}
        self._blocks: list[_Thinking] = []
        self._finish_raw: str | None = None
        self._refusal: list[str] = []
        self._citations: dict[str, Citation] = {}
        self._usage: dict[str, Any] | None = None
        #: An error the provider reported inside the stream.
        self.error: LLMError | None = None
        #: The stream's end marker (``[DONE]``, ``message_stop``, ``done: true``) arrived.
        self.ended = False
        #: Content, reasoning or a tool call has been handed to the consumer.
        self.delivered = False
        #: The response's id and model (from the stream's first events) for ``raw``.
        self.meta: dict[str, Any] = {}
        #: Batch: the parsed response body, kept whole as ``raw``.
        self.body: Any = None
        #: Stream: the last JSON event object, kept (alone) in ``raw``; or its
        #: text, when it was read through a template and never parsed.
        self.last_event: Any = None
        #: The reply's blocks, unchanged, when it holds provider-run tool blocks
        #: (Anthropic's server tools); set by the dialect.
        self.provider_blocks: list[dict[str, Any]] | None = None
        self._split = False

    # ------------------------------------------------------------- text

    def content(self, text: str) -> None:
        if not text:
            return
        think = self._think
        if think is None or think.plain(text):  # per delta: no list of pieces to build
            self._add_content(text)
            return
        for is_reasoning, piece in think.feed(text):
            if is_reasoning:
                self.reasoning(piece)
            else:
                self._add_content(piece)

    def _add_content(self, text: str) -> None:
        self._content.append(text)
        if self.out is not None:
            self.out.append(ContentDelta(text))
            self.delivered = True

    def refusal(self, text: str) -> None:
        """OpenAI's ``refusal``: shown as the reply's text, and the finish says so."""
        if not text:
            return
        self._refusal.append(text)
        self._add_content(text)

    def citation(self, url: Any, title: Any = None) -> None:
        """A web source the reply cites; each URL once, the first title kept."""
        if isinstance(url, str) and url and url not in self._citations:
            self._citations[url] = Citation(url=url, title=title if isinstance(title, str) else "")

    def reasoning(self, text: str) -> None:
        if not text:
            return
        if self._blocks:
            self._blocks[-1].parts.append(text)
        self._reasoning.append(text)
        if self.out is not None:
            self.out.append(ReasoningDelta(text))
            self.delivered = True

    def thinking_block(self, *, redacted: bool = False, data: str | None = None) -> None:
        """A new thinking block begins (Anthropic); reasoning text goes into it."""
        if self._reasoning and not redacted:
            self.reasoning("\n")
        self._blocks.append(_Thinking(redacted, data))

    def thinking_signature(self, signature: str) -> None:
        if not self._blocks:
            self._blocks.append(_Thinking())
        block = self._blocks[-1]
        block.signature = (block.signature or "") + signature

    # ------------------------------------------------------------- tool calls

    def tool_call(
        self,
        *,
        id: str | None = None,
        index: int | None = None,
        position: int = 0,
        name: str | None = None,
        args: str | None = None,
        args_obj: dict[str, Any] | None = None,
        provider_data: dict[str, Any] | None = None,
    ) -> int:
        """Add (part of) a tool call; returns its slot index."""
        slot = self._match(id, index, position, name)
        if id and not slot.id:
            slot.id = id
        if name and not slot.name:
            slot.name = name
        if provider_data:
            slot.provider_data = {**(slot.provider_data or {}), **provider_data}
        if args_obj is not None:
            slot.args_obj = args_obj
            args = _compact(args_obj)
            slot.args = []
        if args:
            slot.args.append(args)
        if self.out is not None:
            if not slot.started and slot.name:
                slot.started = True
                if not slot.id:  # the consumer sees the same id now as in the response
                    slot.id = generate_tool_call_id()
                self.delivered = True
                self.out.append(ToolCallStartDelta(slot.index, slot.id, slot.name))
                if slot.args:
                    self.out.append(ToolCallArgsDelta(slot.index, "".join(slot.args)))
            elif slot.started and args:
                self.out.append(ToolCallArgsDelta(slot.index, args))
        return slot.index

    def _match(self, id: str | None, index: int | None, position: int, name: str | None):
        if id:
            slot = self._by_id.get(id)
            if slot is not None:
                return slot
            if index is not None:
                slot = self._by_index.get(index)
                if slot is not None and not slot.id:
                    self._by_id[id] = slot
                    return slot
            slot = self._new_slot()
            self._by_id[id] = slot
            if index is not None:
                self._by_index[index] = slot
            return slot
        if index is not None:
            slot = self._by_index.get(index)
            if slot is None or (name and slot.name and slot.has_complete_args()):
                # A proxy reusing index 0 for the next call sends a new name
                # after the previous call's arguments were already complete.
                slot = self._by_index[index] = self._new_slot()
            return slot
        slot = self._by_position.get(position)
        if slot is None or (name and slot.name and slot.has_complete_args()):
            slot = self._by_position[position] = self._new_slot()
        return slot

    def _new_slot(self) -> _ToolSlot:
        slot = _ToolSlot(len(self._slots))
        self._slots.append(slot)
        return slot

    def tool_call_end(self, slot_index: int) -> None:
        slot = self._slots[slot_index]
        if not slot.ended:
            slot.ended = True
            if self.out is not None and slot.started:
                self.out.append(ToolCallEndDelta(slot.index))

    # ------------------------------------------------------------- the rest

    def finish(self, raw: str | None) -> None:
        # A later null / empty reason never erases a real one.
        if raw:
            self._finish_raw = raw

    def usage(self, **fields: Any) -> None:
        """Merge usage fields (Anthropic sends input and output tokens separately)."""
        merged = dict(self._usage or {})
        merged.update({k: v for k, v in fields.items() if v is not None})
        self._usage = merged

    def fail(self, error: LLMError) -> None:
        if self.error is None:
            self.error = error

    def end(self) -> None:
        self.ended = True

    def raw(self) -> Any:
        """What ``LLMResponse.raw`` holds (see its docstring)."""
        if self.body is not None:
            return self.body
        if not self.meta and self.last_event is None:
            return None
        last = self.last_event
        return {**self.meta, "last_event": json.loads(last) if type(last) is str else last}

    def _usage_data(self) -> UsageData | None:
        u = self._usage
        if not u:
            return None
        prompt = int(u.get("prompt_tokens") or 0)
        completion = int(u.get("completion_tokens") or 0)
        total = u.get("total_tokens")
        return UsageData(
            prompt_tokens=prompt,
            completion_tokens=completion,
            total_tokens=int(total) if total else prompt + completion,
            cost=u.get("cost"),
            cost_source="provider" if u.get("cost") is not None else None,
            cache_read_tokens=u.get("cache_read_tokens"),
            cache_write_tokens=u.get("cache_write_tokens"),
            reasoning_tokens=u.get("reasoning_tokens"),
            web_search_requests=u.get("web_search_requests"),
        )

    # ------------------------------------------------------------- so far

    def content_so_far(self) -> str:
        """The reply's text so far, as :meth:`finalize` gives it."""
        text = _joined(self._content)
        if self._think is not None and self._think.seen:
            text = text.lstrip()  # the blank line a closing </think> leaves
        return text

    def reasoning_so_far(self) -> str:
        return _joined(self._reasoning)

    # ------------------------------------------------------------- finalize

    def finish_reason(self) -> FinishReason:
        reason = normalize_finish_reason(self._finish_raw)
        if self._refusal and reason in (FinishReason.STOP, FinishReason.UNKNOWN):
            return FinishReason.CONTENT_FILTER
        if (
            self._slots
            and reason in (FinishReason.STOP, FinishReason.UNKNOWN)
            and (self.ended or self._finish_raw)
        ):
            # Gemini ends tool calls with "stop"; some servers send no reason at all.
            return FinishReason.TOOL_CALLS
        if reason is FinishReason.UNKNOWN and self.ended and self._finish_raw is None:
            return FinishReason.STOP
        return reason

    @property
    def complete(self) -> bool:
        """The reply ended properly: an end marker or at least a finish reason."""
        return self.ended or self._finish_raw is not None

    def _split_run_together(self) -> None:
        """Turn ``{..}{..}`` on one slot into one call per object (reply end, once).

        A proxy (dyedd/lens #49), or a model, can put a second call's
        arguments on the first call's index with no id or name of its own.
        The first object is the named call's own arguments.  Each further,
        different object becomes a call of its own (same name, a new id,
        ``repaired``), appended after the other calls, so it is neither lost
        nor hidden.  But nothing on the wire says which tool it was meant for:
        the name is a guess, and this package's tools show why running a guess
        is unsafe -- ``read_file`` and ``delete_file`` take the same
        ``{"path": …}``.  So a split-off call also carries ``parse_error``
        (:data:`RUN_TOGETHER_ERROR`): ``validate_tool_calls`` and the tool
        registry refuse it, and the model is told to send it again on its own,
        while the first call, whose name arrived with it, runs.  The split-off
        calls share the first call's ``truncated``: when the text was cut, none
        of them runs.
        """
        if self._split:
            return
        self._split = True
        for slot in list(self._slots):
            if slot.args_obj is not None or not slot.args:
                continue
            slot.parsed = parsed = parse_tool_arguments("".join(slot.args), truncated=False)
            for obj in parsed.extra_objects:
                extra = self._new_slot()
                extra.source = slot
                extra.name = slot.name
                extra.id = generate_tool_call_id()
                extra.args_obj = obj
                extra.args = [_compact(obj)]
                if self.out is not None and slot.started:
                    extra.started = True
                    self.out.append(ToolCallStartDelta(extra.index, extra.id, extra.name))
                    self.out.append(ToolCallArgsDelta(extra.index, extra.args[0]))

    def closing_deltas(self) -> list[StreamDelta]:
        """Flush held-back text and close open tool calls (stream end)."""
        if self._think is not None:
            for is_reasoning, piece in self._think.close():
                if is_reasoning:
                    self.reasoning(piece)
                else:
                    self._add_content(piece)
        self._split_run_together()
        for slot in self._slots:
            self.tool_call_end(slot.index)
        out = self.out or []
        if self.out is not None:
            self.out = []
        return out

    def finalize(self, raw: Any = None) -> LLMResponse:
        self.closing_deltas()
        reason = self.finish_reason()
        length = reason is FinishReason.LENGTH
        incomplete = not self.complete
        tool_calls: list[ParsedToolCall] = []
        for slot in self._slots:
            if slot.source is None:
                call = self._build_call(slot, length, incomplete, self._canonical_args)
            else:
                # Split-off calls come after every slot they can come from.
                source = tool_calls[slot.source.index]
                call = ParsedToolCall(
                    id=slot.id,
                    name=slot.name,
                    args=slot.args_obj or {},
                    raw_args=slot.args[0],
                    repaired=True,
                    truncated=source.truncated,
                    parse_error=RUN_TOGETHER_ERROR,
                )
            tool_calls.append(call)
        content = self.content_so_far()
        reasoning = self.reasoning_so_far()
        thinking = [
            ThinkingBlock(
                text="".join(b.parts), signature=b.signature, redacted=b.redacted, data=b.data
            )
            for b in self._blocks
        ]
        return LLMResponse(
            content=content,
            reasoning=reasoning or None,
            tool_calls=tool_calls,
            finish_reason=reason,
            usage=self._usage_data(),
            raw=raw,
            thinking=thinking,
            provider_blocks=self.provider_blocks or [],
            refusal="".join(self._refusal) or None,
            citations=list(self._citations.values()),
        )

    @staticmethod
    def _build_call(
        slot: _ToolSlot, length: bool, incomplete: bool, canonical: bool
    ) -> ParsedToolCall:
        raw_args = "".join(slot.args)
        if slot.args_obj is not None:
            args, repaired, truncated, error = slot.args_obj, False, incomplete, None
        else:
            parsed = slot.parsed or parse_tool_arguments(raw_args, truncated=False)
            args, repaired, error = parsed.args, parsed.repaired, parsed.error
            # Arguments that needed repair in a reply cut off at the token
            # limit are never passed off as complete; after a broken stream
            # nothing proves any call complete, however well it parses.
            truncated = (
                parsed.truncated or incomplete or (length and (repaired or error is not None))
            )
            if canonical and not (repaired or truncated or error):
                raw_args = _compact(args)
        return ParsedToolCall(
            id=slot.id or generate_tool_call_id(),
            name=slot.name,
            args=args,
            raw_args=raw_args,
            repaired=repaired,
            truncated=truncated,
            parse_error=error,
            provider_data=slot.provider_data,
        )


class PartialReply:
    """The reply so far, read from the one accumulator of a stream's current
    attempt (what ``StreamResult.partial`` is).

    A view, not a copy: nothing is made per delta, and a read gives the text
    the accumulator holds at that moment (which may run ahead of the delta
    being handled: the rest of the same read is already in).  Joined, the
    deltas are this text; reading it here is how a consumer avoids summing
    them again.  Before the first attempt, and after a retry starts over, it
    is empty.
    """

    __slots__ = ("_acc",)

    def __init__(self, acc: ResponseAccumulator | None = None) -> None:
        self._acc = acc

    def read_from(self, acc: ResponseAccumulator) -> None:
        """Read ``acc`` from now on (the client: each attempt's accumulator in turn)."""
        self._acc = acc

    @property
    def content(self) -> str:
        """The reply's text so far (``LLMResponse.content`` when it ends here)."""
        return "" if self._acc is None else self._acc.content_so_far()

    @property
    def reasoning(self) -> str:
        """The reasoning so far; ``""`` when there is none."""
        return "" if self._acc is None else self._acc.reasoning_so_far()

    @property
    def delivered(self) -> bool:
        """Something of the reply has reached the consumer: it will not be retried."""
        return self._acc is not None and self._acc.delivered
