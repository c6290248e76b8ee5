"""Tests of the provider simulator itself, over real HTTP with httpx."""

from __future__ import annotations

import asyncio
import json
import re
import sys
import time

import httpx
import pytest

try:  # works whether or not the repo root is on sys.path
    from tests.sim import (
        Disconnect,
        Gate,
        Reasoning,
        Simulator,
        Stall,
        StreamError,
        ToolCall,
        Turn,
        context_length_exceeded,
        http_error,
        rate_limited,
        raw,
    )
except ImportError:
    from sim import (  # type: ignore[no-redef]
        Disconnect,
        Gate,
        Reasoning,
        Simulator,
        Stall,
        StreamError,
        ToolCall,
        Turn,
        context_length_exceeded,
        http_error,
        rate_limited,
        raw,
    )


@pytest.fixture(scope="module")
def client():
    # shared: creating an httpx.Client costs ~40 ms (SSL context)
    with httpx.Client(timeout=5) as c:
        yield c


def parse_sse(text: str) -> list[tuple[str | None, str]]:
    """Minimal spec-following SSE parser: (event name, data) per dispatched event."""
    events, name, data = [], None, []
    for line in re.split(r"\r\n|\r|\n", text):
        if line == "":
            if data:
                events.append((name, "\n".join(data)))
            name, data = None, []
        elif line.startswith(":"):
            continue
        else:
            field, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if field == "event":
                name = value
            elif field == "data":
                data.append(value)
    return events


def sse_json(text: str) -> list[tuple[str | None, dict | str]]:
    out = []
    for name, data in parse_sse(text):
        try:
            out.append((name, json.loads(data)))
        except ValueError:
            out.append((name, data))
    return out


def openai_chat(client, sim, stream=True, **body):
    body = {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}], **body}
    if stream:
        body["stream"] = True
    return client.post(sim.base_url + "/v1/chat/completions", json=body)


def anthropic_chat(client, sim, stream=True, **body):
    body = {"model": "claude-x", "max_tokens": 100, "messages": [], "stream": stream, **body}
    headers = {"anthropic-version": "2023-06-01", "x-api-key": "sk-ant-test"}
    return client.post(sim.base_url + "/v1/messages", json=body, headers=headers)


def ollama_chat(client, sim, **body):
    body = {"model": "llama3.2", "messages": [], **body}
    return client.post(sim.base_url + "/api/chat", json=body)


# --------------------------------------------------------------------------- OpenAI


def test_openai_stream_text_tool_call_usage(sim, client):
    sim.script([Turn("Hello world", ToolCall("get_weather", {"city": "Paris"}), usage=(11, 7))])
    r = openai_chat(client, sim, stream_options={"include_usage": True})
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/event-stream")
    assert r.headers["transfer-encoding"] == "chunked"
    events = [d for _, d in sse_json(r.text)]
    assert events[-1] == "[DONE]"
    chunks = events[:-1]
    assert all(c["id"].startswith("chatcmpl-") for c in chunks)
    assert chunks[0]["choices"][0]["delta"]["role"] == "assistant"
    text = "".join(c["choices"][0]["delta"].get("content") or "" for c in chunks if c["choices"])
    assert text == "Hello world"
    calls = [
        tc for c in chunks if c["choices"] for tc in c["choices"][0]["delta"].get("tool_calls", [])
    ]
    assert calls[0]["id"].startswith("call_") and calls[0]["function"]["name"] == "get_weather"
    assert all("id" not in tc for tc in calls[1:]) and len(calls) > 2
    assert {tc["index"] for tc in calls} == {0}
    args = "".join(tc["function"]["arguments"] for tc in calls)
    assert json.loads(args) == {"city": "Paris"}
    assert chunks[-2]["choices"][0]["finish_reason"] == "tool_calls"
    assert chunks[-1]["choices"] == []
    assert chunks[-1]["usage"]["prompt_tokens"] == 11
    assert chunks[-1]["usage"]["completion_tokens"] == 7
    sim.last_request.wait()  # ids are recorded once the server has finished answering
    assert sim.last_request.tool_call_ids == [calls[0]["id"]]


def test_openai_stream_without_include_usage_has_no_usage_chunk(sim, client):
    sim.script(Turn("hi"))
    chunks = [d for _, d in sse_json(openai_chat(client, sim).text)][:-1]
    assert all(c["choices"] for c in chunks)
    assert all("usage" not in c for c in chunks)


