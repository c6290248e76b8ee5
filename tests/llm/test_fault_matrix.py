"""Every fault a provider can commit × ``stream()`` / ``chat()`` × the three dialects.

A real asyncio server on loopback (``fault_server.py``) commits each fault of
``faults.py`` in the OpenAI, Anthropic and Ollama wire formats; the client
talks to it through ``HttpxTransport`` with short bounds (``faults.TIMEOUT``,
``faults.IDLE``) and a ``sleep`` that spends no wall time on retry waits.
Each case must end within twice its bound (nothing hangs), with the right
error class (or the reply), the right number of requests (what is retried,
and what is not), the partial text and usage kept where they had arrived,
``explain()``'s title, the same words from the error's stored record (the
page after a reload), and the API key nowhere in the error or the logs.
"""

from __future__ import annotations

import asyncio
import logging
import time

import pytest

from tests.llm.fault_server import FaultServer, refused_port
from tests.llm.faults import (
    ALL_TRIES,
    ELSEWHERE,
    FAULTS,
    HANDLERS,
    IDLE,
    ROOMY_IDLE,
    ROOMY_TIMEOUT,
    TIMEOUT,
    Fault,
    Outcome,
)
from wiggum.chief.records import ErrorRecord
from wiggum.llm import (
    ErrorDelta,
    FinishReason,
    LLMError,
    Message,
    ProviderConfig,
    RequestOptions,
    ToolDefinition,
    chat,
    stream,
)
from wiggum.llm.httpx_transport import HttpxTransport
from wiggum.ui.errors import explain

DIALECTS = ("openai", "anthropic", "ollama")
MODES = ("stream", "chat")
KEY = "sk-fault-matrix-SECRET-0123456789"
#: Past this a case counts as hung, whatever its bound (a retried case makes
#: three requests).
HANG = 8.0
WEATHER = ToolDefinition(
    name="weather",
    description="The weather in a city",
    parameters={"type": "object", "properties": {"city": {"type": "string"}}},
)
CASES = [
    pytest.param(fault, mode, dialect, id=f"{fault.name}-{mode}-{dialect}")
    for fault in FAULTS
    for mode in MODES
    for dialect in DIALECTS
]


class Sleeps(list):
    """Retry waits, remembered and not slept."""

    async def __call__(self, seconds: float) -> None:
        self.append(seconds)


async def run_case(server: FaultServer, fault: Fault, mode: str, dialect: str, case: str):
    """``(response, error, deltas, sleeps, seconds)`` of one call against the fault."""
    if fault.name == "refused":
        base = f"http://127.0.0.1:{refused_port()}/{case}/ok/{dialect}"
    else:
        base = server.base_url(case, fault.name, dialect)
    provider = ProviderConfig(
        id=f"fault-{dialect}", name="Fault", kind=dialect, base_url=base, model="m", api_key=KEY
    )
    sleeps = Sleeps()
    ended_by_a_bound = fault.expect(mode, dialect).bound > 0
    options = RequestOptions(
        timeout=TIMEOUT if ended_by_a_bound else ROOMY_TIMEOUT,
        idle_timeout=IDLE if ended_by_a_bound else ROOMY_IDLE,
        sleep=sleeps,
        tools=[WEATHER] if fault.name == "truncated_tool_args" else None,
    )
    transport = HttpxTransport()
    messages = [Message(role="user", content="hello")]
    response = error = None
    deltas: list = []
    started = time.monotonic()
    try:
        if mode == "chat":
            response = await chat(provider, messages, options, transport=transport)
        else:
            result = await stream(provider, messages, options, transport=transport)
            async for delta in result.deltas:
                deltas.append(delta)
            response = await result.response
    except LLMError as err:
        error = err
    finally:
        await transport.aclose()
    return response, error, deltas, sleeps, time.monotonic() - started


def check_reply(response, expected: Outcome, fault: Fault, mode: str, dialect: str) -> None:
    assert response is not None
    if fault.name == "truncated_tool_args":
        assert response.finish_reason is FinishReason.LENGTH
        (call,) = response.tool_calls
        assert call.name == "weather"
        if dialect == "openai" or (dialect == "anthropic" and mode == "stream"):
            # the arguments were cut: flagged, never taken for complete ones
            assert call.truncated
        return
    assert response.content == expected.content
    assert response.usage is not None
    assert (response.usage.prompt_tokens, response.usage.completion_tokens) == (5, 2)


