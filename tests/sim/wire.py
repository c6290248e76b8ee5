"""Render a :class:`~.turns.Turn` in each provider's wire format (stream events or one body)."""

from __future__ import annotations

import json
import secrets
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from .turns import (
    HttpError,
    Reasoning,
    StreamError,
    Text,
    ToolCall,
    Turn,
    Usage,
    WebSearch,
    rand_id,
)

Dialect = str  # "openai" | "anthropic" | "ollama"


def dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


@dataclass
class Event:
    """One wire chunk: an SSE event (``name`` may be None) or one NDJSON line."""

    data: str
    name: str | None = None


@dataclass
class Ctx:
    dialect: Dialect
    model: str
    stream: bool
    include_usage: bool = False
    prompt_estimate: int = 1
    # filled in while rendering, recorded on the Request
    response_id: str = ""
    tool_call_ids: list[str] = field(default_factory=list)


# --------------------------------------------------------------------------- shared bits

_GENERIC = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "max_tokens": "length",
    "tool_use": "tool_calls",
    "refusal": "content_filter",
}
_FINISH = {
    "openai": {"stop": "stop", "length": "length", "tool_calls": "tool_calls"},
    "anthropic": {
        "stop": "end_turn",
        "length": "max_tokens",
        "tool_calls": "tool_use",
        "content_filter": "refusal",
    },
    "ollama": {"stop": "stop", "length": "length", "tool_calls": "stop"},
}


def finish_reason(turn: Turn, dialect: Dialect) -> str:
    fr = turn.finish_reason
    generic = _GENERIC.get(fr, fr)
    return _FINISH[dialect].get(generic, fr)