def test_openai_nonstream(sim, client):
    sim.script(Turn("Checking.", ToolCall("ls", {"path": "."}), usage=(5, 3)))
    r = openai_chat(client, sim, stream=False)
    assert r.headers["content-type"] == "application/json"
    body = r.json()
    assert body["object"] == "chat.completion" and body["id"].startswith("chatcmpl-")
    choice = body["choices"][0]
    assert choice["finish_reason"] == "tool_calls"
    assert choice["message"]["content"] == "Checking."
    tc = choice["message"]["tool_calls"][0]
    assert tc["id"].startswith("call_") and json.loads(tc["function"]["arguments"]) == {"path": "."}
    assert body["usage"]["total_tokens"] == 8


@pytest.mark.parametrize(
    ("fmt", "field"),
    [
        ("reasoning_content", "reasoning_content"),
        ("reasoning", "reasoning"),
        ("reasoning_details", "reasoning_details"),
        ("openrouter", "reasoning"),
        ("think", None),
    ],
)
def test_openai_reasoning_formats(sim, client, fmt, field):
    sim.script([Turn(Reasoning("deep thought"), "42", reasoning_format=fmt)] * 2)
    deltas = [c["choices"][0]["delta"] for _, c in sse_json(openai_chat(client, sim).text)[:-1]]
    msg = openai_chat(client, sim, stream=False).json()["choices"][0]["message"]
    if field is None:
        streamed = "".join(d.get("content") or "" for d in deltas)
        assert streamed.startswith("<think>deep thought</think>") and streamed.endswith("42")
        assert msg["content"].startswith("<think>deep thought</think>")
        return
    if field == "reasoning_details":
        streamed = "".join(x["text"] for d in deltas for x in d.get(field, []))
        assert msg[field][0]["text"] == "deep thought"
    else:
        streamed = "".join(d.get(field) or "" for d in deltas)
        assert msg[field] == "deep thought"
    assert streamed == "deep thought"
    assert "".join(d.get("content") or "" for d in deltas) == "42"
    assert msg["content"] == "42"


@pytest.mark.parametrize(
    "path", ["/v1/chat/completions", "/api/v1/chat/completions", "/chat/completions"]
)
def test_openai_any_prefix(sim, client, path):
    sim.script(Turn("ok"))
    r = client.post(sim.base_url + path, json={"model": "m", "messages": []})
    assert r.json()["choices"][0]["message"]["content"] == "ok"


# --------------------------------------------------------------------------- Anthropic


def test_anthropic_stream(sim, client):
    sim.script(
        Turn(
            Reasoning("hmm", signature="sig123"),
            "Hi there",
            ToolCall("f", {"a": [1, 2]}),
            usage=(40, 9),
        )
    )
    r = anthropic_chat(client, sim)
    assert r.headers["content-type"].startswith("text/event-stream")
    events = sse_json(r.text)
    names = [n for n, _ in events]
    assert names[:2] == ["message_start", "ping"]
    assert names[-2:] == ["message_delta", "message_stop"]
    assert all(n == d["type"] for n, d in events)
    start = events[0][1]["message"]
    assert start["id"].startswith("msg_") and start["usage"]["input_tokens"] == 40
    blocks = [d["content_block"] for n, d in events if n == "content_block_start"]
    assert [b["type"] for b in blocks] == ["thinking", "text", "tool_use"]
    assert blocks[2]["id"].startswith("toolu_") and blocks[2]["name"] == "f"
    deltas = [d for n, d in events if n == "content_block_delta"]
    by_type: dict[str, str] = {}
    for d in deltas:
        key = d["delta"]["type"]
        value = next(v for k, v in d["delta"].items() if k != "type")
        by_type[key] = by_type.get(key, "") + value
    assert by_type["thinking_delta"] == "hmm"
    assert by_type["signature_delta"] == "sig123"
    assert by_type["text_delta"] == "Hi there"
    assert json.loads(by_type["input_json_delta"]) == {"a": [1, 2]}
    assert sum(n == "content_block_stop" for n in names) == 3
    final = events[-2][1]
    assert final["delta"]["stop_reason"] == "tool_use" and final["usage"]["output_tokens"] == 9


