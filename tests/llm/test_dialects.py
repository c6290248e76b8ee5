"""Request building: a canonical history through every dialect and back."""

from __future__ import annotations

import json

import pytest
from pydantic import BaseModel

from tests.llm.wire import (
    ANTHROPIC,
    OLLAMA,
    OPENAI,
    a_end,
    a_start,
    a_text,
    anthropic_sse,
    chunk,
    run_batch,
    run_stream,
    sse,
)
from wiggum.llm import (
    ImagePart,
    Message,
    ParsedToolCall,
    ProviderConfig,
    RequestOptions,
    TextPart,
    ThinkingBlock,
    ToolDefinition,
)

READ = ToolDefinition(
    name="read_file",
    description="Read a file",
    parameters={"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
)
CALL = ParsedToolCall(
    id="call_1", name="read_file", args={"path": "a.txt"}, raw_args='{"path":"a.txt"}'
)
CALL2 = ParsedToolCall(
    id="call_2", name="read_file", args={"path": "b.txt"}, raw_args='{"path": "b.txt"}'
)
HISTORY = [
    Message.system("You are Ralph."),
    Message.user("Read both files."),
    Message(
        role="assistant",
        content="Reading.",
        tool_calls=[CALL, CALL2],
        reasoning="I need both",
        thinking=[ThinkingBlock(text="I need both", signature="sig-1")],
    ),
    Message.tool("call_1", "alpha", name="read_file"),
    Message.tool("call_2", "no such file", name="read_file", is_error=True),
    Message.user("Thanks"),
]


def sent(transport) -> dict:
    return json.loads(transport.requests[-1].body)


async def ok_openai(provider=OPENAI, messages=HISTORY, options=None):
    _, transport = await run_batch(
        provider,
        {
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": "ok"},
                    "finish_reason": "stop",
                }
            ]
        },
        messages=messages,
        options=options or RequestOptions(tools=[READ]),
    )
    return transport


async def test_openai_history_round_trip():
    transport = await ok_openai()
    request = transport.requests[0]
    assert request.url == "https://api.openai.com/v1/chat/completions"
    assert request.headers["Authorization"] == "Bearer sk-t"
    body = sent(transport)
    assert [m["role"] for m in body["messages"]] == [
        "system",
        "user",
        "assistant",
        "tool",
        "tool",
        "user",
    ]
    assistant = body["messages"][2]
    assert assistant["content"] == "Reading."
    assert [tc["id"] for tc in assistant["tool_calls"]] == ["call_1", "call_2"]
    # Exactly what the model wrote goes back (byte-identical keeps provider caches warm).
    assert assistant["tool_calls"][1]["function"]["arguments"] == '{"path": "b.txt"}'
    assert "reasoning_content" not in assistant  # only DeepSeek wants it back
    assert body["messages"][3] == {"role": "tool", "tool_call_id": "call_1", "content": "alpha"}
    assert body["tools"][0] == {"type": "function", "function": READ.model_dump()}
    assert body["stream"] is False


async def test_deepseek_gets_reasoning_content_back():
    deepseek = OPENAI.model_copy(
        update={"base_url": "https://api.deepseek.com", "model": "deepseek-reasoner"}
    )
    body = sent(await ok_openai(deepseek))
    assert body["messages"][2]["reasoning_content"] == "I need both"


async def test_repaired_arguments_go_back_as_valid_json():
    broken = CALL.model_copy(update={"raw_args": "{'path': 'a.txt',}", "repaired": True})
    history = [Message.user("x"), Message.assistant("", [broken]), Message.tool("call_1", "alpha")]
    body = sent(await ok_openai(messages=history))
    assert json.loads(body["messages"][1]["tool_calls"][0]["function"]["arguments"]) == {
        "path": "a.txt"
    }
    assert body["messages"][1]["content"] is None


