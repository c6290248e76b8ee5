"""Streaming throughput: wiggum.llm vs the openai SDK vs a json.loads floor.

    python bench/stream_throughput.py

One process builds one large OpenAI-style SSE transcript (the chunks
api.openai.com sends for gpt-4o: a role chunk, text deltas of a few tokens,
two tool calls whose long arguments arrive in small fragments, a finish
chunk, a usage chunk with ``choices: []`` and ``data: [DONE]``), cuts it
into 16 KiB reads and feeds the same reads through three paths:

* wiggum  -- ``wiggum.llm.stream()`` over a ``ReplayTransport``; every delta
             consumed, the final response awaited.
* openai  -- the openai SDK's own SSE decoding and
             ``client.chat.completions.stream()`` accumulation
             (``ChatCompletionStreamState``) over an in-memory httpx
             transport: no network, no retries.
* floor   -- split on blank lines and ``json.loads`` each data payload,
             nothing else.

The three must agree on the final text and tool-call arguments (that is
asserted); the timings are only printed.  No assertion is made about time.
"""

from __future__ import annotations

import asyncio
import gc
import json
import random
import statistics
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import httpx

try:  # needed to run this file; bench/browser.py only borrows its transcript
    import openai
except ImportError:
    openai = None

import wiggum.llm as llm
from wiggum.llm.transport import ReplayResponse, ReplayTransport

READ = 16 * 1024
ROUNDS = 5  # the SDK runs once a round (about 3 s a run) ...
FAST = 3  # ... wiggum and the floor this many times (about 0.1 s a run)
MIN_BYTES = 2 * 1024 * 1024
GOAL = 2.0

TEXT_DELTAS = 6000
TOOL_FRAGMENTS = 3600  # per tool call

MODEL = "gpt-4o-2024-08-06"
RESPONSE_ID = "chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG"
CREATED = 1741569952
FINGERPRINT = "fp_eb9dce56a8"
BASE_URL = "https://api.openai.com/v1"
PROMPT = "Refactor the server module and write its tests; explain what you change."


# ----------------------------------------------------------------- transcript

_WORDS = (
    "the a to of and in that is for it on with as this be are by or we you"
    " server request handler response module function test value error cache"
    " refactor returns should config client stream token parser state retry"
    " because instead each when then only never while after before update"
)
WORDS = _WORDS.split()
ODD = [
    " café",
    " naïve",
    " —",
    " →",
    " “quoted”",
    " 🙂",
    " `Path`",
    " `dict[str, Any]`",
    " <b>",
    " x < y",
    " 日本語",
    " résumé",
]
PUNCT = [",", ".", ":", ";", "!", "?", ")", " ("]


def _text_pieces(rng: random.Random, n: int) -> list[str]:
    """Deltas of one to four tokens, as gpt-4o streams them."""
    pieces = []
    for _ in range(n):
        parts = []
        for _ in range(rng.choice((1, 1, 1, 2, 2, 3, 4))):
            r = rng.random()
            if r < 0.70:
                parts.append(" " + rng.choice(WORDS))
            elif r < 0.85:
                parts.append(rng.choice(PUNCT))
            elif r < 0.92:
                parts.append(rng.choice(("\n\n", "\n", "\n- ", "\n\n### ", "**")))
            else:
                parts.append(rng.choice(ODD))
        pieces.append("".join(parts))
    return pieces


def _code(rng: random.Random, lines: int) -> str:
    out = ["from __future__ import annotations", "", "import json", ""]
    for i in range(lines):
        k = rng.randrange(6)
        if k == 0:
            out.append(f"def handler_{i}(request: dict) -> dict:")
        elif k == 1:
            out.append(f'    """Handle the “{rng.choice(WORDS)}” case — step {i}."""')
        elif k == 2:
            out.append(f'    value = request.get("{rng.choice(WORDS)}", {{"n": {i}}})')
        elif k == 3:
            out.append(
                '    if value is None or "\\\\" in str(value):\n        return {"ok": False}'
            )
        elif k == 4:
            out.append(f"    return json.dumps(value)  # {rng.choice(WORDS)}\t{i}")
        else:
            out.append("")
    return "\n".join(out) + "\n"


