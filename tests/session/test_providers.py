"""The provider a role talks to: one derivation, and why it is not ready."""

from __future__ import annotations

from pydantic import SecretStr

from wiggum.llm.normalize import ProviderQuirks
from wiggum.session.providers import (
    chip,
    chip_after_test,
    choose_model,
    images_warning,
    local_fix,
    model_for,
    model_list_key,
    provider_for,
    request_options,
)
from wiggum.session.refusals import Refusal
from wiggum.ui.settings import ProviderSettings, Settings


def settings_with(*providers: ProviderSettings, active: str | None = None, **kw) -> Settings:
    return Settings(
        providers=list(providers),
        active_provider=active or (providers[0].id if providers else None),
        **kw,
    )


def openai(**kw) -> ProviderSettings:
    return ProviderSettings.from_preset("openai", api_key=SecretStr("sk-test"), **kw)


def test_no_provider_is_not_ready_and_says_to_choose_one():
    out = provider_for(Settings(), "p1", "chief")
    assert isinstance(out, Refusal)
    assert out.title == "No provider"
    assert "Settings" in out.message


def test_a_provider_without_its_key_is_not_ready_and_names_it():
    s = settings_with(ProviderSettings.from_preset("openai"))
    out = provider_for(s, "p1", "chief")
    assert isinstance(out, Refusal) and out.title == "Provider not set up"
    assert out.message.startswith("OpenAI: ") and "API key" in out.message


def test_a_proxy_without_a_template_makes_the_provider_not_ready():
    s = settings_with(openai(proxy=True))
    out = provider_for(s, "p1", "chief")
    assert isinstance(out, Refusal) and "proxy" in out.message


def test_a_ready_provider_gives_its_config_with_its_own_model():
    s = settings_with(openai(model="gpt-4o"))
    out = provider_for(s, "p1", "chief")
    assert not isinstance(out, Refusal)
    assert out.model == "gpt-4o" and out.kind == "openai" and out.secret() == "sk-test"


def test_the_project_choice_for_a_role_wins_over_the_provider_model():
    p = openai(model="gpt-4o")
    s = settings_with(p)
    s = choose_model(s, "p1", "ralph", "gpt-4o-mini")
    assert provider_for(s, "p1", "ralph").model == "gpt-4o-mini"
    assert provider_for(s, "p1", "chief").model == "gpt-4o"  # per role
    assert provider_for(s, "p2", "ralph").model == "gpt-4o"  # per project


def test_a_choice_made_on_another_endpoint_does_not_carry_over():
    p = openai(model="gpt-4o")
    s = choose_model(settings_with(p), "p1", "chief", "gpt-4o-mini")
    s.providers[0].base_url = "https://other.example/v1"
    assert model_for(s, "p1", "chief") == "gpt-4o"


def test_choosing_the_provider_model_forgets_the_project_choice():
    s = choose_model(settings_with(openai(model="gpt-4o")), "p1", "chief", "o3")
    s = choose_model(s, "p1", "chief", "gpt-4o")
    assert s.project_models == {} and s.project_model_endpoints == {}


def test_choose_model_leaves_the_given_settings_alone():
    s = settings_with(openai(model="gpt-4o"))
    choose_model(s, "p1", "chief", "o3")
    assert s.project_models == {}


def test_choose_model_without_a_provider_or_a_model_changes_nothing():
    assert choose_model(Settings(), "p1", "chief", "o3") is None
    assert choose_model(settings_with(openai()), "p1", "chief", "") is None


def test_request_options_carry_the_idle_timeout():
    s = settings_with(openai(), stream_idle_seconds=42.0)
    options = request_options(s, provider_for(s, "p1", "chief"))
    assert options.idle_timeout == 42.0 and not options.web_search


def test_request_options_wait_for_an_answer_as_long_as_settings_say():
    s = settings_with(openai(), request_timeout_seconds=45.0)
    options = request_options(s, provider_for(s, "p1", "chief"))
    assert options.timeout == 45.0
    # and by default a bound, never "wait for ever"
    default = request_options(settings_with(openai()), provider_for(s, "p1", "chief"))
    assert default.timeout == 300.0 and default.idle_timeout == 90.0


