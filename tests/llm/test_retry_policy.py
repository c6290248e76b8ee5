"""The retry policy on its own: which error is tried again, how, after how long,
and the wait itself, driven by a fake clock (no wall time)."""

from __future__ import annotations

import pytest

from wiggum.llm.errors import (
    AbortError,
    AuthenticationError,
    EmptyResponseError,
    MalformedToolCallError,
    NetworkError,
    ProviderError,
    RateLimitError,
    StreamIncompleteError,
    StreamingUnsupportedError,
)
from wiggum.llm.retry import (
    CORS_RETRY_WAIT,
    MAX_RETRY_WAIT,
    Fallback,
    Retry,
    Stage,
    backoff,
    next_attempt,
    wait,
)

PLAIN = Stage(streaming=True, native_schema=False, images=False)


def whole(_low: float, high: float) -> float:
    """No jitter: the factor is 1.0, so a delay is exactly its base."""
    return high


def lowest(low: float, _high: float) -> float:
    return low


def decide(err, attempt=0, *, delivered=False, stage=PLAIN, max_retries=3):
    return next_attempt(
        err, attempt, delivered=delivered, stage=stage, max_retries=max_retries, jitter=whole
    )


class Clock:
    """A fake clock: ``sleep`` moves time on at once and remembers each wait."""

    def __init__(self) -> None:
        self.now = 0.0
        self.sleeps: list[float] = []

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


# ---------------------------------------------------------------- backoff


def test_backoff_doubles_from_half_a_second_and_stops_at_eight_as_the_sdks_do():
    assert [backoff(n, jitter=whole) for n in range(7)] == [0.5, 1, 2, 4, 8, 8, 8]


def test_backoff_jitter_only_shortens_a_wait_by_up_to_a_quarter():
    assert backoff(2, jitter=lowest) == pytest.approx(1.5)
    assert backoff(2, jitter=whole) == pytest.approx(2.0)
    assert all(0.375 <= backoff(0) <= 0.5 for _ in range(50))


# ---------------------------------------------------------------- what is retried


def test_server_errors_back_off_until_the_retries_are_spent():
    down = ProviderError(503, detail="down")
    assert [decide(down, n) for n in range(3)] == [Retry(0.5), Retry(1.0), Retry(2.0)]
    assert decide(down, 3) is None
    assert decide(down, 0, max_retries=0) is None


def test_a_rate_limit_waits_as_long_as_the_provider_asks():
    assert decide(RateLimitError(429, retry_after=7.0)) == Retry(7.0)
    assert decide(RateLimitError(429, retry_after=0.0)) == Retry(0.0)


def test_a_wait_longer_than_a_minute_is_surfaced_instead():
    assert decide(RateLimitError(429, retry_after=MAX_RETRY_WAIT)) == Retry(MAX_RETRY_WAIT)
    assert decide(RateLimitError(429, retry_after=MAX_RETRY_WAIT + 1)) is None


@pytest.mark.parametrize(
    "err",
    [
        AuthenticationError(401, detail="bad key"),
        ProviderError(400, detail="bad request"),
        AbortError("p", "m", "stopped by the person"),
        StreamIncompleteError("p", "m", delivered=True),
    ],
    ids=["auth", "bad-request", "abort", "incomplete-after-delivery"],
)
def test_errors_that_another_try_cannot_help_are_given_up(err):
    assert decide(err) is None


def test_nothing_is_retried_once_part_of_the_reply_was_delivered():
    assert decide(ProviderError(503), delivered=True) is None
    assert decide(StreamingUnsupportedError("no"), delivered=True) is None


def test_an_incomplete_stream_that_delivered_nothing_is_retried():
    assert decide(StreamIncompleteError("p", "m", delivered=False)) == Retry(0.5)


@pytest.mark.parametrize(
    "err", [EmptyResponseError("stop"), MalformedToolCallError(["call_1"])], ids=["empty", "bad"]
)
def test_an_empty_or_malformed_reply_is_retried_once(err):
    assert decide(err, 0) == Retry(0.5)
    assert decide(err, 1) is None


