"""Anthropic's Messages API, natively.

System messages are split out; tool calls become ``tool_use`` blocks and
tool results ``tool_result`` blocks in the next user turn; thinking blocks
keep their ``signature`` so a thinking model's tool-use turn can be sent
back.  The vendor's facts (version, key header, the browser opt-in, the web
search tool) are in ``wiggum/llm/vendors/anthropic.py``.

Anthropic's own tools (web search, web fetch, code execution, tool search)
run on Anthropic's side: their ``server_tool_use`` blocks and the
``*_tool_result`` blocks that answer them are parts of the reply, never calls
for Wiggum's tool loop, and the finish follows ``stop_reason``.  A reply that
holds them keeps its whole content, block for block, in
``provider_blocks``, and that list goes back unchanged when the turn is sent
again (Anthropic wants the encrypted results and citations as it wrote them).
Tool arguments may arrive whole in ``content_block_start`` and whole blocks
may already sit in ``message_start``; neither is lost.
"""

from __future__ import annotations

import json
from functools import partial
from typing import Any

from ..accumulator import ResponseAccumulator
from ..call import Call
from ..errors import LLMError, MalformedResponseError, ProviderError
from ..event_stream import TemplatedParser
from ..event_template import EventTemplate
from ..http_errors import context_overflow_error
from ..normalize import apply_cache_control
from ..sse import SSEEvent
from ..transport import HttpRequest
from ..types import ImagePart, Message
from ..vendors import vendor_for
from ..vendors.anthropic import messages_url
from .base import ErrorAnswers, event_json, json_object, post_json, split_data_url

DEFAULT_MAX_TOKENS = 8192
_ERROR_STATUS = {
    "overloaded_error": 529,
    "rate_limit_error": 429,
    "api_error": 500,
    "timeout_error": 504,
    "authentication_error": 401,
    "permission_error": 403,
    "not_found_error": 404,
    "invalid_request_error": 400,
    "request_too_large": 413,
}


def _user_blocks(m: Message) -> list[dict[str, Any]]:
    if isinstance(m.content, str):
        return [{"type": "text", "text": m.content}] if m.content else []
    blocks: list[dict[str, Any]] = []
    for p in m.content:
        if isinstance(p, ImagePart):
            data = split_data_url(p.url) if p.url else None
            if p.data:
                source = {
                    "type": "base64",
                    "media_type": p.media_type or "image/png",
                    "data": p.data,
                }
            elif data:
                source = {"type": "base64", "media_type": data[0], "data": data[1]}
            else:
                source = {"type": "url", "url": p.url or ""}
            blocks.append({"type": "image", "source": source})
        elif p.text:
            blocks.append({"type": "text", "text": p.text})
    return blocks


def _cite(citation: Any, acc: ResponseAccumulator) -> None:
    """A text block's citation of a web page (web search / web fetch results)."""
    if isinstance(citation, dict) and citation.get("url"):
        acc.citation(citation.get("url"), citation.get("title"))


def _text_or_thinking(kind: Any, block: dict[str, Any], acc: ResponseAccumulator) -> None:
    """A text or thinking block as far as it is whole: a batch reply's block,
    or a streamed one as it starts (its deltas add the rest)."""
    if kind == "text":
        acc.content(block.get("text") or "")
        for citation in block.get("citations") or ():
            _cite(citation, acc)
    elif kind == "thinking":
        acc.thinking_block()
        acc.reasoning(block.get("thinking") or "")
        if block.get("signature"):
            acc.thinking_signature(block["signature"])
    elif kind == "redacted_thinking":
        acc.thinking_block(redacted=True, data=block.get("data"))


def is_server_block(kind: Any) -> bool:
    """A block of a tool Anthropic runs itself (``server_tool_use``,
    ``web_search_tool_result``, ``code_execution_tool_result`` ...)."""
    return isinstance(kind, str) and (
        kind == "server_tool_use" or (kind.endswith("_tool_result") and kind != "tool_result")
    )


