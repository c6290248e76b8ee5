"""``RequestOptions.web_search``: the request carries server-side search only when
asked and only where the provider has it; cited sources come back as
``LLMResponse.citations`` through ``stream()`` and ``chat()`` alike."""

from __future__ import annotations

import json

import pytest

from tests.llm.wire import (
    ANTHROPIC,
    MODES,
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
from wiggum.llm import Citation, ProviderConfig, RequestOptions, web_search_supported

OPENROUTER = ProviderConfig(
    id="or",
    kind="openai",
    base_url="https://openrouter.ai/api/v1",
    model="anthropic/claude-sonnet-4",
    api_key="sk-or-t",
)

# OpenRouter's web plugin answers with OpenAI-style url_citation annotations on the
# message (OpenRouter docs, "Web Search": message.annotations[] of
# {"type": "url_citation", "url_citation": {url, title, content, start_index, end_index}}).
NOTES = [
    {
        "type": "url_citation",
        "url_citation": {
            "url": "https://www.pantone.com/color-of-the-year/2025",
            "title": "Pantone Color of the Year 2025: Mocha Mousse",
            "content": "PANTONE 17-1230 Mocha Mousse",
            "start_index": 0,
            "end_index": 12,
        },
    },
    {
        "type": "url_citation",
        "url_citation": {
            "url": "https://www.pantone.com/color-of-the-year/2025",
            "title": "duplicate of the first",
        },
    },
    {"type": "url_citation", "url_citation": {"url": "https://example.org/trends"}},
]
TEXT = "Mocha Mousse is 2025's colour."
CITED = [
    Citation(
        url="https://www.pantone.com/color-of-the-year/2025",
        title="Pantone Color of the Year 2025: Mocha Mousse",
    ),
    Citation(url="https://example.org/trends", title=""),
]


def body_of(transport) -> dict:
    return json.loads(transport.requests[-1].body)


async def test_openrouter_gets_the_web_plugin_only_when_asked():
    _, _, plain = await run_stream(OPENROUTER, sse(chunk({"content": "x"}, "stop")))
    assert "plugins" not in body_of(plain)
    options = RequestOptions(web_search=3)
    _, _, searching = await run_stream(
        OPENROUTER, sse(chunk({"content": "x"}, "stop")), options=options
    )
    assert body_of(searching)["plugins"] == [{"id": "web", "max_results": 3}]


async def test_openai_direct_never_gets_it():
    assert not web_search_supported(OPENAI)
    _, _, t = await run_stream(
        OPENAI, sse(chunk({"content": "x"}, "stop")), options=RequestOptions(web_search=3)
    )
    assert "plugins" not in body_of(t) and "web_search" not in json.dumps(body_of(t))


def test_which_providers_search():
    assert web_search_supported(OPENROUTER)
    anthropic = OPENAI.model_copy(update={"kind": "anthropic"})
    assert web_search_supported(anthropic)
    ollama = OPENAI.model_copy(update={"kind": "ollama"})
    assert not web_search_supported(ollama)


@pytest.mark.parametrize("mode", MODES)
async def test_url_citations_become_citations(mode):
    stream = sse(
        chunk({"role": "assistant", "content": TEXT[:10]}),
        chunk({"content": TEXT[10:], "annotations": NOTES[:2]}),
        chunk({"annotations": NOTES[2:]}, "stop"),
    )
    _, streamed, _ = await run_stream(OPENROUTER, stream, mode)
    batch, _ = await run_batch(
        OPENROUTER,
        {
            "id": "gen-1",
            "model": "anthropic/claude-sonnet-4",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": TEXT, "annotations": NOTES},
                    "finish_reason": "stop",
                }
            ],
        },
    )
    for r in (streamed, batch):
        assert r.content == TEXT
        assert r.citations == CITED


# ---------------------------------------------------------------- Anthropic web search

# Shapes from Anthropic's web search tool docs ("Response" and "Streaming"): a
# server_tool_use block whose query streams as input_json_delta, a
# web_search_tool_result block arriving whole in content_block_start, then text whose
# citations come as citations_delta events (web_search_result_location); usage counts
# server_tool_use.web_search_requests.
PANTONE = "https://www.pantone.com/color-of-the-year/2025"
RESULT = {
    "type": "web_search_tool_result",
    "tool_use_id": "srvtoolu_01WYG3ziw53XMcoyKL4XcZmE",
    "content": [
        {
            "type": "web_search_result",
            "title": "Pantone Color of the Year 2025",
            "url": PANTONE,
            "encrypted_content": "EqgfCioIARgBIiQ3YTAwMjY1Mi1mZjM5",
            "page_age": "December 5, 2024",
        }
    ],
}
CITATION = {
    "type": "web_search_result_location",
    "url": PANTONE,
    "title": "Pantone Color of the Year 2025",
    "encrypted_index": "Eo8BCioIAhgBIiQyYjQ0OWJmZi1lNm",
    "cited_text": "PANTONE 17-1230 Mocha Mousse",
}
SEARCH_USAGE = {
    "input_tokens": 6039,
    "output_tokens": 931,
    "server_tool_use": {"web_search_requests": 1},
}


