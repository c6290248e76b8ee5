"""What the provider forms say (wiggum.ui.provider_form): key field, model facts, lists, results."""

from __future__ import annotations

from wiggum.llm import AuthenticationError
from wiggum.ui.connection import Diagnosis
from wiggum.ui.models import ModelOption
from wiggum.ui.presets import Preset, preset
from wiggum.ui.provider_form import (
    diagnosis_class,
    model_info,
    models_failed_text,
    models_loaded_text,
    onboarding_key_field,
    settings_key_field,
)
from wiggum.ui.settings import ProviderSettings


def test_settings_names_a_hosted_provider_in_the_key_field():
    key = settings_key_field(ProviderSettings.from_preset("anthropic"))
    assert key.label == "Anthropic API key"
    assert key.placeholder == "Paste your Anthropic key"
    assert key.link == (
        "https://console.anthropic.com/settings/keys",
        "Make a key at console.anthropic.com/settings/keys",
    )


def test_settings_says_a_local_server_usually_needs_no_key():
    key = settings_key_field(ProviderSettings.from_preset("local"))
    assert (key.label, key.placeholder, key.link) == (
        "API key",
        "Usually not needed for a local server",
        None,
    )
    custom = settings_key_field(ProviderSettings.from_preset("custom"))
    assert custom.label == "API key" and custom.shown


def test_the_first_run_hides_the_key_where_none_is_needed_but_not_for_a_custom_server():
    ollama = onboarding_key_field(preset("ollama"))
    assert not ollama.shown and ollama.placeholder == "Only if your server needs one"
    custom = onboarding_key_field(preset("custom"))
    assert custom.shown and custom.label == "API key" and custom.link is None
    keyless = Preset(id="custom", name="Mine", kind="openai", base_url="", proxy=False)
    assert onboarding_key_field(keyless.model_copy(update={"needs_key": False})).shown
    local = onboarding_key_field(preset("local"))
    assert local.label == "LM Studio / llama.cpp / vLLM API key"
    openai = onboarding_key_field(preset("openai"))
    assert openai.shown and openai.placeholder == "Paste your key" and openai.link is not None


def test_model_info_from_the_providers_list_first():
    known = [ModelOption("mine", context_window=32_000, input_per_m=1.0, output_per_m=2.0)]
    assert model_info(" mine ", "openai", known) == (
        "32,000 tokens of context · $1.00 / $2.00 per million tokens (in / out)"
    )
    assert model_info("", "openai", known) == ""


def test_model_info_from_the_registry_then_unknown():
    said = model_info("gpt-4o", "openai", [])
    assert "tokens of context" in said and "per million tokens (in / out)" in said
    assert model_info("no-such-model-xyz", "openai", []) == (
        "Not in Wiggum's model list: limits and prices unknown."
    )
    no_price = [ModelOption("x", context_window=8000)]
    assert model_info("x", "openai", no_price) == "8,000 tokens of context · price unknown"


def test_what_a_list_says():
    assert models_loaded_text([ModelOption("a"), ModelOption("b")]) == "2 models available."
    assert models_loaded_text([]) == "The provider listed no models."
    err = AuthenticationError(401, "{}", "OpenAI", "gpt-4o")
    p = ProviderSettings.from_preset("openai", api_key="sk-x")
    said = models_failed_text(err, p, "")
    assert said.startswith("Could not load the model list (")
    assert said.endswith(") You can still type a model name.")


def test_the_result_line_is_plain_while_testing_then_good_or_bad():
    assert diagnosis_class(None) == "conn-result"
    assert diagnosis_class(Diagnosis(True, "ok", "", "")) == "conn-result conn-ok"
    assert diagnosis_class(Diagnosis(False, "auth", "", "")) == "conn-result conn-bad"