def test_anthropic_nonstream(sim, client):
    sim.script(Turn("partial", finish_reason="length", usage=(3, 2)))
    body = anthropic_chat(client, sim, stream=False).json()
    assert body["type"] == "message" and body["stop_reason"] == "max_tokens"
    assert body["content"] == [{"type": "text", "text": "partial"}]
    assert body["usage"]["input_tokens"] == 3 and body["usage"]["output_tokens"] == 2
    assert sim.last_request.header("anthropic-version") == "2023-06-01"


# --------------------------------------------------------------------------- Ollama


def test_ollama_streams_by_default(sim, client):
    sim.script(Turn(Reasoning("think"), "Hey", ToolCall("f", {"x": 1}), usage=(12, 4)))
    r = ollama_chat(client, sim)
    assert r.headers["content-type"] == "application/x-ndjson"
    lines = [json.loads(line) for line in r.text.splitlines()]
    assert "".join(x["message"].get("thinking", "") for x in lines) == "think"
    assert "".join(x["message"]["content"] for x in lines) == "Hey"
    calls = [x for x in lines if "tool_calls" in x["message"]]
    assert len(calls) == 1
    assert calls[0]["message"]["tool_calls"] == [{"function": {"name": "f", "arguments": {"x": 1}}}]
    assert all(not x["done"] for x in lines[:-1])
    last = lines[-1]
    assert last["done"] is True and last["done_reason"] == "stop"
    assert last["prompt_eval_count"] == 12 and last["eval_count"] == 4
    assert sim.last_request.stream is True


def test_ollama_nonstream(sim, client):
    sim.script(Turn("Hey", ToolCall("f", {"x": 1})))
    r = ollama_chat(client, sim, stream=False)
    assert r.headers["content-type"] == "application/json"
    body = r.json()
    assert body["done"] is True and body["message"]["content"] == "Hey"
    assert body["message"]["tool_calls"][0]["function"]["arguments"] == {"x": 1}


# --------------------------------------------------------------------------- models


def test_model_lists(sim, client):
    oa = client.get(sim.base_url + "/v1/models").json()
    assert oa["object"] == "list" and oa["data"][0]["object"] == "model"
    an = client.get(sim.base_url + "/v1/models", headers={"anthropic-version": "2023-06-01"}).json()
    assert an["data"][0]["type"] == "model" and an["has_more"] is False
    assert client.get(sim.base_url + "/anthropic/v1/models").json()["data"][0]["type"] == "model"
    sim.set_models(["qwen3:0.6b"], dialect="ollama")
    tags = client.get(sim.base_url + "/api/tags").json()
    assert [m["name"] for m in tags["models"]] == ["qwen3:0.6b"]
    sim.set_models(["only-one"])
    assert [m["id"] for m in client.get(sim.base_url + "/api/v1/models").json()["data"]] == [
        "only-one"
    ]
    sim.models_fault = http_error(401)
    r = client.get(sim.base_url + "/v1/models")
    assert r.status_code == 401 and r.json()["error"]["code"] == "invalid_api_key"


# --------------------------------------------------------------------------- timing


@pytest.fixture
def wire_log(monkeypatch):
    """What the simulator does on the wire, in order: ``("send", bytes)`` per body
    write, ``("sleep", seconds)`` per pause (headers are not listed).  Read from
    the simulator itself, so the order is exact whatever the machine's load."""
    server = sys.modules[Simulator.__module__]
    log: list[tuple[str, object]] = []
    real_sleep, real_send = asyncio.sleep, server.Simulator._send

    async def sleep(seconds, *args, **kwargs):
        log.append(("sleep", seconds))
        return await real_sleep(seconds, *args, **kwargs)

    class Asyncio:  # the server module's ``asyncio``, with its sleeps logged
        def __getattr__(self, name):
            return sleep if name == "sleep" else getattr(asyncio, name)

    async def send(self, writer, data, chunked):
        log.append(("send", data))
        return await real_send(self, writer, data, chunked)

    monkeypatch.setattr(server, "asyncio", Asyncio())
    monkeypatch.setattr(server.Simulator, "_send", send)
    return log