async def test_openrouter_headers_usage_and_cache_markers():
    router = ProviderConfig(
        id="openrouter",
        kind="openai",
        base_url="https://openrouter.ai/api/v1",
        model="anthropic/claude-sonnet-4",
        api_key="sk-or",
    )
    transport = await ok_openai(router)
    headers, body = transport.requests[0].headers, sent(transport)
    assert headers["HTTP-Referer"] and headers["X-Title"] == "Wiggum"
    assert body["usage"] == {"include": True}
    system = body["messages"][0]["content"]
    assert system[-1]["cache_control"] == {"type": "ephemeral"}
    assert body["messages"][-1]["content"][-1]["cache_control"] == {"type": "ephemeral"}
    marked = [
        m
        for m in body["messages"]
        if isinstance(m["content"], list) and any("cache_control" in b for b in m["content"])
    ]
    assert len(marked) <= 3  # system + the last two messages


async def test_openai_stream_asks_for_usage():
    _, _, transport = await run_stream(OPENAI, sse(chunk({"content": "x"}, "stop")))
    body = sent(transport)
    assert body["stream"] is True and body["stream_options"] == {"include_usage": True}
    assert transport.requests[0].headers["Accept"] == "text/event-stream"


async def test_anthropic_history_round_trip():
    transport = await run_batch(
        ANTHROPIC,
        {
            "content": [{"type": "text", "text": "ok"}],
            "stop_reason": "end_turn",
            "usage": {"input_tokens": 1, "output_tokens": 1},
        },
        messages=HISTORY,
        options=RequestOptions(tools=[READ], tool_choice="required"),
    )
    request = transport[1].requests[0]
    assert request.url == "https://api.anthropic.com/v1/messages"
    assert request.headers["x-api-key"] == "sk-ant-t"
    assert request.headers["anthropic-version"] == "2023-06-01"
    assert request.headers["anthropic-dangerous-direct-browser-access"] == "true"
    body = sent(transport[1])
    assert body["system"][0]["text"] == "You are Ralph."
    assert body["tool_choice"] == {"type": "any"}
    assert body["tools"][0]["input_schema"] == READ.parameters
    roles = [m["role"] for m in body["messages"]]
    assert roles == ["user", "assistant", "user"]
    assistant = body["messages"][1]["content"]
    assert assistant[0] == {"type": "thinking", "thinking": "I need both", "signature": "sig-1"}
    assert assistant[1]["text"] == "Reading."
    assert [b["id"] for b in assistant[2:]] == ["call_1", "call_2"]
    assert assistant[2]["input"] == {"path": "a.txt"}
    results = body["messages"][2]["content"]
    assert results[0] == {"type": "tool_result", "tool_use_id": "call_1", "content": "alpha"}
    assert results[1]["is_error"] is True
    assert results[2]["type"] == "text" and results[2]["text"] == "Thanks"  # after the results
    assert body["max_tokens"] > 0


async def test_anthropic_unsigned_thinking_is_not_sent_back():
    history = [
        Message.user("q"),
        Message(role="assistant", content="a", thinking=[ThinkingBlock(text="from another model")]),
        Message.user("again"),
    ]
    _, transport = await run_batch(
        ANTHROPIC,
        {"content": [{"type": "text", "text": "ok"}], "stop_reason": "end_turn"},
        messages=history,
    )
    blocks = sent(transport)["messages"][1]["content"]
    assert [(b["type"], b["text"]) for b in blocks] == [("text", "a")]


async def test_anthropic_mid_history_system_note_travels_as_user_text():
    history = [
        Message.system("S"),
        Message.user("q"),
        Message.assistant("a"),
        Message.system("[3 earlier messages trimmed]"),
        Message.user("next"),
    ]
    _, transport = await run_batch(
        ANTHROPIC,
        {"content": [{"type": "text", "text": "ok"}], "stop_reason": "end_turn"},
        messages=history,
    )
    body = sent(transport)
    assert [m["role"] for m in body["messages"]] == ["user", "assistant", "user"]
    assert "trimmed" in body["messages"][2]["content"][0]["text"]


