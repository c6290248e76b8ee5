"""Ollama's native ``/api/chat``: NDJSON streaming, ``thinking``, dict arguments.

Tool calls are read in both shapes (``{"function": {name, arguments}}`` and
the flat ``{name, arguments}``), and ``keep_alive`` keeps the model loaded
between Ralph's calls.  Ollama silently truncates prompts longer than its ``num_ctx`` (2048–4096 by
default), so every request sizes ``num_ctx`` to fit the prompt and the
reply, in powers of two so the model is not reloaded on every call.
"""

from __future__ import annotations

import json
from typing import Any

from ..accumulator import ResponseAccumulator
from ..call import Call
from ..errors import LLMError, MalformedResponseError, ProviderError
from ..http_errors import context_overflow_error
from ..ndjson import NDJSONDecoder
from ..structured import json_schema_for
from ..transport import HttpRequest
from ..types import ImagePart, Message
from ..utf8 import Utf8
from ..vendors import vendor_for
from ..vendors.ollama import root
from .base import (
    ErrorAnswers,
    flat_or_wrapped,
    function_tools,
    load_json,
    post_json,
    split_data_url,
)

MIN_NUM_CTX = 8192


def num_ctx_for(needed: int, context_window: int) -> int:
    size = MIN_NUM_CTX
    while size < needed:
        size *= 2
    return min(size, context_window) if context_window else size


def convert_messages(messages: list[Message]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for m in messages:
        msg: dict[str, Any] = {"role": m.role, "content": m.text}
        if isinstance(m.content, list):
            images = []
            for p in m.content:
                if isinstance(p, ImagePart):
                    data = p.data or (
                        split_data_url(p.url)[1] if p.url and split_data_url(p.url) else None
                    )
                    if data:
                        images.append(data)
            if images:
                msg["images"] = images
        if m.role == "assistant":
            if m.tool_calls:
                msg["tool_calls"] = [
                    {"function": {"name": tc.name, "arguments": tc.args}} for tc in m.tool_calls
                ]
            if m.reasoning:
                msg["thinking"] = m.reasoning
        if m.role == "tool" and m.name:
            msg["tool_name"] = m.name
        out.append(msg)
    return out


#: How long Ollama keeps the model loaded after a call: Ralph's next call comes
#: within seconds, Chief's within minutes; the default (5 minutes) reloads it
#: after every pause of the person's.
KEEP_ALIVE = "30m"


def _error_fields(obj: Any) -> tuple[Any, Any, Any]:
    """``(message, None, None)`` of ``{"error": "…"}``."""
    return (obj.get("error") if isinstance(obj, dict) else None), None, None


class OllamaDialect(ErrorAnswers):
    name = "ollama"
    stream_format = "ndjson"
    error_fields = staticmethod(_error_fields)

    def build_request(self, call: Call, *, stream: bool) -> HttpRequest:
        provider, options = call.provider, call.options
        body: dict[str, Any] = {
            "model": provider.model,
            "messages": convert_messages(call.messages),
            "stream": stream,
            "keep_alive": KEEP_ALIVE,
        }
        if options.tools:
            body["tools"] = function_tools(options.tools)
        model_options: dict[str, Any] = {}
        reply = call.max_tokens or call.capability.max_output_tokens
        model_options["num_ctx"] = num_ctx_for(
            call.estimated_tokens + reply, call.capability.context_window
        )
        if call.max_tokens:
            model_options["num_predict"] = call.max_tokens
        if options.temperature is not None:
            model_options["temperature"] = options.temperature
        body["options"] = model_options
        if options.output_schema is not None:
            body["format"] = json_schema_for(options.output_schema)
        if options.reasoning_budget is not None:
            body["think"] = options.reasoning_budget > 0
        return post_json(call, root(provider.base_url) + "/api/chat", body, vendor_for(provider))

    def stream_parser(self, acc: ResponseAccumulator, call: Call) -> _StreamParser:
        return _StreamParser(acc, call)

    def parse_body(self, body: bytes, acc: ResponseAccumulator, call: Call) -> None:
        obj = load_json(body)
        if not isinstance(obj, dict):
            # A server that streamed despite stream=false: read it as NDJSON.
            parser = _StreamParser(acc, call)
            parser.feed(body)
            parser.close()
            if not acc.ended:
                raise MalformedResponseError(
                    "The provider's answer is not JSON", *call.label, detail="text that is not JSON"
                )
            return
        if "error" in obj and "message" not in obj:
            raise _error(obj["error"], call, in_stream=False)
        acc.body = obj
        apply_line(obj, acc, call)
        acc.end()


def _error(error: Any, call: Call, *, in_stream: bool) -> LLMError:
    text = str(error)[:500]
    overflow = context_overflow_error(0, text, None, *call.label)
    if overflow is not None:
        return overflow
    return ProviderError(0, None, *call.label, error_type="error", detail=text, in_stream=in_stream)


def apply_line(obj: dict, acc: ResponseAccumulator, call: Call) -> None:
    message = obj.get("message")
    if type(message) is dict:
        thinking = message.get("thinking")
        if thinking:
            acc.reasoning(thinking)
        content = message.get("content")
        if content:
            acc.content(content)
        calls = message.get("tool_calls")
        if calls and type(calls) is list:
            for position, tc in enumerate(calls):
                fn = flat_or_wrapped(tc)
                if fn is None:
                    continue
                args = fn.get("arguments")
                acc.tool_call(
                    id=tc.get("id") or None,
                    index=fn.get("index") if isinstance(fn.get("index"), int) else None,
                    position=position,
                    name=fn.get("name") or None,
                    args=args if type(args) is str else None,
                    args_obj=args if type(args) is dict else None,
                )
    if obj.get("error"):
        acc.fail(_error(obj["error"], call, in_stream=True))
    if obj.get("done"):
        acc.finish(obj.get("done_reason") or "stop")
        prompt, completion = obj.get("prompt_eval_count"), obj.get("eval_count")
        if prompt is not None or completion is not None:
            acc.usage(prompt_tokens=prompt or 0, completion_tokens=completion or 0)
        acc.meta = {"model": obj.get("model")}


class _StreamParser:
    __slots__ = ("_acc", "_call", "_lines", "_utf8")

    def __init__(self, acc: ResponseAccumulator, call: Call) -> None:
        self._acc = acc
        self._call = call
        self._lines = NDJSONDecoder()
        self._utf8 = Utf8(call.label)

    def feed(self, chunk: bytes) -> None:
        for line in self._lines.feed(chunk):
            self._line(line)

    def close(self) -> None:
        for line in self._lines.close():
            self._line(line)

    def _line(self, line: bytes) -> None:
        if self._acc.ended:
            return  # a second ``done`` line, and what follows, is not of the reply
        try:
            obj = json.loads(self._utf8.decode(line))
        except ValueError:
            return
        if type(obj) is dict:
            self._acc.last_event = obj
            apply_line(obj, self._acc, self._call)
            if obj.get("done"):
                self._acc.end()
