"""OpenAI Chat Completions, and everything that speaks it.

OpenRouter, LiteLLM, DeepSeek, Groq, Gemini's compatible endpoint, vLLM,
llama.cpp and Ollama's ``/v1`` all use this wire format.  What one vendor
wants of a request (its headers, body fields, cap field, cache markers) the
request takes from that vendor's file (``wiggum/llm/vendors/``); an answer is
read for every vendor at once (``OPENAI_ANSWERS``: reasoning, cache and
error fields under each vendor's names), since a gateway or a local server
may pass any of them through.  The format's own quirks are handled here or
in the accumulator: tool-call deltas without index or id, usage in a final
chunk with no choices, errors inside a 200 stream, the legacy
``function_call`` (an empty one, ``{"name": "", "arguments": ""}``, sent
beside real ``tool_calls`` by some servers, is no call), ``refusal`` text
(surfaced as the reply's text with a ``content_filter`` finish), and
reasoning tokens counted outside ``completion_tokens``.

Only choice 0 is read: Wiggum never asks for ``n > 1``, and a server that
sends several choices anyway has the others ignored (chunks of choice 1, 2, …
never mix into the reply's text or tool calls); a DEBUG ``llm:choices-ignored``
log line says so, once per reply.
"""

from __future__ import annotations

import json
import logging
from functools import partial
from typing import Any

from ..accumulator import ResponseAccumulator
from ..call import Call
from ..errors import LLMError, MalformedResponseError, ProviderError
from ..event_stream import TemplatedParser
from ..event_template import EventTemplate
from ..http_errors import context_overflow_error
from ..normalize import apply_cache_control
from ..observability import LOGGER_NAME, log_event
from ..sse import SSEEvent
from ..structured import json_schema_for
from ..transport import HttpRequest
from ..types import ImagePart, Message, ParsedToolCall
from ..vendors import OPENAI_ANSWERS, reasoning_back, vendor_for
from .base import (
    ErrorAnswers,
    event_json,
    flat_or_wrapped,
    function_tools,
    image_url,
    join_url,
    json_object,
    post_json,
)

_LEGACY_SLOT = -1  # the legacy ``function_call`` has no index; it is always one call
_logger = logging.getLogger(LOGGER_NAME)


def _log_other_choices(call: Call) -> None:
    provider, model = call.label
    log_event(_logger, "llm:choices-ignored", provider=provider, model=model, read="choice 0")


def _arguments(tc: ParsedToolCall) -> str:
    # Send back exactly what the model wrote when it was valid JSON (cache-friendly);
    # a repaired call goes back as the repaired object so strict servers accept it.
    if tc.raw_args and not tc.repaired and not tc.parse_error:
        return tc.raw_args
    return json.dumps(tc.args, ensure_ascii=False)


def _content(m: Message) -> Any:
    if isinstance(m.content, str):
        return m.content
    parts: list[dict[str, Any]] = []
    for p in m.content:
        if isinstance(p, ImagePart):
            parts.append({"type": "image_url", "image_url": {"url": image_url(p)}})
        elif p.text:
            parts.append({"type": "text", "text": p.text})
    return parts


def convert_messages(messages: list[Message], *, reasoning_back: bool = False) -> list[dict]:
    out: list[dict[str, Any]] = []
    for m in messages:
        if m.role == "tool":
            out.append({"role": "tool", "tool_call_id": m.tool_call_id or "", "content": m.text})
            continue
        msg: dict[str, Any] = {"role": m.role, "content": _content(m)}
        if m.role == "assistant":
            if m.tool_calls:
                msg["content"] = msg["content"] or None
                msg["tool_calls"] = [
                    {
                        "id": tc.id,
                        "type": "function",
                        "function": {"name": tc.name, "arguments": _arguments(tc)},
                        **(tc.provider_data or {}),
                    }
                    for tc in m.tool_calls
                ]
            if reasoning_back and m.reasoning:
                msg["reasoning_content"] = m.reasoning
        if m.name and m.role == "user":
            msg["name"] = m.name
        out.append(msg)
    return out


def _dig(obj: Any, path: tuple[str, ...]) -> Any:
    """``obj[path[0]][path[1]]…``, or ``None`` where the path breaks off."""
    for key in path:
        if not isinstance(obj, dict):
            return None
        obj = obj.get(key)
    return obj