def test_stream_chunks_arrive_with_delays(sim, client, wire_log):
    sim.script(Turn("abc", chunks=3, delay=0.1))
    body = {"model": "m", "messages": [], "stream": True}
    t0 = time.monotonic()
    with client.stream("POST", sim.base_url + "/v1/chat/completions", json=body) as r:
        events = [line for line in r.iter_lines() if line.startswith("data:")]
    elapsed = time.monotonic() - t0
    # role chunk, 3 text chunks, finish chunk, [DONE]: the first at once, each
    # later one after a pause of 0.1 s
    assert len(events) == 6
    assert [op for op, _ in wire_log] == ["send"] + ["sleep", "send"] * 5
    assert {v for op, v in wire_log if op == "sleep"} == {0.1}
    assert elapsed > 0.45  # the pauses are real (a busy machine only adds to this)


def test_a_gate_holds_the_stream_until_let_out(sim, client):
    gate = Gate()
    sim.script(Turn("abc", chunks=3, gate=gate))
    body = {"model": "m", "messages": [], "stream": True}
    with client.stream("POST", sim.base_url + "/v1/chat/completions", json=body) as r:
        lines = r.iter_lines()
        assert r.status_code == 200 and gate.sent == 0  # the headers are not held
        gate.allow(2)  # the role chunk and the first piece of text
        first = []
        for line in lines:
            if line.startswith("data:"):
                first.append(json.loads(line[6:]))
                if len(first) == 2:
                    break
        assert gate.sent == 2  # and no more until let out
        assert first[1]["choices"][0]["delta"]["content"] == "a"
        gate.open()
        rest = [line for line in lines if line.startswith("data:")]
    assert len(rest) == 4 and rest[-1] == "data: [DONE]"
    assert sim.last_request.wait() == "complete"


def test_a_client_leaving_at_a_closed_gate_is_seen(sim):
    sim.script(Turn("abc", chunks=3, gate=Gate()))
    body = {"model": "m", "messages": [], "stream": True}
    with (
        httpx.Client(timeout=5) as c,
        c.stream("POST", sim.base_url + "/v1/chat/completions", json=body) as r,
    ):
        assert r.status_code == 200
    assert sim.last_request.wait() == "client_disconnected"


# --------------------------------------------------------------------------- faults


def test_429_then_success(sim, client):
    sim.script([rate_limited(retry_after=1), Turn("finally")])
    r = openai_chat(client, sim, stream=False)
    assert r.status_code == 429 and r.headers["retry-after"] == "1"
    assert r.json()["error"]["code"] == "rate_limit_exceeded"
    r = openai_chat(client, sim, stream=False)
    assert r.status_code == 200 and r.json()["choices"][0]["message"]["content"] == "finally"


@pytest.mark.parametrize("status", [401, 500, 503])
def test_error_shapes(sim, client, status):
    sim.script([http_error(status)] * 3)
    oa = openai_chat(client, sim)
    assert oa.status_code == status and set(oa.json()["error"]) >= {"message", "type", "code"}
    an = anthropic_chat(client, sim)
    assert an.status_code == status and an.json()["type"] == "error"
    assert an.json()["error"]["type"] in {"authentication_error", "api_error", "overloaded_error"}
    ol = ollama_chat(client, sim)
    assert ol.status_code == status and isinstance(ol.json()["error"], str)


def test_custom_error_body_and_headers(sim, client):
    sim.script(http_error(418, "teapot", {"X-Thing": "1"}))
    r = openai_chat(client, sim)
    assert r.status_code == 418 and r.text == "teapot" and r.headers["x-thing"] == "1"
    assert r.headers["content-type"].startswith("text/plain")


def test_turn_headers_override(sim, client):
    sim.script(Turn("x", headers={"Content-Type": "text/plain", "X-Extra": "1"}))
    r = openai_chat(client, sim)
    assert r.headers.get_list("content-type") == ["text/plain"]
    assert r.headers["x-extra"] == "1"


def test_context_length_wording(sim, client):
    sim.script([context_length_exceeded()] * 2)
    oa = openai_chat(client, sim).json()["error"]
    assert oa["code"] == "context_length_exceeded"
    assert oa["message"].startswith("This model's maximum context length is 128000 tokens")
    an = anthropic_chat(client, sim).json()
    assert an["error"] == {
        "type": "invalid_request_error",
        "message": "prompt is too long: 210000 tokens > 200000 maximum",
    }