def anthropic_search_stream() -> bytes:

    q = '{"query": "colour of the year 2025"}'
    events = [
        a_start(),
        *[
            {
                "type": "content_block_start",
                "index": 0,
                "content_block": {"type": "text", "text": ""},
            },
            {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "text_delta", "text": "Let me check."},
            },
            {"type": "content_block_stop", "index": 0},
            {
                "type": "content_block_start",
                "index": 1,
                "content_block": {
                    "type": "server_tool_use",
                    "id": "srvtoolu_01WYG3ziw53XMcoyKL4XcZmE",
                    "name": "web_search",
                    "input": {},
                },
            },
            {
                "type": "content_block_delta",
                "index": 1,
                "delta": {"type": "input_json_delta", "partial_json": q[:10]},
            },
            {
                "type": "content_block_delta",
                "index": 1,
                "delta": {"type": "input_json_delta", "partial_json": q[10:]},
            },
            {"type": "content_block_stop", "index": 1},
            {"type": "content_block_start", "index": 2, "content_block": RESULT},
            {"type": "content_block_stop", "index": 2},
            {
                "type": "content_block_start",
                "index": 3,
                "content_block": {"type": "text", "text": ""},
            },
            {
                "type": "content_block_delta",
                "index": 3,
                "delta": {"type": "citations_delta", "citation": CITATION},
            },
            {
                "type": "content_block_delta",
                "index": 3,
                "delta": {"type": "text_delta", "text": "It is Mocha Mousse."},
            },
            {"type": "content_block_stop", "index": 3},
        ],
        {
            "type": "message_delta",
            "delta": {"stop_reason": "end_turn", "stop_sequence": None},
            "usage": SEARCH_USAGE,
        },
        {"type": "message_stop"},
    ]
    return anthropic_sse(*events)


ANTHROPIC_SEARCH_BODY = {
    "id": "msg_1",
    "type": "message",
    "role": "assistant",
    "model": "claude-sonnet-4-20250514",
    "content": [
        {"type": "text", "text": "Let me check."},
        {
            "type": "server_tool_use",
            "id": "srvtoolu_01WYG3ziw53XMcoyKL4XcZmE",
            "name": "web_search",
            "input": {"query": "colour of the year 2025"},
        },
        RESULT,
        {"type": "text", "text": "It is Mocha Mousse.", "citations": [CITATION]},
    ],
    "stop_reason": "end_turn",
    "usage": SEARCH_USAGE,
}


@pytest.mark.parametrize("mode", MODES)
async def test_anthropic_web_search_reply_cites_its_sources(mode):

    options = RequestOptions(web_search=2)
    for seed in range(3 if mode == "random" else 1):
        _, streamed, t = await run_stream(
            ANTHROPIC, anthropic_search_stream(), mode, options=options, seed=seed
        )
        assert body_of(t)["tools"] == [
            {"type": "web_search_20250305", "name": "web_search", "max_uses": 2}
        ]
        batch, _ = await run_batch(ANTHROPIC, ANTHROPIC_SEARCH_BODY, options=options)
        for r in (streamed, batch):
            assert r.content == "Let me check.It is Mocha Mousse."
            assert r.citations == [Citation(url=PANTONE, title="Pantone Color of the Year 2025")]
            assert not r.tool_calls and str(r.finish_reason) == "stop"
            assert [b["type"] for b in r.provider_blocks] == [
                "text",
                "server_tool_use",
                "web_search_tool_result",
                "text",
            ]
        assert streamed.provider_blocks == batch.provider_blocks


async def test_anthropic_without_the_setting_carries_no_server_tool():

    _, _, t = await run_stream(
        ANTHROPIC, anthropic_sse(a_start(), *a_text(0, "x"), *a_end("end_turn"))
    )
    assert "tools" not in body_of(t)


async def test_searches_are_counted_and_billed():
    from wiggum.llm.cost import WEB_SEARCH_PRICE, calculate_cost

    batch, _ = await run_batch(
        ANTHROPIC, ANTHROPIC_SEARCH_BODY, options=RequestOptions(web_search=2)
    )
    _, streamed, _ = await run_stream(
        ANTHROPIC, anthropic_search_stream(), options=RequestOptions(web_search=2)
    )
    for r in (batch, streamed):
        assert r.usage.web_search_requests == 1
        tokens_only = r.usage.model_copy(update={"web_search_requests": None})
        model = ANTHROPIC.model
        assert calculate_cost(model, r.usage) == pytest.approx(
            calculate_cost(model, tokens_only) + WEB_SEARCH_PRICE
        )