def _fragments(rng: random.Random, text: str, n: int) -> list[str]:
    """Cut ``text`` into ``n`` fragments of a few characters each."""
    cuts = sorted(rng.sample(range(1, len(text)), n - 1))
    return [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]


def _tool_args(rng: random.Random, fragments: int) -> tuple[str, str]:
    """Two long argument strings, each about 4 characters per fragment."""
    size = fragments * 4
    code = _code(rng, size // 30)
    write = json.dumps({"path": "src/app/server.py", "content": code}, ensure_ascii=False)
    while len(write) < size:
        code += _code(rng, 20)
        write = json.dumps({"path": "src/app/server.py", "content": code}, ensure_ascii=False)
    tests = _code(rng, size // 30)
    patch = json.dumps(
        {
            "path": "tests/test_server.py",
            "edits": [{"find": f"case_{i}", "replace": f"case_{i}_v2"} for i in range(40)],
            "content": tests,
            "dry_run": False,
        },
        ensure_ascii=False,
    )
    return write, patch


def _chunk(choices: list[dict], **extra: Any) -> dict:
    obj = {
        "id": RESPONSE_ID,
        "object": "chat.completion.chunk",
        "created": CREATED,
        "model": MODEL,
        "service_tier": "default",
        "system_fingerprint": FINGERPRINT,
        "choices": choices,
    }
    obj["usage"] = None  # stream_options.include_usage: every chunk carries it
    obj.update(extra)
    return obj


def _choice(delta: dict, finish: str | None = None) -> list[dict]:
    return [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}]


def build_transcript(seed: int = 7) -> tuple[bytes, dict[str, Any]]:
    """The SSE body and what a correct client must make of it."""
    rng = random.Random(seed)
    text = _text_pieces(rng, TEXT_DELTAS)
    calls = [
        ("call_Yd2lTq1oYv6ZNi4tLDc9XkQ3", "write_file"),
        ("call_8Rw0HjzAxN3cM5sVbKUfpE1g", "apply_patch"),
    ]
    args = _tool_args(rng, TOOL_FRAGMENTS)

    chunks: list[dict] = [_chunk(_choice({"role": "assistant", "content": "", "refusal": None}))]
    chunks += [_chunk(_choice({"content": piece})) for piece in text]
    for index, ((call_id, name), arg) in enumerate(zip(calls, args, strict=True)):
        first = {
            "index": index,
            "id": call_id,
            "type": "function",
            "function": {"name": name, "arguments": ""},
        }
        chunks.append(_chunk(_choice({"tool_calls": [first]})))
        for frag in _fragments(rng, arg, TOOL_FRAGMENTS):
            delta = {"tool_calls": [{"index": index, "function": {"arguments": frag}}]}
            chunks.append(_chunk(_choice(delta)))
    chunks.append(_chunk(_choice({}, "tool_calls")))
    completion = len(chunks) - 2
    usage = {
        "prompt_tokens": 1234,
        "completion_tokens": completion,
        "total_tokens": 1234 + completion,
        "prompt_tokens_details": {"cached_tokens": 1024, "audio_tokens": 0},
        "completion_tokens_details": {
            "reasoning_tokens": 0,
            "audio_tokens": 0,
            "accepted_prediction_tokens": 0,
            "rejected_prediction_tokens": 0,
        },
    }
    chunks.append(_chunk([], usage=usage))

    body = b"".join(
        b"data: " + json.dumps(c, ensure_ascii=False, separators=(",", ":")).encode() + b"\n\n"
        for c in chunks
    )
    body += b"data: [DONE]\n\n"
    expected = {
        "content": "".join(text),
        "tool_calls": [(cid, name, arg) for (cid, name), arg in zip(calls, args, strict=True)],
        "events": len(chunks),
        "prompt_tokens": usage["prompt_tokens"],
        "completion_tokens": usage["completion_tokens"],
    }
    return body, expected


def reads(body: bytes) -> list[bytes]:
    return [body[i : i + READ] for i in range(0, len(body), READ)]


# ----------------------------------------------------------------- the paths


def run_floor(chunks: list[bytes], keep: list[Any] | None = None) -> int:
    """Split the reads into events and ``json.loads`` each payload; nothing else.

    The parsed objects are dropped unless ``keep`` is given (the correctness
    check): holding 13k dicts alive costs a third of the floor's time.  The
    payload is decoded first because ``json.loads(bytes)`` runs a pure-Python
    ``detect_encoding`` on every call.
    """
    loads = json.loads
    events = 0
    buf = b""
    for chunk in chunks:
        buf += chunk
        parts = buf.split(b"\n\n")
        buf = parts.pop()
        for part in parts:
            if part.startswith(b"data: "):
                payload = part[6:]
                if payload != b"[DONE]":
                    obj = loads(payload.decode())
                    events += 1
                    if keep is not None:
                        keep.append(obj)
    return events


PROVIDER = llm.ProviderConfig(
    id="openai", kind="openai", base_url=BASE_URL, model="gpt-4o", api_key="sk-test"
)
MESSAGES = [llm.Message.user(PROMPT)]


async def run_wiggum(chunks: list[bytes]) -> tuple[llm.LLMResponse, list[Any]]:
    transport = ReplayTransport(
        ReplayResponse(chunks, headers={"content-type": "text/event-stream"})
    )
    result = await llm.stream(PROVIDER, MESSAGES, transport=transport)
    deltas = [d async for d in result.deltas]
    return await result.response, deltas


SDK_REQUESTS: list[str] = []


def make_openai_client(chunks: list[bytes]) -> openai.AsyncOpenAI:
    """An SDK client whose only transport answers from memory; no retries."""

    async def body() -> AsyncIterator[bytes]:
        for chunk in chunks:
            yield chunk

    def handler(request: httpx.Request) -> httpx.Response:
        SDK_REQUESTS.append(str(request.url))
        return httpx.Response(
            200,
            headers={"content-type": "text/event-stream", "x-request-id": "req_bench"},
            content=body(),
        )

    return openai.AsyncOpenAI(
        api_key="sk-test",
        base_url=BASE_URL,
        max_retries=0,
        http_client=httpx.AsyncClient(transport=httpx.MockTransport(handler)),
    )


async def run_openai(client: openai.AsyncOpenAI) -> tuple[Any, int]:
    events = 0
    async with client.chat.completions.stream(
        model="gpt-4o",
        messages=[{"role": "user", "content": PROMPT}],
        stream_options={"include_usage": True},
    ) as stream:
        async for _ in stream:
            events += 1
        final = await stream.get_final_completion()
    return final, events


# ----------------------------------------------------------------- agreement


def check(expected: dict, floor: list[Any], wiggum: tuple, sdk: tuple) -> None:
    want_text = expected["content"]
    want_calls = expected["tool_calls"]

    # floor: assemble from the parsed payloads (outside the timed path)
    assert len(floor) == expected["events"], (len(floor), expected["events"])
    text, calls = [], {}
    for obj in floor:
        for choice in obj["choices"]:
            delta = choice["delta"]
            text.append(delta.get("content") or "")
            for tc in delta.get("tool_calls") or ():
                slot = calls.setdefault(tc["index"], {"id": "", "name": "", "args": []})
                slot["id"] = slot["id"] or tc.get("id", "")
                slot["name"] = slot["name"] or tc["function"].get("name", "")
                slot["args"].append(tc["function"].get("arguments", ""))
    assert "".join(text) == want_text, "floor: content differs"
    got = [(s["id"], s["name"], "".join(s["args"])) for _, s in sorted(calls.items())]
    assert got == want_calls, "floor: tool calls differ"

    # wiggum: the final response and the deltas handed out
    response, deltas = wiggum
    assert response.content == want_text, "wiggum: content differs"
    got = [(tc.id, tc.name, tc.raw_args) for tc in response.tool_calls]
    assert got == want_calls, "wiggum: tool calls differ"
    for tc, (_, _, raw) in zip(response.tool_calls, want_calls, strict=True):
        assert tc.args == json.loads(raw) and not tc.repaired and not tc.truncated
    assert response.finish_reason == llm.FinishReason.TOOL_CALLS
    assert response.usage is not None
    assert response.usage.prompt_tokens == expected["prompt_tokens"]
    assert response.usage.completion_tokens == expected["completion_tokens"]
    streamed = "".join(d.text for d in deltas if isinstance(d, llm.ContentDelta))
    assert streamed == want_text, "wiggum: streamed content differs"
    args: dict[int, list[str]] = {}
    for d in deltas:
        if isinstance(d, llm.ToolCallArgsDelta):
            args.setdefault(d.index, []).append(d.args)
    assert ["".join(args[i]) for i in sorted(args)] == [a for _, _, a in want_calls]
    assert isinstance(deltas[-1], llm.FinishDelta)

    # openai SDK: the accumulated final completion
    final, events = sdk
    message = final.choices[0].message
    assert events >= expected["events"] - 1, "openai: too few events"
    assert message.content == want_text, "openai: content differs"
    got = [(tc.id, tc.function.name, tc.function.arguments) for tc in message.tool_calls]
    assert got == want_calls, "openai: tool calls differ"
    assert final.choices[0].finish_reason == "tool_calls"
    assert final.usage is not None and final.usage.prompt_tokens == expected["prompt_tokens"]


# ----------------------------------------------------------------- timing


def _timed_sync(fn: Callable[[], Any]) -> float:
    gc.collect()
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


async def _timed_async(fn: Callable[[], Awaitable[Any]]) -> float:
    gc.collect()
    start = time.perf_counter()
    await fn()
    return time.perf_counter() - start


async def main() -> None:
    if openai is None:
        raise SystemExit(
            "bench/stream_throughput.py compares with the openai SDK: pip install openai"
        )
    body, expected = build_transcript()
    assert len(body) >= MIN_BYTES, len(body)
    chunks = reads(body)
    client = make_openai_client(chunks)
    mb = len(body) / 1e6

    # one untimed run each (warm-up) doubles as the correctness check
    floor: list[Any] = []
    run_floor(chunks, floor)
    check(expected, floor, await run_wiggum(chunks), await run_openai(client))

    times: dict[str, list[float]] = {"wiggum": [], "openai SDK": [], "floor": []}
    for _ in range(ROUNDS):  # interleaved, so drift on a busy machine hits every path alike
        for _ in range(FAST):
            times["floor"].append(_timed_sync(lambda: run_floor(chunks)))
            times["wiggum"].append(await _timed_async(lambda: run_wiggum(chunks)))
        times["openai SDK"].append(await _timed_async(lambda: run_openai(client)))
    await client.close()
    # one request per SDK run: nothing was retried, and nothing left the process
    sent = [f"{BASE_URL}/chat/completions"] * (ROUNDS + 1)
    assert sent == SDK_REQUESTS, SDK_REQUESTS

    py = sys.version.split()[0]
    print(
        f"transcript: {len(body):,} bytes, {expected['events']:,} events, "
        f"{len(chunks)} reads of {READ // 1024} KiB; "
        f"{len(expected['content']):,} chars of text, "
        f"tool args {' + '.join(f'{len(a):,}' for _, _, a in expected['tool_calls'])} chars"
    )
    print(f"python {py}, openai {openai.__version__}, httpx {httpx.__version__}")
    runs = ", ".join(f"{name} {len(ts)}" for name, ts in times.items())
    print(f"best run (median in brackets) of: {runs}")
    print("all three paths agree on the text and both tool calls' id, name and arguments")
    print()
    floor_best = min(times["floor"])
    floor_med = statistics.median(times["floor"])
    print(f"{'path':<12} {'MB/s':>16} {'ms per run':>18} {'x floor':>16}")
    for name, ts in times.items():
        best, med = min(ts), statistics.median(ts)
        print(
            f"{name:<12} {mb / best:>7.1f} ({mb / med:>6.1f})"
            f" {best * 1e3:>8.1f} ({med * 1e3:>7.1f})"
            f" {best / floor_best:>6.2f}x ({med / floor_med:>5.2f}x)"
        )
    print()
    ratio = min(times["wiggum"]) / floor_best
    verdict = "met" if ratio <= GOAL else "NOT met"
    print(f"goal: wiggum ≤ {GOAL:g}× floor  -> {ratio:.2f}× ({verdict})")


if __name__ == "__main__":
    asyncio.run(main())