def test_a_refused_cross_origin_call_is_retried_once_and_quickly():
    refused = NetworkError("Failed to fetch", maybe_cors=True)
    assert decide(refused, 0) == Retry(CORS_RETRY_WAIT)
    assert decide(refused, 1) is None
    lost = NetworkError("connection reset")
    assert decide(lost, 1) == Retry(1.0)  # an ordinary network error backs off


# ---------------------------------------------------------------- fallbacks


def test_a_stream_refused_falls_back_to_batch_at_once():
    assert decide(StreamingUnsupportedError("no")) == Retry(0.0, Fallback.BATCH)
    batch = Stage(streaming=False, native_schema=False, images=False)
    assert decide(StreamingUnsupportedError("no"), stage=batch) is None


def test_a_refused_schema_mode_falls_back_to_the_prompt():
    refused = ProviderError(400, detail="Invalid parameter: response_format json_schema")
    native = Stage(streaming=True, native_schema=True, images=True)
    assert decide(refused, stage=native) == Retry(0.0, Fallback.PROMPT_SCHEMA)
    # Already in the prompt: the images are the next suspect.
    prompt = Stage(streaming=True, native_schema=False, images=True)
    assert decide(refused, stage=prompt) == Retry(0.0, Fallback.NO_IMAGES)


def test_a_refused_request_with_images_is_sent_again_without_them():
    refused = ProviderError(400, detail="This model does not support image input")
    assert decide(refused, stage=Stage(True, False, True)) == Retry(0.0, Fallback.NO_IMAGES)
    assert decide(refused, stage=Stage(True, False, False)) is None


def test_fallbacks_do_not_count_against_the_retries():
    refused = ProviderError(422, detail="images are not supported")
    assert decide(refused, 9, stage=Stage(True, False, True), max_retries=3) == Retry(
        0.0, Fallback.NO_IMAGES
    )


@pytest.mark.parametrize("status", [401, 403, 408, 429])
def test_statuses_that_are_not_about_the_request_never_change_it(status):
    err = ProviderError(status, detail="response_format with images")
    got = decide(err, stage=Stage(True, True, True))
    assert got is None or got.fallback is None


# ---------------------------------------------------------------- the wait


async def test_the_wait_tells_the_page_then_sleeps_on_the_fake_clock():
    clock, told, failed = Clock(), [], []
    err = RateLimitError(429, retry_after=7.0)
    await wait(
        Retry(7.0),
        err,
        sleep=clock.sleep,
        on_retry=lambda seconds, e: told.append((seconds, e)),
        on_retry_failed=lambda: failed.append(True),
    )
    assert told == [(7.0, err)] and clock.sleeps == [7.0] and clock.now == 7.0 and not failed


async def test_an_immediate_fallback_neither_tells_nor_sleeps():
    clock, told = Clock(), []
    await wait(
        Retry(0.0, Fallback.BATCH),
        StreamingUnsupportedError("no"),
        sleep=clock.sleep,
        on_retry=lambda *a: told.append(a),
        on_retry_failed=lambda: None,
    )
    assert told == [] and clock.sleeps == []


async def test_a_failing_countdown_is_reported_and_the_wait_goes_on():
    clock, failed = Clock(), []

    def broken(_seconds, _err):
        raise RuntimeError("the page's countdown broke")

    await wait(
        Retry(2.0),
        ProviderError(503),
        sleep=clock.sleep,
        on_retry=broken,
        on_retry_failed=lambda: failed.append(True),
    )
    assert failed == [True] and clock.sleeps == [2.0]


async def test_a_whole_backoff_schedule_on_the_fake_clock():
    clock = Clock()
    down = ProviderError(503)
    attempt = 0
    while (retry := decide(down, attempt)) is not None:
        await wait(retry, down, sleep=clock.sleep, on_retry=None, on_retry_failed=lambda: None)
        attempt += 1
    assert attempt == 3 and clock.sleeps == [0.5, 1.0, 2.0] and clock.now == 3.5
