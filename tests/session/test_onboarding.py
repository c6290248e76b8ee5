"""The first-run form's decisions (wiggum.session.onboarding), without a page."""

from __future__ import annotations

from tests.sim import Simulator, http_error
from wiggum.session.onboarding import Chosen, FirstRun, FirstRunFields, draft, prefill
from wiggum.ui.connection import Diagnosis
from wiggum.ui.models import ModelOption
from wiggum.ui.settings import ProviderSettings

KEY = "sk-sim-SECRET-first-run"
ORIGIN = "http://127.0.0.1:8000"


def form(sim: Simulator, **kw) -> FirstRunFields:
    return FirstRunFields("openai", sim.base_url + "/v1", KEY, kw.pop("model", "gpt-4o"), **kw)


def test_the_draft_is_the_preset_with_what_was_typed():
    p, template = draft(FirstRunFields("groq", " https://g.example/v1 ", " k1 ", " m ", True))
    assert (p.preset, p.kind, p.base_url, p.key, p.model, p.proxy) == (
        "groq",
        "openai",
        "https://g.example/v1",
        "k1",
        "m",
        True,
    )
    assert template == ""


def test_the_proxy_field_takes_a_workers_address_or_a_template():
    worker = FirstRunFields("openai", proxy_url=" https://w.you.workers.dev ")
    assert draft(worker)[1] == "https://w.you.workers.dev/?url={href}"
    template = FirstRunFields("openai", proxy_url="https://p.example/?u={href}")
    assert draft(template)[1] == "https://p.example/?u={href}"
    odd = FirstRunFields("openai", proxy_url="not a url")
    assert draft(odd)[1] == "not a url"  # kept as typed: the test names what is wrong


def test_an_unknown_preset_is_a_custom_server():
    assert draft(FirstRunFields("nope"))[0].preset == "custom"


def test_prefill_starts_from_a_half_set_up_provider():
    assert prefill(None, "") is None
    half = ProviderSettings.from_preset("anthropic", api_key="", model="")
    start = prefill(half, "https://p.example/?url={href}")
    assert start.preset_id == "anthropic"
    assert (start.api_key, start.model) == (None, None)  # left as the preset fills them
    assert start.base_url == "https://api.anthropic.com"
    assert start.proxy_url == "https://p.example/?url={href}"
    assert prefill(half, "").proxy_url is None


def test_start_needs_a_passed_test_and_then_a_model():
    first = FirstRun(ORIGIN)
    fields = FirstRunFields("openai", "https://api.openai.com/v1", KEY, "")
    assert first.start(fields) is None
    ok = Diagnosis(True, "ok", "Connected", "Connected to OpenAI.")
    first.follow_up(ok, "")
    assert first.start(fields) == "model"
    chosen = first.start(FirstRunFields("openai", "https://api.openai.com/v1", KEY, "gpt-4o"))
    assert isinstance(chosen, Chosen) and chosen.provider.model == "gpt-4o"
    first.changed()  # an edit after the test asks for another
    assert first.start(fields) is None


def test_a_passed_test_offers_the_models_and_picks_one_when_the_typed_one_is_missing():
    first = FirstRun(ORIGIN)
    models = [ModelOption("a"), ModelOption("b")]
    then = first.follow_up(Diagnosis(True, "ok", "Connected", "", None, models), "b")
    assert then.offer_models and then.models == models and then.model is None
    then = first.follow_up(Diagnosis(False, "model_missing", "", "", "model", models), "zz")
    assert then.offer_models and then.model == "a" and first.tested


def test_a_failed_test_offers_no_start_and_turns_the_proxy_on_when_it_is_the_fix():
    first = FirstRun(ORIGIN)
    then = first.follow_up(Diagnosis(False, "cors", "Blocked", "", "proxy"), "m")
    assert not then.offer_models and then.turn_on_proxy and not first.tested
    then = first.follow_up(Diagnosis(False, "auth", "Rejected", "", "api_key"), "m")
    assert not then.turn_on_proxy


async def test_the_test_goes_to_the_provider_and_only_the_latest_counts(sim, transport):
    sim.set_models(["gpt-4o", "gpt-4o-mini"], dialect="openai")
    first = FirstRun(ORIGIN, transport)
    earlier = first.test(form(sim))
    later = first.test(form(sim))
    assert await earlier is None
    d = await later
    assert d.ok and [m.id for m in d.models] == ["gpt-4o", "gpt-4o-mini"]


async def test_a_rejected_key_is_named(sim, transport):
    sim.models_fault = http_error(401, message="Incorrect API key provided")
    d = await FirstRun(ORIGIN, transport).test(form(sim))
    assert (d.ok, d.cause, d.field) == (False, "auth", "api_key")