def usage_of(turn: Turn, ctx: Ctx) -> Usage:
    if turn.usage is not None:
        return turn.usage
    out = sum(
        len(p.full)
        if isinstance(p, Text | Reasoning)
        else len(p.query)
        if isinstance(p, WebSearch)
        else len(p.name) + len(p.arguments_json)
        for p in turn.parts
    )
    reasoning = len(turn.reasoning) // 4
    return Usage(ctx.prompt_estimate, max(1, out // 4), 0, reasoning)


def _tool_id(tc: ToolCall, dialect: Dialect) -> str:
    if tc.id:
        return tc.id
    return rand_id("toolu_01", 22) if dialect == "anthropic" else rand_id("call_", 24)


def _signature() -> str:
    return "Eq" + secrets.token_urlsafe(96)


def _frags(s: str, n: int) -> list[str]:
    from .turns import split_text

    return split_text(s, n)


# --------------------------------------------------------------------------- error bodies

_OPENAI_ERR = {
    400: ("invalid_request_error", None, "Invalid request."),
    401: (
        "invalid_request_error",
        "invalid_api_key",
        "Incorrect API key provided: sk-sim***. You can find your API key at "
        "https://platform.openai.com/account/api-keys.",
    ),
    403: ("invalid_request_error", "unsupported_country_region_territory", "Forbidden."),
    404: ("invalid_request_error", "model_not_found", "The model does not exist."),
    429: (
        "tokens",
        "rate_limit_exceeded",
        "Rate limit reached for gpt-4o in organization org-sim on tokens per min (TPM): "
        "Limit 30000, Used 29000, Requested 2000. Please try again in 1s.",
    ),
    500: (
        "server_error",
        None,
        "The server had an error while processing your request. Sorry about that!",
    ),
    503: ("server_error", None, "The engine is currently overloaded, please try again later."),
}
_ANTHROPIC_ERR = {
    400: ("invalid_request_error", "Invalid request."),
    401: ("authentication_error", "invalid x-api-key"),
    403: ("permission_error", "Your API key does not have permission to use this resource."),
    404: ("not_found_error", "model: not-a-model"),
    413: ("request_too_large", "Request exceeds the maximum allowed number of bytes."),
    429: (
        "rate_limit_error",
        "This request would exceed the rate limit for your organization of 50 requests per minute.",
    ),
    500: ("api_error", "Internal server error"),
    503: ("overloaded_error", "Overloaded"),
    529: ("overloaded_error", "Overloaded"),
}


def error_body(err: HttpError, dialect: Dialect) -> Any:
    if dialect in err.per_dialect:
        return err.per_dialect[dialect]
    if err.body is not None:
        return err.body
    status = err.status
    if dialect == "anthropic":
        etype, msg = _ANTHROPIC_ERR.get(
            status, ("api_error" if status >= 500 else "invalid_request_error", f"HTTP {status}")
        )
        return {
            "type": "error",
            "error": {"type": err.type or etype, "message": err.message or msg},
        }
    if dialect == "ollama":
        return {"error": err.message or _OPENAI_ERR.get(status, (0, 0, f"HTTP {status}"))[2]}
    etype, code, msg = _OPENAI_ERR.get(
        status,
        ("server_error" if status >= 500 else "invalid_request_error", None, f"HTTP {status}"),
    )
    return {
        "error": {
            "message": err.message or msg,
            "type": err.type or etype,
            "param": None,
            "code": err.code if err.code is not None else code,
        }
    }


def stream_error_obj(err: StreamError, dialect: Dialect, ctx: Ctx) -> Event:
    if dialect == "anthropic":
        return Event(
            dumps({"type": "error", "error": {"type": err.type, "message": err.message}}), "error"
        )
    if dialect == "ollama":
        return Event(dumps({"error": err.message}))
    return Event(
        dumps(
            {
                "id": ctx.response_id or rand_id("gen-", 24),
                "object": "chat.completion.chunk",
                "created": int(time.time()),
                "model": ctx.model,
                "error": {"message": err.message, "code": err.code},
                "choices": [{"index": 0, "delta": {}, "finish_reason": "error"}],
            }
        )
    )


def nonstream_error_body(err: StreamError, dialect: Dialect) -> Any:
    if dialect == "anthropic":
        return {"type": "error", "error": {"type": err.type, "message": err.message}}
    if dialect == "ollama":
        return {"error": err.message}
    return {"error": {"message": err.message, "code": err.code}}


# --------------------------------------------------------------------------- OpenAI


def _openai_usage(u: Usage) -> dict:
    return {
        "prompt_tokens": u.prompt_tokens,
        "completion_tokens": u.completion_tokens,
        "total_tokens": u.prompt_tokens + u.completion_tokens,
        "prompt_tokens_details": {"cached_tokens": u.cached_tokens},
        "completion_tokens_details": {"reasoning_tokens": u.reasoning_tokens},
    }


def _openai_reasoning_delta(fmt: str, piece: str) -> dict:
    if fmt == "reasoning_content":
        return {"content": None, "reasoning_content": piece}
    detail = [{"type": "reasoning.text", "text": piece, "format": "unknown", "index": 0}]
    if fmt == "reasoning":
        return {"content": "", "reasoning": piece}
    if fmt == "reasoning_details":
        return {"content": "", "reasoning_details": detail}
    if fmt == "openrouter":
        return {"content": "", "reasoning": piece, "reasoning_details": detail}
    raise ValueError(f"unknown reasoning_format {fmt!r}")


def openai_stream(turn: Turn, ctx: Ctx) -> list[Event]:
    ctx.response_id = rand_id("chatcmpl-", 29)
    base = {
        "id": ctx.response_id,
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": ctx.model,
        "system_fingerprint": "fp_sim",
    }
    usage_null = turn.usage_mode == "auto" and ctx.include_usage

    def chunk(delta: dict, finish: str | None = None, **extra: Any) -> Event:
        d: dict[str, Any] = {
            **base,
            "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}],
        }
        if usage_null:
            d["usage"] = None
        d.update(extra)
        return Event(dumps(d))

    events = [chunk({"role": "assistant", "content": "", "refusal": None})]
    fmt = turn.reasoning_format
    in_think = False
    tool_index = 0
    for part in turn.parts:
        if fmt == "think":
            if isinstance(part, Reasoning) and not in_think:
                events.append(chunk({"content": "<think>"}))
                in_think = True
            elif not isinstance(part, Reasoning) and in_think:
                events.append(chunk({"content": "</think>\n\n"}))
                in_think = False
        if isinstance(part, Text):
            pieces = part.pieces()
            for i, p in enumerate(pieces):
                delta: dict[str, Any] = {"content": p}
                if part.citations and i == len(pieces) - 1:
                    delta["annotations"] = _url_citations(part)
                events.append(chunk(delta))
        elif isinstance(part, Reasoning):
            for p in part.pieces():
                if fmt == "think":
                    events.append(chunk({"content": p}))
                else:
                    events.append(chunk(_openai_reasoning_delta(fmt, p)))
        elif isinstance(part, ToolCall):
            tid = _tool_id(part, "openai")
            ctx.tool_call_ids.append(tid)
            first = {
                "index": tool_index,
                "id": tid,
                "type": "function",
                "function": {"name": part.name, "arguments": ""},
            }
            events.append(chunk({"tool_calls": [first]}))
            for frag in _frags(part.arguments_json, part.chunks):
                events.append(
                    chunk({"tool_calls": [{"index": tool_index, "function": {"arguments": frag}}]})
                )
            tool_index += 1
    if in_think:
        events.append(chunk({"content": "</think>\n\n"}))
    u = _openai_usage(usage_of(turn, ctx))
    fr = finish_reason(turn, "openai")
    if turn.usage_mode == "on_finish":
        events.append(chunk({}, fr, usage=u))
    else:
        events.append(chunk({}, fr))
    if turn.usage_mode == "separate" or usage_null:
        events.append(Event(dumps({**base, "choices": [], "usage": u})))
    events.append(Event("[DONE]"))
    return events


def openai_body(turn: Turn, ctx: Ctx) -> dict:
    ctx.response_id = rand_id("chatcmpl-", 29)
    fmt = turn.reasoning_format
    text, reasoning = turn.text, turn.reasoning
    msg: dict[str, Any] = {"role": "assistant", "content": None, "refusal": None}
    if fmt == "think" and reasoning:
        msg["content"] = f"<think>{reasoning}</think>\n\n{text}"
    else:
        msg["content"] = text or None
        if reasoning:
            if fmt in ("reasoning_content",):
                msg["reasoning_content"] = reasoning
            if fmt in ("reasoning", "openrouter"):
                msg["reasoning"] = reasoning
            if fmt in ("reasoning_details", "openrouter"):
                msg["reasoning_details"] = [
                    {"type": "reasoning.text", "text": reasoning, "format": "unknown", "index": 0}
                ]
    notes = [n for p in turn.parts if isinstance(p, Text) for n in _url_citations(p)]
    if notes:
        msg["annotations"] = notes
    if turn.tool_calls:
        calls = []
        for tc in turn.tool_calls:
            tid = _tool_id(tc, "openai")
            ctx.tool_call_ids.append(tid)
            calls.append(
                {
                    "id": tid,
                    "type": "function",
                    "function": {"name": tc.name, "arguments": tc.arguments_json},
                }
            )
        msg["tool_calls"] = calls
    return {
        "id": ctx.response_id,
        "object": "chat.completion",
        "created": int(time.time()),
        "model": ctx.model,
        "choices": [
            {
                "index": 0,
                "message": msg,
                "logprobs": None,
                "finish_reason": finish_reason(turn, "openai"),
            }
        ],
        "usage": _openai_usage(usage_of(turn, ctx)),
        "system_fingerprint": "fp_sim",
    }


def _url_citations(part: Text) -> list[dict]:
    """OpenRouter's web plugin: OpenAI-style ``url_citation`` annotations."""
    return [
        {
            "type": "url_citation",
            "url_citation": {
                "url": url,
                "title": title,
                "content": "",
                "start_index": 0,
                "end_index": len(part.full),
            },
        }
        for url, title in part.citations
    ]


# --------------------------------------------------------------------------- Anthropic


def _search_id(part: WebSearch) -> str:
    if part.id is None:
        part.id = rand_id("srvtoolu_01", 22)
    return part.id


def _search_result(part: WebSearch) -> dict:
    return {
        "type": "web_search_tool_result",
        "tool_use_id": _search_id(part),
        "content": [
            {
                "type": "web_search_result",
                "url": url,
                "title": title,
                "encrypted_content": "Eq" + secrets.token_hex(12),
                "page_age": None,
            }
            for url, title in part.results
        ],
    }


def _anthropic_citations(part: Text) -> list[dict]:
    return [
        {
            "type": "web_search_result_location",
            "url": url,
            "title": title,
            "encrypted_index": "Eo" + secrets.token_hex(8),
            "cited_text": part.full[:150],
        }
        for url, title in part.citations
    ]


def _anthropic_message(ctx: Ctx, content: list, stop: str | None, usage: dict) -> dict:
    return {
        "id": ctx.response_id,
        "type": "message",
        "role": "assistant",
        "model": ctx.model,
        "content": content,
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": usage,
    }


def anthropic_stream(turn: Turn, ctx: Ctx) -> list[Event]:
    ctx.response_id = rand_id("msg_01", 22)
    u = usage_of(turn, ctx)
    start_usage = {
        "input_tokens": u.prompt_tokens,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": u.cached_tokens,
        "output_tokens": 1,
    }

    def ev(name: str, **data: Any) -> Event:
        return Event(dumps({"type": name, **data}), name)

    events = [
        ev("message_start", message=_anthropic_message(ctx, [], None, start_usage)),
        ev("ping"),
    ]
    index = -1
    for part in turn.parts:
        index += 1  # a web search takes two blocks: the call and its result
        if isinstance(part, WebSearch):
            block = {
                "type": "server_tool_use",
                "id": _search_id(part),
                "name": "web_search",
                "input": {},
            }
            events.append(ev("content_block_start", index=index, content_block=block))
            query = dumps({"query": part.query})
            for frag in _frags(query, 2):
                delta = {"type": "input_json_delta", "partial_json": frag}
                events.append(ev("content_block_delta", index=index, delta=delta))
            events.append(ev("content_block_stop", index=index))
            index += 1
            events.append(
                ev("content_block_start", index=index, content_block=_search_result(part))
            )
        elif isinstance(part, Text):
            events.append(
                ev("content_block_start", index=index, content_block={"type": "text", "text": ""})
            )
            for citation in _anthropic_citations(part):
                delta = {"type": "citations_delta", "citation": citation}
                events.append(ev("content_block_delta", index=index, delta=delta))
            for p in part.pieces():
                events.append(
                    ev("content_block_delta", index=index, delta={"type": "text_delta", "text": p})
                )
        elif isinstance(part, Reasoning):
            block = {"type": "thinking", "thinking": "", "signature": ""}
            events.append(ev("content_block_start", index=index, content_block=block))
            for p in part.pieces():
                delta = {"type": "thinking_delta", "thinking": p}
                events.append(ev("content_block_delta", index=index, delta=delta))
            delta = {"type": "signature_delta", "signature": part.signature or _signature()}
            events.append(ev("content_block_delta", index=index, delta=delta))
        elif isinstance(part, ToolCall):
            tid = _tool_id(part, "anthropic")
            ctx.tool_call_ids.append(tid)
            block = {"type": "tool_use", "id": tid, "name": part.name, "input": {}}
            events.append(ev("content_block_start", index=index, content_block=block))
            for frag in ["", *_frags(part.arguments_json, part.chunks)]:
                delta = {"type": "input_json_delta", "partial_json": frag}
                events.append(ev("content_block_delta", index=index, delta=delta))
        events.append(ev("content_block_stop", index=index))
    events.append(
        ev(
            "message_delta",
            delta={"stop_reason": finish_reason(turn, "anthropic"), "stop_sequence": None},
            usage={"output_tokens": u.completion_tokens},
        )
    )
    events.append(ev("message_stop"))
    return events


def anthropic_body(turn: Turn, ctx: Ctx) -> dict:
    ctx.response_id = rand_id("msg_01", 22)
    content = []
    for part in turn.parts:
        if isinstance(part, WebSearch):
            content.append(
                {
                    "type": "server_tool_use",
                    "id": _search_id(part),
                    "name": "web_search",
                    "input": {"query": part.query},
                }
            )
            content.append(_search_result(part))
        elif isinstance(part, Text):
            block: dict[str, Any] = {"type": "text", "text": part.full}
            if part.citations:
                block["citations"] = _anthropic_citations(part)
            content.append(block)
        elif isinstance(part, Reasoning):
            content.append(
                {
                    "type": "thinking",
                    "thinking": part.full,
                    "signature": part.signature or _signature(),
                }
            )
        elif isinstance(part, ToolCall):
            tid = _tool_id(part, "anthropic")
            ctx.tool_call_ids.append(tid)
            content.append(
                {"type": "tool_use", "id": tid, "name": part.name, "input": part.arguments_obj}
            )
    u = usage_of(turn, ctx)
    usage = {
        "input_tokens": u.prompt_tokens,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": u.cached_tokens,
        "output_tokens": u.completion_tokens,
    }
    return _anthropic_message(ctx, content, finish_reason(turn, "anthropic"), usage)


# --------------------------------------------------------------------------- Ollama


def _now_rfc3339() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _ollama_final(turn: Turn, ctx: Ctx, message: dict) -> dict:
    u = usage_of(turn, ctx)
    return {
        "model": ctx.model,
        "created_at": _now_rfc3339(),
        "message": message,
        "done_reason": finish_reason(turn, "ollama"),
        "done": True,
        "total_duration": 1_234_567_890,
        "load_duration": 12_345_678,
        "prompt_eval_count": u.prompt_tokens,
        "prompt_eval_duration": 123_456_789,
        "eval_count": u.completion_tokens,
        "eval_duration": 987_654_321,
    }


def _ollama_calls(calls: list[ToolCall], ctx: Ctx) -> list[dict]:
    ctx.tool_call_ids.extend("" for _ in calls)  # Ollama tool calls carry no id
    return [{"function": {"name": c.name, "arguments": c.arguments_obj}} for c in calls]


def ollama_stream(turn: Turn, ctx: Ctx) -> list[Event]:
    def line(**msg: Any) -> Event:
        m = {"role": "assistant", "content": "", **msg}
        return Event(
            dumps({"model": ctx.model, "created_at": _now_rfc3339(), "message": m, "done": False})
        )

    events: list[Event] = []
    pending_calls: list[ToolCall] = []
    for part in turn.parts:
        if not isinstance(part, ToolCall) and pending_calls:
            events.append(line(tool_calls=_ollama_calls(pending_calls, ctx)))
            pending_calls = []
        if isinstance(part, Text):
            events += [line(content=p) for p in part.pieces()]
        elif isinstance(part, Reasoning):
            events += [line(thinking=p) for p in part.pieces()]
        elif isinstance(part, ToolCall):
            pending_calls.append(part)
    if pending_calls:
        events.append(line(tool_calls=_ollama_calls(pending_calls, ctx)))
    events.append(Event(dumps(_ollama_final(turn, ctx, {"role": "assistant", "content": ""}))))
    return events


def ollama_body(turn: Turn, ctx: Ctx) -> dict:
    msg: dict[str, Any] = {"role": "assistant", "content": turn.text}
    if turn.reasoning:
        msg["thinking"] = turn.reasoning
    if turn.tool_calls:
        msg["tool_calls"] = _ollama_calls(turn.tool_calls, ctx)
    return _ollama_final(turn, ctx, msg)


STREAM = {"openai": openai_stream, "anthropic": anthropic_stream, "ollama": ollama_stream}
BODY = {"openai": openai_body, "anthropic": anthropic_body, "ollama": ollama_body}


# --------------------------------------------------------------------------- model lists


def model_list(dialect: str, models: list) -> dict:
    created = 1_715_367_049
    if dialect == "anthropic":
        data = [
            m
            if isinstance(m, dict)
            else {
                "type": "model",
                "id": m,
                "display_name": m.replace("-", " ").title(),
                "created_at": "2025-02-19T00:00:00Z",
            }
            for m in models
        ]
        return {
            "data": data,
            "has_more": False,
            "first_id": data[0]["id"] if data else None,
            "last_id": data[-1]["id"] if data else None,
        }
    if dialect == "ollama":
        return {
            "models": [
                m
                if isinstance(m, dict)
                else {
                    "name": m,
                    "model": m,
                    "modified_at": "2025-05-01T12:00:00.000000000Z",
                    "size": 2_019_393_189,
                    "digest": secrets.token_hex(32),
                    "details": {
                        "parent_model": "",
                        "format": "gguf",
                        "family": "llama",
                        "families": ["llama"],
                        "parameter_size": "3.2B",
                        "quantization_level": "Q4_K_M",
                    },
                }
                for m in models
            ]
        }
    return {
        "object": "list",
        "data": [
            m
            if isinstance(m, dict)
            else {"id": m, "object": "model", "created": created, "owned_by": "wiggum-sim"}
            for m in models
        ],
    }