async def test_ollama_history_round_trip():
    _, transport = await run_batch(
        OLLAMA,
        {"message": {"role": "assistant", "content": "ok"}, "done": True, "done_reason": "stop"},
        messages=HISTORY,
        options=RequestOptions(tools=[READ], max_tokens=500, temperature=0.2),
    )
    assert transport.requests[0].url == "http://127.0.0.1:11434/api/chat"
    body = sent(transport)
    assistant = body["messages"][2]
    assert assistant["tool_calls"][0] == {
        "function": {"name": "read_file", "arguments": {"path": "a.txt"}}
    }
    assert assistant["thinking"] == "I need both"
    assert body["messages"][3] == {"role": "tool", "content": "alpha", "tool_name": "read_file"}
    assert body["options"]["num_predict"] == 500 and body["options"]["temperature"] == 0.2
    # num_ctx is sized to the prompt + reply, never Ollama's small default.
    assert body["options"]["num_ctx"] >= 8192
    assert body["stream"] is False


@pytest.mark.parametrize(
    "base", ["http://h:11434", "http://h:11434/", "http://h:11434/v1", "http://h:11434/api"]
)
async def test_ollama_url_normalized(base):
    provider = OLLAMA.model_copy(update={"base_url": base})
    _, transport = await run_batch(provider, {"message": {"content": "ok"}, "done": True})
    assert transport.requests[0].url == "http://h:11434/api/chat"


IMAGE_MESSAGE = Message.user(
    [TextPart(text="What is this?"), ImagePart(data="iVBORw0KGgo=", media_type="image/png")]
)


async def test_images_in_every_dialect():
    t = await ok_openai(messages=[IMAGE_MESSAGE], options=RequestOptions())
    parts = sent(t)["messages"][0]["content"]
    assert parts[1] == {
        "type": "image_url",
        "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="},
    }
    _, t = await run_batch(
        ANTHROPIC,
        {"content": [{"type": "text", "text": "ok"}], "stop_reason": "end_turn"},
        messages=[IMAGE_MESSAGE],
    )
    block = sent(t)["messages"][0]["content"][1]
    assert block == {
        "type": "image",
        "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="},
    }
    _, t = await run_batch(
        OLLAMA, {"message": {"content": "ok"}, "done": True}, messages=[IMAGE_MESSAGE]
    )
    assert sent(t)["messages"][0]["images"] == ["iVBORw0KGgo="]


class Plan(BaseModel):
    title: str
    steps: list[str]


async def test_structured_output_native_for_openai_prompt_for_anthropic():
    text = '```json\n{"title": "Site", "steps": ["a", "b"]}\n```'
    response, t = await run_batch(
        OPENAI,
        {"choices": [{"index": 0, "message": {"content": text}, "finish_reason": "stop"}]},
        options=RequestOptions(output_schema=Plan),
    )
    assert (
        sent(t)["response_format"]["json_schema"]["schema"]["properties"]["steps"]["type"]
        == "array"
    )
    assert response.output == Plan(title="Site", steps=["a", "b"]) and response.content == text
    response, t = await run_batch(
        ANTHROPIC,
        {
            "content": [{"type": "text", "text": 'Here: {"title": "S", "steps": []}'}],
            "stop_reason": "end_turn",
        },
        options=RequestOptions(output_schema=Plan),
    )
    assert "JSON schema" in json.dumps(sent(t)["system"])
    assert response.output == Plan(title="S", steps=[])


async def test_structured_output_invalid_keeps_content():
    response, _ = await run_batch(
        OPENAI,
        {
            "choices": [
                {"index": 0, "message": {"content": '{"title": 3}'}, "finish_reason": "stop"}
            ]
        },
        options=RequestOptions(output_schema=Plan),
    )
    assert response.output is None and "steps" in response.output_error
    assert response.content == '{"title": 3}'


async def test_stream_of_anthropic_with_thinking_budget():
    _, _, t = await run_stream(
        ANTHROPIC,
        anthropic_sse(a_start(), *a_text(0, "ok"), *a_end("end_turn")),
        options=RequestOptions(reasoning_budget=2048, temperature=0.5),
    )
    body = sent(t)
    assert body["thinking"] == {"type": "enabled", "budget_tokens": 2048}
    assert body["max_tokens"] > 2048 and "temperature" not in body  # Anthropic forbids both