def _assistant_blocks(m: Message) -> list[dict[str, Any]]:
    if m.provider_blocks:
        # The reply as Anthropic wrote it, server-tool blocks included: unchanged.
        return [dict(b) for b in m.provider_blocks]
    blocks: list[dict[str, Any]] = []
    for t in m.thinking:
        # Only blocks Anthropic signed can go back; others would be refused.
        if t.redacted and t.data:
            blocks.append({"type": "redacted_thinking", "data": t.data})
        elif t.signature:
            blocks.append({"type": "thinking", "thinking": t.text, "signature": t.signature})
    if m.text:
        blocks.append({"type": "text", "text": m.text})
    for tc in m.tool_calls:
        blocks.append({"type": "tool_use", "id": tc.id, "name": tc.name, "input": tc.args})
    return blocks


def convert_messages(messages: list[Message]) -> tuple[list[str], list[dict[str, Any]]]:
    """``(system texts, messages)`` in Anthropic's shape, same-role turns merged."""
    system: list[str] = []
    out: list[dict[str, Any]] = []

    def add(role: str, blocks: list[dict[str, Any]]) -> None:
        if not blocks:
            return
        if out and out[-1]["role"] == role:
            out[-1]["content"].extend(blocks)
        else:
            out.append({"role": role, "content": blocks})

    for m in messages:
        if m.role == "system":
            if not out:
                system.append(m.text)
            else:  # only one system prompt exists; later notes travel as user text
                add("user", [{"type": "text", "text": f"<system>\n{m.text}\n</system>"}])
        elif m.role == "user":
            add("user", _user_blocks(m))
        elif m.role == "assistant":
            add("assistant", _assistant_blocks(m))
        else:
            block: dict[str, Any] = {"type": "tool_result", "tool_use_id": m.tool_call_id or ""}
            if m.text:
                block["content"] = m.text
            if m.is_error:
                block["is_error"] = True
            add("user", [block])
    return system, out


def _tool_choice(choice: str | None) -> dict[str, Any] | None:
    if choice is None:
        return None
    if choice in ("auto", "none"):
        return {"type": choice}
    if choice == "required":
        return {"type": "any"}
    return {"type": "tool", "name": choice}


def _error_fields(obj: Any) -> tuple[Any, Any, Any]:
    """``(message, type, None)`` of ``{"type": "error", "error": {"type", "message"}}``."""
    err = obj.get("error") if isinstance(obj, dict) else None
    if not isinstance(err, dict):
        return None, None, None
    return err.get("message"), err.get("type"), None


class AnthropicDialect(ErrorAnswers):
    name = "anthropic"
    stream_format = "sse"
    error_fields = staticmethod(_error_fields)

    def build_request(self, call: Call, *, stream: bool) -> HttpRequest:
        provider, options = call.provider, call.options
        system, messages = convert_messages(call.messages)
        max_tokens = call.max_tokens or min(call.capability.max_output_tokens, DEFAULT_MAX_TOKENS)
        body: dict[str, Any] = {"model": provider.model, "max_tokens": max_tokens}
        if system:
            blocks = [{"role": "system", "content": "\n\n".join(system)}]
            apply_cache_control(blocks + messages)
            body["system"] = blocks[0]["content"]
        else:
            apply_cache_control(messages)
        body["messages"] = messages
        if stream:
            body["stream"] = True
        if options.tools:
            body["tools"] = [
                {"name": t.name, "description": t.description, "input_schema": t.parameters}
                for t in options.tools
            ]
            choice = _tool_choice(options.tool_choice)
            if choice:
                body["tool_choice"] = choice
        if options.reasoning_budget:
            body["thinking"] = {"type": "enabled", "budget_tokens": options.reasoning_budget}
            body["max_tokens"] = max(max_tokens, options.reasoning_budget + 1024)
        elif options.temperature is not None:
            body["temperature"] = options.temperature
        url = messages_url(provider.base_url)
        return post_json(call, url, body, vendor_for(provider), sse=stream)

    def stream_parser(self, acc: ResponseAccumulator, call: Call) -> _StreamParser:
        return _StreamParser(acc, call)

    def parse_body(self, body: bytes, acc: ResponseAccumulator, call: Call) -> None:
        obj = json_object(body, call)
        if obj.get("type") == "error":
            raise _stream_error(obj.get("error"), call, in_stream=False)
        content = obj.get("content")
        if not isinstance(content, list):
            raise MalformedResponseError("The provider's answer has no content", *call.label)
        _usage(obj.get("usage"), acc)
        for index, block in enumerate(content):
            if not isinstance(block, dict):
                continue
            kind = block.get("type")
            if is_server_block(kind):
                continue  # run by Anthropic; kept whole in provider_blocks below
            if kind == "tool_use":
                args = block.get("input")
                acc.tool_call(
                    id=block.get("id"),
                    index=index,
                    name=block.get("name"),
                    args_obj=args if isinstance(args, dict) else {},
                )
            else:
                _text_or_thinking(kind, block, acc)
        if any(isinstance(b, dict) and is_server_block(b.get("type")) for b in content):
            acc.provider_blocks = [b for b in content if isinstance(b, dict)]
        acc.finish(obj.get("stop_reason"))
        acc.meta = {"id": obj.get("id"), "model": obj.get("model")}
        acc.body = obj
        acc.end()


