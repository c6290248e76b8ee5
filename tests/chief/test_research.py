"""Chief's web research: on only when the person turned it on for a provider that
can search; the reply's sources and server-tool blocks survive storage and go
back in the history unchanged."""

from __future__ import annotations

import json

from pydantic import SecretStr

from tests.sim import Simulator, Text, Turn, WebSearch
from wiggum.chief.chat import ChatRecord, ChiefChat, records_to_messages
from wiggum.chief.research import MAX_SEARCHES, research_options
from wiggum.llm import Citation, Message, ProviderConfig, RequestOptions
from wiggum.persist import MemoryAppStorage

ANTHROPIC = ProviderConfig(
    id="a", kind="anthropic", base_url="https://api.anthropic.com", model="claude", api_key="k"
)
OPENAI = ProviderConfig(id="o", kind="openai", base_url="https://api.openai.com/v1", model="m")


def test_off_unless_turned_on():
    assert research_options(ANTHROPIC, False) is None
    base = RequestOptions(max_tokens=10)
    assert research_options(ANTHROPIC, False, base) is base


def test_on_for_a_provider_that_searches_without_touching_the_callers_options():
    base = RequestOptions(max_tokens=10)
    got = research_options(ANTHROPIC, True, base)
    assert got.web_search == MAX_SEARCHES and got.max_tokens == 10
    assert base.web_search == 0


def test_never_for_a_provider_that_cannot_search():
    assert research_options(OPENAI, True) is None


# An Anthropic web-search reply's blocks (shape as in Anthropic's web search tool
# docs: server_tool_use, web_search_tool_result with encrypted_content, cited text).
BLOCKS = [
    {"type": "text", "text": "I'll look that up."},
    {
        "type": "server_tool_use",
        "id": "srvtoolu_01",
        "name": "web_search",
        "input": {"query": "colour of the year 2025"},
    },
    {
        "type": "web_search_tool_result",
        "tool_use_id": "srvtoolu_01",
        "content": [
            {
                "type": "web_search_result",
                "url": "https://www.pantone.com/color-of-the-year/2025",
                "title": "Pantone Color of the Year 2025",
                "encrypted_content": "EqgfCioIARgBIiQ3YTAwMjY1Mi1mZjM5",
                "page_age": "December 5, 2024",
            }
        ],
    },
    {
        "type": "text",
        "text": "It is Mocha Mousse.",
        "citations": [
            {
                "type": "web_search_result_location",
                "url": "https://www.pantone.com/color-of-the-year/2025",
                "title": "Pantone Color of the Year 2025",
                "encrypted_index": "Eo8BCioIAhgBIiQyYjQ0OWJmZi1lNm",
                "cited_text": "PANTONE 17-1230 Mocha Mousse",
            }
        ],
    },
]


def test_server_tool_blocks_and_sources_survive_storage_and_go_back_unchanged():
    reply = ChatRecord(
        seq=1,
        role="assistant",
        content="I'll look that up.It is Mocha Mousse.",
        citations=[Citation(url="https://www.pantone.com/color-of-the-year/2025", title="P")],
        provider_blocks=BLOCKS,
    )
    stored = ChatRecord.from_storage(reply.to_storage())
    assert stored.citations == reply.citations
    assert stored.provider_blocks == BLOCKS
    history = records_to_messages([ChatRecord(seq=0, role="user", content="hi"), stored])
    assert history[-1].provider_blocks == BLOCKS
    again = ChatRecord.from_message(history[-1], 1)
    assert again.provider_blocks == BLOCKS
    assert isinstance(history[0], Message)


# ---------------------------------------------------- over real HTTP, against the simulator

SOURCES = [
    ("https://www.pantone.com/color-of-the-year/2025", "Pantone Color of the Year 2025"),
    ("https://example.org/palettes", "Warm palettes for 2025"),
]


def search_turn() -> Turn:
    return Turn(
        Text("Let me look that up."),
        WebSearch("colour of the year 2025", SOURCES),
        Text("Pantone's colour for 2025 is Mocha Mousse, a warm brown.", citations=SOURCES),
    )


def anthropic(sim: Simulator) -> ProviderConfig:
    return ProviderConfig(
        id="sim-anthropic",
        kind="anthropic",
        base_url=sim.base_url,
        model="claude-sonnet-4-20250514",
        api_key=SecretStr("sk-ant-sim"),
    )


async def test_chief_searches_cites_and_sends_the_search_back(sim, transport):
    sim.script([search_turn(), Turn("Noted.")])
    storage = MemoryAppStorage()
    project = await storage.create_project("Test")
    chat = ChiefChat(storage, project["id"], transport=transport)
    await chat.load()
    p = anthropic(sim)
    reply = await chat.send("What's the colour of 2025?", p, options=research_options(p, True))
    assert reply.status == "complete", reply.error
    assert reply.content == (
        "Let me look that up.Pantone's colour for 2025 is Mocha Mousse, a warm brown."
    )
    assert [(c.url, c.title) for c in reply.citations] == SOURCES
    assert not reply.tool_calls and reply.finish_reason == "stop"
    tools = sim.chat_requests[-1].json["tools"]
    assert {"type": "web_search_20250305", "name": "web_search", "max_uses": MAX_SEARCHES} in tools
    # Reloaded, the reply still has its sources; the next turn (research off now)
    # sends the search blocks back as Anthropic wrote them, and no search tool.
    again = ChiefChat(storage, project["id"], transport=transport)
    searched = (await again.load())[-1]
    assert searched.citations == reply.citations
    assert len(searched.provider_blocks) == 4
    await again.send("Thanks", p)
    body = sim.chat_requests[-1].json
    assert not any(t.get("type", "").startswith("web_search") for t in body.get("tools", []))
    sent = next(m for m in body["messages"] if m["role"] == "assistant")["content"]
    assert [b["type"] for b in sent] == [
        "text",
        "server_tool_use",
        "web_search_tool_result",
        "text",
    ]
    for block in sent:
        block.pop("cache_control", None)  # the dialect marks the history for caching
    assert sent == searched.provider_blocks


async def test_without_the_setting_the_request_has_no_search(sim, transport):
    sim.script([Turn("Plain answer.")])
    storage = MemoryAppStorage()
    project = await storage.create_project("Test")
    chat = ChiefChat(storage, project["id"], transport=transport)
    await chat.load()
    p = anthropic(sim)
    await chat.send("Hi", p, options=research_options(p, False))
    assert "web_search" not in json.dumps(sim.chat_requests[-1].json.get("tools", []))
