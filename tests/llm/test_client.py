"""The pipeline's behaviour: retries, error mapping, fallbacks, abort, preflight, secrecy."""

from __future__ import annotations

import asyncio
import json
import logging

import pytest

from tests.llm.wire import (
    ANTHROPIC,
    HELLO,
    JSON,
    OLLAMA,
    OPENAI,
    SSE,
    a_message,
    chunk,
    run_batch,
    run_stream,
    sse,
)
from wiggum.llm import (
    AbortController,
    AbortError,
    AuthenticationError,
    ContextOverflowError,
    EmptyResponseError,
    ErrorDelta,
    FingersCrossedHandler,
    ImagePart,
    ListHandler,
    MalformedToolCallError,
    Message,
    NetworkError,
    NotFoundError,
    ProviderConfig,
    ProviderError,
    RateLimitError,
    RequestOptions,
    TextPart,
    apply_proxy,
    chat,
    stream,
)
from wiggum.llm.http_errors import parse_retry_after
from wiggum.llm.normalize import DEFAULT_QUIRKS, quirk_key
from wiggum.llm.transport import Headers, ReplayResponse, ReplayTransport

OK = {
    "choices": [
        {"index": 0, "message": {"role": "assistant", "content": "ok"}, "finish_reason": "stop"}
    ]
}


class Sleeps(list):
    async def __call__(self, seconds: float) -> None:
        self.append(seconds)


def error(status: int, body: dict | str, headers: dict | None = None) -> ReplayResponse:
    raw = body.encode() if isinstance(body, str) else json.dumps(body).encode()
    return ReplayResponse(raw, status, {**JSON, **(headers or {})})


def ok(body=OK) -> ReplayResponse:
    return ReplayResponse(json.dumps(body).encode(), 200, JSON)


async def test_429_retry_after_then_success_spends_no_wall_time():
    sleeps = Sleeps()
    t = ReplayTransport(
        error(
            429, {"error": {"message": "Rate limit", "type": "rate_limit"}}, {"Retry-After": "7"}
        ),
        ok(),
    )
    response = await chat(OPENAI, HELLO, RequestOptions(sleep=sleeps), transport=t)
    assert response.content == "ok" and sleeps == [7.0] and len(t.requests) == 2


async def test_5xx_backs_off_exponentially_then_gives_up():
    # the official SDKs' schedule: 0.5 s doubling, less up to a quarter of jitter
    sleeps = Sleeps()
    t = ReplayTransport(*[error(503, {"error": {"message": "down"}}) for _ in range(4)])
    with pytest.raises(ProviderError) as info:
        await chat(OPENAI, HELLO, RequestOptions(sleep=sleeps, max_retries=3), transport=t)
    assert info.value.status == 503 and info.value.retryable
    assert len(t.requests) == 4 and len(sleeps) == 3
    assert 0.375 <= sleeps[0] <= 0.5 and 0.75 <= sleeps[1] <= 1.0 and 1.5 <= sleeps[2] <= 2.0


async def test_by_default_a_5xx_is_tried_three_times_in_all_as_the_sdks_do():
    sleeps = Sleeps()
    t = ReplayTransport(*[error(503, {"error": {"message": "down"}}) for _ in range(3)])
    with pytest.raises(ProviderError):
        await chat(OPENAI, HELLO, RequestOptions(sleep=sleeps), transport=t)
    assert len(t.requests) == 3 and len(sleeps) == 2


async def test_long_retry_after_is_surfaced_not_slept():
    t = ReplayTransport(error(429, {"error": {"message": "slow down"}}, {"retry-after": "3600"}))
    with pytest.raises(RateLimitError) as info:
        await chat(OPENAI, HELLO, RequestOptions(sleep=Sleeps()), transport=t)
    assert info.value.retry_after == 3600 and len(t.requests) == 1


@pytest.mark.parametrize(
    "status,cls", [(401, AuthenticationError), (403, AuthenticationError), (404, NotFoundError)]
)
async def test_client_errors_are_not_retried(status, cls):
    t = ReplayTransport(error(status, {"error": {"message": "Incorrect API key provided: sk-t"}}))
    with pytest.raises(cls) as info:
        await chat(OPENAI, HELLO, RequestOptions(sleep=Sleeps()), transport=t)
    assert info.value.status == status and len(t.requests) == 1
    assert "sk-t" not in str(info.value)  # the body stays on .response_body, out of the message