def _tool_choice(choice: str | None) -> Any:
    if choice in (None, "auto", "none", "required"):
        return choice
    return {"type": "function", "function": {"name": choice}}


def _error_fields(obj: Any) -> tuple[Any, Any, Any]:
    """``(message, type, code)`` of an error answer, ``{"error": {…}}`` or
    ``{"error": "…"}``; a gateway's upstream words go after its own message."""
    err = obj.get("error") if isinstance(obj, dict) else None
    if isinstance(err, dict):
        message = err.get("message")
        for path in OPENAI_ANSWERS.error_details:
            detail = _dig(err, path)
            if isinstance(detail, str):
                message = f"{message} {detail}"
        return message, err.get("type"), err.get("code")
    if isinstance(err, str):
        return err, None, None
    return (obj.get("message") if isinstance(obj, dict) else None), None, None


class OpenAIDialect(ErrorAnswers):
    name = "openai"
    stream_format = "sse"
    error_fields = staticmethod(_error_fields)

    def build_request(self, call: Call, *, stream: bool) -> HttpRequest:
        provider, options = call.provider, call.options
        vendor = vendor_for(provider)
        messages = convert_messages(call.messages, reasoning_back=reasoning_back(provider))
        body: dict[str, Any] = {"model": provider.model, "messages": messages, "stream": stream}
        if stream:
            body["stream_options"] = {"include_usage": True}
        if options.tools:
            body["tools"] = function_tools(options.tools)
            if options.tool_choice:
                body["tool_choice"] = _tool_choice(options.tool_choice)
        if call.max_tokens:
            body[vendor.max_tokens_field] = call.max_tokens
        if options.temperature is not None:
            body["temperature"] = options.temperature
        if options.output_schema is not None and call.native_schema:
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {
                    "name": options.output_schema.__name__,
                    "schema": json_schema_for(options.output_schema),
                },
            }
        if vendor.cache_markers_for and provider.model.startswith(vendor.cache_markers_for):
            apply_cache_control(messages)
        url = join_url(provider.base_url, "/chat/completions")
        return post_json(call, url, body, vendor, sse=stream)

    def stream_parser(self, acc: ResponseAccumulator, call: Call) -> _StreamParser:
        return _StreamParser(acc, call)

    def parse_body(self, body: bytes, acc: ResponseAccumulator, call: Call) -> None:
        obj = json_object(body, call)
        if obj.get("error") and not obj.get("choices"):
            raise stream_error(obj["error"], call, in_stream=False)
        if not obj.get("choices") and not obj.get("usage"):
            raise MalformedResponseError("The provider's answer has no choices", *call.label)
        acc.body = obj
        if apply_chunk(obj, acc, "message", call):
            _log_other_choices(call)
        acc.end()


class _StreamParser(TemplatedParser):
    __slots__ = ("_other_choices",)

    def __init__(self, acc: ResponseAccumulator, call: Call) -> None:
        super().__init__(acc, call)
        self._other_choices = False

    def _event(self, event: SSEEvent, text: str) -> None:
        if text[:6] == "[DONE]":
            self._acc.end()
            return
        try:
            obj = event_json(text)
        except ValueError:
            return  # keep-alives such as "data: : keepalive", or garbage: skip
        if type(obj) is dict:
            self._acc.last_event = obj
            if apply_chunk(obj, self._acc, "delta", self._call) and not self._other_choices:
                self._other_choices = True  # logged once per reply
                _log_other_choices(self._call)
            if self._stream.learning:
                self._learn(obj, text)

    def _learn(self, obj: dict, text: str) -> None:
        """A template from a chunk that only adds text or a call's arguments
        (see :mod:`~wiggum.llm.event_template`): the chunks after it that
        match it need no parse, and do the same with their own string."""
        if obj.get("usage") or obj.get("error"):
            return
        choices = obj.get("choices")
        if type(choices) is not list or len(choices) != 1 or type(choices[0]) is not dict:
            return
        choice = choices[0]
        delta = choice.get("delta")
        if choice.get("finish_reason") or choice.get("index", 0) not in (0, None):
            return
        if type(delta) is not dict or len(delta) != 1:
            return
        acc = self._acc
        if type(delta.get("content")) is str:
            key, value, apply = "content", delta["content"], acc.content
        else:
            calls = delta.get("tool_calls")
            if type(calls) is not list or len(calls) != 1 or type(calls[0]) is not dict:
                return
            tc = calls[0]
            fn = tc.get("function")
            if tc.get("id") or type(fn) is not dict:
                return
            if any(tc.get(extra) for extra in OPENAI_ANSWERS.call_extras):
                return
            if fn.get("name") or type(fn.get("arguments")) is not str:
                return
            key, value = "arguments", fn["arguments"]
            apply = partial(_call_arguments, acc, tc.get("index"))
        values = {key: value}
        padding = obj.get("obfuscation")  # OpenAI's random padding, new in every chunk
        if type(padding) is str:
            values["obfuscation"] = padding
        template = EventTemplate.learn(text, values)
        if template is not None:
            self._stream.add(template, apply, key)


