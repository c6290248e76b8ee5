"""The Settings dialog's decisions (wiggum.session.settings), without a page."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from tests.sim import Simulator, http_error
from wiggum.session.settings import (
    DialogFields,
    Latest,
    SettingsEditor,
    after_onboarding,
    base_url_for_kind,
    idle_seconds,
    provider_fields,
    request_seconds,
)
from wiggum.ui.models import ModelOption
from wiggum.ui.provider_form import WORKER_URL_PROBLEM
from wiggum.ui.settings import ProviderSettings, Settings

KEY = "sk-sim-SECRET-editor"
ORIGIN = "http://127.0.0.1:8000"


def two() -> Settings:
    a = ProviderSettings.from_preset("openai", api_key=KEY, model="gpt-4o")
    b = ProviderSettings.from_preset("ollama")
    return Settings(providers=[a, b], active_provider=b.id)


def fields(
    editor: SettingsEditor, template: str = "", idle: str = "90", answer: str = "300", **changes
) -> DialogFields:
    """What the form shows for the editor's provider, with ``changes`` typed into it."""
    p = editor.provider()
    assert p is not None
    return DialogFields(replace(provider_fields(p), **changes), template, idle, answer)


def test_the_dialog_edits_a_copy_on_the_active_provider():
    settings = two()
    editor = SettingsEditor()
    editor.show(settings)
    assert editor.current == settings.providers[1].id
    editor.store(fields(editor, model="llama3.3"))
    assert settings.providers[1].model == "llama3.2"  # Cancel drops the copy
    assert editor.provider().model == "llama3.3"


def test_settings_without_providers_get_one_to_edit():
    editor = SettingsEditor()
    editor.show(Settings())
    assert [p.preset for p in editor.draft.providers] == ["openai"]
    assert editor.current == editor.draft.providers[0].id


def test_showing_again_stays_on_the_provider_shown():
    settings = two()
    editor = SettingsEditor()
    editor.show(settings, settings.providers[0].id)
    assert editor.current == settings.providers[0].id
    editor.show(settings, "p-gone")
    assert editor.current == settings.providers[1].id  # the active one when it went


def test_store_strips_text_and_keeps_the_key_secret():
    editor = SettingsEditor()
    editor.show(two())
    editor.store(
        fields(
            editor, "  https://p.example/?url={href} ", name=" Box ", api_key=" sk-1 ", model=" m "
        )
    )
    p = editor.provider()
    assert (p.name, p.key, p.model) == ("Box", "sk-1", "m")
    assert editor.draft.proxy_template == "https://p.example/?url={href}"
    assert "sk-1" not in repr(p)


def test_settings_stored_before_the_answer_timeout_existed_still_load():
    settings = two()
    stored = settings.to_storage()
    del stored["request_timeout_seconds"]
    loaded = Settings.from_storage(stored)
    assert loaded.request_timeout_seconds == 300.0
    assert [p.id for p in loaded.providers] == [p.id for p in settings.providers]


@pytest.mark.parametrize(
    ("clamp", "low", "field", "stored"),
    [
        (idle_seconds, 5.0, "idle", "stream_idle_seconds"),
        (request_seconds, 10.0, "answer", "request_timeout_seconds"),
    ],
)
def test_a_wait_is_clamped_and_an_emptied_field_keeps_the_saved_value(clamp, low, field, stored):
    assert clamp("2", 90.0) == low
    assert clamp("99999", 90.0) == 3600.0
    assert clamp("", 42.0) == 42.0
    assert clamp("abc", 42.0) == clamp("nan", 42.0) == 42.0
    editor = SettingsEditor()
    editor.show(two())
    editor.store(fields(editor, **{field: "30"}))
    assert getattr(editor.draft, stored) == 30.0


def test_web_search_stays_off_where_the_provider_cannot_search():
    editor = SettingsEditor()
    editor.show(two())  # Ollama: no search of its own
    editor.store(fields(editor, web_search=True))
    assert editor.provider().web_search is False
    anthropic = editor.add("anthropic")
    editor.store(fields(editor, web_search=True))
    assert editor.provider().id == anthropic.id and editor.provider().web_search is True