@pytest.mark.parametrize(
    "provider,status,body,tokens",
    [
        (
            OPENAI,
            400,
            {
                "error": {
                    "message": "This model's maximum context length is 128000 tokens. "
                    "However, your messages resulted in 130012 tokens. Please reduce the "
                    "length of the messages.",
                    "type": "invalid_request_error",
                    "code": "context_length_exceeded",
                }
            },
            (130012, 128000),
        ),
        (
            ANTHROPIC,
            400,
            {
                "type": "error",
                "error": {
                    "type": "invalid_request_error",
                    "message": "prompt is too long: 210000 tokens > 200000 maximum",
                },
            },
            (210000, 200000),
        ),
        (
            ANTHROPIC,
            400,
            {
                "type": "error",
                "error": {
                    "type": "invalid_request_error",
                    "message": "input length and `max_tokens` exceed context limit: 180000 + 64000 > 200000, decrease input length or `max_tokens` and try again",
                },
            },
            (244000, 200000),
        ),
        (
            OPENAI,
            400,
            {
                "error": {
                    "message": "This endpoint's maximum context length is 65536 tokens. However, you requested about 70000 tokens (69000 of text input, 1000 in the output). Please reduce the length of either one.",
                    "code": 400,
                }
            },
            (70000, 65536),
        ),
        (
            OPENAI,
            400,
            {
                "error": {
                    "message": "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).",
                    "code": 400,
                    "status": "INVALID_ARGUMENT",
                }
            },
            (1200000, 0),
        ),
        (OLLAMA, 400, {"error": "the input length exceeds the context length"}, (0, 0)),
        (
            OPENAI,
            400,
            {
                "error": {
                    "message": "the request exceeds the available context size, try increasing it",
                    "type": "exceed_context_size_error",
                }
            },
            (0, 0),
        ),
    ],
)
async def test_provider_context_overflow_is_mapped(provider, status, body, tokens):
    t = ReplayTransport(error(status, body))
    with pytest.raises(ContextOverflowError) as info:
        await chat(provider, HELLO, RequestOptions(sleep=Sleeps()), transport=t)
    assert info.value.source == "provider"
    requested, window = tokens
    if requested:
        assert info.value.estimated_tokens == requested
    if window:
        assert info.value.context_window == window


async def test_preflight_overflow_raises_before_any_network_io():
    small = OPENAI.model_copy(update={"context_window": 1000, "max_output_tokens": 100})
    t = ReplayTransport()
    with pytest.raises(ContextOverflowError) as info:
        await chat(small, [Message.user("x" * 8000)], transport=t)
    assert info.value.source == "preflight" and t.requests == []
    with pytest.raises(ContextOverflowError):
        await stream(small, [Message.user("x" * 8000)], transport=t)
    assert t.requests == []


async def test_network_error_is_retried_then_surfaced():
    sleeps = Sleeps()
    t = ReplayTransport(NetworkError("refused"), ok())
    assert (await chat(OPENAI, HELLO, RequestOptions(sleep=sleeps), transport=t)).content == "ok"
    t = ReplayTransport(*[NetworkError("Failed to fetch", maybe_cors=True) for _ in range(2)])
    with pytest.raises(NetworkError) as info:
        await chat(OPENAI, HELLO, RequestOptions(sleep=sleeps, max_retries=1), transport=t)
    assert info.value.maybe_cors and info.value.provider == "openai"


async def test_empty_response_retried_once():
    empty = {
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": ""}, "finish_reason": "length"}
        ]
    }
    t = ReplayTransport(ok(empty), ok(empty))
    with pytest.raises(EmptyResponseError):
        await chat(OPENAI, HELLO, RequestOptions(sleep=Sleeps()), transport=t)
    assert len(t.requests) == 2


NAMELESS = {
    "choices": [
        {
            "index": 0,
            "message": {
                "role": "assistant",
                "tool_calls": [
                    {"id": "c1", "type": "function", "function": {"name": "", "arguments": "{}"}}
                ],
            },
            "finish_reason": "tool_calls",
        }
    ]
}


