"""Small local models through Ollama, against the provider simulator over real HTTP:
the flat tool-call shape is read, a missing model says ``ollama pull``, and
``keep_alive`` is sent."""

from __future__ import annotations

import itertools
import json

import pytest
from pydantic import SecretStr

from tests.sim import HttpError, Raw, Simulator, Turn
from wiggum.llm import NotFoundError, ProviderConfig, RequestOptions, ToolDefinition, chat, stream
from wiggum.llm.httpx_transport import HttpxTransport
from wiggum.ui.connection import diagnose
from wiggum.ui.errors import explain
from wiggum.ui.settings import ProviderSettings

READ = ToolDefinition(
    name="read_file",
    description="Read a file",
    parameters={"type": "object", "properties": {"path": {"type": "string"}}},
)
_ids = itertools.count()
NDJSON = "application/x-ndjson"


def ollama(sim: Simulator, model: str = "qwen2.5:0.5b") -> ProviderConfig:
    return ProviderConfig(
        id=f"ollama-{next(_ids)}", kind="ollama", base_url=sim.base_url, model=model
    )


def openai_local(sim: Simulator) -> ProviderConfig:
    return ProviderConfig(
        id=f"local-{next(_ids)}",
        kind="openai",
        base_url=sim.base_url + "/v1",
        model="qwen2.5:0.5b",
        api_key=SecretStr("ollama"),
    )


def lines(*objs: dict) -> list[str]:
    return [json.dumps(o) + "\n" for o in objs]


FLAT_CALL = {"name": "read_file", "arguments": {"path": "index.html"}}


@pytest.mark.parametrize("streamed", [False, True])
async def test_ollama_flat_tool_call_is_read(sim, streamed):
    """No ``function`` wrapper, no ``type``, no ``id``: the call is still Ralph's."""
    body = lines(
        {"message": {"role": "assistant", "content": "", "tool_calls": [FLAT_CALL]}, "done": False},
        {"message": {"role": "assistant", "content": ""}, "done": True, "done_reason": "stop"},
    )
    ctype = NDJSON if streamed else "application/json"
    chunks = body if streamed else [json.dumps({**json.loads(body[0]), "done": True})]
    sim.script(Turn(raw=Raw(chunks, content_type=ctype)))
    transport = HttpxTransport()
    try:
        options = RequestOptions(tools=[READ])
        if streamed:
            result = await stream(ollama(sim), [_user()], options, transport=transport)
            async for _ in result.deltas:
                pass
            response = await result.response
        else:
            response = await chat(ollama(sim), [_user()], options, transport=transport)
    finally:
        await transport.aclose()
    [call] = response.tool_calls
    assert call.name == "read_file" and call.args == {"path": "index.html"}
    assert not call.parse_error


async def test_openai_compatible_flat_tool_call_is_read(sim):
    """Ollama's /v1 (and other local servers) may send the flat shape with object arguments."""
    answer = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "model": "qwen2.5:0.5b",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": None, "tool_calls": [FLAT_CALL]},
                "finish_reason": "tool_calls",
            }
        ],
    }
    sim.script(Turn(raw=Raw([json.dumps(answer)], content_type="application/json")))
    transport = HttpxTransport()
    try:
        response = await chat(
            openai_local(sim), [_user()], RequestOptions(tools=[READ]), transport=transport
        )
    finally:
        await transport.aclose()
    [call] = response.tool_calls
    assert call.name == "read_file" and call.args == {"path": "index.html"}


async def test_keep_alive_is_sent(sim):
    sim.script(Turn(text="ok"))
    transport = HttpxTransport()
    try:
        await chat(ollama(sim), [_user()], RequestOptions(), transport=transport)
    finally:
        await transport.aclose()
    assert sim.chat_requests[-1].json["keep_alive"] == "30m"


MISSING = {"error": 'model "qwen2.5:0.5b" not found, try pulling it first'}


async def not_found(sim: Simulator, body: dict) -> NotFoundError:
    """The error of a call Ollama answers with 404 and ``body``."""
    sim.script(Turn(fault=HttpError(404, body)))
    transport = HttpxTransport()
    try:
        with pytest.raises(NotFoundError) as caught:
            await chat(ollama(sim), [_user()], RequestOptions(max_retries=0), transport=transport)
    finally:
        await transport.aclose()
    return caught.value


async def test_a_missing_model_says_ollama_pull(sim):
    error = await not_found(sim, MISSING)
    said = explain(error, provider_name="Ollama")
    assert said is not None and said.title == "Model not downloaded"
    assert "`ollama pull qwen2.5:0.5b`" in said.message
    # The connection test names the same fix, on the model field.
    settings = ProviderSettings(preset="ollama", base_url=sim.base_url, model="qwen2.5:0.5b")
    found = diagnose(error, settings, proxy_template="", origin="http://127.0.0.1")
    assert found.cause == "model_missing" and "ollama pull qwen2.5:0.5b" in found.message
    assert found.field == "model"


async def test_a_wrong_url_is_still_a_wrong_url(sim):
    """A 404 that is not about a model keeps its own advice."""
    error = await not_found(sim, {"error": "404 page not found"})
    said = explain(error, provider_name="Ollama")
    assert said is not None and said.title == "Not found"


def _user():
    from wiggum.llm import Message

    return Message.user("Read index.html")