def check_error(error, deltas, expected: Outcome, mode: str) -> None:
    assert type(error) is expected.error, repr(error)
    if mode == "stream":
        assert isinstance(deltas[-1], ErrorDelta) and deltas[-1].error is error
    partial = error.partial
    text = partial.content if partial is not None else ""
    assert text == expected.content
    if mode == "stream":
        assert (
            "".join(getattr(d, "text", "") for d in deltas if type(d).__name__ == "ContentDelta")
            == text
        )
    usage = partial.usage if partial is not None else None
    assert (usage is not None) == expected.usage, usage
    if expected.usage:
        assert usage.prompt_tokens == 5
    if expected.detail is not None:
        assert error.detail == expected.detail
    live = explain(error, provider_name="Fault")
    assert live is not None and live.title == expected.title, live
    assert "HTTP 0" not in live.message
    stored = explain(ErrorRecord.from_error(error).model_dump(), provider_name="Fault")
    assert stored == live  # the page after a reload says the same
    assert KEY not in repr(error) + str(error) + live.message


@pytest.mark.parametrize(("fault", "mode", "dialect"), CASES)
async def test_fault(fault: Fault, mode: str, dialect: str, caplog):
    caplog.set_level(logging.DEBUG, logger="wiggum")
    expected = fault.expect(mode, dialect)
    case = f"{fault.name}-{mode}-{dialect}"
    async with FaultServer(HANDLERS) as server:
        response, error, deltas, sleeps, seconds = await asyncio.wait_for(
            run_case(server, fault, mode, dialect, case), HANG
        )
        seen = server.requests(case)
        if expected.bound:
            assert seconds <= 2 * expected.bound + 0.5, f"gave up after {seconds:.2f} s"
        if expected.error is None:
            assert error is None, repr(error)
            check_reply(response, expected, fault, mode, dialect)
        else:
            check_error(error, deltas, expected, mode)
        if expected.requests is not None:
            assert len(seen) == expected.requests, [s.path for s in seen]
        # every attempt after the first waited once (a redirect followed is no new attempt)
        tries = expected.requests or ALL_TRIES
        hops = 1 if fault.name == "redirect_same_origin" else 0
        assert len(sleeps) == tries - 1 - hops, sleeps
        # the key went only where the person sent it: never across a redirect
        assert not server.requests(ELSEWHERE)
        assert all(s.headers.get(_key_header(dialect)) for s in seen)
    assert KEY not in caplog.text
    if fault.name == "invalid_utf8":
        assert "llm:invalid-utf8" in [r.getMessage() for r in caplog.records]


def _key_header(dialect: str) -> str:
    return "x-api-key" if dialect == "anthropic" else "authorization"


def test_the_matrix_has_at_least_thirty_fault_kinds():
    assert len(FAULTS) >= 30 and len({f.name for f in FAULTS}) == len(FAULTS)


async def test_a_rate_limit_waits_as_long_as_retry_after_says_in_seconds_or_as_a_date():
    async with FaultServer(HANDLERS) as server:
        for name, low, high in (("rate_limit_seconds", 1.0, 1.0), ("rate_limit_date", 0.5, 2.0)):
            fault = next(f for f in FAULTS if f.name == name)
            _, _, _, sleeps, _ = await run_case(server, fault, "chat", "openai", name)
            assert sleeps and all(low <= s <= high for s in sleeps), sleeps


async def test_retries_wait_no_longer_than_the_official_sdks():
    # 0.5 s, then 1 s, each less up to a quarter: the openai and anthropic SDKs' schedule
    async with FaultServer(HANDLERS) as server:
        fault = next(f for f in FAULTS if f.name == "server_error_json")
        _, error, _, sleeps, _ = await run_case(server, fault, "chat", "anthropic", "schedule")
        assert error is not None and len(sleeps) == 2
        assert 0.375 <= sleeps[0] <= 0.5 and 0.75 <= sleeps[1] <= 1.0
