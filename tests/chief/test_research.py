"""Chief's web research: on only when the person turned it on for a provider that
can search; the reply's sources and server-tool blocks survive storage and go
back in the history unchanged."""

from __future__ import annotations

from wiggum.chief.chat import ChatRecord, records_to_messages
from wiggum.chief.research import MAX_SEARCHES, research_options
from wiggum.llm import Citation, Message, ProviderConfig, RequestOptions

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
