"""Building and replaying wire transcripts for the conformance tests."""

from __future__ import annotations

import json
import random
from typing import Any

from wiggum.llm import Message, ProviderConfig, RequestOptions, chat, stream
from wiggum.llm.transport import ReplayResponse, ReplayTransport

OPENAI = ProviderConfig(
    id="openai", kind="openai", base_url="https://api.openai.com/v1", model="gpt-4o", api_key="sk-t"
)
ANTHROPIC = ProviderConfig(
    id="anthropic",
    kind="anthropic",
    base_url="https://api.anthropic.com",
    model="claude-sonnet-4-20250514",
    api_key="sk-ant-t",
)
OLLAMA = ProviderConfig(
    id="ollama", kind="ollama", base_url="http://127.0.0.1:11434", model="qwen3:8b"
)
HELLO = [Message.user("hi")]

SSE = {"content-type": "text/event-stream"}
NDJSON = {"content-type": "application/x-ndjson"}
JSON = {"content-type": "application/json"}


def sse(*events: Any, done: bool = True) -> bytes:
    """OpenAI-style SSE: dicts become ``data:`` lines, strings go out verbatim."""
    out = []
    for e in events:
        out.append(
            e.encode() if isinstance(e, str) else b"data: " + json.dumps(e).encode() + b"\n\n"
        )
    if done:
        out.append(b"data: [DONE]\n\n")
    return b"".join(out)


def anthropic_sse(*events: dict) -> bytes:
    return b"".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n".encode() for e in events)


def ndjson(*lines: dict) -> bytes:
    return b"".join(json.dumps(line).encode() + b"\n" for line in lines)


def chunk(delta: dict | None = None, finish: str | None = None, **top) -> dict:
    choice: dict = {"index": 0, "delta": delta or {}, "finish_reason": finish}
    return {"id": "chatcmpl-1", "model": "gpt-4o", "choices": [choice], **top}


def cut_points(body: bytes, mode: str, seed: int = 0) -> list[int]:
    n = len(body)
    if mode == "whole" or n < 2:
        return []
    if mode == "bytes":
        return list(range(1, n))
    if mode == "small":
        return list(range(5, n, 5))
    rng = random.Random(seed * 7919 + n)
    return sorted(rng.sample(range(1, n), min(n - 1, rng.randint(2, max(2, n // 20)))))


def pieces(body: bytes, cuts: list[int]) -> list[bytes]:
    out, last = [], 0
    for cut in [*cuts, len(body)]:
        out.append(body[last:cut])
        last = cut
    return out


MODES = ["whole", "bytes", "small", "random"]


async def run_stream(
    provider: ProviderConfig,
    body: bytes,
    mode: str = "whole",
    *,
    headers: dict | None = None,
    options: RequestOptions | None = None,
    messages: list[Message] | None = None,
    seed: int = 0,
    extra: list | None = None,
):
    """Stream ``body``; returns ``(deltas, response or the error, transport)``."""
    ctype = headers or (NDJSON if provider.kind == "ollama" else SSE)
    transport = ReplayTransport(
        *(extra or []), ReplayResponse(pieces(body, cut_points(body, mode, seed)), 200, ctype)
    )
    result = await stream(provider, messages or HELLO, options, transport=transport)
    deltas = [d async for d in result.deltas]
    try:
        response = await result.response
    except Exception as exc:
        response = exc
    return deltas, response, transport


async def run_batch(provider, body: dict | bytes, *, options=None, messages=None, status=200):
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    transport = ReplayTransport(ReplayResponse(raw, status, JSON))
    return await chat(provider, messages or HELLO, options, transport=transport), transport


def dump(response) -> dict:
    """A response as data, for equality checks between batch and stream."""
    return response.model_dump()


# ---------------------------------------------------------------- Anthropic events


def a_start(usage: dict | None = None) -> dict:
    return {
        "type": "message_start",
        "message": {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "claude-sonnet-4-20250514",
            "content": [],
            "stop_reason": None,
            "usage": usage or {"input_tokens": 20, "output_tokens": 1},
        },
    }


def a_end(stop: str, output: int = 7) -> list[dict]:
    return [
        {
            "type": "message_delta",
            "delta": {"stop_reason": stop, "stop_sequence": None},
            "usage": {"output_tokens": output},
        },
        {"type": "message_stop"},
    ]


def a_text(index: int, *pieces: str) -> list[dict]:
    return [
        {
            "type": "content_block_start",
            "index": index,
            "content_block": {"type": "text", "text": ""},
        },
        *(
            {
                "type": "content_block_delta",
                "index": index,
                "delta": {"type": "text_delta", "text": p},
            }
            for p in pieces
        ),
        {"type": "content_block_stop", "index": index},
    ]


def a_tool(index: int, id: str, name: str, *fragments: str) -> list[dict]:
    return [
        {
            "type": "content_block_start",
            "index": index,
            "content_block": {"type": "tool_use", "id": id, "name": name, "input": {}},
        },
        *(
            {
                "type": "content_block_delta",
                "index": index,
                "delta": {"type": "input_json_delta", "partial_json": f},
            }
            for f in fragments
        ),
        {"type": "content_block_stop", "index": index},
    ]


def a_message(content: list[dict], stop: str, usage: dict | None = None) -> dict:
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-20250514",
        "content": content,
        "stop_reason": stop,
        "usage": usage or {"input_tokens": 20, "output_tokens": 7},
    }