def test_switching_provider_keeps_what_was_typed_for_the_one_left():
    settings = two()
    editor = SettingsEditor()
    editor.show(settings)
    editor.store(fields(editor, model="typed"))
    editor.pick(settings.providers[0].id)
    assert editor.draft.provider(settings.providers[1].id).model == "typed"
    assert editor.provider().model == "gpt-4o"


def test_add_shows_the_new_provider_and_remove_never_leaves_none():
    editor = SettingsEditor()
    editor.show(Settings(providers=[ProviderSettings.from_preset("openai")]))
    assert not editor.removable and not editor.remove()
    added = editor.add("groq")
    assert editor.current == added.id and editor.removable
    assert editor.remove()
    assert [p.preset for p in editor.draft.providers] == ["openai"]
    assert editor.current == editor.draft.providers[0].id


def test_a_base_url_left_at_a_default_follows_the_kind():
    assert base_url_for_kind("anthropic", "") == "https://api.anthropic.com"
    assert base_url_for_kind("ollama", "https://api.openai.com/v1") == "http://localhost:11434"
    assert base_url_for_kind("anthropic", "https://my.example/v1") is None  # typed: kept


def test_save_names_each_field_to_fix_but_not_the_model():
    editor = SettingsEditor()
    editor.show(Settings(providers=[ProviderSettings.from_preset("openai")]))
    editor.store(fields(editor, "no-href", base_url="ftp://x", proxy=True, model=""))
    result = editor.save()
    assert result.settings is None
    assert list(result.problems) == ["base_url", "api_key", "proxy_template"]
    assert "model" not in result.problems  # the chat says so; the list may need the key first


def test_save_makes_the_shown_provider_active():
    settings = two()
    editor = SettingsEditor()
    editor.show(settings, settings.providers[0].id)
    result = editor.save()
    assert result.problems == {}
    assert result.settings.active_provider == settings.providers[0].id


def test_the_dialog_opens_on_the_first_field_keeping_the_provider_from_working():
    editor = SettingsEditor()
    editor.show(Settings(providers=[ProviderSettings.from_preset("openai", model="")]))
    assert editor.first_problem() == "model"
    editor.store(fields(editor, model="gpt-4o"))
    assert editor.first_problem() == "api_key"
    editor.store(fields(editor, api_key=KEY))
    assert editor.first_problem() is None


def opened_then_saved_elsewhere() -> tuple[SettingsEditor, Settings]:
    """A dialog showing the settings, and the settings another tab saved meanwhile."""
    settings = two()
    editor = SettingsEditor()
    editor.show(settings)
    editor.loaded(fields(editor))
    theirs = settings.model_copy(deep=True)
    theirs.providers[1].model = "theirs"
    return editor, theirs


def test_another_tabs_save_is_shown_at_once_when_nothing_was_edited():
    editor, theirs = opened_then_saved_elsewhere()
    assert editor.saved_elsewhere(theirs, fields(editor)) is True
    assert editor.provider().model == "theirs" and editor.theirs is None


def test_another_tabs_save_keeps_edits_here_and_offers_theirs():
    editor, theirs = opened_then_saved_elsewhere()
    assert editor.saved_elsewhere(theirs, fields(editor, model="mine")) is False
    assert editor.provider().model == "mine" and editor.theirs is theirs
    assert editor.use_theirs()
    assert editor.provider().model == "theirs" and editor.theirs is None
    assert not editor.use_theirs()


def test_the_workers_address_becomes_the_template_and_turns_the_proxy_on():
    editor = SettingsEditor()
    editor.show(two())
    assert editor.use_worker("not a url", fields(editor)) == WORKER_URL_PROBLEM
    assert editor.draft.proxy_template == "" and not editor.provider().proxy
    assert editor.use_worker("https://w.you.workers.dev/", fields(editor)) is None
    assert editor.draft.proxy_template == "https://w.you.workers.dev/?url={href}"
    assert editor.provider().proxy


def test_the_list_is_fetched_unasked_only_with_a_key_or_on_this_machine():
    editor = SettingsEditor()
    editor.show(Settings(providers=[ProviderSettings.from_preset("openai")]))
    assert not editor.wants_models()  # a hosted provider without a key
    editor.store(fields(editor, api_key=KEY))
    assert editor.wants_models()
    editor.store(fields(editor, api_key="", base_url="http://localhost:1234/v1"))
    assert editor.wants_models()
    editor.store(fields(editor, base_url="nope"))
    assert not editor.wants_models() and editor.models_problem()


