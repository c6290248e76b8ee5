"""Presets as data: each validates, and each browser fact names its source."""

import pytest

from wiggum.ui.presets import PRESETS, Preset, preset
from wiggum.ui.settings import ProviderSettings

WANTED = {
    "openai", "anthropic", "openrouter", "gemini", "groq", "deepseek", "mistral",
    "xai", "together", "ollama", "local", "custom",
}  # fmt: skip


def test_every_wanted_provider_has_a_preset():
    assert {p.id for p in PRESETS} == WANTED
    assert len({p.id for p in PRESETS}) == len(PRESETS)


@pytest.mark.parametrize("p", PRESETS, ids=lambda p: p.id)
def test_preset_validates_and_cites_its_browser_fact(p: Preset):
    again = Preset.model_validate(p.model_dump())
    assert again == p
    if p.browser in ("yes", "no", "local"):
        assert p.browser_source.startswith("https://"), p.id
    if p.browser == "no":
        assert p.proxy
    if p.needs_key and p.id != "custom":
        assert p.key_url.startswith("https://")
    if p.id != "custom":
        assert ProviderSettings.from_preset(p.id).base_url.startswith("http")


def test_a_browser_fact_without_source_is_refused():
    with pytest.raises(ValueError, match="source"):
        Preset(id="x", name="X", kind="openai", base_url="https://x", proxy=False,
               browser="yes", key_url="https://x")  # fmt: skip
    with pytest.raises(ValueError, match="proxy"):
        Preset(id="x", name="X", kind="openai", base_url="https://x", proxy=False,
               browser="no", browser_source="https://s", key_url="https://x")  # fmt: skip


def test_anthropic_names_its_browser_header():
    assert preset("anthropic").browser_header.startswith(
        "anthropic-dangerous-direct-browser-access"
    )


def test_local_servers_say_how_to_accept_the_origin():
    assert "OLLAMA_ORIGINS={origin}" in preset("ollama").origin_fix
    assert "CORS" in preset("local").origin_fix