async def test_malformed_tool_call_retried_once_then_raised():
    # Seed 000 §12: "MalformedToolCallError | Yes, once", whatever max_retries says.
    sleeps = Sleeps()
    t = ReplayTransport(*[ok(NAMELESS) for _ in range(5)])
    with pytest.raises(MalformedToolCallError) as info:
        await chat(OPENAI, HELLO, RequestOptions(sleep=sleeps, max_retries=4), transport=t)
    assert len(t.requests) == 2 and len(sleeps) == 1
    assert info.value.tool_call_ids == ["c1"] and info.value.partial.tool_calls[0].name == ""

    sleeps = Sleeps()
    nameless = sse(
        chunk({"tool_calls": [{"index": 0, "id": "c1", "function": {"arguments": "{}"}}]}),
        chunk({}, "tool_calls"),
    )
    t = ReplayTransport(*[ReplayResponse(nameless, 200, SSE) for _ in range(5)])
    result = await stream(OPENAI, HELLO, RequestOptions(sleep=sleeps, max_retries=4), transport=t)
    deltas = [d async for d in result.deltas]
    assert isinstance(deltas[-1], ErrorDelta)
    assert isinstance(deltas[-1].error, MalformedToolCallError)
    assert len(t.requests) == 2 and len(sleeps) == 1


async def test_malformed_tool_call_retry_can_succeed():
    sleeps = Sleeps()
    t = ReplayTransport(ok(NAMELESS), ok())
    response = await chat(OPENAI, HELLO, RequestOptions(sleep=sleeps), transport=t)
    assert response.content == "ok" and len(t.requests) == 2 and len(sleeps) == 1


async def test_image_strip_and_retry_is_remembered():
    provider = ProviderConfig(
        id="img-test", kind="openai", base_url="https://x.test/v1", model="text-only-9"
    )
    message = Message.user(
        [TextPart(text="Added file: cat.png"), ImagePart(url="https://x.test/cat.png")]
    )
    t = ReplayTransport(
        error(400, {"error": {"message": "This model does not support image input"}}), ok()
    )
    response = await chat(provider, [message], RequestOptions(sleep=Sleeps()), transport=t)
    assert response.content == "ok"
    second = json.loads(t.requests[1].body)["messages"][0]["content"]
    assert [p["type"] for p in second] == ["text", "text"] and second[0][
        "text"
    ] == "Added file: cat.png"
    # Next time the images are left out from the start.
    t = ReplayTransport(ok())
    await chat(provider, [message], transport=t)
    assert "image_url" not in t.requests[0].body.decode()
    assert DEFAULT_QUIRKS.refuses_images(provider)
    # Only that endpoint's model: the same Settings entry pointed at another
    # model, server or kind still gets the images.
    others = [
        provider.model_copy(update={"model": "vision-9"}),
        provider.model_copy(update={"base_url": "https://y.test/v1"}),
        provider.model_copy(update={"kind": "anthropic", "base_url": "https://x.test"}),
    ]
    for other in others:
        assert not DEFAULT_QUIRKS.refuses_images(other)
        answer = a_message([{"type": "text", "text": "ok"}], "end_turn")
        t = ReplayTransport(ok(answer if other.kind == "anthropic" else OK))
        await chat(other, [message], transport=t)
        body = t.requests[0].body.decode()
        assert "cat.png" in body and "image omitted" not in body, other
    DEFAULT_QUIRKS.no_images.discard(quirk_key(provider))


async def test_stream_falls_back_to_batch_when_streaming_is_refused():
    provider = ProviderConfig(
        id="nostream", kind="openai", base_url="https://x.test/v1", model="m-ns"
    )
    t = ReplayTransport(
        error(400, {"error": {"message": "Streaming is not supported for this model"}}), ok()
    )
    result = await stream(provider, HELLO, transport=t)
    deltas = [d async for d in result.deltas]
    assert (await result.response).content == "ok"
    assert [json.loads(r.body)["stream"] for r in t.requests] == [True, False]
    assert deltas[0].type == "content" and deltas[-1].type == "finish"
    DEFAULT_QUIRKS.no_streaming.discard(quirk_key(provider))


async def test_stream_request_answered_with_json_body():
    _, response, _ = await run_stream(OPENAI, json.dumps(OK).encode(), headers=JSON)
    assert response.content == "ok"


class SlowResponse:
    """Sends chunks with a pause between them, like a model typing."""

    def __init__(self, chunks: list[bytes], delay: float) -> None:
        self.status, self.headers, self.chunks, self.delay = 200, Headers(SSE), chunks, delay
        self.closed = False

    async def aiter_bytes(self):
        for c in self.chunks:
            await asyncio.sleep(self.delay)
            yield c

    async def aread(self) -> bytes:
        return b"".join(self.chunks)

    async def aclose(self) -> None:
        self.closed = True


