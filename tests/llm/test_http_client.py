"""``wiggum.llm`` end to end over real HTTP: the httpx transport against the simulator.

Every test talks to ``tests.sim.Simulator`` on 127.0.0.1 through
:class:`~wiggum.llm.httpx_transport.HttpxTransport`, in the three dialects
(``openai`` at ``base_url + "/v1"``, ``anthropic`` and ``ollama`` at ``base_url``).
Retries never spend wall time: every request gets an injected ``sleep``.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
from typing import Any

import pytest
from pydantic import BaseModel, SecretStr

from tests.sim import (
    Disconnect,
    Gate,
    Reasoning,
    Simulator,
    Stall,
    StreamError,
    Text,
    ToolCall,
    Turn,
    context_length_exceeded,
    http_error,
    rate_limited,
    raw,
)
from wiggum.llm import (
    AbortController,
    AbortError,
    AuthenticationError,
    ContentDelta,
    ContextOverflowError,
    ErrorDelta,
    FinishDelta,
    LLMResponse,
    Message,
    NetworkError,
    NotFoundError,
    ProviderConfig,
    ProviderError,
    ReasoningDelta,
    RequestOptions,
    RequestTimeoutError,
    StreamIdleError,
    StreamIncompleteError,
    ToolCallArgsDelta,
    ToolCallEndDelta,
    ToolCallStartDelta,
    ToolDefinition,
    UsageDelta,
    capability_for,
    chat,
    stream,
)
from wiggum.llm.httpx_transport import HttpxTransport
from wiggum.llm.structured import json_schema_for

KINDS = ["openai", "anthropic", "ollama"]
MODELS = {
    "openai": "gpt-4o-mini",
    "anthropic": "claude-sonnet-4-20250514",
    "ollama": "llama3.2:latest",
}
KEY = "sk-sim-TOPSECRET-4f9c2a7e1b"
WEATHER_TOOL = ToolDefinition(
    name="get_weather",
    description="Weather for a city",
    parameters={"type": "object", "properties": {"city": {"type": "string"}}},
)
_ids = itertools.count()


# --------------------------------------------------------------------------- fixtures


class FakeSleep:
    """Records retry waits instead of spending them."""

    def __init__(self) -> None:
        self.calls: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.calls.append(seconds)


@pytest.fixture
def sleep():
    return FakeSleep()


def provider(sim: Simulator, kind: str, **overrides: Any) -> ProviderConfig:
    # A fresh id per provider: the client remembers per (id, model) what a model
    # turned out not to support (process-wide), and tests must not share that.
    base = sim.base_url + "/v1" if kind == "openai" else sim.base_url
    fields: dict[str, Any] = {
        "id": f"sim-{kind}-{next(_ids)}",
        "kind": kind,
        "base_url": base,
        "model": MODELS[kind],
        "api_key": SecretStr(KEY),
    }
    fields.update(overrides)
    return ProviderConfig(**fields)


def chat_url(sim: Simulator, kind: str) -> str:
    return (
        sim.base_url
        + {
            "openai": "/v1/chat/completions",
            "anthropic": "/v1/messages",
            "ollama": "/api/chat",
        }[kind]
    )


MSGS = [Message.system("You are terse."), Message.user("Hi there")]


def record_timeouts(transport) -> list:
    """The ``timeout`` of each request ``transport`` sends from now on."""
    seen: list = []
    send = transport.send

    async def recording(request):
        seen.append(request.timeout)
        return await send(request)

    transport.send = recording
    return seen


async def run_stream(p, messages, options, transport):
    """All deltas, and the response or the error ``await response`` raised."""
    result = await stream(p, messages, options, transport=transport)
    deltas = [d async for d in result.deltas]
    try:
        return deltas, await result.response, None
    except Exception as err:  # handed back for assertions
        return deltas, None, err


def text_of(deltas, kind=ContentDelta) -> str:
    return "".join(d.text for d in deltas if isinstance(d, kind))


def comparable(response: LLMResponse, kind: str) -> dict:
    """``model_dump()`` minus what legitimately differs between two requests.

    * ``raw`` is the whole body of a batch reply but only a summary of a
      stream, and it holds the id the provider mints per request
      (``chatcmpl-…`` / ``msg_01…``); only its model is compared.
    * Ollama's wire carries no tool-call ids, so the client generates one per
      call (``call_…``) and two requests never share them.
    """
    dump = response.model_dump()
    assert dump.pop("raw")["model"] == MODELS[kind]
    if kind == "ollama":
        for tc in dump["tool_calls"]:
            assert tc.pop("id").startswith("call_")
    return dump


def assert_stream_tail(deltas, response: LLMResponse) -> None:
    """A successful stream ends with usage (when known) then the finish reason."""
    assert not any(isinstance(d, ErrorDelta) for d in deltas)
    assert isinstance(deltas[-1], FinishDelta)
    assert deltas[-1].reason == response.finish_reason
    usage = [d for d in deltas if isinstance(d, UsageDelta)]
    if response.usage is not None:
        assert [u.data for u in usage] == [response.usage]
        assert deltas[-2] is usage[0]


# --------------------------------------------------------------------------- batch == stream

EQUALITY_TURNS = {
    "text": lambda: Turn("Hello there, world! How are you?", chunks=4, usage=(50, 9)),
    "reasoning": lambda: Turn(
        Reasoning("The user greets me; greet back.", chunks=3, signature="sig-fixed-1"),
        "Hello!",
        usage=(60, 12),
    ),
}


@pytest.mark.parametrize("case", list(EQUALITY_TURNS))
@pytest.mark.parametrize("kind", KINDS)
async def test_batch_and_stream_give_equal_responses(sim, transport, sleep, kind, case):
    sim.script([EQUALITY_TURNS[case](), EQUALITY_TURNS[case]()])
    p = provider(sim, kind)
    opts = RequestOptions(sleep=sleep)
    batch = await chat(p, MSGS, opts, transport=transport)
    deltas, streamed, err = await run_stream(p, MSGS, opts, transport)
    assert err is None
    assert comparable(batch, kind) == comparable(streamed, kind)
    assert [r.stream for r in sim.chat_requests] == [False, True]

    turn = EQUALITY_TURNS[case]()
    assert streamed.content == turn.text
    assert text_of(deltas) == streamed.content
    assert (streamed.reasoning or "") == turn.reasoning
    assert text_of(deltas, ReasoningDelta) == (streamed.reasoning or "")
    # The text really streamed: more than one content delta.
    assert sum(isinstance(d, ContentDelta) for d in deltas) > 1
    assert streamed.usage is not None
    assert (streamed.usage.prompt_tokens, streamed.usage.completion_tokens) == (
        turn.usage.prompt_tokens,
        turn.usage.completion_tokens,
    )
    assert_stream_tail(deltas, streamed)
    if kind == "anthropic" and case == "reasoning":
        assert [t.signature for t in streamed.thinking] == ["sig-fixed-1"]
    assert sleep.calls == []


def tool_turn(kind: str, parallel: bool) -> Turn:
    # Explicit ids where the wire has them, so two requests can be compared.
    calls = [ToolCall("get_weather", {"city": "Paris", "unit": "C"}, id=_tid(kind, 0), chunks=3)]
    if parallel:
        calls.append(ToolCall("get_time", {"tz": "Europe/Paris"}, id=_tid(kind, 1), chunks=4))
    return Turn("Let me check.", *calls, usage=(80, 30))


def _tid(kind: str, n: int) -> str | None:
    return {"openai": f"call_fixed{n}", "anthropic": f"toolu_01fixed{n}"}.get(kind)


@pytest.mark.parametrize("parallel", [False, True], ids=["single", "parallel"])
@pytest.mark.parametrize(
    "kind",
    [
        "openai",
        "anthropic",
        "ollama",
    ],
)
async def test_tool_calls_batch_equals_stream(sim, transport, sleep, kind, parallel):
    sim.script([tool_turn(kind, parallel), tool_turn(kind, parallel)])
    p = provider(sim, kind)
    opts = RequestOptions(sleep=sleep, tools=[WEATHER_TOOL])
    batch = await chat(p, MSGS, opts, transport=transport)
    deltas, streamed, err = await run_stream(p, MSGS, opts, transport)
    assert err is None
    assert [tc.name for tc in streamed.tool_calls] == (
        ["get_weather", "get_time"] if parallel else ["get_weather"]
    )
    assert streamed.tool_calls[0].args == {"city": "Paris", "unit": "C"}
    assert streamed.finish_reason == "tool_calls"
    assert streamed.tool_call_signature is not None
    assert text_of(deltas) == streamed.content == "Let me check."
    assert_stream_tail(deltas, streamed)
    assert comparable(batch, kind) == comparable(streamed, kind)


def check_tool_deltas(deltas, response: LLMResponse) -> None:
    """start → args… → end per call, each consistent with the final tool call."""
    calls = response.tool_calls
    starts = [(i, d) for i, d in enumerate(deltas) if isinstance(d, ToolCallStartDelta)]
    assert [d.index for _, d in starts] == list(range(len(calls)))  # announced in order
    for pos, start in starts:
        call = calls[start.index]
        assert start.name == call.name
        assert start.id == call.id, "the start delta must announce the call's final id"
        (end_pos,) = [i for i, d in enumerate(deltas) if d == ToolCallEndDelta(start.index)]
        args = [
            (i, d.args)
            for i, d in enumerate(deltas)
            if isinstance(d, ToolCallArgsDelta) and d.index == start.index
        ]
        assert args and all(pos < i < end_pos for i, _ in args)
        joined = "".join(a for _, a in args)
        assert joined == call.raw_args
        assert json.loads(joined) == call.args


@pytest.mark.parametrize("kind", KINDS)
async def test_tool_call_deltas_match_final_calls(sim, transport, sleep, kind):
    sim.script(tool_turn(kind, parallel=True))
    deltas, response, err = await run_stream(
        provider(sim, kind), MSGS, RequestOptions(sleep=sleep, tools=[WEATHER_TOOL]), transport
    )
    assert err is None
    assert len(response.tool_calls) == 2
    # Content before the calls stays content.
    assert isinstance(deltas[0], ContentDelta)
    check_tool_deltas(deltas, response)


# --------------------------------------------------------------------------- incremental


@pytest.mark.parametrize("kind", KINDS)
async def test_stream_arrives_incrementally(sim, transport, sleep, kind):
    # Each piece of text is let out only once the one before it was handed over:
    # a client that held the stream back (until its end, or the next piece) never
    # hands the piece over, and the wait for it runs out.
    gate = Gate()
    pieces = ["one ", "two ", "three ", "four"]
    sim.script(Turn(Text(pieces), gate=gate))
    result = await stream(
        provider(sim, kind), MSGS, RequestOptions(sleep=sleep), transport=transport
    )
    deltas = aiter(result.deltas)
    got = ""
    for n in range(1, len(pieces) + 1):
        gate.allow_until(BEFORE_CONTENT[kind] + n)
        while got != "".join(pieces[:n]):
            delta = await asyncio.wait_for(anext(deltas), 10)
            if isinstance(delta, ContentDelta):
                got += delta.text
        assert gate.sent == BEFORE_CONTENT[kind] + n  # nothing more had been sent
    gate.open()
    rest = [d async for d in deltas]
    assert not any(isinstance(d, ContentDelta) for d in rest)
    assert (await result.response).content == "one two three four"


# --------------------------------------------------------------------------- what was sent


async def test_openai_stream_asks_for_usage(sim, transport, sleep):
    sim.script([Turn("a"), Turn("b")])
    p = provider(sim, "openai")
    await chat(p, MSGS, RequestOptions(sleep=sleep), transport=transport)
    _, response, err = await run_stream(p, MSGS, RequestOptions(sleep=sleep), transport)
    assert err is None
    batch_req, stream_req = sim.chat_requests
    assert batch_req.json["stream"] is False
    assert "stream_options" not in batch_req.json
    assert stream_req.json["stream"] is True
    assert stream_req.json["stream_options"] == {"include_usage": True}
    assert stream_req.header("accept") == "text/event-stream"
    # The simulator only sends the usage chunk when asked; it arrived.
    assert response.usage is not None and response.usage.completion_tokens > 0


async def test_anthropic_headers_and_system(sim, transport, sleep):
    sim.script(Turn("ok"))
    messages = [
        Message.system("Rule one."),
        Message.system("Rule two."),
        Message.user("Hi"),
    ]
    await chat(
        provider(sim, "anthropic"), messages, RequestOptions(sleep=sleep), transport=transport
    )
    req = sim.last_request
    assert req.path == "/v1/messages"
    assert req.header("anthropic-version") == "2023-06-01"
    assert req.header("anthropic-dangerous-direct-browser-access") == "true"
    assert req.header("x-api-key") == KEY
    assert req.header("authorization") is None
    body = req.json
    assert all(m["role"] != "system" for m in body["messages"])
    system = body["system"]
    system_text = system if isinstance(system, str) else "".join(b["text"] for b in system)
    assert "Rule one." in system_text and "Rule two." in system_text
    assert body["messages"][0]["role"] == "user"
    assert "Hi" in json.dumps(body["messages"])
    assert isinstance(body["max_tokens"], int)


@pytest.mark.parametrize("kind", KINDS)
async def test_tool_history_round_trips(sim, transport, sleep, kind):
    """A streamed tool-use turn, fed back with its results, reaches the wire intact."""
    sim.script(
        [
            Turn(
                Reasoning("Need the weather and the time.", signature="sig-history"),
                ToolCall("get_weather", {"city": "Paris"}),
                ToolCall("get_time", {"tz": "CET"}),
            ),
            Turn("Paris: 18°C at noon."),
        ]
    )
    p = provider(sim, kind)
    opts = RequestOptions(sleep=sleep, tools=[WEATHER_TOOL])
    history = [Message.system("Use tools."), Message.user("Weather and time in Paris?")]
    _, first, err = await run_stream(p, history, opts, transport)
    assert err is None
    assert [tc.name for tc in first.tool_calls] == ["get_weather", "get_time"]
    history += [
        first.to_message(),
        Message.tool(first.tool_calls[0].id, "18°C", name="get_weather"),
        Message.tool(first.tool_calls[1].id, "12:00", name="get_time"),
    ]
    second = await chat(p, history, opts, transport=transport)
    assert second.content == "Paris: 18°C at noon."

    wire_ids = sim.chat_requests[0].tool_call_ids
    sent = sim.chat_requests[1].json["messages"]
    if kind == "openai":
        assert [tc.id for tc in first.tool_calls] == wire_ids
        assistant = next(m for m in sent if m["role"] == "assistant")
        assert [c["id"] for c in assistant["tool_calls"]] == wire_ids
        assert [c["function"]["name"] for c in assistant["tool_calls"]] == [
            "get_weather",
            "get_time",
        ]
        assert [json.loads(c["function"]["arguments"]) for c in assistant["tool_calls"]] == [
            {"city": "Paris"},
            {"tz": "CET"},
        ]
        tools = [m for m in sent if m["role"] == "tool"]
        assert [(m["tool_call_id"], m["content"]) for m in tools] == [
            (wire_ids[0], "18°C"),
            (wire_ids[1], "12:00"),
        ]
    elif kind == "anthropic":
        assert [tc.id for tc in first.tool_calls] == wire_ids
        assert [m["role"] for m in sent] == ["user", "assistant", "user"]
        blocks = sent[1]["content"]
        thinking = [b for b in blocks if b["type"] == "thinking"]
        assert [b["signature"] for b in thinking] == ["sig-history"]
        uses = [b for b in blocks if b["type"] == "tool_use"]
        assert [(b["id"], b["name"], b["input"]) for b in uses] == [
            (wire_ids[0], "get_weather", {"city": "Paris"}),
            (wire_ids[1], "get_time", {"tz": "CET"}),
        ]
        results = [b for b in sent[2]["content"] if b["type"] == "tool_result"]
        assert [(b["tool_use_id"], b["content"]) for b in results] == [
            (wire_ids[0], "18°C"),
            (wire_ids[1], "12:00"),
        ]
    else:
        assert wire_ids == ["", ""]  # Ollama sends no ids; the client made its own
        assistant = next(m for m in sent if m["role"] == "assistant")
        assert assistant["tool_calls"] == [
            {"function": {"name": "get_weather", "arguments": {"city": "Paris"}}},
            {"function": {"name": "get_time", "arguments": {"tz": "CET"}}},
        ]
        assert assistant["thinking"] == "Need the weather and the time."
        tools = [m for m in sent if m["role"] == "tool"]
        assert [(m["tool_name"], m["content"]) for m in tools] == [
            ("get_weather", "18°C"),
            ("get_time", "12:00"),
        ]


@pytest.mark.parametrize("kind", KINDS)
async def test_key_only_in_request_never_in_logs(sim, transport, sleep, kind, caplog):
    caplog.set_level(logging.DEBUG, logger="wiggum.llm")
    sim.script(
        [
            Turn("streamed"),
            Turn("batched"),
            # A provider that echoes the key back in its error body.
            http_error(401, message=f"Incorrect API key provided: {KEY}"),
        ]
    )
    p = provider(sim, kind)
    opts = RequestOptions(sleep=sleep)
    _, streamed, err = await run_stream(p, MSGS, opts, transport)
    assert err is None and streamed.content == "streamed"
    assert (await chat(p, MSGS, opts, transport=transport)).content == "batched"
    with pytest.raises(AuthenticationError) as info:
        await chat(p, MSGS, opts, transport=transport)
    assert KEY not in str(info.value) and KEY not in repr(info.value)
    assert KEY not in repr(p)

    for req in sim.chat_requests:
        if kind == "anthropic":
            assert req.header("x-api-key") == KEY
            assert req.header("authorization") is None
        else:
            assert req.header("authorization") == f"Bearer {KEY}"

    categories = {r.getMessage() for r in caplog.records}
    assert {"llm:request", "llm:response", "llm:error"} <= categories
    for record in caplog.records:
        assert KEY not in record.getMessage()
        assert KEY not in repr(getattr(record, "llm", None))
        assert KEY not in repr(record.args)


# --------------------------------------------------------------------------- faults


@pytest.mark.parametrize("mode", ["batch", "stream"])
@pytest.mark.parametrize("kind", KINDS)
async def test_rate_limit_honours_retry_after(sim, transport, sleep, kind, mode):
    sim.script([rate_limited(7), Turn("after the wait")])
    p = provider(sim, kind)
    opts = RequestOptions(sleep=sleep)
    if mode == "batch":
        response = await chat(p, MSGS, opts, transport=transport)
    else:
        deltas, response, err = await run_stream(p, MSGS, opts, transport)
        assert err is None
        assert text_of(deltas) == "after the wait"
    assert response.content == "after the wait"
    assert sleep.calls == [7.0]  # waited as told (through the sleep given, not the clock)
    assert [r.status for r in sim.chat_requests] == [429, 200]


@pytest.mark.parametrize("kind", KINDS)
async def test_server_error_is_retried(sim, transport, sleep, kind):
    sim.script([http_error(500), Turn("second time lucky")])
    response = await chat(
        provider(sim, kind), MSGS, RequestOptions(sleep=sleep), transport=transport
    )
    assert response.content == "second time lucky"
    assert len(sleep.calls) == 1 and 0.375 <= sleep.calls[0] <= 0.5  # backoff, attempt 1
    assert [r.status for r in sim.chat_requests] == [500, 200]


@pytest.mark.parametrize("mode", ["batch", "stream"])
@pytest.mark.parametrize("kind", KINDS)
async def test_unauthorized_is_not_retried(sim, transport, sleep, kind, mode):
    sim.script([http_error(401), Turn("never sent")])
    p = provider(sim, kind)
    opts = RequestOptions(sleep=sleep)
    if mode == "batch":
        with pytest.raises(AuthenticationError) as info:
            await chat(p, MSGS, opts, transport=transport)
        error = info.value
    else:
        deltas, _, error = await run_stream(p, MSGS, opts, transport)
        assert isinstance(error, AuthenticationError)
        assert deltas == [ErrorDelta(error)]
    assert error.status == 401 and not error.retryable
    assert len(sim.chat_requests) == 1
    assert sleep.calls == []


@pytest.mark.parametrize("mode", ["batch", "stream"])
@pytest.mark.parametrize("kind", KINDS)
async def test_provider_context_overflow(sim, transport, sleep, kind, mode):
    sim.script(context_length_exceeded())
    p = provider(sim, kind)
    opts = RequestOptions(sleep=sleep)
    if mode == "batch":
        with pytest.raises(ContextOverflowError) as info:
            await chat(p, MSGS, opts, transport=transport)
        error = info.value
    else:
        deltas, _, error = await run_stream(p, MSGS, opts, transport)
        assert isinstance(deltas[-1], ErrorDelta) and deltas[-1].error is error
    assert isinstance(error, ContextOverflowError), repr(error)
    assert error.source == "provider"
    assert len(sim.chat_requests) == 1
    if kind == "openai":
        assert (error.estimated_tokens, error.context_window) == (130000, 128000)
    elif kind == "anthropic":
        assert (error.estimated_tokens, error.context_window) == (210000, 200000)


# Wire chunks before the first content (OpenAI: the role chunk; Anthropic:
# message_start, ping, content_block_start; Ollama: none).
BEFORE_CONTENT = {"openai": 1, "anthropic": 3, "ollama": 0}
LONG_TEXT = "The quick brown fox jumps over the lazy dog."


@pytest.mark.parametrize("kind", KINDS)
async def test_disconnect_after_content_keeps_partial(sim, transport, sleep, kind):
    sim.script([Turn(LONG_TEXT, chunks=6, fault=Disconnect(after=BEFORE_CONTENT[kind] + 2))])
    deltas, _, error = await run_stream(
        provider(sim, kind), MSGS, RequestOptions(sleep=sleep), transport
    )
    delivered = text_of(deltas)
    assert delivered and LONG_TEXT.startswith(delivered) and delivered != LONG_TEXT
    assert isinstance(deltas[-1], ErrorDelta)
    assert deltas[-1].error is error
    assert error.partial is not None and error.partial.content == delivered
    assert len(sim.chat_requests) == 1  # delivered text is never silently re-requested
    assert isinstance(error, StreamIncompleteError), repr(error)
    assert not error.retryable


@pytest.mark.parametrize(
    "fault",
    [Disconnect(after=3), Stall(after=3)],
    ids=["disconnect", "read-timeout"],
)
async def test_mid_body_network_errors_name_provider_and_model(sim, transport, sleep, fault):
    sim.script(Turn(LONG_TEXT, chunks=6, fault=fault))
    p = provider(sim, "openai")
    _, _, error = await run_stream(p, MSGS, RequestOptions(sleep=sleep, timeout=0.5), transport)
    assert isinstance(error, NetworkError | StreamIncompleteError), repr(error)
    assert (error.provider, error.model) == (p.id, p.model)


async def test_disconnect_after_content_close_framed(sim, transport, sleep):
    """Without chunked encoding the drop is a clean EOF: no finish reason, no [DONE]."""
    sim.script(Turn(LONG_TEXT, chunks=6, framing="close", fault=Disconnect(after=3)))
    deltas, _, error = await run_stream(
        provider(sim, "openai"), MSGS, RequestOptions(sleep=sleep), transport
    )
    assert isinstance(error, StreamIncompleteError), repr(error)
    assert isinstance(deltas[-1], ErrorDelta) and deltas[-1].error is error
    assert error.partial.content == text_of(deltas) == LONG_TEXT[: len(text_of(deltas))]
    assert text_of(deltas)
    assert len(sim.chat_requests) == 1


@pytest.mark.parametrize("kind", KINDS)
async def test_disconnect_before_content_is_retried(sim, transport, sleep, kind):
    sim.script([Turn(LONG_TEXT, fault=Disconnect(after=BEFORE_CONTENT[kind])), Turn("Recovered.")])
    deltas, response, err = await run_stream(
        provider(sim, kind), MSGS, RequestOptions(sleep=sleep), transport
    )
    assert err is None
    assert response.content == text_of(deltas) == "Recovered."
    assert len(sleep.calls) == 1
    first, second = sim.chat_requests
    assert first.outcome == "closed_by_server"
    # The client stops reading at the end marker, so the server may see the
    # socket close before or after its own last bytes: either is a clean end.
    outcome = await asyncio.to_thread(second.wait)
    assert outcome in ("complete", "client_disconnected")


@pytest.mark.parametrize(
    ("kind", "fault"),
    [
        ("openai", StreamError(after=1, message="Upstream overloaded", code=502)),
        ("anthropic", StreamError(after=3, message="Overloaded", type="overloaded_error")),
    ],
    ids=["openrouter-style", "anthropic-overloaded"],
)
async def test_in_band_error_before_content_is_retried(sim, transport, sleep, kind, fault):
    sim.script([Turn(LONG_TEXT, fault=fault), Turn("Second attempt.")])
    deltas, response, err = await run_stream(
        provider(sim, kind), MSGS, RequestOptions(sleep=sleep), transport
    )
    assert err is None
    assert response.content == text_of(deltas) == "Second attempt."
    assert not any(isinstance(d, ErrorDelta) for d in deltas)
    assert len(sim.chat_requests) == 2 and len(sleep.calls) == 1


@pytest.mark.parametrize(
    ("kind", "fault"),
    [
        ("openai", StreamError(after=3, message="Upstream overloaded", code=502)),
        ("anthropic", StreamError(after=5, message="Overloaded", type="overloaded_error")),
        ("ollama", StreamError(after=2, message="model runner crashed")),
    ],
)
async def test_in_band_error_after_content_keeps_partial(sim, transport, sleep, kind, fault):
    sim.script([Turn(LONG_TEXT, chunks=6, fault=fault), Turn("must not be requested")])
    deltas, _, error = await run_stream(
        provider(sim, kind), MSGS, RequestOptions(sleep=sleep), transport
    )
    delivered = text_of(deltas)
    assert delivered and LONG_TEXT.startswith(delivered) and delivered != LONG_TEXT
    assert isinstance(error, ProviderError) and error.in_stream
    assert error.detail == fault.message
    assert isinstance(deltas[-1], ErrorDelta) and deltas[-1].error is error
    assert error.partial is not None and error.partial.content == delivered
    assert len(sim.chat_requests) == 1
    assert sleep.calls == []


FORMATS = [
    (kind, fmt)
    for kind in KINDS
    for fmt in ("garbage", "crlf", "cr", "garbage+crlf")
    if kind != "ollama" or fmt == "garbage"  # NDJSON has no SSE line-ending variants
]


@pytest.mark.parametrize(("kind", "fmt"), FORMATS)
async def test_garbage_and_line_endings_parse_like_clean(sim, transport, sleep, kind, fmt):
    def turn(**kw):
        return Turn(
            Reasoning("thinking…", signature="sig-fmt"),
            "Hello, wörld — ünïcode ✓",
            ToolCall("get_weather", {"city": "Zürich"}, id=_tid(kind, 0)),
            usage=(40, 20),
            chunks=5,
            **kw,
        )

    knobs: dict[str, Any] = {}
    if "garbage" in fmt:
        knobs["garbage"] = True
    if "crlf" in fmt:
        knobs["line_ending"] = "\r\n"
    elif fmt == "cr":
        knobs["line_ending"] = "\r"
    sim.script([turn(), turn(**knobs)])
    p = provider(sim, kind)
    opts = RequestOptions(sleep=sleep, tools=[WEATHER_TOOL])
    _, clean, err = await run_stream(p, MSGS, opts, transport)
    assert err is None
    deltas, messy, err = await run_stream(p, MSGS, opts, transport)
    assert err is None
    assert comparable(messy, kind) == comparable(clean, kind)
    assert messy.content == text_of(deltas) == "Hello, wörld — ünïcode ✓"
    assert messy.tool_calls[0].args == {"city": "Zürich"}


@pytest.mark.parametrize("kind", KINDS)
async def test_stalled_stream_times_out(sim, transport, sleep, kind):
    sim.script(Turn(LONG_TEXT, chunks=6, fault=Stall(after=BEFORE_CONTENT[kind] + 1)))
    timeouts = record_timeouts(transport)
    deltas, _, error = await run_stream(
        provider(sim, kind), MSGS, RequestOptions(sleep=sleep, timeout=0.5), transport
    )
    assert timeouts == [0.5]  # the stall never ends: this timeout is what ended it
    # a started stream that goes quiet is a stalled reply, whichever bound saw it first
    assert isinstance(error, StreamIdleError), repr(error)
    assert error.idle_seconds == 0.5
    assert isinstance(deltas[-1], ErrorDelta) and deltas[-1].error is error
    assert error.partial is not None and error.partial.content == text_of(deltas) != ""
    assert await asyncio.to_thread(sim.chat_requests[0].wait) == "client_disconnected"


async def test_stalled_batch_times_out(sim, transport, sleep):
    # Non-streaming stalls happen before the headers: nothing arrives at all.
    sim.script(Turn("never", fault=Stall()))
    timeouts = record_timeouts(transport)
    with pytest.raises(RequestTimeoutError):
        await chat(
            provider(sim, "openai"),
            MSGS,
            RequestOptions(sleep=sleep, timeout=0.5, max_retries=0),
            transport=transport,
        )
    assert timeouts == [0.5]  # the stall never ends: this timeout is what ended it
    assert len(sim.chat_requests) == 1


@pytest.mark.parametrize("kind", KINDS)
async def test_abort_mid_stream(sim, transport, sleep, kind):
    words = " ".join(f"w{i}" for i in range(30))
    sim.script(Turn(words, chunks=30, delay=0.05))
    controller = AbortController()
    first_content = asyncio.Event()
    result = await stream(
        provider(sim, kind),
        MSGS,
        RequestOptions(sleep=sleep, signal=controller.signal),
        transport=transport,
    )

    async def consume():
        deltas = []
        async for delta in result.deltas:
            deltas.append(delta)
            if isinstance(delta, ContentDelta):
                first_content.set()
        # Still alive after the loop: the abort did not cancel this task.
        await asyncio.sleep(0.01)
        return deltas, asyncio.current_task().cancelling()

    async def stop():
        await first_content.wait()
        await asyncio.sleep(0.12)  # a few more chunks arrive meanwhile
        controller.abort("user pressed stop")

    consumer = asyncio.create_task(consume())
    await stop()
    deltas, cancelling = await consumer
    assert not consumer.cancelled() and cancelling == 0

    assert isinstance(deltas[-1], ErrorDelta)
    error = deltas[-1].error
    assert isinstance(error, AbortError)
    assert error.reason == "user pressed stop"
    with pytest.raises(AbortError) as info:
        await result.response
    assert info.value is error
    arrived = text_of(deltas)
    assert arrived and words.startswith(arrived) and arrived != words
    assert error.partial is not None and error.partial.content == arrived
    req = sim.chat_requests[0]
    assert await asyncio.to_thread(req.wait) == "client_disconnected"
    assert len(sim.chat_requests) == 1


# --------------------------------------------------------------------------- stream -> batch


@pytest.mark.parametrize("kind", KINDS)
async def test_provider_without_streaming_gets_batch(sim, transport, sleep, kind):
    sim.script(Turn("No streaming here.", usage=(10, 4)))
    deltas, response, err = await run_stream(
        provider(sim, kind, supports_streaming=False), MSGS, RequestOptions(sleep=sleep), transport
    )
    assert err is None
    req = sim.chat_requests[0]
    assert req.stream is False
    assert req.json.get("stream", False) is False  # Anthropic leaves it out
    assert "stream_options" not in req.json
    assert text_of(deltas) == response.content == "No streaming here."
    assert_stream_tail(deltas, response)


JSON_BODIES = {
    "openai": {
        "id": "chatcmpl-json",
        "object": "chat.completion",
        "model": "gpt-4o-mini",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": "One body, no stream."},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 5, "completion_tokens": 4, "total_tokens": 9},
    },
    "anthropic": {
        "id": "msg_01json",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-20250514",
        "content": [{"type": "text", "text": "One body, no stream."}],
        "stop_reason": "end_turn",
        "usage": {"input_tokens": 5, "output_tokens": 4},
    },
    "ollama": {
        "model": "llama3.2:latest",
        "message": {"role": "assistant", "content": "One body, no stream."},
        "done": True,
        "done_reason": "stop",
        "prompt_eval_count": 5,
        "eval_count": 4,
    },
}


@pytest.mark.parametrize("kind", KINDS)
async def test_json_answer_to_stream_request_is_batch(sim, transport, sleep, kind):
    sim.script(raw([json.dumps(JSON_BODIES[kind])], content_type="application/json"))
    deltas, response, err = await run_stream(
        provider(sim, kind), MSGS, RequestOptions(sleep=sleep), transport
    )
    assert err is None
    assert sim.chat_requests[0].stream is True
    assert text_of(deltas) == response.content == "One body, no stream."
    assert response.finish_reason == "stop"
    assert (response.usage.prompt_tokens, response.usage.completion_tokens) == (5, 4)
    assert_stream_tail(deltas, response)


# --------------------------------------------------------------------------- structured output


class Weather(BaseModel):
    city: str
    temp_c: float


WEATHER_JSON = '{"city": "Paris", "temp_c": 18.5}'


@pytest.mark.parametrize("mode", ["batch", "stream"])
@pytest.mark.parametrize(
    "reply",
    [WEATHER_JSON, f"Here you go:\n```json\n{WEATHER_JSON}\n```\n"],
    ids=["plain", "fenced"],
)
@pytest.mark.parametrize("kind", KINDS)
async def test_structured_output(sim, transport, sleep, kind, reply, mode):
    sim.script(Turn(reply, chunks=4))
    p = provider(sim, kind)
    opts = RequestOptions(sleep=sleep, output_schema=Weather)
    if mode == "batch":
        response = await chat(p, MSGS, opts, transport=transport)
    else:
        deltas, response, err = await run_stream(p, MSGS, opts, transport)
        assert err is None and text_of(deltas) == reply
    assert isinstance(response.output, Weather)
    assert response.output == Weather(city="Paris", temp_c=18.5)
    assert response.output_error is None
    assert response.content == reply

    body = sim.chat_requests[0].json
    schema = json_schema_for(Weather)
    if kind == "ollama":
        assert body["format"] == schema
    elif kind == "anthropic":
        system = json.dumps(body["system"])
        assert "JSON schema" in system and "temp_c" in system
        assert "You are terse." in system
        assert "format" not in body and "response_format" not in body
    elif capability_for(p).supports_structured_output:
        assert body["response_format"]["json_schema"]["schema"] == schema
    else:
        assert "temp_c" in json.dumps(body["messages"][0])


@pytest.mark.parametrize("kind", KINDS)
async def test_structured_output_invalid_json(sim, transport, sleep, kind):
    reply = "Sorry, I can't report the weather {today}."
    sim.script(Turn(reply))
    response = await chat(
        provider(sim, kind),
        MSGS,
        RequestOptions(sleep=sleep, output_schema=Weather),
        transport=transport,
    )
    assert response.output is None
    assert response.output_error
    assert response.content == reply


# --------------------------------------------------------------------------- proxy


class RecordingTransport:
    """The httpx transport, noting each URL as the client hands it over."""

    def __init__(self, inner: HttpxTransport) -> None:
        self.inner = inner
        self.urls: list[str] = []

    async def send(self, request):
        self.urls.append(request.url)
        return await self.inner.send(request)


@pytest.mark.parametrize("kind", KINDS)
async def test_proxy_template(sim, transport, sleep, kind):
    p = provider(sim, kind, proxy=True)
    opts = RequestOptions(sleep=sleep, proxy_template=sim.base_url + "/proxy?url={href}")
    recording = RecordingTransport(transport)
    # The simulator has no /proxy route: it answers 404, which is not retried.
    with pytest.raises(NotFoundError):
        await chat(p, MSGS, opts, transport=recording)
    # The target is percent-encoded like encodeURIComponent (":" and "/" too) ...
    target = chat_url(sim, kind)
    encoded = target.replace(":", "%3A").replace("/", "%2F")
    assert recording.urls == [f"{sim.base_url}/proxy?url={encoded}"]
    # ... and arrives at the proxy path, decoding back to the provider's URL.
    (req,) = sim.requests
    assert req.method == "POST"
    assert req.path == "/proxy"
    assert req.query == {"url": target}
    assert json.loads(req.body)["model"] == MODELS[kind]


async def test_proxy_template_ignored_without_proxy_flag(sim, transport, sleep):
    sim.script(Turn("direct"))
    opts = RequestOptions(sleep=sleep, proxy_template=sim.base_url + "/proxy?url={href}")
    response = await chat(provider(sim, "openai"), MSGS, opts, transport=transport)
    assert response.content == "direct"
    assert sim.last_request.path == "/v1/chat/completions"


# --------------------------------------------------------------------------- waiting made visible


@pytest.mark.parametrize("kind", KINDS)
async def test_idle_stream_is_given_up_with_the_partial(sim, transport, sleep, kind):
    sim.script(Turn(LONG_TEXT, chunks=6, fault=Stall(after=BEFORE_CONTENT[kind] + 1)))
    deltas, _, error = await run_stream(
        provider(sim, kind), MSGS, RequestOptions(sleep=sleep, idle_timeout=0.4), transport
    )
    assert isinstance(error, StreamIdleError), repr(error)
    assert error.idle_seconds == 0.4 and "0.4 seconds" in error.message
    assert error.partial is not None and error.partial.content == text_of(deltas) != ""
    assert sleep.calls == []  # given up, not retried: the person decides
    assert len(sim.chat_requests) == 1


async def test_idle_timeout_leaves_a_slow_but_steady_stream_alone(sim, transport, sleep):
    sim.script(Turn("steady words arrive", chunks=6, delay=0.15))
    _deltas, response, error = await run_stream(
        provider(sim, "openai"), MSGS, RequestOptions(sleep=sleep, idle_timeout=0.5), transport
    )
    assert error is None and response.content == "steady words arrive"


async def test_idle_timeout_counts_only_the_wait_for_the_provider(sim, transport, sleep):
    # The provider answers at once; the consumer takes longer than the idle
    # timeout over each delta.  Its own awaits are never cut off, and the
    # stream is not idle: only time spent waiting for the next read counts.
    sim.script(Turn("a slow reader of fast words", chunks=4))
    result = await stream(
        provider(sim, "openai"),
        MSGS,
        RequestOptions(sleep=sleep, idle_timeout=0.2),
        transport=transport,
    )
    pieces = []
    async for delta in result.deltas:
        if isinstance(delta, ContentDelta):
            pieces.append(delta.text)
            await asyncio.sleep(0.3)
    response = await result.response
    assert "".join(pieces) == response.content == "a slow reader of fast words"


async def test_on_retry_is_told_the_wait(sim, transport, sleep):
    sim.script([rate_limited(3), Turn("after the wait")])
    told: list[tuple[float, str]] = []
    opts = RequestOptions(sleep=sleep, on_retry=lambda s, err: told.append((s, err.name)))
    _deltas, response, error = await run_stream(provider(sim, "openai"), MSGS, opts, transport)
    assert error is None and response.content == "after the wait"
    assert told == [(3.0, "RateLimitError")] and sleep.calls == [3.0]


async def test_abort_is_not_logged_as_an_error(sim, transport, sleep, caplog):
    sim.script(Turn("w " * 40, chunks=40, delay=0.05))
    controller = AbortController()
    result = await stream(
        provider(sim, "openai"),
        MSGS,
        RequestOptions(sleep=sleep, signal=controller.signal),
        transport=transport,
    )
    with caplog.at_level(logging.DEBUG, logger="wiggum.llm"):
        async for delta in result.deltas:
            if isinstance(delta, ContentDelta):
                controller.abort("stop")
    assert [r.msg for r in caplog.records if r.levelno >= logging.WARNING] == []
    assert "llm:aborted" in [r.msg for r in caplog.records]