def test_latest_counts_only_the_last_request():
    latest = Latest()
    first = latest.begin()
    second = latest.begin()
    assert not latest.current(first) and latest.current(second)
    latest.cancel()
    assert not latest.current(second)


def openai(sim: Simulator) -> ProviderSettings:
    return ProviderSettings.from_preset(
        "openai", base_url=sim.base_url + "/v1", api_key=KEY, model="gpt-4o"
    )


async def test_a_fetched_list_is_kept_and_said(sim, transport):
    sim.set_models(["gpt-4o", "gpt-4o-mini"], dialect="openai")
    p = openai(sim)
    editor = SettingsEditor(transport)
    editor.show(Settings(providers=[p], active_provider=p.id))
    models, said = await editor.load_models(p)
    assert [m.id for m in models] == ["gpt-4o", "gpt-4o-mini"] and said == "2 models available."
    assert [m.id for m in editor.known_models()] == ["gpt-4o", "gpt-4o-mini"]


async def test_a_failed_list_says_why_and_that_a_name_can_be_typed(sim, transport):
    sim.models_fault = http_error(401, message="Incorrect API key provided")
    p = openai(sim)
    editor = SettingsEditor(transport)
    editor.show(Settings(providers=[p], active_provider=p.id))
    models, said = await editor.load_models(p)
    assert models is None
    assert said.startswith("Could not load the model list (") and said.endswith(
        "You can still type a model name."
    )
    assert KEY not in said


async def test_a_list_replaced_or_closed_before_its_answer_is_dropped(sim, transport):
    sim.set_models(["gpt-4o"], dialect="openai")
    p = openai(sim)
    editor = SettingsEditor(transport)
    editor.show(Settings(providers=[p], active_provider=p.id))
    first = editor.load_models(p)
    second = editor.load_models(p)
    assert await first is None and await second is not None
    closed = editor.load_models(p)
    editor.model_lists.cancel()  # the dialog closed
    assert await closed is None


async def test_a_test_keeps_the_models_it_found_and_only_the_latest_counts(sim, transport):
    sim.set_models(["gpt-4o", "o3"], dialect="openai")
    p = openai(sim)
    editor = SettingsEditor(transport)
    editor.show(Settings(providers=[p], active_provider=p.id))
    earlier = editor.test(p, ORIGIN)
    later = editor.test(p, ORIGIN)
    results = await asyncio.gather(earlier, later)
    assert results[0] is None and results[1].ok
    assert [m.id for m in editor.known_models()] == ["gpt-4o", "o3"]


def test_remember_says_whether_the_models_are_for_the_provider_shown():
    settings = two()
    editor = SettingsEditor()
    editor.show(settings)
    assert editor.remember(settings.providers[1].id, [ModelOption("a")])
    assert not editor.remember(settings.providers[0].id, [ModelOption("b")])


def test_onboarding_replaces_a_broken_active_provider_and_keeps_the_others():
    settings = two()  # the active one (Ollama) works; the OpenAI one has a key
    broken = Settings(
        providers=[ProviderSettings.from_preset("openai"), settings.providers[1]],
        active_provider=None,
    )
    tested = ProviderSettings.from_preset("groq", api_key=KEY, proxy=True)
    out = after_onboarding(broken, tested, "https://p.example/?url={href}")
    assert [p.preset for p in out.providers] == ["ollama", "groq"]  # the key-less OpenAI went
    assert out.active_provider == tested.id
    assert out.proxy_template == "https://p.example/?url={href}"
    assert [p.preset for p in broken.providers] == ["openai", "ollama"]  # a copy was changed


def test_onboarding_keeps_a_working_active_provider_and_the_old_template():
    settings = two()
    settings.proxy_template = "https://old.example/?url={href}"
    out = after_onboarding(settings, ProviderSettings.from_preset("mistral", api_key=KEY), "x")
    assert len(out.providers) == 3 and out.proxy_template == "https://old.example/?url={href}"