def test_disconnect_mid_stream(sim, client):
    sim.script(Turn("abcdef", chunks=6, fault=Disconnect(after=3)))
    got = []
    body = {"model": "m", "messages": [], "stream": True}
    with (
        pytest.raises(httpx.RemoteProtocolError),
        client.stream("POST", sim.base_url + "/v1/chat/completions", json=body) as r,
    ):
        for line in r.iter_lines():
            got.append(line)
    data = [line for line in got if line.startswith("data:")]
    assert len(data) == 3 and "[DONE]" not in "".join(got)
    assert sim.last_request.wait() == "closed_by_server"


def test_disconnect_nonstream(sim, client):
    sim.script([Turn("x", fault=Disconnect(after=0)), Turn("y", fault=Disconnect(after=1))])
    with pytest.raises(httpx.RemoteProtocolError):
        openai_chat(client, sim, stream=False)
    with pytest.raises(httpx.RemoteProtocolError):
        openai_chat(client, sim, stream=False)


def test_client_abort_is_recorded(sim, client):
    sim.script(Turn("abcdefghij", chunks=10, delay=0.03))
    body = {"model": "m", "messages": [], "stream": True}
    with client.stream("POST", sim.base_url + "/v1/chat/completions", json=body) as r:
        for line in r.iter_lines():
            if "content" in line:
                break
    assert sim.last_request.wait(2) == "client_disconnected"


def test_garbage_interleaved(sim, client):
    sim.script(Turn("hello", garbage=True))
    r = openai_chat(client, sim)
    assert ": OPENROUTER PROCESSING" in r.text and "data: : keepalive" in r.text
    events = sse_json(r.text)
    junk = [d for _, d in events if isinstance(d, str) and d != "[DONE]"]
    assert junk  # non-JSON data lines really are there
    text = "".join(
        d["choices"][0]["delta"].get("content") or ""
        for _, d in events
        if isinstance(d, dict) and d["choices"]
    )
    assert text == "hello"


def test_stream_error_openai(sim, client):
    sim.script(
        Turn("abcdef", fault=StreamError(after=2, message="Provider disconnected", code=502))
    )
    r = openai_chat(client, sim)
    assert r.status_code == 200
    events = [d for _, d in sse_json(r.text)]
    assert len(events) == 3 and "[DONE]" not in events
    err = events[-1]
    assert err["error"] == {"message": "Provider disconnected", "code": 502}
    assert err["choices"][0]["finish_reason"] == "error"


def test_stream_error_anthropic_and_ollama(sim, client):
    sim.script([Turn("abc", fault=StreamError(after=2, message="Overloaded"))] * 2)
    events = sse_json(anthropic_chat(client, sim).text)
    assert events[-1] == (
        "error",
        {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}},
    )
    lines = [json.loads(x) for x in ollama_chat(client, sim).text.splitlines()]
    assert lines[-1] == {"error": "Overloaded"}


def test_stall_then_close(sim, client):
    sim.script(Turn("abc", fault=Stall(after=1, seconds=0.2)))
    t0 = time.monotonic()
    with pytest.raises(httpx.RemoteProtocolError):  # closed by the server, not timed out here
        openai_chat(client, sim)
    assert time.monotonic() - t0 > 0.18


def test_stall_then_continue(sim, client):
    sim.script(Turn("abc", fault=Stall(after=2, seconds=0.15, then="continue")))
    t0 = time.monotonic()
    r = openai_chat(client, sim)
    assert time.monotonic() - t0 > 0.13
    assert sse_json(r.text)[-1][1] == "[DONE]"


def test_stall_until_client_gives_up(sim):
    sim.script(Turn("abc", fault=Stall(after=1)))
    with httpx.Client(timeout=httpx.Timeout(5, read=0.2)) as c, pytest.raises(httpx.ReadTimeout):
        openai_chat(c, sim)
    assert sim.last_request.wait(2) == "client_disconnected"


