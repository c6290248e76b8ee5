"""Wire transcripts of all three dialects through ``stream()`` and ``chat()``.

Every transcript is replayed whole, one byte per read, in small reads and at
random boundaries; the streamed response must match the expectation, agree
with its own deltas, and equal the batch response to the same reply.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.llm.wire import (
    ANTHROPIC,
    MODES,
    OLLAMA,
    OPENAI,
    SSE,
    a_end,
    a_message,
    a_start,
    a_text,
    a_tool,
    anthropic_sse,
    chunk,
    ndjson,
    run_batch,
    run_stream,
    sse,
)
from wiggum.llm import (
    ContentDelta,
    ContextOverflowError,
    ErrorDelta,
    FinishDelta,
    FinishReason,
    ProviderError,
    ReasoningDelta,
    RequestOptions,
    ResponseAccumulator,
    StreamIncompleteError,
    ToolCallArgsDelta,
    ToolCallEndDelta,
    ToolCallStartDelta,
    UsageDelta,
    validate_tool_calls,
)
from wiggum.llm.transport import ReplayResponse


@dataclass
class Case:
    id: str
    provider: Any
    stream: bytes
    batch: dict | None = None
    content: str = ""
    reasoning: str | None = None
    finish: FinishReason = FinishReason.STOP
    calls: list[tuple[str, dict]] = field(default_factory=list)
    usage: tuple[int, int] | None = None
    #: The wire carries no tool-call ids: compare batch and stream without them.
    generated_ids: bool = False
    check: Any = None


def openai_message(message: dict, finish: str, usage: dict | None = None) -> dict:
    body = {
        "id": "chatcmpl-1",
        "model": "gpt-4o",
        "choices": [
            {"index": 0, "message": {"role": "assistant", **message}, "finish_reason": finish}
        ],
    }
    if usage:
        body["usage"] = usage
    return body


def check_run_together(r) -> bool:
    first, second = r.tool_calls
    # The first object is the named call's own: it keeps its id and may run.
    assert first.id == "call_1" and first.repaired and not first.parse_error
    assert not first.truncated and first.raw_args == '{"path":"a.txt"}{"path":"b.txt"}'
    # The second is kept, not dropped, but its name is a guess: it must not run.
    assert second.id.startswith("call_") and second.id != first.id
    assert second.repaired and second.parse_error and second.raw_args == '{"path":"b.txt"}'
    checked = validate_tool_calls(r.tool_calls)
    assert checked.valid == [first]
    assert [m.reason for m in checked.malformed] == ["run_together_arguments"]
    assert second.id in checked.malformed[0].message
    return True


USAGE = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
TC = "tool_calls"

OPENAI_CASES = [
    Case(
        "openai-text",
        OPENAI,
        sse(
            chunk({"role": "assistant", "content": ""}),
            chunk({"content": "Hel"}),
            chunk({"content": "lo \U0001f30d caf\u00e9"}),
            chunk({}, "stop"),
            {"id": "chatcmpl-1", "model": "gpt-4o", "choices": [], "usage": USAGE},
        ),
        openai_message({"content": "Hello \U0001f30d caf\u00e9"}, "stop", USAGE),
        content="Hello \U0001f30d caf\u00e9",
        usage=(10, 5),
    ),
    Case(
        "openai-reasoning_content",
        OPENAI,
        sse(
            chunk({"role": "assistant", "reasoning_content": "Let me"}),
            chunk({"reasoning_content": " think"}),
            chunk({"content": "4"}, "stop"),
        ),
        openai_message({"reasoning_content": "Let me think", "content": "4"}, "stop"),
        content="4",
        reasoning="Let me think",
    ),
    Case(
        "openrouter-reasoning-and-details-not-doubled",
        OPENAI,
        sse(
            chunk(
                {
                    "reasoning": "abc",
                    "reasoning_details": [{"type": "reasoning.text", "text": "abc"}],
                }
            ),
            chunk({"content": "x"}, "stop"),
        ),
        openai_message({"reasoning": "abc", "content": "x"}, "stop"),
        content="x",
        reasoning="abc",
    ),
    Case(
        "reasoning_details-only",
        OPENAI,
        sse(
            chunk({"reasoning_details": [{"type": "reasoning.text", "text": "de"}]}),
            chunk({"reasoning_details": [{"type": "reasoning.text", "text": "ep"}]}),
            chunk({"content": "y"}, "stop"),
        ),
        openai_message(
            {"reasoning_details": [{"type": "reasoning.text", "text": "deep"}], "content": "y"},
            "stop",
        ),
        content="y",
        reasoning="deep",
    ),
    Case(
        "think-tags-in-content",
        OPENAI,
        sse(
            chunk({"content": "<think>pl"}),
            chunk({"content": "an</think>\n\nAn"}),
            chunk({"content": "swer"}, "stop"),
        ),
        openai_message({"content": "<think>plan</think>\n\nAnswer"}, "stop"),
        content="Answer",
        reasoning="plan",
    ),
    Case(
        "parallel-tool-calls-interleaved",
        OPENAI,
        sse(
            chunk(
                {
                    "tool_calls": [
                        {
                            "index": 0,
                            "id": "call_a",
                            "type": "function",
                            "function": {"name": "read_file", "arguments": ""},
                        }
                    ]
                }
            ),
            chunk(
                {
                    "tool_calls": [
                        {
                            "index": 1,
                            "id": "call_b",
                            "type": "function",
                            "function": {"name": "list_files", "arguments": ""},
                        }
                    ]
                }
            ),
            chunk({"tool_calls": [{"index": 0, "function": {"arguments": '{"path":'}}]}),
            chunk({"tool_calls": [{"index": 1, "function": {"arguments": '{"path":"."}'}}]}),
            chunk({"tool_calls": [{"index": 0, "function": {"arguments": '"a.txt"}'}}]}),
            chunk({}, TC),
        ),
        openai_message(
            {
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_a",
                        "type": "function",
                        "function": {"name": "read_file", "arguments": '{"path":"a.txt"}'},
                    },
                    {
                        "id": "call_b",
                        "type": "function",
                        "function": {"name": "list_files", "arguments": '{"path":"."}'},
                    },
                ],
            },
            TC,
        ),
        finish=FinishReason.TOOL_CALLS,
        calls=[("read_file", {"path": "a.txt"}), ("list_files", {"path": "."})],
    ),
    Case(
        "finish-before-last-args-then-null",
        OPENAI,
        sse(
            chunk(
                {
                    "tool_calls": [
                        {
                            "index": 0,
                            "id": "call_1",
                            "function": {"name": "search", "arguments": '{"query":"test"'},
                        }
                    ]
                }
            ),
            chunk({"tool_calls": [{"index": 0, "function": {"arguments": ',"limit":10'}}]}, TC),
            chunk({"tool_calls": [{"index": 0, "function": {"arguments": "}"}}]}, None),
            chunk({"content": None}, None),
        ),
        openai_message(
            {
                "tool_calls": [
                    {
                        "id": "call_1",
                        "type": "function",
                        "function": {"name": "search", "arguments": '{"query":"test","limit":10}'},
                    }
                ]
            },
            TC,
        ),
        finish=FinishReason.TOOL_CALLS,
        calls=[("search", {"query": "test", "limit": 10})],
    ),
    Case(
        "gemini-no-index-empty-ids-stop",
        OPENAI,
        sse(
            chunk(
                {
                    "role": "assistant",
                    "tool_calls": [
                        {
                            "function": {"name": "read", "arguments": '{"path":"a"}'},
                            "id": "",
                            "type": "function",
                            "extra_content": {"google": {"thought_signature": "sig=="}},
                        },
                        {
                            "function": {"name": "read", "arguments": '{"path":"b"}'},
                            "id": "",
                            "type": "function",
                        },
                    ],
                },
                "stop",
            ),
        ),
        openai_message(
            {
                "tool_calls": [
                    {
                        "function": {"name": "read", "arguments": '{"path":"a"}'},
                        "id": "",
                        "type": "function",
                        "extra_content": {"google": {"thought_signature": "sig=="}},
                    },
                    {
                        "function": {"name": "read", "arguments": '{"path":"b"}'},
                        "id": "",
                        "type": "function",
                    },
                ]
            },
            "stop",
        ),
        finish=FinishReason.TOOL_CALLS,
        calls=[("read", {"path": "a"}), ("read", {"path": "b"})],
        generated_ids=True,
        check=lambda r: (
            r.tool_calls[0].provider_data
            == {"extra_content": {"google": {"thought_signature": "sig=="}}}
        ),
    ),
    Case(
        "proxy-reuses-index-0-for-second-call",
        OPENAI,
        sse(
            chunk(
                {
                    "tool_calls": [
                        {
                            "index": 0,
                            "id": "call_1",
                            "function": {"name": "a", "arguments": '{"x":1}'},
                        }
                    ]
                }
            ),
            chunk(
                {"tool_calls": [{"index": 0, "function": {"name": "b", "arguments": '{"y":2}'}}]}
            ),
            chunk({}, TC),
        ),
        None,
        finish=FinishReason.TOOL_CALLS,
        calls=[("a", {"x": 1}), ("b", {"y": 2})],
    ),
    Case(
        "proxy-runs-second-call-args-on-index-0-without-id-or-name",
        OPENAI,
        sse(
            chunk(
                {
                    "tool_calls": [
                        {
                            "index": 0,
                            "id": "call_1",
                            "function": {"name": "read_file", "arguments": '{"path":'},
                        }
                    ]
                }
            ),
            chunk({"tool_calls": [{"index": 0, "function": {"arguments": '"a.txt"}'}}]}),
            chunk({"tool_calls": [{"index": 0, "function": {"arguments": '{"path":"b.txt"}'}}]}),
            chunk({}, TC),
        ),
        openai_message(
            {
                "tool_calls": [
                    {
                        "id": "call_1",
                        "type": "function",
                        "function": {
                            "name": "read_file",
                            "arguments": '{"path":"a.txt"}{"path":"b.txt"}',
                        },
                    }
                ]
            },
            TC,
        ),
        finish=FinishReason.TOOL_CALLS,
        calls=[("read_file", {"path": "a.txt"}), ("read_file", {"path": "b.txt"})],
        generated_ids=True,  # the split-off call's id is minted per request
        check=lambda r: check_run_together(r),
    ),
    Case(
        "tool-call-starting-at-index-1-after-text",
        OPENAI,
        sse(
            chunk({"content": "Let me check."}),
            chunk(
                {
                    "tool_calls": [
                        {"index": 1, "id": "call_9", "function": {"name": "ls", "arguments": "{}"}}
                    ]
                }
            ),
            chunk({}, TC),
        ),
        openai_message(
            {
                "content": "Let me check.",
                "tool_calls": [
                    {
                        "id": "call_9",
                        "type": "function",
                        "function": {"name": "ls", "arguments": "{}"},
                    }
                ],
            },
            TC,
        ),
        content="Let me check.",
        finish=FinishReason.TOOL_CALLS,
        calls=[("ls", {})],
    ),
    Case(
        "null-and-empty-choices",
        OPENAI,
        sse(
            {"id": "chatcmpl-1", "model": "gpt-4o", "choices": None, "prompt_filter_results": []},
            {"id": "chatcmpl-1", "model": "gpt-4o", "choices": []},
            chunk({"content": "ok"}),
            chunk({}, "stop"),
            {"id": "chatcmpl-1", "model": "gpt-4o", "choices": [], "usage": USAGE},
        ),
        openai_message({"content": "ok"}, "stop", USAGE),
        content="ok",
        usage=(10, 5),
    ),
    Case(
        "comments-keepalives-no-space",
        OPENAI,
        sse(
            ": OPENROUTER PROCESSING\n\n",
            chunk({"content": "a"}),
            "data: : keepalive\n\n",
            'data:{"id":"chatcmpl-1","model":"gpt-4o","choices":[{"index":0,"delta":{"content":"b"}}]}\n\n',
            "data: this is not json\n\n",
            chunk({}, "stop"),
        ),
        openai_message({"content": "ab"}, "stop"),
        content="ab",
    ),
    Case(
        "empty-string-finish-then-done",
        OPENAI,
        sse(chunk({"content": "ok"}, "")),
        None,
        content="ok",
    ),
    Case(
        "length-cuts-tool-arguments",
        OPENAI,
        sse(
            chunk(
                {
                    "tool_calls": [
                        {
                            "index": 0,
                            "id": "call_w",
                            "function": {
                                "name": "write_file",
                                "arguments": '{"path":"a.html","content":"<html><bo',
                            },
                        }
                    ]
                }
            ),
            chunk({}, "length"),
        ),
        openai_message(
            {
                "tool_calls": [
                    {
                        "id": "call_w",
                        "type": "function",
                        "function": {
                            "name": "write_file",
                            "arguments": '{"path":"a.html","content":"<html><bo',
                        },
                    }
                ]
            },
            "length",
        ),
        finish=FinishReason.LENGTH,
        calls=[("write_file", {"path": "a.html", "content": "<html><bo"})],
        check=lambda r: (
            r.tool_calls[0].truncated
            and r.tool_calls[0].repaired
            and validate_tool_calls(r.tool_calls).malformed[0].reason == "truncated_arguments"
        ),
    ),
    Case(
        "legacy-function-call",
        OPENAI,
        sse(
            chunk({"function_call": {"name": "ls", "arguments": '{"pa'}}),
            chunk({"function_call": {"arguments": 'th":"."}'}}),
            chunk({}, "function_call"),
        ),
        openai_message(
            {"function_call": {"name": "ls", "arguments": '{"path":"."}'}}, "function_call"
        ),
        finish=FinishReason.TOOL_CALLS,
        calls=[("ls", {"path": "."})],
        generated_ids=True,
    ),
]


ANTHROPIC_CASES = [
    Case(
        "anthropic-text",
        ANTHROPIC,
        anthropic_sse(
            a_start(), {"type": "ping"}, *a_text(0, "Hel", "lo \U0001f30d"), *a_end("end_turn")
        ),
        a_message([{"type": "text", "text": "Hello \U0001f30d"}], "end_turn"),
        content="Hello \U0001f30d",
        usage=(20, 7),
    ),
    Case(
        "anthropic-thinking-signature-tool-use",
        ANTHROPIC,
        anthropic_sse(
            a_start(),
            {
                "type": "content_block_start",
                "index": 0,
                "content_block": {"type": "thinking", "thinking": "", "signature": ""},
            },
            {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "thinking_delta", "thinking": "I should "},
            },
            {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "thinking_delta", "thinking": "read it"},
            },
            {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "signature_delta", "signature": "EqQBCgIYAhIM"},
            },
            {"type": "content_block_stop", "index": 0},
            *a_text(1, "Reading."),
            *a_tool(2, "toolu_1", "read_file", '{"path": ', '"index.html"}'),
            *a_end("tool_use"),
        ),
        a_message(
            [
                {"type": "thinking", "thinking": "I should read it", "signature": "EqQBCgIYAhIM"},
                {"type": "text", "text": "Reading."},
                {
                    "type": "tool_use",
                    "id": "toolu_1",
                    "name": "read_file",
                    "input": {"path": "index.html"},
                },
            ],
            "tool_use",
        ),
        content="Reading.",
        reasoning="I should read it",
        finish=FinishReason.TOOL_CALLS,
        calls=[("read_file", {"path": "index.html"})],
        usage=(20, 7),
        check=lambda r: (
            r.thinking[0].signature == "EqQBCgIYAhIM" and r.thinking[0].text == "I should read it"
        ),
    ),
    Case(
        "anthropic-parallel-tool-use-and-empty-input",
        ANTHROPIC,
        anthropic_sse(
            a_start(),
            *a_tool(0, "toolu_a", "list_files"),
            *a_tool(1, "toolu_b", "read_file", '{"pa', 'th": "a"}'),
            *a_end("tool_use"),
        ),
        a_message(
            [
                {"type": "tool_use", "id": "toolu_a", "name": "list_files", "input": {}},
                {"type": "tool_use", "id": "toolu_b", "name": "read_file", "input": {"path": "a"}},
            ],
            "tool_use",
        ),
        finish=FinishReason.TOOL_CALLS,
        calls=[("list_files", {}), ("read_file", {"path": "a"})],
        usage=(20, 7),
    ),
    Case(
        "anthropic-cache-usage-and-max-tokens",
        ANTHROPIC,
        anthropic_sse(
            a_start(
                {
                    "input_tokens": 5,
                    "cache_read_input_tokens": 100,
                    "cache_creation_input_tokens": 10,
                    "output_tokens": 1,
                }
            ),
            *a_text(0, "cut"),
            *a_end("max_tokens", 3),
        ),
        a_message(
            [{"type": "text", "text": "cut"}],
            "max_tokens",
            {
                "input_tokens": 5,
                "cache_read_input_tokens": 100,
                "cache_creation_input_tokens": 10,
                "output_tokens": 3,
            },
        ),
        content="cut",
        finish=FinishReason.LENGTH,
        usage=(115, 3),
        check=lambda r: r.usage.cache_read_tokens == 100 and r.usage.cache_write_tokens == 10,
    ),
]


def o_line(content: str = "", thinking: str | None = None, **extra) -> dict:
    message: dict = {"role": "assistant", "content": content}
    if thinking is not None:
        message["thinking"] = thinking
    return {
        "model": "qwen3:8b",
        "created_at": "2026-11-22T00:00:00Z",
        "message": message,
        "done": False,
        **extra,
    }


def o_done(reason: str = "stop", **message) -> dict:
    return {
        "model": "qwen3:8b",
        "created_at": "2026-11-22T00:00:01Z",
        "message": {"role": "assistant", "content": "", **message},
        "done": True,
        "done_reason": reason,
        "prompt_eval_count": 12,
        "eval_count": 3,
    }


OLLAMA_CALLS = [
    {"function": {"name": "get_weather", "arguments": {"city": "Paris", "units": "c"}}},
    {"function": {"name": "read_file", "arguments": {"path": "a.txt"}}},
]

OLLAMA_CASES = [
    Case(
        "ollama-text",
        OLLAMA,
        ndjson(o_line("Hel"), o_line("lo \u00e9"), o_done()),
        o_done(content="Hello \u00e9"),
        content="Hello \u00e9",
        usage=(12, 3),
    ),
    Case(
        "ollama-thinking",
        OLLAMA,
        ndjson(o_line(thinking="Let me"), o_line(thinking=" think"), o_line("42"), o_done()),
        o_done(content="42", thinking="Let me think"),
        content="42",
        reasoning="Let me think",
        usage=(12, 3),
    ),
    Case(
        "ollama-tool-calls-dict-arguments",
        OLLAMA,
        ndjson(
            o_line(tool_calls=None)
            | {"message": {"role": "assistant", "content": "", "tool_calls": OLLAMA_CALLS}},
            o_done(),
        ),
        o_done(tool_calls=OLLAMA_CALLS),
        finish=FinishReason.TOOL_CALLS,
        calls=[("get_weather", {"city": "Paris", "units": "c"}), ("read_file", {"path": "a.txt"})],
        usage=(12, 3),
        generated_ids=True,
    ),
    Case(
        "ollama-length",
        OLLAMA,
        ndjson(o_line("trunc"), o_done("length")),
        o_done("length", content="trunc"),
        content="trunc",
        finish=FinishReason.LENGTH,
        usage=(12, 3),
    ),
]

CASES = OPENAI_CASES + ANTHROPIC_CASES + OLLAMA_CASES


def normalized(response, generated_ids: bool) -> dict:
    # ``raw`` is the whole body in batch and a summary of a stream (test_raw_*).
    data = response.model_dump(exclude={"raw"})
    if generated_ids:
        for i, tc in enumerate(data["tool_calls"]):
            assert tc["id"], "every tool call gets an id"
            tc["id"] = i
    return data


def check_deltas(deltas, response) -> None:
    content = "".join(d.text for d in deltas if isinstance(d, ContentDelta))
    reasoning = "".join(d.text for d in deltas if isinstance(d, ReasoningDelta))
    assert content.strip() == response.content.strip()
    assert (reasoning or None) == (response.reasoning or None) or reasoning.strip() == (
        response.reasoning or ""
    ).strip()
    starts = [d for d in deltas if isinstance(d, ToolCallStartDelta)]
    ends = [d.index for d in deltas if isinstance(d, ToolCallEndDelta)]
    assert [(s.name) for s in starts] == [tc.name for tc in response.tool_calls]
    assert sorted(ends) == [s.index for s in starts]
    for start, tc in zip(starts, response.tool_calls, strict=True):
        args = "".join(
            d.args for d in deltas if isinstance(d, ToolCallArgsDelta) and d.index == start.index
        )
        # Anthropic's arguments travel back as objects, so raw_args is their
        # canonical rendering; the deltas are the wire text of the same object.
        assert args == tc.raw_args or json.loads(args) == tc.args
        assert start.id == tc.id
    # The finish delta is last, after every other delta; usage comes just before it.
    assert isinstance(deltas[-1], FinishDelta) and deltas[-1].reason == response.finish_reason
    usage = [d for d in deltas if isinstance(d, UsageDelta)]
    assert (usage[-1].data if usage else None) == response.usage


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
async def test_transcript(case: Case, mode: str):
    for seed in range(3 if mode == "random" else 1):
        deltas, response, _ = await run_stream(case.provider, case.stream, mode, seed=seed)
        assert not isinstance(response, Exception), response
        assert response.content == case.content
        assert response.reasoning == case.reasoning
        assert response.finish_reason == case.finish
        assert [(tc.name, tc.args) for tc in response.tool_calls] == case.calls
        if case.usage:
            assert (response.usage.prompt_tokens, response.usage.completion_tokens) == case.usage
        if case.check:
            assert case.check(response)
        check_deltas(deltas, response)
        if case.batch is not None:
            batch, _ = await run_batch(case.provider, case.batch)
            assert normalized(batch, case.generated_ids) == normalized(response, case.generated_ids)


RAW_CASES = {c.id: c for c in CASES if c.id in ("openai-text", "anthropic-text", "ollama-text")}
LAST_EVENTS = {
    "openai-text": {"id": "chatcmpl-1", "model": "gpt-4o", "choices": [], "usage": USAGE},
    "anthropic-text": {"type": "message_stop"},
    "ollama-text": o_done(),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case", RAW_CASES.values(), ids=list(RAW_CASES))
async def test_raw_is_the_batch_body_and_a_bounded_stream_summary(case: Case, mode: str):
    batch, _ = await run_batch(case.provider, case.batch)
    assert batch.raw == case.batch
    _, response, _ = await run_stream(case.provider, case.stream, mode)
    ids = {"openai": "chatcmpl-1", "anthropic": "msg_1"}
    summary = {"id": ids[case.provider.kind]} if case.provider.kind in ids else {}
    summary |= {"model": case.provider.model, "last_event": LAST_EVENTS[case.id]}
    assert response.raw == summary
    assert "raw" not in repr(response) and "raw" not in repr(batch)


async def test_raw_never_holds_the_key_or_header_secrets():
    key, header = "sk-ECHOED-KEY-5521", "hdr-ECHOED-VALUE-8812"
    provider = OPENAI.model_copy(update={"api_key": key, "headers": {"X-Org": header}})
    echo = {"note": f"Bearer {key}", "list": [{"h": header}], key: 1}
    batch, _ = await run_batch(provider, {**openai_message({"content": "ok"}, "stop"), **echo})
    body = sse(chunk({"content": "ok"}, "stop"), {**chunk({}), **echo})
    _, streamed, _ = await run_stream(provider, body, "bytes")
    for response in (batch, streamed):
        text = json.dumps(response.raw)
        assert key not in text and header not in text
        assert "Bearer **********" in text
    assert batch.raw["choices"][0]["message"]["content"] == "ok"  # the rest is untouched


def test_run_together_arguments_cut_off_run_nothing():
    # Identical repeats are dropped; a cut-off last object makes every call
    # from that slot truncated, since the text as a whole was cut.
    acc = ResponseAccumulator(emit=True)
    acc.tool_call(index=0, id="c", name="w", args='{"a":1}{"b":2}{"a":1}{"c":')
    acc.finish("tool_calls")
    acc.end()
    deltas = acc.closing_deltas()
    response = acc.finalize()
    assert [tc.args for tc in response.tool_calls] == [{"a": 1}, {"b": 2}, {}]
    assert len({tc.id for tc in response.tool_calls}) == 3
    assert all(tc.truncated and tc.repaired for tc in response.tool_calls)
    assert validate_tool_calls(response.tool_calls).valid == []
    starts = [(d.index, d.id) for d in deltas if isinstance(d, ToolCallStartDelta)]
    assert starts == [(i, tc.id) for i, tc in enumerate(response.tool_calls)]
    assert [d.index for d in deltas if isinstance(d, ToolCallEndDelta)] == [0, 1, 2]
    assert acc.finalize().tool_calls[1].id == response.tool_calls[1].id  # split once


async def no_sleep(_seconds: float) -> None:
    return None


@pytest.mark.parametrize("mode", ["whole", "bytes", "random"])
async def test_openrouter_error_in_200_stream_before_content_is_retried(mode):
    error = sse(
        ": OPENROUTER PROCESSING\n\n",
        {
            "id": "gen-1",
            "choices": [{"index": 0, "delta": {}, "finish_reason": "error"}],
            "error": {"message": "Upstream overloaded", "code": 502},
        },
        done=False,
    )
    ok = sse(chunk({"content": "fine"}, "stop"))
    deltas, response, transport = await run_stream(
        OPENAI,
        ok,
        mode,
        options=RequestOptions(sleep=no_sleep),
        extra=[ReplayResponse([error], 200, SSE)],
    )
    assert response.content == "fine"
    assert len(transport.requests) == 2
    assert not any(isinstance(d, ErrorDelta) for d in deltas)


@pytest.mark.parametrize("mode", ["whole", "bytes"])
async def test_error_in_stream_after_content_keeps_partial(mode):
    body = sse(
        chunk({"content": "Half an ans"}),
        {
            "id": "gen-1",
            "choices": [{"index": 0, "delta": {}, "finish_reason": "error"}],
            "error": {"message": "Upstream died", "code": 502},
        },
        done=False,
    )
    deltas, error, transport = await run_stream(
        OPENAI, body, mode, options=RequestOptions(sleep=no_sleep)
    )
    assert isinstance(error, ProviderError) and error.in_stream and error.status == 502
    assert error.partial.content == "Half an ans"
    assert isinstance(deltas[-1], ErrorDelta) and deltas[-1].error is error
    assert len(transport.requests) == 1  # content was delivered: no silent retry


@pytest.mark.parametrize("mode", ["whole", "bytes"])
async def test_anthropic_error_event(mode):
    overloaded = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    before = anthropic_sse(a_start(), overloaded)
    ok = anthropic_sse(a_start(), *a_text(0, "ok"), *a_end("end_turn"))
    _, response, transport = await run_stream(
        ANTHROPIC,
        ok,
        mode,
        options=RequestOptions(sleep=no_sleep),
        extra=[ReplayResponse([before], 200, SSE)],
    )
    assert response.content == "ok" and len(transport.requests) == 2
    after = anthropic_sse(a_start(), *a_text(0, "par"), overloaded)
    _deltas, error, transport = await run_stream(
        ANTHROPIC, after, mode, options=RequestOptions(sleep=no_sleep)
    )
    assert isinstance(error, ProviderError) and error.error_type == "overloaded_error"
    assert error.partial.content == "par" and len(transport.requests) == 1


OPENROUTER_OVERFLOW = sse(
    ": OPENROUTER PROCESSING\n\n",
    {
        "id": "gen-1",
        "model": "openai/gpt-4o",
        "choices": [{"index": 0, "delta": {}, "finish_reason": "error"}],
        "error": {
            "code": 400,
            "message": "This endpoint's maximum context length is 128000 tokens. However, you "
            "requested about 131072 tokens (131072 of text input). Please reduce the length "
            'of either one, or use the "middle-out" transform to compress your prompt '
            "automatically.",
        },
    },
    done=False,
)
ANTHROPIC_OVERFLOW = anthropic_sse(
    a_start(),
    {
        "type": "error",
        "error": {
            "type": "invalid_request_error",
            "message": "prompt is too long: 210345 tokens > 200000 maximum",
        },
    },
)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    "provider,body,numbers",
    [
        (OPENAI, OPENROUTER_OVERFLOW, (131072, 128000)),
        (ANTHROPIC, ANTHROPIC_OVERFLOW, (210345, 200000)),
    ],
    ids=["openrouter-error-chunk", "anthropic-error-event"],
)
async def test_context_overflow_inside_a_200_stream(provider, body, numbers, mode):
    for seed in range(3 if mode == "random" else 1):
        deltas, error, transport = await run_stream(
            provider, body, mode, options=RequestOptions(sleep=no_sleep), seed=seed
        )
        # The same error an HTTP 400 saying it gets: no retry, the numbers kept.
        assert isinstance(error, ContextOverflowError) and not isinstance(error, ProviderError)
        assert error.source == "provider" and not error.retryable
        assert (error.estimated_tokens, error.context_window) == numbers
        assert isinstance(deltas[-1], ErrorDelta) and deltas[-1].error is error
        assert len(transport.requests) == 1


async def test_context_overflow_in_a_200_body_through_chat():
    openrouter = {
        "id": "gen-1",
        "error": {"code": 400, "message": "This endpoint's maximum context length is 8192 tokens"},
    }
    anthropic = {
        "type": "error",
        "error": {"type": "invalid_request_error", "message": "prompt is too long: 9 > 8"},
    }
    for provider, body in ((OPENAI, openrouter), (ANTHROPIC, anthropic)):
        with pytest.raises(ContextOverflowError) as info:
            await run_batch(provider, body)
        assert info.value.source == "provider"
    with pytest.raises(ContextOverflowError):
        # OpenAI's own spelling, a code and no status.
        await run_batch(
            OPENAI,
            {"error": {"code": "context_length_exceeded", "message": "Too long.", "type": None}},
        )


async def test_other_in_stream_errors_stay_provider_errors():
    # "exceeds the maximum" alone, from a 429, is not a context overflow.
    body = sse(
        {"error": {"code": 429, "message": "Request rate exceeds the maximum for this key"}},
        done=False,
    )
    _, error, _ = await run_stream(
        OPENAI, body, options=RequestOptions(sleep=no_sleep, max_retries=0)
    )
    assert isinstance(error, ProviderError) and error.status == 429


async def test_ollama_error_line():
    body = ndjson(o_line("par"), {"error": "model runner has unexpectedly stopped"})
    _deltas, error, _ = await run_stream(
        OLLAMA, body, "bytes", options=RequestOptions(sleep=no_sleep)
    )
    assert isinstance(error, ProviderError) and "unexpectedly stopped" in error.detail
    assert error.partial.content == "par"
    body = ndjson({"error": "the input length exceeds the context length"})
    _deltas, error, _ = await run_stream(OLLAMA, body, options=RequestOptions(sleep=no_sleep))
    assert isinstance(error, ContextOverflowError) and error.source == "provider"


@pytest.mark.parametrize("mode", ["whole", "bytes", "random"])
@pytest.mark.parametrize(
    "provider,body",
    [
        (OPENAI, sse(chunk({"content": "Hel"}), chunk({"content": "lo"}), done=False)),
        (ANTHROPIC, anthropic_sse(a_start(), *a_text(0, "Hel", "lo"))),
        (OLLAMA, ndjson(o_line("Hel"), o_line("lo"))),
    ],
    ids=["openai", "anthropic", "ollama"],
)
async def test_stream_without_end_is_incomplete_with_partial(provider, body, mode):
    deltas, error, transport = await run_stream(
        provider, body, mode, options=RequestOptions(sleep=no_sleep)
    )
    assert isinstance(error, StreamIncompleteError)
    assert error.partial.content == "Hello"
    assert not error.retryable and len(transport.requests) == 1
    assert isinstance(deltas[-1], ErrorDelta)


async def test_incomplete_before_any_content_is_retried():
    empty = sse(chunk({"role": "assistant"}), done=False)
    ok = sse(chunk({"content": "ok"}, "stop"))
    _, response, transport = await run_stream(
        OPENAI,
        ok,
        options=RequestOptions(sleep=no_sleep),
        extra=[ReplayResponse([empty], 200, SSE)],
    )
    assert response.content == "ok" and len(transport.requests) == 2


async def test_truncated_stream_never_passes_tool_calls_off_as_complete():
    # The arguments happen to parse, but the stream broke before any finish.
    body = sse(
        chunk(
            {
                "tool_calls": [
                    {
                        "index": 0,
                        "id": "c",
                        "function": {"name": "search", "arguments": '{"query":"test"}'},
                    }
                ]
            }
        ),
        done=False,
    )
    _, error, _ = await run_stream(OPENAI, body, options=RequestOptions(sleep=no_sleep))
    assert isinstance(error, StreamIncompleteError)
    assert error.partial.tool_calls[0].truncated


@pytest.mark.parametrize("newline", ["\r\n", "\r"], ids=["CRLF", "CR"])
@pytest.mark.parametrize("mode", ["bytes", "random"])
async def test_line_endings(newline, mode):
    for case in (CASES[0], ANTHROPIC_CASES[1]):
        body = case.stream.replace(b"\n", newline.encode())
        _, response, _ = await run_stream(case.provider, body, mode)
        assert response.content == case.content
        assert [(tc.name, tc.args) for tc in response.tool_calls] == case.calls


def test_transcripts_are_valid_json_lines():
    # Guards the fixtures themselves: every data line of every transcript parses,
    # except the deliberate garbage lines.
    for case in CASES:
        for line in case.stream.split(b"\n"):
            if line.startswith(b"data: {") or line.startswith(b"{"):
                json.loads(line.removeprefix(b"data: "))
