"""The browser transport in real Chromium: ``js.fetch`` streamed chunk by chunk.

Python runs in the page's Pyodide and calls ``wiggum.llm.stream()`` / ``chat()``
against the provider simulator on 127.0.0.1 through ``FetchTransport``.
"""

from __future__ import annotations

import pytest
from wiggum_e2e import booted_page, run_async

from tests.sim import Gate, Simulator, Stall, Text, Turn

SETUP = """
import asyncio, time
from wiggum.llm import *
from wiggum.web.fetch_transport import install
install()
def provider(base, kind="openai", **kw):
    url = base + "/v1" if kind == "openai" else base
    return ProviderConfig(id="sim-" + kind, kind=kind, base_url=url, model="sim-model", api_key="sk-test", **kw)
True
"""


#: The gate of the stream under test: the page lets its chunks out (see below).
GATE: dict[str, Gate] = {}
#: Wire chunks before the first piece of text, per dialect.
BEFORE_CONTENT = {"openai": 1, "anthropic": 3, "ollama": 0}


@pytest.fixture(scope="module")
def tpage(browser, base_url):
    with booted_page(browser, base_url, SETUP) as page:
        page.expose_function("wiggumLetOut", lambda n: GATE["stream"].allow_until(n))
        yield page


@pytest.mark.parametrize("kind", ["openai", "anthropic", "ollama"])
def test_stream_arrives_chunk_by_chunk(tpage, kind):
    pieces = ["one ", "two ", "three ", "four ", "five ", "six"]
    with Simulator() as sim:
        GATE["stream"] = Gate()
        sim.script([Turn(Text(pieces), usage=(9, 6), gate=GATE["stream"])])
        # The page lets each piece out once it holds the one before: a transport
        # that handed the bytes over only at the end would wait for ever (here,
        # until the bound below), with the rest of the stream still held.
        out = run_async(
            tpage,
            f"""
            import js
            before, n = {BEFORE_CONTENT[kind]}, {len(pieces)}
            async def read():
                result = await stream(provider({sim.base_url!r}, {kind!r}), [Message.user("hi")])
                seen = []
                await js.wiggumLetOut(before + 1)
                async for d in result.deltas:
                    if d.type == "content":
                        seen.append(d.text)
                        await js.wiggumLetOut(before + len(seen) + 1 if len(seen) < n else 10**6)
                r = await result.response
                return r, seen
            r, seen = await asyncio.wait_for(read(), 30)
            [r.content, r.usage.total_tokens, seen]
            """,
        )
        content, total, seen = out
        assert content == "one two three four five six" and total == 15
        # Deltas were handed over as the bytes arrived, not all at the end.
        assert seen == pieces
        assert sim.chat_requests[0].stream is True


def test_abort_cancels_the_fetch_and_keeps_partial(tpage):
    with Simulator() as sim:
        sim.script([Turn("a b c d e f g h i j", chunks=10, delay=0.2)])
        out = run_async(
            tpage,
            f"""
            controller = AbortController()
            result = await stream(provider({sim.base_url!r}), [Message.user("hi")],
                                  RequestOptions(signal=controller.signal))
            n = 0
            last = None
            async for d in result.deltas:
                last = d
                if d.type == "content":
                    n += 1
                    if n == 2:
                        asyncio.get_running_loop().call_later(0.05, controller.abort)
            try:
                await result.response
                err = None
            except AbortError as e:
                err = e
            [type(last.error).__name__, err.partial.content if err else None]
            """,
        )
        assert out[0] == "AbortError"
        assert (
            out[1] and "a b c d e f g h i j".startswith(out[1]) and out[1] != "a b c d e f g h i j"
        )
        assert sim.chat_requests[0].wait() == "client_disconnected"


def test_no_cors_is_a_network_error_that_may_be_cors(tpage):
    with Simulator(cors=False) as sim:
        sim.script([Turn("never read")])
        out = run_async(
            tpage,
            f"""
            try:
                await chat(provider({sim.base_url!r}), [Message.user("hi")],
                           RequestOptions(max_retries=0))
                r = None
            except NetworkError as e:
                r = [type(e).__name__, e.maybe_cors, e.provider]
            r
            """,
        )
        assert out == ["NetworkError", True, "sim-openai"]


def test_anthropic_batch_through_cors_preflight(tpage):
    with Simulator() as sim:
        sim.script([Turn("hello from claude", usage=(3, 4))])
        out = run_async(
            tpage,
            f"""
            r = await chat(provider({sim.base_url!r}, "anthropic"), [Message.user("hi")])
            [r.content, r.finish_reason.value]
            """,
        )
        assert out == ["hello from claude", "stop"]
        request = sim.chat_requests[0]
        assert request.header("anthropic-dangerous-direct-browser-access") == "true"
        # These headers are not CORS-safelisted: reaching the server at all means the
        # browser's preflight allowed them.
        assert request.header("x-api-key") == "sk-test"


def test_stall_times_out(tpage):
    with Simulator() as sim:
        sim.script([Turn("a b c d", chunks=4, fault=Stall(after=2))])
        out = run_async(
            tpage,
            f"""
            result = await stream(provider({sim.base_url!r}), [Message.user("hi")],
                                  RequestOptions(timeout=0.8, max_retries=0))
            deltas = [d async for d in result.deltas]
            try:
                await result.response
                e = None
            except LLMError as err:
                e = err
            [type(e).__name__, e.provider, deltas[-1].type, e.partial.content]
            """,
        )
        # a started stream that goes quiet: the client's own bound (no timer per read)
        assert out[:3] == ["StreamIdleError", "sim-openai", "error"]
        assert out[3] and "a b c d".startswith(out[3])  # what arrived is kept


def test_a_redirect_within_the_providers_origin_is_followed_with_the_key(tpage):
    with Simulator() as sim:
        sim.redirects["/v1/chat/completions"] = sim.base_url + "/v2/chat/completions"
        sim.script([Turn("moved but answered")])
        out = run_async(
            tpage,
            f"""
            r = await chat(provider({sim.base_url!r}), [Message.user("hi")],
                           RequestOptions(max_retries=0))
            r.content
            """,
        )
        assert out == "moved but answered"
        # the probe that learned where the redirect ends carried no key and no body
        probes = [r for r in sim.requests if not r.body]
        assert probes and all(not r.header("authorization") for r in probes)
        (answered,) = sim.chat_requests
        assert answered.path == "/v2/chat/completions"
        assert answered.header("authorization") == "Bearer sk-test"


def test_a_redirect_to_another_origin_is_refused_and_the_key_never_goes_there(tpage):
    with Simulator() as sim:
        elsewhere = sim.base_url.replace("127.0.0.1", "localhost")
        sim.redirects["/v1/chat/completions"] = elsewhere + "/v2/chat/completions"
        sim.script([Turn("must not be asked")])
        out = run_async(
            tpage,
            f"""
            try:
                await chat(provider({sim.base_url!r}), [Message.user("hi")])
                e = None
            except LLMError as err:
                e = err
            [type(e).__name__, e.detail, e.retryable]
            """,
        )
        assert out == ["RedirectError", elsewhere, False]
        there = [r for r in sim.requests if r.header("host", "").startswith("localhost")]
        assert all(not r.header("authorization") and not r.body for r in there)
        assert not sim.chat_requests  # the turn was never asked for
