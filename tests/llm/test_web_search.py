"""``RequestOptions.web_search``: the request carries server-side search only when
asked and only where the provider has it; cited sources come back as
``LLMResponse.citations`` through ``stream()`` and ``chat()`` alike."""

from __future__ import annotations

import json

import pytest

from tests.llm.wire import MODES, OPENAI, chunk, run_batch, run_stream, sse
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
