"""The proxy in the app: a provider with no CORS headers fails with the proxy off
(the page says to turn it on) and streams through the local Worker once it is on."""

from __future__ import annotations

import pytest
from proxy_worker import ProxyWorker
from test_app import KEY
from wiggum_e2e import MOUNTED, configure, save_settings, send, tid, wait_reply

from tests.sim import Simulator, Turn

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def worker():
    w = ProxyWorker()
    yield w
    w.stop()


def test_no_cors_provider_needs_the_proxy_and_streams_through_it(page, worker):
    page.wait_for_selector(MOUNTED, timeout=30_000)
    with Simulator(cors=False) as sim:
        page.click(tid("settings-button"))
        # Save refuses a keyless cloud provider; a local address needs no key
        page.fill(tid("provider-base-url"), "http://127.0.0.1:9/v1")
        page.fill(tid("proxy-template"), worker.template)
        save_settings(page)

        configure(page, sim, KEY, proxy=False)
        sim.script([Turn("unreachable"), Turn("unreachable")])
        send(page, "hello without the proxy")
        said = wait_reply(page, "error", timeout=30_000).locator(tid("message-error"))
        said.wait_for(state="visible")
        assert "turn on the proxy for this provider" in said.text_content()

        sim.clear()
        sim.script([Turn("Hello through the proxy, chunk by chunk.", chunks=6, delay=0.15)])
        configure(page, sim, KEY, proxy=True)
        send(page, "hello with the proxy")
        reply = wait_reply(page, "complete", timeout=30_000)
        assert "Hello through the proxy, chunk by chunk." in reply.text_content()
        (request,) = [r for r in sim.chat_requests]
        assert request.stream is True
        assert request.header("origin") is None  # the Worker forwarded it, stripped