async def test_abort_mid_stream_keeps_partial_and_spares_the_consumer_task():
    pieces = [sse(chunk({"content": f"w{i} "}), done=False) for i in range(50)]
    slow = SlowResponse(pieces, 0.01)
    controller = AbortController()
    result = await stream(
        OPENAI, HELLO, RequestOptions(signal=controller.signal), transport=ReplayTransport(slow)
    )
    seen = []
    async for delta in result.deltas:
        seen.append(delta)
        if len(seen) == 3:
            asyncio.get_running_loop().call_later(0.015, controller.abort, "Stop pressed")
        await asyncio.sleep(0)  # the consumer's own awaits must never be cancelled
    assert isinstance(seen[-1], ErrorDelta) and isinstance(seen[-1].error, AbortError)
    with pytest.raises(AbortError) as info:
        await result.response
    partial = info.value.partial
    assert partial is not None and partial.content.startswith("w0 w1 w2 ")
    assert slow.closed
    await asyncio.sleep(0.01)  # this task was not left cancelled


async def test_abort_before_start_and_during_batch():
    controller = AbortController()
    controller.abort()
    with pytest.raises(AbortError):
        await chat(
            OPENAI, HELLO, RequestOptions(signal=controller.signal), transport=ReplayTransport(ok())
        )

    class Hanging:
        async def send(self, request):
            await asyncio.sleep(30)

    controller = AbortController()
    asyncio.get_running_loop().call_later(0.01, controller.abort)
    with pytest.raises(AbortError):
        await chat(OPENAI, HELLO, RequestOptions(signal=controller.signal), transport=Hanging())


async def test_consumer_breaking_out_settles_response_as_aborted():
    body = sse(*(chunk({"content": "x"}) for _ in range(5)), chunk({}, "stop"))
    result = await stream(
        OPENAI, HELLO, transport=ReplayTransport(ReplayResponse([body[:40], body[40:]], 200, SSE))
    )
    async for _ in result.deltas:
        break
    await result.deltas.aclose()
    with pytest.raises(AbortError):
        await result.response


async def test_response_without_iterating_drains_the_stream():
    body = sse(chunk({"content": "a"}), chunk({"content": "b"}, "stop"))
    result = await stream(
        OPENAI, HELLO, transport=ReplayTransport(ReplayResponse([body], 200, SSE))
    )
    assert (await result.response).content == "ab"


def test_apply_proxy():
    proxied = OPENAI.model_copy(update={"proxy": True})
    url = "https://api.openai.com/v1/chat/completions?x=1&y=a b"
    assert apply_proxy(url, OPENAI, "https://p.example/?url={href}") == url
    assert apply_proxy(url, proxied, None) == url
    assert (
        apply_proxy(url, proxied, "https://p.example/?url={href}")
        == "https://p.example/?url=https%3A%2F%2Fapi.openai.com%2Fv1%2Fchat%2Fcompletions%3Fx%3D1%26y%3Da%20b"
    )


async def test_proxy_applied_to_request_url():
    proxied = OPENAI.model_copy(update={"proxy": True})
    _, t = await run_batch(
        proxied, OK, options=RequestOptions(proxy_template="http://127.0.0.1:8787/?url={href}")
    )
    assert t.requests[0].url.startswith("http://127.0.0.1:8787/?url=https%3A%2F%2Fapi.openai.com")


def test_retry_after_forms():
    assert parse_retry_after(Headers({"retry-after": "2.5"})) == 2.5
    assert parse_retry_after(Headers({"retry-after-ms": "1500"})) == 1.5
    assert (
        parse_retry_after(Headers({"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"}), now=1445412470)
        == 10
    )
    assert parse_retry_after(Headers({})) is None


async def test_fingers_crossed_flushes_the_trail_on_error():
    target = ListHandler()
    handler = FingersCrossedHandler(target)
    logger = logging.getLogger("wiggum.llm.test-fc")
    logger.setLevel(logging.DEBUG)
    logger.addHandler(handler)
    try:
        await chat(OPENAI, HELLO, RequestOptions(logger=logger), transport=ReplayTransport(ok()))
        assert not target.records and handler.buffer  # buffered, silent
        t = ReplayTransport(error(401, {"error": {"message": "bad key"}}))
        with pytest.raises(AuthenticationError):
            await chat(OPENAI, HELLO, RequestOptions(logger=logger), transport=t)
        categories = [r.getMessage() for r in target.records]
        assert (
            categories[-1] == "llm:error"
            and "llm:request" in categories
            and "llm:response" in categories
        )
    finally:
        logger.removeHandler(handler)


