"""Issue 18, point 4: Anthropic's server tools and whole tool blocks, on the wire.

Each transcript goes through ``stream()`` (whole, byte by byte, in small reads
and at random boundaries) and ``chat()`` by ``test_conformance``'s checks, and
the streamed reply must rebuild the same ``provider_blocks`` as the batch body.

Shapes: Anthropic's "Web search tool" documentation (docs.anthropic.com, tool-use
/ web-search-tool): a ``server_tool_use`` block named ``web_search`` whose
``{"query": …}`` streams as ``input_json_delta``, then a ``web_search_tool_result``
that arrives whole in ``content_block_start`` (``tool_use_id``, a list of
``web_search_result`` with ``url``, ``title``, ``encrypted_content``,
``page_age``), then text blocks whose ``citations`` stream as
``citations_delta`` (``web_search_result_location``); ``stop_reason`` is
``end_turn``; ``usage.server_tool_use.web_search_requests`` counts searches.
The same layout shows in public recorded fixtures of Anthropic streams (e.g.
Go and Rust gateways' tests of ``web_search_tool_result`` content_block_start).
"""

from __future__ import annotations

import json

import pytest

from tests.llm.test_conformance import Case, check_deltas, normalized
from tests.llm.wire import (
    ANTHROPIC,
    MODES,
    OPENAI,
    a_end,
    a_message,
    a_start,
    a_text,
    a_tool,
    anthropic_sse,
    run_batch,
    run_stream,
)
from wiggum.llm import FinishReason, Message, chat
from wiggum.llm.transport import ReplayResponse, ReplayTransport

QUERY = {"query": "2026 colour palette trends"}
RESULT = {
    "type": "web_search_tool_result",
    "tool_use_id": "srvtoolu_01",
    "content": [
        {
            "type": "web_search_result",
            "url": "https://example.com/palettes",
            "title": "Palettes of 2026",
            "encrypted_content": "EqQBCioIBxgCIiQ4",
            "page_age": "November 2, 2026",
        }
    ],
}
CITATION = {
    "type": "web_search_result_location",
    "url": "https://example.com/palettes",
    "title": "Palettes of 2026",
    "encrypted_index": "Eo8BCioIAhgB",
    "cited_text": "Warm earth tones lead 2026.",
}
SEARCH_USAGE = {
    "input_tokens": 20,
    "output_tokens": 9,
    "server_tool_use": {"web_search_requests": 1},
}


def server_tool_events(index: int) -> list[dict]:
    return [
        {
            "type": "content_block_start",
            "index": index,
            "content_block": {
                "type": "server_tool_use",
                "id": "srvtoolu_01",
                "name": "web_search",
                "input": {},
            },
        },
        {
            "type": "content_block_delta",
            "index": index,
            "delta": {"type": "input_json_delta", "partial_json": '{"query": "2026 colour'},
        },
        {
            "type": "content_block_delta",
            "index": index,
            "delta": {"type": "input_json_delta", "partial_json": ' palette trends"}'},
        },
        {"type": "content_block_stop", "index": index},
        {"type": "content_block_start", "index": index + 1, "content_block": RESULT},
        {"type": "content_block_stop", "index": index + 1},
    ]


def cited_text(index: int) -> list[dict]:
    return [
        {
            "type": "content_block_start",
            "index": index,
            "content_block": {"type": "text", "text": "", "citations": []},
        },
        {
            "type": "content_block_delta",
            "index": index,
            "delta": {"type": "citations_delta", "citation": CITATION},
        },
        {
            "type": "content_block_delta",
            "index": index,
            "delta": {"type": "text_delta", "text": "Warm earth tones"},
        },
        {
            "type": "content_block_delta",
            "index": index,
            "delta": {"type": "text_delta", "text": " lead."},
        },
        {"type": "content_block_stop", "index": index},
    ]


SEARCH_BLOCKS = [
    {"type": "text", "text": "I'll look that up."},
    {"type": "server_tool_use", "id": "srvtoolu_01", "name": "web_search", "input": QUERY},
    RESULT,
    {"type": "text", "text": "Warm earth tones lead.", "citations": [CITATION]},
]


def blocks_are(expected: list[dict]):
    def check(r) -> bool:
        assert r.provider_blocks == expected
        return True

    return check