def _call_arguments(acc: ResponseAccumulator, index: Any, args: str) -> None:
    # what _apply_tool_calls does with a chunk of one call's arguments alone
    acc.tool_call(index=index, position=0, args=args)


def apply_chunk(obj: dict, acc: ResponseAccumulator, key: str, call: Call) -> bool:
    """Apply one chunk (``key="delta"``) or a whole reply (``key="message"``).

    Returns whether it held choices other than 0, which are left out.
    """
    choices = obj.get("choices")
    others = False
    if choices and type(choices) is list:
        choice = choices[0]
        if len(choices) == 1:  # the common case: one choice, no scan needed
            if type(choice) is dict and choice.get("index", 0) not in (0, None):
                others, choice = True, None
        else:
            others = any(type(c) is dict and c.get("index", 0) not in (0, None) for c in choices)
            if type(choice) is dict and choice.get("index", 0) not in (0, None):
                # n > 1: a stream chunk of another choice; only choice 0 is the reply.
                choice = next(
                    (c for c in choices if type(c) is dict and c.get("index", 0) in (0, None)),
                    None,
                )
        if type(choice) is dict:
            delta = choice.get(key)
            if delta:
                _apply_delta(delta, acc)
            reason = choice.get("finish_reason")
            if reason:
                acc.finish(reason)
                if reason == "error" and not obj.get("error"):
                    acc.fail(
                        ProviderError(0, None, *call.label, error_type="error", in_stream=True)
                    )
    usage = obj.get("usage")
    if usage:
        _apply_usage(usage, acc)
    error = obj.get("error")
    if error:
        acc.fail(stream_error(error, call, in_stream=True))
    if not acc.meta and obj.get("id"):
        acc.meta = {"id": obj.get("id"), "model": obj.get("model")}
    return others


def _apply_delta(delta: dict, acc: ResponseAccumulator) -> None:
    if len(delta) == 1 and "tool_calls" in delta:
        # The common case of a tool call's stream: one argument fragment, nothing else.
        _apply_tool_calls(delta["tool_calls"], acc)
        return
    content = delta.get("content")
    if content:
        if type(content) is str:
            acc.content(content)
            if len(delta) == 1:  # the common case: text and nothing else
                return
        elif type(content) is list:  # Mistral-style content parts
            for part in content:
                if isinstance(part, dict):
                    if part.get("type") == "thinking":
                        thinking = part.get("thinking")
                        if isinstance(thinking, list):
                            thinking = "".join(t.get("text", "") for t in thinking)
                        acc.reasoning(thinking or "")
                    elif isinstance(part.get("text"), str):
                        acc.content(part["text"])
    annotations = delta.get("annotations")
    if annotations and type(annotations) is list:
        # A web search's sources: {"type": "url_citation", "url_citation": {url, title, …}}
        for note in annotations:
            cited = note.get("url_citation") if isinstance(note, dict) else None
            if isinstance(cited, dict):
                acc.citation(cited.get("url"), cited.get("title"))
    refusal = delta.get("refusal")
    if refusal and type(refusal) is str:
        acc.refusal(refusal)
    reasoning = None
    for name in OPENAI_ANSWERS.reasoning:
        reasoning = delta.get(name)
        if reasoning:
            break
    if reasoning and type(reasoning) is str:
        acc.reasoning(reasoning)
    else:
        _apply_reasoning_parts(delta, acc)
    _apply_tool_calls(delta.get("tool_calls"), acc)
    legacy = delta.get("function_call")
    if legacy and type(legacy) is dict and (legacy.get("name") or legacy.get("arguments")):
        args = legacy.get("arguments")
        acc.tool_call(
            index=_LEGACY_SLOT,
            name=legacy.get("name") or None,
            args=args if type(args) is str else None,
            args_obj=args if type(args) is dict else None,
        )


