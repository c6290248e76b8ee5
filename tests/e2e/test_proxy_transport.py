"""A provider that sends no CORS headers, reached from the page through the proxy Worker."""

from __future__ import annotations

import pytest
from proxy_worker import ProxyWorker
from wiggum_e2e import booted_page, run_async

from tests.sim import Simulator, Turn

SETUP = """
from wiggum.llm import *
from wiggum.web.fetch_transport import install
install()
True
"""

CALL = """
provider = ProviderConfig(id="nocors", kind="openai", base_url={base!r} + "/v1", model="m",
                          api_key="sk-proxy-test", proxy={proxy!r})
options = RequestOptions(proxy_template={template!r}, max_retries=0)
try:
    result = await stream(provider, [Message.user("hi")], options)
    seen = [d.text async for d in result.deltas if d.type == "content"]
    r = await result.response
    out = ["ok", r.content, len(seen)]
except LLMError as e:
    out = [type(e).__name__, getattr(e, "maybe_cors", None), None]
out
"""


@pytest.fixture(scope="module")
def worker():
    w = ProxyWorker()
    yield w
    w.stop()


@pytest.fixture(scope="module")
def ppage(browser, base_url):
    with booted_page(browser, base_url, SETUP) as page:
        yield page


def test_no_cors_provider_fails_directly_and_streams_through_the_proxy(ppage, worker):
    with Simulator(cors=False) as sim:
        # 0.15 s between the five chunks: a proxy that streams hands them over in
        # several reads (each read's text is one delta); one that buffers, in one.
        reply = Turn("through the proxy, word by word", chunks=5, delay=0.15)
        sim.script([Turn("never delivered"), reply])
        direct = run_async(
            ppage, CALL.format(base=sim.base_url, proxy=False, template=worker.template)
        )
        assert direct == ["NetworkError", True, None]
        proxied = run_async(
            ppage, CALL.format(base=sim.base_url, proxy=True, template=worker.template)
        )
        assert proxied[:2] == ["ok", "through the proxy, word by word"]
        assert proxied[2] >= 3, f"the proxy held the stream back: {proxied[2]} deltas"
        request = sim.chat_requests[-1]
        assert request.path == "/v1/chat/completions"
        assert request.header("authorization") == "Bearer sk-proxy-test"
        assert request.header("origin") is None  # the Worker strips the page's Origin