SECRET_KEY = "sk-SECRET-KEY-0451"
SECRET_PROMPT = "PROMPT-CANARY-7731"
SECRET_ARGS = "ARGS-CANARY-9120"
SECRET_REPLY = "REPLY-CANARY-3308"


async def test_no_content_arguments_or_keys_in_logs_errors_or_reprs(caplog):
    provider = OPENAI.model_copy(update={"api_key": SECRET_KEY, "headers": {"X-Extra": SECRET_KEY}})
    history = [
        Message.user(SECRET_PROMPT),
        Message.assistant(SECRET_REPLY, []),
        Message.user(f"again {SECRET_PROMPT}"),
    ]
    tool_reply = sse(
        chunk({"content": SECRET_REPLY}),
        chunk(
            {
                "tool_calls": [
                    {
                        "index": 0,
                        "id": "c1",
                        "function": {
                            "name": "write_file",
                            "arguments": json.dumps({"content": SECRET_ARGS})[:-3],
                        },
                    }
                ]
            }
        ),
        chunk({}, "length"),
    )
    things: list[object] = []
    with caplog.at_level(logging.DEBUG, logger="wiggum.llm"):
        _, response, t = await run_stream(provider, tool_reply, messages=history)
        things += [response, *response.tool_calls, t.requests[0], provider, *history]
        for status, body in [
            (401, {"error": {"message": f"bad {SECRET_KEY}"}}),
            (500, SECRET_PROMPT),
        ]:
            tr = ReplayTransport(*[error(status, body)] * 5)
            with pytest.raises(ProviderError) as info:
                await chat(
                    provider, history, RequestOptions(sleep=Sleeps(), max_retries=0), transport=tr
                )
            things.append(info.value)
        bad = sse(chunk({"content": SECRET_REPLY}), done=False)
        _, err, _ = await run_stream(
            provider, bad, messages=history, options=RequestOptions(sleep=Sleeps())
        )
        things += [err, err.partial]
    texts = [repr(x) for x in things] + [str(x) for x in things if isinstance(x, Exception)]
    for record in caplog.records:
        texts.append(record.getMessage())
        texts.append(json.dumps(getattr(record, "llm", {}), default=str))
    assert caplog.records, "the scenario must have logged something"
    for secret in (SECRET_KEY, SECRET_PROMPT, SECRET_ARGS, SECRET_REPLY):
        leaks = [t for t in texts if secret in t]
        assert not leaks, (secret, leaks[:3])
    # ``raw`` is the provider's answer (it may hold the reply) but never the key.
    raws = [json.dumps(r.raw) for r in (response, err.partial)]
    assert SECRET_REPLY in raws[1] and not any(SECRET_KEY in r for r in raws)


async def test_maybe_cors_network_error_is_retried_only_once_quickly():
    sleeps = Sleeps()
    t = ReplayTransport(*[NetworkError("Failed to fetch", maybe_cors=True) for _ in range(4)])
    with pytest.raises(NetworkError):
        await chat(OPENAI, HELLO, RequestOptions(sleep=sleeps), transport=t)
    assert len(t.requests) == 2 and sleeps == [0.5]


_LOG_PROBE = """
import logging, sys
import wiggum.llm
from wiggum.llm.observability import get_logger, log_event
if sys.argv[1] == "drop":
    logger = logging.getLogger("wiggum.llm")
    for h in list(logger.handlers):
        logger.removeHandler(h)
log_event(get_logger(), "llm:token-limit", completion_tokens=1)
logging.getLogger("wiggum.llm.client").warning("llm:malformed-toolcall")
"""


def test_library_logger_prints_nothing_when_the_app_configured_no_logging():
    import subprocess
    import sys
    from pathlib import Path

    handlers = logging.getLogger("wiggum.llm").handlers
    assert any(type(h) is logging.NullHandler for h in handlers)
    root = Path(__file__).resolve().parents[2]

    def stderr(mode: str) -> str:
        return subprocess.run(
            [sys.executable, "-c", _LOG_PROBE, mode],
            capture_output=True,
            text=True,
            check=True,
            cwd=root,
        ).stderr

    # A fresh interpreter, with no logging configured: warnings of the package
    # and of its modules stay quiet instead of going to logging.lastResort.
    assert stderr("keep") == ""
    # The probe can see lastResort's output once the handler is gone.
    assert "llm:token-limit" in stderr("drop")
