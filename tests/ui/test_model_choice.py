"""Model choice per project and role; the context meter and the conversation's cost."""

from wiggum.llm import Message
from wiggum.llm.types import UsageData
from wiggum.ui.model_choice import choice_key, meter, model_label, option_for
from wiggum.ui.models import ModelOption
from wiggum.ui.settings import ProviderSettings, Settings


class Rec:
    def __init__(self, cost):
        self.usage = UsageData(prompt_tokens=10, completion_tokens=5, total_tokens=15, cost=cost)


def test_choice_is_per_project_and_role():
    s = Settings(project_models={choice_key("p1", "ralph"): "gpt-4o-mini"})
    assert s.model_for("p1", "ralph") == "gpt-4o-mini"
    assert s.model_for("p1", "chief") is None and s.model_for("p2", "ralph") is None
    again = Settings.from_storage(s.to_storage())
    assert again.model_for("p1", "ralph") == "gpt-4o-mini"


def test_option_has_registry_facts_and_a_name():
    o = option_for("gpt-4o", "openai")
    assert o.context_window == 128_000 and o.input_per_m == 2.5
    named = ModelOption("anthropic/claude-sonnet-4", name="Claude Sonnet 4", context_window=200_000)
    assert model_label(named).startswith("Claude Sonnet 4 · 200k context")
    assert option_for("no-such-model-xyz", "openai").context_window is None


def test_meter_counts_tokens_against_the_window_and_sums_cost():
    m = meter(
        [Rec(0.001), Rec(0.0025), Rec(None)], [Message.user("hello " * 200)], "gpt-4o", "openai"
    )
    assert m.window == 128_000 and 150 < m.tokens < 400
    assert abs(m.cost - 0.0035) < 1e-9
    assert (
        "/ 128,000 tokens" in m.text and "$0.0035 spent" in m.text and m.text.startswith("Context ")
    )
    # before any reply nothing is spent; after replies without prices the cost is unknown
    fresh = meter([], [Message.user("hi")], "no-such-model-xyz", "openai")
    assert fresh.window is None and fresh.fraction is None
    assert fresh.text.endswith(" tokens · nothing spent yet"), fresh.text
    unknown = meter([Rec(None)], [Message.user("hi")], "no-such-model-xyz", "openai")
    assert unknown.text.endswith(" tokens · cost unknown"), unknown.text


def test_a_choice_holds_only_on_the_endpoint_it_was_made_on():
    openai = ProviderSettings.from_preset("openai")
    key = choice_key("p1", "chief")
    s = Settings(
        providers=[openai],
        project_models={key: "gpt-4o"},
        project_model_endpoints={key: openai.endpoint},
    )
    assert s.model_for("p1", "chief", openai.endpoint) == "gpt-4o"
    # The same entry pointed at Anthropic in Settings: gpt-4o is not Anthropic's.
    claude = openai.model_copy(update={"kind": "anthropic", "base_url": "https://x.test"})
    assert s.model_for("p1", "chief", claude.endpoint) is None
    other = ProviderSettings.from_preset("openrouter")
    assert s.model_for("p1", "chief", other.endpoint) is None
    # A choice stored before endpoints were recorded still holds.
    old = Settings(project_models={key: "gpt-4o"})
    assert old.model_for("p1", "chief", claude.endpoint) == "gpt-4o"
    again = Settings.from_storage(s.to_storage())
    assert again.model_for("p1", "chief", claude.endpoint) is None


def test_ralphs_meter_is_his_latest_call_against_the_window_and_the_runs_cost():
    from wiggum.llm import UsageData
    from wiggum.ui.model_choice import run_meter

    call = UsageData(prompt_tokens=30_000, completion_tokens=2_000, total_tokens=32_000)
    total = UsageData(prompt_tokens=90_000, completion_tokens=5_000, cost=0.0123)
    m = run_meter(call, total, "gpt-4o", "openai")
    assert (m.tokens, m.window) == (32_000, 128_000) and m.fraction == 0.25
    assert m.text == "Context 32,000 / 128,000 tokens · $0.0123 spent"
    unknown = run_meter(call, None, "no-such-model-xyz", "openai")
    assert unknown.fraction is None and unknown.text == "Context 32,000 tokens · cost unknown"


def test_the_switcher_lists_the_providers_models_with_facts_and_the_current_one_first():
    from wiggum.ui.model_choice import bar_options, meter_label

    listed = [ModelOption("gpt-4o"), ModelOption("mine", context_window=8_000)]
    options = bar_options(listed, "gpt-4o", "openai")
    assert [o.id for o in options] == ["gpt-4o", "mine"]
    assert options[0].context_window == 128_000  # the registry's, the list gave none
    assert options[1] is listed[1]  # the list's own facts are kept
    missing = bar_options(listed, "gpt-4o-mini", "openai")
    assert [o.id for o in missing] == ["gpt-4o-mini", "gpt-4o", "mine"]
    assert bar_options([], "local-model", "openai")[0].id == "local-model"
    assert meter_label(0.256) == "26% of the context used"


def test_ralphs_meter_comes_back_from_his_ledger_once_he_has_made_a_call():
    from wiggum.ralph.state import UsageLedger
    from wiggum.ui.model_choice import ledger_meter

    ledger = UsageLedger()
    assert ledger_meter(ledger, "openai") is None  # no call yet
    call = UsageData(prompt_tokens=64_000, completion_tokens=10, total_tokens=64_010, cost=0.01)
    ledger.add(1, call, "gpt-4o", 1.0)
    shown = ledger_meter(ledger, "openai")
    assert shown is not None and shown.window == 128_000
    assert (shown.tokens, shown.cost) == (64_010, 0.01)  # the latest call, the run so far
    # A ledger written before it kept the latest call has nothing to show.
    older = UsageLedger(iterations=ledger.iterations, total=ledger.total, last=None)
    assert ledger_meter(older, "openai") is None