def _apply_tool_calls(calls: Any, acc: ResponseAccumulator) -> None:
    if not calls:
        return
    for position, tc in enumerate(calls):
        if type(tc) is not dict:
            continue
        # OpenAI's ``{"function": {...}}``, or the flat ``{name, arguments}`` of local servers.
        fn = flat_or_wrapped(tc) or {}
        args = fn.get("arguments")
        extra = {name: tc[name] for name in OPENAI_ANSWERS.call_extras if tc.get(name)}
        acc.tool_call(
            id=tc.get("id") or None,
            index=tc.get("index"),
            position=position,
            name=fn.get("name") or None,
            args=args if type(args) is str else None,
            args_obj=args if type(args) is dict else None,
            provider_data=extra or None,
        )


def _apply_reasoning_parts(delta: dict, acc: ResponseAccumulator) -> None:
    """Reasoning as a list of parts, each with a ``text`` or ``summary``."""
    for name in OPENAI_ANSWERS.reasoning_parts:
        parts = delta.get(name)
        if parts and type(parts) is list:
            for item in parts:
                if isinstance(item, dict):
                    text = item.get("text") or item.get("summary")
                    if isinstance(text, str):
                        acc.reasoning(text)
            return


def _apply_usage(usage: dict, acc: ResponseAccumulator) -> None:
    if type(usage) is not dict:
        return
    prompt_details = usage.get("prompt_tokens_details") or {}
    completion_details = usage.get("completion_tokens_details") or {}
    cached = prompt_details.get("cached_tokens") if isinstance(prompt_details, dict) else None
    for name in OPENAI_ANSWERS.cached_tokens:
        if cached is not None:
            break
        cached = usage.get(name)
    prompt, completion = usage.get("prompt_tokens"), usage.get("completion_tokens")
    total = usage.get("total_tokens")
    reasoning = (
        completion_details.get("reasoning_tokens") if isinstance(completion_details, dict) else None
    )
    if _ints(prompt, completion, total) and total > prompt + completion:
        # Most vendors count reasoning inside completion_tokens (total = prompt +
        # completion); some count it apart (xai.py, gemini.py), sometimes with no
        # details at all: the gap is billed output either way.
        completion = total - prompt
    acc.usage(
        prompt_tokens=prompt,
        completion_tokens=completion,
        total_tokens=total,
        cost=usage.get("cost"),
        cache_read_tokens=cached,
        cache_write_tokens=prompt_details.get("cache_write_tokens")
        if isinstance(prompt_details, dict)
        else None,
        reasoning_tokens=reasoning,
    )


def _ints(*values: Any) -> bool:
    return all(type(v) is int for v in values)


def stream_error(error: Any, call: Call, *, in_stream: bool) -> LLMError:
    """An error object inside a 200 answer (a gateway's: openrouter.py) as an :class:`LLMError`.

    "The prompt is too long" becomes :class:`ContextOverflowError` by the
    same rule as an HTTP 400 saying it; anything else a :class:`ProviderError`.
    """
    if isinstance(error, dict):
        code, message = error.get("code"), error.get("message")
        etype = error.get("type")
    else:
        code, message, etype = None, str(error), None
    status = code if isinstance(code, int) else 0
    if not etype and isinstance(code, str):
        etype = code
    text = message if isinstance(message, str) else None
    overflow = context_overflow_error(
        status, text, code if isinstance(code, str) else etype, *call.label
    )
    if overflow is not None:
        return overflow
    return ProviderError(
        status,
        None,
        *call.label,
        error_type=etype or ("server_error" if status >= 500 else None),
        detail=message if isinstance(message, str) else None,
        in_stream=in_stream,
    )
