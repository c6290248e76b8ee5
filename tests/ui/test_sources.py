"""The sources under a reply: only http(s) links, each once, labelled."""

from __future__ import annotations

from wiggum.llm import Citation
from wiggum.ui.settings import ProviderSettings
from wiggum.ui.sources import MAX_LABEL, safe_sources


def test_only_http_links_each_once_with_a_label():
    got = safe_sources(
        [
            Citation(url="https://a.example/x", title="  A   page "),
            Citation(url="javascript:alert(1)", title="evil"),
            Citation(url="data:text/html,<script>alert(1)</script>", title="evil"),
            Citation(url="JAVASCRIPT:alert(1)"),
            Citation(url="https://a.example/x", title="again"),
            Citation(url="http://b.example/", title=""),
            Citation(url="https://", title="no host"),
            Citation(url="//c.example/", title="no scheme"),
        ]
    )
    assert got == [("https://a.example/x", "A page"), ("http://b.example/", "b.example")]


def test_long_titles_are_cut():
    [(_, label)] = safe_sources([Citation(url="https://a.example", title="t" * 500)])
    assert len(label) == MAX_LABEL and label.endswith("…")


def test_web_search_is_off_by_default_and_offered_only_where_it_exists():
    for preset in ("openai", "anthropic", "openrouter", "ollama"):
        assert ProviderSettings.from_preset(preset).web_search is False
    assert ProviderSettings.from_preset("anthropic").research_available
    assert ProviderSettings.from_preset("openrouter").research_available
    assert not ProviderSettings.from_preset("openai").research_available
    assert not ProviderSettings.from_preset("ollama").research_available