def test_stop_with_stalled_connections_is_quick():
    sim = Simulator().start()
    sim.script(
        [Turn("x", fault=Stall(after=1)), Turn("y", fault=Stall(after=0))],
    )
    body = {"model": "m", "messages": [], "stream": True}
    clients = [httpx.Client(timeout=5) for _ in range(2)]
    streams = [c.stream("POST", sim.base_url + "/v1/chat/completions", json=body) for c in clients]
    responses = [s.__enter__() for s in streams]
    assert all(r.status_code == 200 for r in responses)
    sim.wait_for_requests(2)
    tasks = list(sim._tasks)
    sim.stop()
    # The stalled answers were cancelled: none was left running (or waited for to its end).
    assert tasks and all(t.done() for t in tasks)
    assert [r.outcome for r in sim.requests] == ["server_stopped"] * 2
    for r in responses:
        with pytest.raises(httpx.RemoteProtocolError):
            r.read()
    for c in clients:
        c.close()


@pytest.mark.parametrize("ending", ["\r\n", "\r", "\n"])
def test_line_endings(sim, client, ending):
    sim.script(Turn("hey", line_ending=ending))
    r = anthropic_chat(client, sim)
    raw_text = r.content.decode()
    assert f"event: message_start{ending}data: " in raw_text
    if ending == "\r\n":
        assert raw_text.count("\r\n") == raw_text.count("\n") == raw_text.count("\r")
    else:
        assert ({"\r", "\n"} - {ending}).isdisjoint(raw_text)
    assert (
        "".join(d["delta"]["text"] for n, d in sse_json(raw_text) if n == "content_block_delta")
        == "hey"
    )


def test_raw_bytes_replay(sim, client, wire_log):
    chunks = [b'data: {"a":', 0.1, b" 1}\n\n", "data: [DONE]\n\n"]
    sim.script(raw(chunks, headers={"X-Replay": "yes"}))
    body = {"model": "m", "messages": [], "stream": True}
    t0 = time.monotonic()
    with client.stream("POST", sim.base_url + "/v1/chat/completions", json=body) as r:
        got = b"".join(r.iter_raw())
    assert r.headers["x-replay"] == "yes"
    assert got == b'data: {"a": 1}\n\ndata: [DONE]\n\n'
    # Each item its own write, the pause between the first two.
    assert wire_log == [
        ("send", b'data: {"a":'),
        ("sleep", 0.1),
        ("send", b" 1}\n\n"),
        ("send", b"data: [DONE]\n\n"),
    ]
    assert time.monotonic() - t0 > 0.08


def test_raw_incomplete(sim, client):
    sim.script(raw([b"data: x\n\n"], complete=False))
    with pytest.raises(httpx.RemoteProtocolError):
        openai_chat(client, sim)


def test_framing_close(sim, client):
    sim.script([Turn("abc", framing="close"), Turn("def", framing="close")])
    r = openai_chat(client, sim)
    assert "transfer-encoding" not in r.headers and "content-length" not in r.headers
    assert r.headers["connection"] == "close" and sse_json(r.text)[-1][1] == "[DONE]"
    assert sim.last_request.wait() == "complete"
    assert (
        openai_chat(client, sim, stream=False).json()["choices"][0]["message"]["content"] == "def"
    )


def test_ttfb(sim, client):
    sim.script(Turn("x", ttfb=0.15))
    t0 = time.monotonic()
    openai_chat(client, sim)
    assert time.monotonic() - t0 > 0.13


# --------------------------------------------------------------------------- CORS


def test_cors_preflight_and_headers(sim, client):
    origin = "http://localhost:8000"
    r = client.options(
        sim.base_url + "/v1/messages",
        headers={
            "Origin": origin,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization, content-type, x-api-key",
            "Access-Control-Request-Private-Network": "true",
        },
    )
    assert r.status_code == 204
    assert r.headers["access-control-allow-origin"] == origin
    assert r.headers["access-control-allow-headers"] == "authorization, content-type, x-api-key"
    assert "POST" in r.headers["access-control-allow-methods"]
    assert r.headers["access-control-allow-private-network"] == "true"
    assert len(sim.preflights) == 1 and sim.requests == []
    sim.script(rate_limited(2))
    r = client.post(
        sim.base_url + "/v1/chat/completions", json={"model": "m"}, headers={"Origin": origin}
    )
    assert r.headers["access-control-allow-origin"] == origin
    assert "retry-after" in r.headers["access-control-expose-headers"]
    r = client.get(sim.base_url + "/v1/models")
    assert r.headers["access-control-allow-origin"] == "*"