def _usage(usage: Any, acc: ResponseAccumulator) -> None:
    if not isinstance(usage, dict):
        return
    fields: dict[str, Any] = {}
    if "input_tokens" in usage:
        write = usage.get("cache_creation_input_tokens") or 0
        read = usage.get("cache_read_input_tokens") or 0
        # Anthropic's input_tokens leaves out cached tokens; prompt_tokens counts them all.
        fields["prompt_tokens"] = (usage.get("input_tokens") or 0) + write + read
        fields["cache_read_tokens"] = read or None
        fields["cache_write_tokens"] = write or None
    if usage.get("output_tokens") is not None:
        fields["completion_tokens"] = usage["output_tokens"]
    server = usage.get("server_tool_use")
    if isinstance(server, dict) and isinstance(server.get("web_search_requests"), int):
        fields["web_search_requests"] = server["web_search_requests"]
    if fields:
        acc.usage(**fields)


def _stream_error(error: Any, call: Call, *, in_stream: bool) -> LLMError:
    """An ``error`` event (or a 200 body of type ``error``) as an :class:`LLMError`;
    "prompt is too long" becomes :class:`ContextOverflowError`, as after an HTTP 400."""
    etype = error.get("type") if isinstance(error, dict) else None
    message = error.get("message") if isinstance(error, dict) else None
    text = message if isinstance(message, str) else None
    status = _ERROR_STATUS.get(etype or "", 0)
    overflow = context_overflow_error(status, text, None, *call.label)
    if overflow is not None:
        return overflow
    return ProviderError(
        status,
        None,
        *call.label,
        error_type=etype,
        detail=text,
        in_stream=in_stream,
    )


