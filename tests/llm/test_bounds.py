"""The client's own bounds, whatever the transport does: finite by default, and
kept by the client when a transport ignores ``HttpRequest.timeout``.

The fault matrix shows the bounds over real HTTP (where httpx keeps them
too); here a transport that never answers, or whose body never ends, and
pays no attention to the timeout it is given, must still not hang a call.
"""

from __future__ import annotations

import asyncio

import pytest

from wiggum.llm import (
    Message,
    ProviderConfig,
    RequestOptions,
    RequestTimeoutError,
    StreamIdleError,
    chat,
    stream,
)
from wiggum.llm.http_types import Headers
from wiggum.llm.types import DEFAULT_TIMEOUT

P = ProviderConfig(id="p", kind="openai", base_url="http://x.invalid/v1", model="m", api_key="k")
HELLO = [Message(role="user", content="hi")]


class Never:
    """A transport that never answers and never times out by itself."""

    async def send(self, request):
        await asyncio.sleep(3600)


class EndlessBody:
    """Answers at once, then its body sends nothing more, for ever."""

    def __init__(self, first: bytes) -> None:
        self.first = first

    async def send(self, request):
        first = self.first

        class Response:
            status = 200
            headers = Headers({"content-type": "text/event-stream"})

            async def aiter_bytes(self):
                yield first
                await asyncio.sleep(3600)

            async def aread(self):
                raise AssertionError("the client reads the body by pieces, each bounded")

            async def aclose(self):
                pass

        return Response()


def test_every_wait_is_bounded_by_default_as_in_the_official_sdks():
    options = RequestOptions()
    assert options.timeout == DEFAULT_TIMEOUT == 600.0
    assert options.max_retries == 2


@pytest.mark.parametrize("mode", ["chat", "stream"])
async def test_a_transport_that_never_answers_is_given_up_at_the_timeout(mode):
    options = RequestOptions(timeout=0.2)
    with pytest.raises(RequestTimeoutError) as info:
        if mode == "chat":
            await asyncio.wait_for(chat(P, HELLO, options, transport=Never()), 2)
        else:
            result = await stream(P, HELLO, options, transport=Never())
            await asyncio.wait_for(result.response, 2)
    assert info.value.timeout_seconds == 0.2 and not info.value.retryable


async def test_a_batch_body_that_stops_is_given_up_at_the_timeout():
    transport = EndlessBody(b'{"choices": [')
    with pytest.raises(RequestTimeoutError):
        await asyncio.wait_for(chat(P, HELLO, RequestOptions(timeout=0.2), transport=transport), 2)


async def test_a_stream_that_stops_is_given_up_at_the_idle_bound_or_else_the_timeout():
    first = b'data: {"choices":[{"index":0,"delta":{"content":"so far"}}]}\n\n'
    for options in (RequestOptions(idle_timeout=0.2), RequestOptions(timeout=0.2)):
        result = await stream(P, HELLO, options, transport=EndlessBody(first))
        with pytest.raises(StreamIdleError) as info:
            await asyncio.wait_for(result.response, 2)
        assert info.value.partial.content == "so far"