def test_no_cors(client):
    with Simulator(cors=False) as sim:
        sim.script(Turn("x"))
        pre = client.options(
            sim.base_url + "/v1/chat/completions",
            headers={"Origin": "http://x", "Access-Control-Request-Method": "POST"},
        )
        post = client.post(
            sim.base_url + "/v1/chat/completions",
            json={"model": "m"},
            headers={"Origin": "http://x"},
        )
        for r in (pre, post):
            assert not [h for h in r.headers if h.lower().startswith("access-control-")]
        assert post.status_code == 200


# --------------------------------------------------------------------------- recording & scripting


def test_request_recording_and_tool_result_roundtrip(sim, client):
    sim.script([Turn(ToolCall("read", {"path": "a.txt"})), Turn("done")])
    first = openai_chat(client, sim, stream=False).json()
    call = first["choices"][0]["message"]["tool_calls"][0]
    messages = [
        {"role": "user", "content": "read a.txt"},
        first["choices"][0]["message"],
        {"role": "tool", "tool_call_id": call["id"], "content": "contents"},
    ]
    openai_chat(
        client, sim, messages=messages, stream_options={"include_usage": True}, headers=None
    )
    reqs = sim.requests
    assert [r.method for r in reqs] == ["POST", "POST"]
    assert reqs[0].path == "/v1/chat/completions" and reqs[0].stream is False
    assert reqs[0].tool_call_ids == [call["id"]]
    assert reqs[1].json["messages"][-1]["tool_call_id"] == call["id"]
    assert reqs[1].json["stream_options"] == {"include_usage": True}
    assert reqs[1].header("Content-Type") == "application/json"
    assert reqs[1].turn.text == "done"
    assert sim.pending == []


def test_headers_recorded(sim, client):
    sim.script(Turn("x"))
    client.post(
        sim.base_url + "/v1/messages",
        json={"model": "c", "messages": []},
        headers={"anthropic-dangerous-direct-browser-access": "true"},
    )
    assert sim.last_request.header("anthropic-dangerous-direct-browser-access") == "true"
    assert sim.last_request.dialect == "anthropic"


def test_model_keyed_turns(sim, client):
    sim.script([Turn("generic"), Turn("for-big", model="big")])
    small = openai_chat(client, sim, stream=False, model="small").json()
    big = openai_chat(client, sim, stream=False, model="big").json()
    assert small["choices"][0]["message"]["content"] == "generic"
    assert big["choices"][0]["message"]["content"] == "for-big"
    assert big["model"] == "big"


def test_unscripted_request_is_500_unless_default(client):
    with Simulator() as sim:
        r = openai_chat(client, sim)
        assert r.status_code == 500 and "no scripted turn" in r.json()["error"]["message"]
    with Simulator(default=Turn("always")) as sim:
        for _ in range(2):
            assert (
                openai_chat(client, sim, stream=False).json()["choices"][0]["message"]["content"]
                == "always"
            )


def test_invalid_json_and_unknown_route(sim, client):
    r = client.post(
        sim.base_url + "/v1/chat/completions",
        content=b"{nope",
        headers={"content-type": "application/json"},
    )
    assert r.status_code == 400
    assert client.get(sim.base_url + "/nope").status_code == 404


# --------------------------------------------------------------------------- async


async def test_async_many_concurrent_streams():
    async with Simulator() as sim:
        n = 30
        gates = [Gate() for _ in range(n)]
        sim.script([Turn("abcd", chunks=4, delay=0.05, gate=gate) for gate in gates])

        async def one(c: httpx.AsyncClient) -> str:
            body = {"model": "m", "messages": [], "stream": True}
            async with c.stream("POST", sim.base_url + "/v1/chat/completions", json=body) as r:
                text = ""
                async for line in r.aiter_lines():
                    if line.startswith("data: {"):
                        text += json.loads(line[6:])["choices"][0]["delta"].get("content") or ""
                return text

        limits = httpx.Limits(max_connections=n)
        async with httpx.AsyncClient(timeout=5, limits=limits) as c:
            streams = [asyncio.create_task(one(c)) for _ in range(n)]
            # Every answer is held at its gate: all n are received at once, not in turn.
            assert len(await sim.wait_for_requests_async(n)) == n
            assert not any(t.done() for t in streams)
            for gate in gates:
                gate.open()
            results = await asyncio.gather(*streams)
        assert results == ["abcd"] * n
