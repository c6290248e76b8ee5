"""What Ralph's tab says about his spending, and what Continue asks for."""

from __future__ import annotations

import pytest

from wiggum.coordinator.state import CoordinatorState
from wiggum.llm import UsageData
from wiggum.llm.registry import ModelCost
from wiggum.ralph.budget import (
    CallEstimate,
    Forecast,
    budget_line,
    estimate_call,
    forecast_run,
    over_cap,
)
from wiggum.ralph.types import RalphStatus, RunBudget
from wiggum.session.settings import cap, iterations
from wiggum.ui.ralph_budget import (
    ContinueFields,
    ContinueRequest,
    continue_offer,
    continue_request,
)
from wiggum.ui.ralph_tab import tab_state

PRICES = ModelCost(input_per_token=1e-6, output_per_token=4e-6)


def spent(tokens: int, cost: float | None = None) -> UsageData:
    return UsageData(prompt_tokens=tokens, completion_tokens=0, total_tokens=tokens, cost=cost)


def test_the_forecast_adds_up_the_iterations_left_at_the_models_prices():
    f = forecast_run(3000, 10, PRICES, done=4)
    assert f.iterations == 6
    per_iteration = sum(3000 + k * 600 for k in range(4)) + 4 * 400
    assert f.tokens == 6 * per_iteration
    assert f.cost == pytest.approx(6 * ((per_iteration - 1600) * 1e-6 + 1600 * 4e-6))
    words = f.text(RunBudget(max_cost=1.0))
    assert words.startswith("Estimate: ~") and "for 6 iterations (cap $1.00)" in words


def test_a_forecast_without_prices_says_only_the_token_cap_holds():
    f = forecast_run(3000, 2, None)
    assert f.cost is None
    assert "prices are unknown" in f.text(RunBudget(max_tokens=50_000))
    assert "cap 50,000 tokens" in f.text(RunBudget(max_tokens=50_000))


def test_a_calls_estimate_takes_the_larger_of_the_preflight_and_what_was_reported():
    assert estimate_call(1000, 3000, 500, None) == CallEstimate(3000, 500, None)
    assert estimate_call(4000, 3000, 0, None).reply == 256  # a floor before any reply
    assert estimate_call(1000, 0, 1000, PRICES).cost == pytest.approx(1000e-6 + 4000e-6)


def test_the_cap_refuses_a_call_that_would_pass_it_and_only_that():
    call = CallEstimate(1000, 200, 0.01)
    assert over_cap(None, spent(10**9), call) is None
    assert over_cap(RunBudget(max_tokens=2200), spent(1000), call) is None
    assert "cap of 2,199 tokens" in over_cap(RunBudget(max_tokens=2199), spent(1000), call)
    assert over_cap(RunBudget(max_cost=0.05), spent(0, 0.04), call) is None
    assert "cap of $0.0500" in over_cap(RunBudget(max_cost=0.05), spent(0, 0.045), call)
    # Unknown prices: money is checked only against what the provider reported.
    unknown = CallEstimate(1000, 200, None)
    assert over_cap(RunBudget(max_cost=0.05), spent(0, None), unknown) is None
    assert over_cap(RunBudget(max_cost=0.05), spent(0, 0.05), unknown) is not None


def test_the_warning_comes_at_eighty_percent_of_either_cap():
    assert budget_line(RunBudget(max_tokens=1000), spent(799)) is None
    assert budget_line(RunBudget(max_tokens=1000), spent(800)) == (
        "80% of the cap spent (800 of 1,000 tokens)"
    )
    line = budget_line(RunBudget(max_cost=0.5, max_tokens=10**6), spent(1000, 0.41))
    assert line == "82% of the cap spent ($0.41 of $0.50, 1,000 of 1.0M tokens)"


def running(**changes) -> CoordinatorState:
    return CoordinatorState(status=RalphStatus.RUNNING, iteration=3, max_iterations=20, **changes)


def test_the_status_line_warns_while_he_works_near_the_cap():
    near = running(budget=RunBudget(max_cost=0.5), usage=spent(10, 0.41))
    assert tab_state(near, elsewhere=False).status_line == (
        "Working — iteration 3/20 · ⚠ 82% of the cap spent ($0.41 of $0.50)"
    )
    far = running(budget=RunBudget(max_cost=0.5), usage=spent(10, 0.1))
    assert tab_state(far, elsewhere=False).status_line == "Working — iteration 3/20"


def ended(status: RalphStatus, **changes) -> CoordinatorState:
    changes.setdefault("resumable", True)
    return CoordinatorState(status=status, iteration=5, max_iterations=5, **changes)


def test_continue_is_offered_after_the_limit_a_stall_or_the_cap_with_the_cause():
    at_cap = ended(
        RalphStatus.BUDGET_SPENT,
        last_error="Ralph stopped at his cap of $0.50: $0.49 is spent.",
        budget=RunBudget(max_cost=0.5, max_tokens=100_000),
    )
    offer = continue_offer(at_cap, 20)
    assert offer.text.startswith("Ralph stopped at his cap of $0.50")
    assert (offer.more, offer.cap_usd, offer.cap_tokens) == (20, "0.75", "150000")  # raised
    limit = continue_offer(ended(RalphStatus.MAX_ITERATIONS, budget=RunBudget(1.0)), 10)
    assert limit.text.startswith("Ralph reached the iteration limit") and limit.cap_usd == "1.00"
    assert continue_offer(ended(RalphStatus.STALLED), 10).cap_usd == ""
    # Not after a finish, a stop or a failure (Resume / Retry offer those), nor when not resumable.
    for status in (RalphStatus.COMPLETE, RalphStatus.CANCELLED, RalphStatus.ERROR):
        assert continue_offer(ended(status), 10) is None
    assert continue_offer(ended(RalphStatus.STALLED, resumable=False), 10) is None
    # The resume banner leaves it to Continue.
    assert tab_state(at_cap, elsewhere=False).resume is None
    assert tab_state(at_cap, elsewhere=False).status_line == "Ralph stopped at the spending cap"


def test_continue_reads_the_form_or_says_what_to_fix():
    assert continue_request(ContinueFields("5", "$1.50", "", "  Blue links.  ")) == (
        ContinueRequest(5, RunBudget(1.5, None), "Blue links.")
    )
    assert continue_request(ContinueFields("3", "", "", "")) == ContinueRequest(3, None, None)
    assert "how many more" in continue_request(ContinueFields("0", "", "", ""))
    assert "how many more" in continue_request(ContinueFields("lots", "", "", ""))
    assert "A cap is a number" in continue_request(ContinueFields("2", "two", "", ""))
    assert "A cap is a number" in continue_request(ContinueFields("2", "-1", "", ""))


def test_settings_read_the_iteration_limit_and_the_caps():
    assert iterations("40", 20) == 40 and iterations("", 20) == 20 and iterations("0", 20) == 1
    assert iterations("9999", 20) == 500
    assert cap("$2.50", float) == 2.5 and cap("", float) is None and cap("0", float) is None
    assert cap("1,000,000", int) == 1_000_000 and cap("lots", int) is None


def test_forecast_is_an_estimate_in_words():
    assert Forecast(1234, 0.5, 3, 100).text().startswith("Estimate: ~1,234 tokens · ~$0.50")
