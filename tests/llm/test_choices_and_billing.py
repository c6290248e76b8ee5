"""Issue 18, points 2 and 5, beyond the transcripts of ``test_wire_defects``.

Point 5: a reply with several choices is read at choice 0 only, and a DEBUG
``llm:choices-ignored`` line says so once per reply (stream and batch).
Point 2: the cost of an xAI reply counts the reasoning tokens xAI bills but
leaves out of ``completion_tokens``.  Sources for the shape: xAI's
"Consumption and rate limits" page (docs.x.ai/docs/key-information/
consumption-and-rate-limits: "reasoning token consumption will be counted
separately from completion_tokens, but will be counted in the total_tokens"), as
quoted in vercel/ai#12425 with real grok-3-mini figures (completion 1, reasoning
386, total 399), and the recorded Grok usage in Wei-Shaw/sub2api#5771 (10120 +
1499 + 2809 = 14428, cached 128) used below.  Anthropic's ``output_tokens``
already counts thinking (billed as output) and Ollama's ``eval_count`` counts
every generated token, thinking included, so neither dialect needs the same
correction.

The refusal transcripts of ``test_wire_defects`` follow OpenAI's API reference
(``choices[].message.refusal`` and ``choices[].delta.refusal``, as listed in
MacPaw/OpenAI#249 and #408).
"""

from __future__ import annotations

import logging

import pytest

from tests.llm.test_wire_defects import CASES, XAI_USAGE
from tests.llm.wire import MODES, run_batch, run_stream
from wiggum.llm import ProviderConfig, UsageData
from wiggum.llm.cost import calculate_cost

N2 = next(c for c in CASES if c.id == "n2-choices-never-mixed")


def ignored(caplog) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.getMessage() == "llm:choices-ignored"]


@pytest.mark.parametrize("mode", MODES)
async def test_other_choices_are_logged_once_when_streamed(mode, caplog):
    caplog.set_level(logging.DEBUG, logger="wiggum.llm")
    _, response, _ = await run_stream(N2.provider, N2.stream, mode, seed=2)
    assert response.content == "Red sky"
    [record] = ignored(caplog)
    assert record.levelno == logging.DEBUG
    assert record.llm["read"] == "choice 0"


async def test_other_choices_are_logged_in_batch(caplog):
    caplog.set_level(logging.DEBUG, logger="wiggum.llm")
    response, _ = await run_batch(N2.provider, N2.batch)
    assert response.content == "Red sky"
    assert len(ignored(caplog)) == 1


async def test_one_choice_logs_nothing(caplog):
    caplog.set_level(logging.DEBUG, logger="wiggum.llm")
    case = next(c for c in CASES if c.id == "usage-openai-reasoning-inside")
    await run_stream(case.provider, case.stream, "small")
    await run_batch(case.provider, case.batch)
    assert ignored(caplog) == []


XAI = ProviderConfig(
    id="xai", kind="openai", base_url="https://api.x.ai/v1", model="grok-4", api_key="xai-t"
)


@pytest.mark.parametrize("how", ["stream", "chat"])
async def test_xai_cost_counts_reasoning_billed_apart(how):
    case = next(c for c in CASES if c.id == "usage-xai-reasoning-apart")
    if how == "stream":
        _, response, _ = await run_stream(XAI, case.stream, "random")
    else:
        response, _ = await run_batch(XAI, case.batch)
    usage = response.usage
    billed = UsageData(prompt_tokens=12, completion_tokens=1 + 290, total_tokens=303)
    expected = calculate_cost("grok-4", billed, "openai")
    assert expected is not None and expected > 0
    assert usage.completion_tokens == 291 and usage.reasoning_tokens == 290
    assert usage.cost == pytest.approx(expected)
    assert usage.cost_source == "registry"
    # What the reply would cost with the reasoning left out: less, so the test can tell.
    unbilled = calculate_cost("grok-4", UsageData(prompt_tokens=12, completion_tokens=1), "openai")
    assert usage.cost > unbilled
    assert XAI_USAGE["total_tokens"] == 12 + 1 + 290


# Recorded Grok usage (Wei-Shaw/sub2api#5771): reasoning apart, cache hits inside prompt.
GROK_RECORDED = {
    "prompt_tokens": 10120,
    "completion_tokens": 1499,
    "total_tokens": 14428,
    "prompt_tokens_details": {"cached_tokens": 128},
    "completion_tokens_details": {"reasoning_tokens": 2809},
}


async def test_recorded_grok_usage_bills_reasoning_as_output():
    body = {
        "id": "c",
        "model": "grok-4",
        "choices": [{"index": 0, "message": {"content": "ok"}, "finish_reason": "stop"}],
        "usage": GROK_RECORDED,
    }
    response, _ = await run_batch(XAI, body)
    usage = response.usage
    assert (usage.prompt_tokens, usage.completion_tokens, usage.total_tokens) == (
        10120,
        1499 + 2809,
        14428,
    )
    assert usage.cache_read_tokens == 128 and usage.reasoning_tokens == 2809
