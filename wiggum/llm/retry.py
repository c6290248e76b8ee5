"""The retry policy of one request: whether to try again, how, and after how long.

After an attempt fails with an :class:`LLMError`, :func:`next_attempt` decides,
from the error and what the request can still change, one of three things:

- give up (``None``): the error goes to the caller;
- try again at once with the request changed (a :class:`Fallback`): the
  provider said it cannot stream, cannot take the JSON-schema mode, or
  refused the images -- each is tried once per request;
- try again after a wait: 429 honouring ``Retry-After`` (a provider asking
  for more than :data:`MAX_RETRY_WAIT` gets its error surfaced instead), 5xx
  and dropped connections with exponential backoff (:func:`backoff`: the
  official OpenAI and Anthropic SDKs' schedule, 0.5 s doubling up to 8 s,
  less up to a quarter of jitter), an empty reply or nameless tool calls
  once, a browser's refused cross-origin call once and quickly.

What cannot change is not retried (``retryable`` is false): an answer that
could not be understood (a web page, garbage: the same address gives the
same answer), a request that waited its whole timeout or idle bound (the
person has waited that long already), a redirect to another origin, and the
4xx answers about the request or the key.

Nothing is retried once a part of the reply has been handed to the consumer
(``delivered``): the consumer would see it twice.

:func:`next_attempt` is pure (the jitter is injectable); :func:`wait` tells
``on_retry`` and sleeps through the injected ``sleep``, so tests drive both
with a fake clock and spend no wall time.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .errors import (
    AbortError,
    EmptyResponseError,
    LLMError,
    MalformedToolCallError,
    NetworkError,
    ProviderError,
    StreamingUnsupportedError,
)

__all__ = ["MAX_RETRY_WAIT", "Fallback", "Retry", "Stage", "backoff", "next_attempt", "wait"]

#: A provider asking us to wait longer than this gets its error surfaced instead.
MAX_RETRY_WAIT = 60.0
#: How long the one retry of a refused cross-origin call waits.
CORS_RETRY_WAIT = 0.5

#: 4xx statuses that say nothing about the request's shape: never a reason to change it.
_NOT_ABOUT_THE_REQUEST = (401, 403, 408, 429)


class Fallback(StrEnum):
    """A change to the request that the next attempt makes."""

    #: The provider cannot stream: ask for the whole body.
    BATCH = "batch"
    #: The provider refused the native JSON-schema mode: put the schema in the prompt.
    PROMPT_SCHEMA = "prompt-schema"
    #: The provider refused the request and it holds images: send it without them.
    NO_IMAGES = "no-images"


@dataclass(frozen=True, slots=True)
class Stage:
    """What the request can still change, for :func:`next_attempt`."""

    #: The request asks for a stream (a batch request cannot fall back to batch).
    streaming: bool
    #: The request uses the provider's native JSON-schema mode.
    native_schema: bool
    #: The request holds images that were not stripped yet.
    images: bool


@dataclass(frozen=True, slots=True)
class Retry:
    """Try again after ``delay`` seconds, changed by ``fallback`` if it is set."""

    delay: float
    fallback: Fallback | None = None


#: The first retry's wait and the most any wait grows to, in seconds (the SDKs').
FIRST_WAIT, LONGEST_WAIT = 0.5, 8.0


def backoff(attempt: int, *, jitter: Callable[[float, float], float] = random.uniform) -> float:
    """Exponential backoff with jitter: 0.5 s, 1 s, 2 s … capped at 8 s, each
    less up to a quarter (so retries of many clients do not land together)."""
    return min(LONGEST_WAIT, FIRST_WAIT * 2.0**attempt) * jitter(0.75, 1.0)


def _fallback(err: LLMError, stage: Stage) -> Fallback | None:
    if isinstance(err, StreamingUnsupportedError) and stage.streaming:
        return Fallback.BATCH
    if (
        isinstance(err, ProviderError)
        and 400 <= err.status < 500
        and err.status not in _NOT_ABOUT_THE_REQUEST
    ):
        detail = (err.detail or "").lower()
        if stage.native_schema and ("response_format" in detail or "schema" in detail):
            return Fallback.PROMPT_SCHEMA
        if stage.images:
            return Fallback.NO_IMAGES
    return None


def next_attempt(
    err: LLMError,
    attempt: int,
    *,
    delivered: bool,
    stage: Stage,
    max_retries: int,
    jitter: Callable[[float, float], float] = random.uniform,
) -> Retry | None:
    """After attempt number ``attempt`` (0 for the first) failed with ``err``:
    the next attempt, or ``None`` to give up."""
    if delivered or isinstance(err, AbortError):
        return None
    fallback = _fallback(err, stage)
    if fallback is not None:
        return Retry(0.0, fallback)
    if not err.retryable or attempt >= max_retries:
        return None
    if isinstance(err, (EmptyResponseError, MalformedToolCallError)) and attempt >= 1:
        # Both are retried once; a second bad reply goes to the caller.
        return None
    if isinstance(err, NetworkError) and err.maybe_cors:
        # A browser refusing a cross-origin call looks like a dropped connection.
        # One quick retry covers a real blip; more would only delay the advice
        # to turn on the proxy.
        return None if attempt >= 1 else Retry(CORS_RETRY_WAIT)
    retry_after = getattr(err, "retry_after", None)
    delay = retry_after if retry_after is not None else backoff(attempt, jitter=jitter)
    return None if delay > MAX_RETRY_WAIT else Retry(delay)


async def wait(
    retry: Retry,
    err: LLMError,
    *,
    sleep: Callable[[float], Awaitable[Any]],
    on_retry: Callable[[float, Any], Any] | None,
    on_retry_failed: Callable[[], None],
) -> None:
    """Tell ``on_retry`` (a page shows a countdown), then ``sleep`` the delay.

    A fallback tried at once tells nobody and sleeps not at all.  A failing
    ``on_retry`` is reported through ``on_retry_failed`` and never breaks the
    call: it only displays the wait.
    """
    if retry.delay <= 0:
        return
    if on_retry is not None:
        try:
            on_retry(retry.delay, err)
        except Exception:
            on_retry_failed()
    await sleep(retry.delay)