def test_web_search_is_on_only_where_the_person_turned_it_on_and_the_provider_can():
    anthropic = ProviderSettings.from_preset("anthropic", api_key=SecretStr("k"), web_search=True)
    s = settings_with(anthropic)
    assert request_options(s, provider_for(s, "p1", "chief")).web_search
    anthropic.web_search = False
    assert not request_options(s, provider_for(s, "p1", "chief")).web_search
    plain = settings_with(openai(web_search=True))  # OpenAI has no server-side search
    assert not request_options(plain, provider_for(plain, "p1", "chief")).web_search


def test_the_model_list_belongs_to_provider_server_and_route():
    s = settings_with(openai())
    key = model_list_key(s)
    s.proxy_template = "https://proxy.example/?url={href}"
    s.providers[0].proxy = True
    assert model_list_key(s) != key
    assert model_list_key(Settings()) is None


def test_a_local_server_gets_the_fix_for_this_page_origin():
    s = settings_with(ProviderSettings.from_preset("ollama"))
    fix = local_fix(s, "http://127.0.0.1:8000")
    assert fix is not None and "http://127.0.0.1:8000" in fix


def test_a_custom_endpoint_on_this_machine_gets_the_local_fix_too():
    s = settings_with(ProviderSettings.from_preset("custom", base_url="http://localhost:1234/v1"))
    assert "http://x.test" in (local_fix(s, "http://x.test") or "")


def test_a_hosted_provider_gets_no_local_fix():
    assert local_fix(settings_with(openai()), "http://127.0.0.1:8000") is None
    assert local_fix(Settings(), "http://127.0.0.1:8000") is None


def test_the_chip_names_provider_and_model_when_ready():
    c = chip(settings_with(openai(model="gpt-4o")), "p1")
    assert c.ready and (c.name, c.model) == ("OpenAI", "gpt-4o")
    assert c.title == "OpenAI · gpt-4o (open settings)"


def test_the_chip_names_the_project_choice_for_chief():
    s = choose_model(settings_with(openai(model="gpt-4o")), "p1", "chief", "o3")
    assert chip(s, "p1").model == "o3"


def test_the_chip_says_what_is_missing_instead_of_a_model():
    assert chip(Settings(), "p1") == chip(Settings(), None)
    assert not chip(Settings(), "p1").ready and chip(Settings(), "p1").name == "Set up a provider"
    unfinished = chip(settings_with(ProviderSettings.from_preset("openai")), "p1")
    assert not unfinished.ready and unfinished.name == "OpenAI: finish setup"


def test_images_warning_names_the_model_that_cannot_see_them():
    s = settings_with(openai(model="gpt-3.5-turbo"))
    text = images_warning(s, "p1", 2, ["gpt-4o"])
    assert text is not None and "gpt-3.5-turbo" in text and "these images" in text


def test_images_warning_uses_the_project_choice_for_chief():
    s = choose_model(settings_with(openai(model="gpt-4o")), "p1", "chief", "gpt-3.5-turbo")
    assert images_warning(s, "p1", 1, []) is not None
    assert images_warning(s, "p2", 1, []) is None


def test_images_warning_remembers_a_model_that_refused_images_this_session():
    s = settings_with(openai(model="gpt-4o"))
    quirks = ProviderQuirks()
    assert images_warning(s, "p1", 1, [], quirks) is None
    quirks.no_images.add(next(iter(_keys(s, quirks))))
    assert "turned images down" in (images_warning(s, "p1", 1, [], quirks) or "")


def _keys(s: Settings, quirks: ProviderQuirks):
    from wiggum.llm.normalize import quirk_key

    yield quirk_key(provider_for(s, "p1", "chief"))


def test_a_tested_provider_chip_says_ready_and_where_to_finish():
    c = chip_after_test("OpenAI")
    assert c.name == "OpenAI: ready" and not c.ready
    assert "Start chatting" in c.title


def test_a_setup_refusal_is_said_on_the_card_while_it_shows():
    from wiggum.session.refusals import card_notice, paused, setup

    refusal = setup("Provider not set up", "OpenAI: Add your API key. Open Settings to finish.")
    on_card = card_notice(refusal, True)
    assert on_card is not None and "this form" in on_card and "Settings" not in on_card
    assert "waits in the box" in on_card  # nothing typed is lost, and it says so
    assert card_notice(refusal, False) is None  # no card: the banner says it
    assert card_notice(paused("Paused", "Open in another tab."), True) is None