class _StreamParser(TemplatedParser):
    __slots__ = ("_blocks", "_records", "_server")

    def __init__(self, acc: ResponseAccumulator, call: Call) -> None:
        super().__init__(acc, call)
        #: content block index -> (kind, tool slot or None, saw arguments)
        self._blocks: dict[int, list[Any]] = {}
        #: content block index -> the block rebuilt as a batch reply would hold it,
        #: the streamed arguments of (server) tool-use blocks, and the streamed
        #: pieces of its text fields (joined once, when the block stops: adding
        #: each delta to the whole string so far was quadratic in the reply's length)
        self._records: dict[int, tuple[dict[str, Any], list[str], dict[str, list[str]]]] = {}
        self._server = False

    def _event(self, event: SSEEvent, text: str) -> None:
        acc = self._acc
        try:
            obj = event_json(text)
        except ValueError:
            return
        if type(obj) is not dict:
            return
        acc.last_event = obj
        kind = obj.get("type") or event.event
        if kind == "content_block_delta":
            delta = obj.get("delta") or {}
            dtype = delta.get("type")
            index = obj.get("index", -1)
            if self._stream.learning:
                self._learn(obj, delta, dtype, index, text)
            record = self._records.get(index)
            if dtype == "text_delta":
                self._text(index, delta.get("text") or "")
            elif dtype == "citations_delta":
                if record and delta.get("citation") is not None:
                    record[0].setdefault("citations", []).append(delta["citation"])
                _cite(delta.get("citation"), acc)
            elif dtype == "input_json_delta":
                self._arguments(index, delta.get("partial_json"))
            elif dtype == "thinking_delta":
                self._thinking(index, delta.get("thinking") or "")
            elif dtype == "signature_delta":
                signature = delta.get("signature") or ""
                acc.thinking_signature(signature)
                if record:
                    record[2].setdefault("signature", []).append(signature)
        elif kind == "content_block_start":
            self._block_start(obj.get("index", len(self._blocks)), obj.get("content_block") or {})
        elif kind == "content_block_stop":
            self._block_stop(obj.get("index", -1))
        elif kind == "message_start":
            message = obj.get("message") or {}
            acc.meta = {"id": message.get("id"), "model": message.get("model")}
            _usage(message.get("usage"), acc)
            content = message.get("content")
            if isinstance(content, list):
                # Blocks already whole in message_start (proxies, replays): each
                # is a started and finished block.
                for index, block in enumerate(content):
                    if isinstance(block, dict):
                        self._block_start(index, block)
                        self._block_stop(index)
        elif kind == "message_delta":
            acc.finish((obj.get("delta") or {}).get("stop_reason"))
            _usage(obj.get("usage"), acc)
        elif kind == "message_stop":
            self._publish_blocks()
            acc.end()
        elif kind == "error":
            acc.fail(_stream_error(obj.get("error"), self._call, in_stream=True))

    def _learn(self, obj: dict, delta: Any, dtype: Any, index: Any, text: str) -> None:
        """A template from a text, thinking or arguments delta (see
        :mod:`~wiggum.llm.event_template`): the deltas after it that match it
        need no parse, and do what ``_event`` does with their own string."""
        if obj.get("type") != "content_block_delta" or type(delta) is not dict:
            return  # the kind came from the SSE event's name, which is not in the text
        if dtype == "text_delta":
            key, apply = "text", partial(self._text, index)
        elif dtype == "thinking_delta":
            key, apply = "thinking", partial(self._thinking, index)
        elif dtype == "input_json_delta":
            key, apply = "partial_json", partial(self._arguments, index)
        else:
            return
        value = delta.get(key)
        if type(value) is not str:
            return
        template = EventTemplate.learn(text, {key: value})
        if template is not None:
            self._stream.add(template, apply, key)

    def _text(self, index: Any, text: str) -> None:
        self._acc.content(text)
        record = self._records.get(index)
        if record:
            record[2].setdefault("text", []).append(text)

    def _thinking(self, index: Any, thinking: str) -> None:
        self._acc.reasoning(thinking)
        record = self._records.get(index)
        if record:
            record[2].setdefault("thinking", []).append(thinking)

    def _arguments(self, index: Any, partial_json: Any) -> None:
        record = self._records.get(index)
        if record and partial_json:
            record[1].append(partial_json)
        block = self._blocks.get(index)
        if block and block[1] is not None and partial_json:
            block[2] = True
            self._acc.tool_call(index=index, args=partial_json)

    def _block_start(self, index: int, block: dict) -> None:
        acc = self._acc
        btype = block.get("type")
        slot = None
        whole_args = False
        self._records[index] = (dict(block), [], {})
        if is_server_block(btype):
            self._server = True  # run by Anthropic: kept, never a call for the tool loop
        elif btype == "tool_use":
            args = block.get("input")
            # Arguments may arrive whole here, with no input_json_delta after them.
            whole_args = isinstance(args, dict) and bool(args)
            slot = acc.tool_call(
                id=block.get("id"),
                index=index,
                name=block.get("name"),
                args_obj=args if whole_args else None,
            )
        else:
            _text_or_thinking(btype, block, acc)
        self._blocks[index] = [btype, slot, whole_args]

    def _block_stop(self, index: int) -> None:
        acc = self._acc
        block = self._blocks.get(index)
        if block and block[1] is not None:
            if not block[2]:  # no arguments streamed: the call takes none
                acc.tool_call(index=index, args="{}")
            acc.tool_call_end(block[1])
        record = self._records.get(index)
        if record:
            _join_pieces(record)
        if record and record[1]:
            try:
                record[0]["input"] = json.loads("".join(record[1]))
            except ValueError:
                record[0]["input"] = {}
            record[1].clear()

    def _publish_blocks(self) -> None:
        """The reply's blocks as a batch reply holds them, when a server tool ran."""
        if self._server:
            for record in self._records.values():
                _join_pieces(record)  # a block the stream never stopped
            self._acc.provider_blocks = [self._records[i][0] for i in sorted(self._records)]


def _join_pieces(record: tuple[dict[str, Any], list[str], dict[str, list[str]]]) -> None:
    """Add a block's streamed text pieces to its fields (once each)."""
    block, _, pieces = record
    for field, parts in pieces.items():
        block[field] = block.get(field, "") + "".join(parts)
    pieces.clear()
