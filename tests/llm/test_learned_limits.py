"""Provider limits learned from refusals (``wiggum.llm.limits``)."""

from __future__ import annotations

from wiggum.llm import ContextOverflowError, ProviderConfig
from wiggum.llm.errors import ProviderError, RateLimitError
from wiggum.llm.limits import LearnedLimits, apply_limits, learn_limits, limits_key, wait_left

PROVIDER = ProviderConfig(id="p", base_url="https://api.example/v1", model="m")


def overflow(window: int, source: str = "provider") -> ContextOverflowError:
    return ContextOverflowError(9000, window, "p", "m", source=source)


def test_a_context_refusal_teaches_the_window_and_only_ever_lowers_it():
    learned = learn_limits(overflow(8000), None)
    assert learned == LearnedLimits(context_window=8000)
    assert learn_limits(overflow(16000), learned) is None  # nothing new
    assert learn_limits(overflow(0), None, sent_tokens=10_000).context_window == 9000
    assert learn_limits(overflow(8000, source="preflight"), None) is None  # ours, not theirs


def test_a_max_tokens_refusal_teaches_the_reply_limit():
    for message in (
        "max_tokens: 8192 > 4096, which is the maximum allowed number of output tokens",
        "max_tokens is too large: 8192. This model supports at most 4096 completion tokens.",
    ):
        err = ProviderError(400, None, "p", "m", detail=message)
        assert learn_limits(err, None) == LearnedLimits(max_output_tokens=4096), message
    assert learn_limits(ProviderError(400, None, "p", "m", detail="bad request"), None) is None


def test_a_rate_limit_is_kept_as_a_wait_the_next_call_serves():
    err = RateLimitError(429, None, "p", "m", retry_after=20.0)
    learned = learn_limits(err, None, now=100.0)
    assert wait_left(learned, 105.0) == 15.0 and wait_left(learned, 200.0) == 0.0


def test_learned_limits_become_the_providers_overrides():
    provider = apply_limits(PROVIDER, LearnedLimits(context_window=8000, max_output_tokens=2048))
    assert (provider.context_window, provider.max_output_tokens) == (8000, 2048)
    assert apply_limits(PROVIDER, None) is PROVIDER
    assert limits_key("https://api.example/v1/", "m") == "https://api.example/v1|m"