CASES = [
    Case(
        "anthropic-web-search-end-turn",
        ANTHROPIC,
        anthropic_sse(
            a_start(),
            *a_text(0, "I'll look ", "that up."),
            *server_tool_events(1),
            *cited_text(3),
            # The stream's message_delta carries the search count too (Anthropic's
            # streaming docs, web search example), as the batch usage does.
            {
                "type": "message_delta",
                "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                "usage": {"output_tokens": 9, "server_tool_use": {"web_search_requests": 1}},
            },
            {"type": "message_stop"},
        ),
        a_message(SEARCH_BLOCKS, "end_turn", SEARCH_USAGE),
        content="I'll look that up.Warm earth tones lead.",
        # end_turn stays stop: the search was Anthropic's to run, not the tool loop's.
        finish=FinishReason.STOP,
        usage=(20, 9),
        check=blocks_are(SEARCH_BLOCKS),
    ),
    Case(
        "anthropic-web-search-then-client-tool",
        ANTHROPIC,
        anthropic_sse(
            a_start(),
            *server_tool_events(0),
            *a_tool(2, "toolu_w", "write_file", '{"path": "plan.md"}'),
            *a_end("tool_use"),
        ),
        a_message(
            [
                SEARCH_BLOCKS[1],
                RESULT,
                {
                    "type": "tool_use",
                    "id": "toolu_w",
                    "name": "write_file",
                    "input": {"path": "plan.md"},
                },
            ],
            "tool_use",
        ),
        finish=FinishReason.TOOL_CALLS,
        # Only the client tool reaches the tool loop.
        calls=[("write_file", {"path": "plan.md"})],
        usage=(20, 7),
        check=blocks_are(
            [
                SEARCH_BLOCKS[1],
                RESULT,
                {
                    "type": "tool_use",
                    "id": "toolu_w",
                    "name": "write_file",
                    "input": {"path": "plan.md"},
                },
            ]
        ),
    ),
    Case(
        "anthropic-pause-turn-after-search",
        ANTHROPIC,
        anthropic_sse(a_start(), *server_tool_events(0), *a_end("pause_turn")),
        a_message([SEARCH_BLOCKS[1], RESULT], "pause_turn"),
        finish=FinishReason.STOP,
        usage=(20, 7),
        check=blocks_are([SEARCH_BLOCKS[1], RESULT]),
    ),
    Case(
        # Arguments whole in content_block_start.content_block.input, no delta after.
        "anthropic-tool-input-whole-in-block-start",
        ANTHROPIC,
        anthropic_sse(
            a_start(),
            {
                "type": "content_block_start",
                "index": 0,
                "content_block": {
                    "type": "tool_use",
                    "id": "toolu_r",
                    "name": "read_file",
                    "input": {"path": "index.html"},
                },
            },
            {"type": "content_block_stop", "index": 0},
            *a_end("tool_use"),
        ),
        a_message(
            [
                {
                    "type": "tool_use",
                    "id": "toolu_r",
                    "name": "read_file",
                    "input": {"path": "index.html"},
                }
            ],
            "tool_use",
        ),
        finish=FinishReason.TOOL_CALLS,
        calls=[("read_file", {"path": "index.html"})],
        usage=(20, 7),
        check=lambda r: r.provider_blocks == [] and r.tool_calls[0].id == "toolu_r",
    ),
    Case(
        # Whole blocks already in message_start.message.content (proxies, replays).
        "anthropic-tool-use-in-message-start",
        ANTHROPIC,
        anthropic_sse(
            {
                **a_start(),
                "message": {
                    **a_start()["message"],
                    "content": [
                        {"type": "text", "text": "Reading it."},
                        {
                            "type": "tool_use",
                            "id": "toolu_m",
                            "name": "read_file",
                            "input": {"path": "a.txt"},
                        },
                    ],
                },
            },
            *a_end("tool_use"),
        ),
        a_message(
            [
                {"type": "text", "text": "Reading it."},
                {
                    "type": "tool_use",
                    "id": "toolu_m",
                    "name": "read_file",
                    "input": {"path": "a.txt"},
                },
            ],
            "tool_use",
        ),
        content="Reading it.",
        finish=FinishReason.TOOL_CALLS,
        calls=[("read_file", {"path": "a.txt"})],
        usage=(20, 7),
    ),
]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
async def test_transcript(case: Case, mode: str):
    for seed in range(3 if mode == "random" else 1):
        deltas, response, _ = await run_stream(case.provider, case.stream, mode, seed=seed)
        assert not isinstance(response, Exception), response
        assert response.content == case.content
        assert response.finish_reason == case.finish
        assert [(tc.name, tc.args) for tc in response.tool_calls] == case.calls
        assert (response.usage.prompt_tokens, response.usage.completion_tokens) == case.usage
        if case.check:
            assert case.check(response)
        check_deltas(deltas, response)
        batch, _ = await run_batch(case.provider, case.batch)
        assert normalized(batch, False) == normalized(response, False)


@pytest.mark.parametrize("how", ["stream", "chat"])
async def test_server_tool_blocks_go_back_unchanged(how: str):
    """History round-trip: the reply's blocks return to Anthropic as it sent them."""
    case = CASES[0]
    if how == "stream":
        _, reply, _ = await run_stream(ANTHROPIC, case.stream, "random", seed=1)
    else:
        reply, _ = await run_batch(ANTHROPIC, case.batch)
    history = [Message.user("What palettes are in?"), reply.to_message(), Message.user("More?")]
    transport = ReplayTransport(
        ReplayResponse(json.dumps(a_message([{"type": "text", "text": "ok"}], "end_turn")).encode())
    )
    await chat(ANTHROPIC, history, transport=transport)
    sent = json.loads(transport.requests[0].body)["messages"]
    assert [m["role"] for m in sent] == ["user", "assistant", "user"]
    # Wiggum's own prompt-cache breakpoint may sit on the last block; nothing else changes.
    for block in sent[1]["content"]:
        block.pop("cache_control", None)
    assert sent[1]["content"] == SEARCH_BLOCKS
    # The history itself is untouched by sending it.
    assert history[1].provider_blocks == SEARCH_BLOCKS


async def test_server_tool_blocks_never_reach_other_dialects():
    """Sent to an OpenAI-style provider, the same turn is its text alone."""
    reply, _ = await run_batch(ANTHROPIC, CASES[0].batch)
    history = [Message.user("q"), reply.to_message(), Message.user("more")]
    body = {
        "id": "c",
        "model": "gpt-4o",
        "choices": [{"index": 0, "message": {"content": "ok"}, "finish_reason": "stop"}],
    }
    transport = ReplayTransport(ReplayResponse(json.dumps(body).encode()))
    await chat(OPENAI, history, transport=transport)
    sent = json.loads(transport.requests[0].body)["messages"]
    assert sent[1] == {"role": "assistant", "content": "I'll look that up.Warm earth tones lead."}
