"""First run: the onboarding in Chief's tab, Test connection's causes, Save's refusals.

One fresh profile (module-scoped page) walks every failure the onboarding can
meet, each simulated for real (the simulator in each role, a closed port, the
proxy Worker refusing this page), then reaches a streamed answer from Chief
through the onboarding alone; a second part checks Settings refuses unusable
settings beside the field, and that with the proxy on the page never calls the
provider directly.
"""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from proxy_worker import ProxyWorker
from wiggum_e2e import (
    booted_page,
    on_top,
    open_settings,
    save_settings,
    send,
    set_size,
    tid,
    wait_reply,
    wait_reply_containing,
)

from tests.sim import Simulator, Turn, http_error

pytestmark = pytest.mark.e2e

KEY = "sk-e2e-SECRET-firstrun"
SHOTS = Path("/tmp/shots-firstrun")


@pytest.fixture(scope="module")
def page(browser, base_url):
    with booted_page(browser, base_url) as p:
        set_size(p, 1280, 800)
        p.requests_seen = []
        p.on("request", lambda r: p.requests_seen.append(r.url))
        yield p


def closed_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def fill_onboarding(page, preset: str, base: str, key: str = KEY, proxy: str | None = None):
    page.select_option(tid("onb-provider"), preset)
    page.fill(tid("onb-base-url"), base)
    if page.locator(tid("onb-key")).is_visible():
        page.fill(tid("onb-key"), key)
    page.set_checked(tid("onb-proxy"), proxy is not None)
    if proxy is not None:
        page.fill(tid("onb-proxy-url"), proxy)


def run_test(page) -> tuple[str, str]:
    page.click(tid("onb-test"))
    res = page.locator(tid("onb-result"))
    page.wait_for_function(
        "el => el.dataset.cause && el.dataset.cause !== 'pending'",
        arg=res.element_handle(),
        timeout=30_000,
    )
    return res.get_attribute("data-cause"), res.text_content()


def test_onboarding_layout(page):
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert page.locator(tid("onboarding")).is_visible()
    # Before any key the header names no model that no request could reach.
    chip = page.locator(tid("active-provider")).text_content()
    assert "setup" in chip.lower() or "set up" in chip.lower(), chip
    # A first visit reads from the top: the card (no scroll down to an empty
    # conversation's end, which hid it under the bars).
    set_size(page, 1280, 800)
    assert page.evaluate("() => document.querySelector('.messages-scroll').scrollTop") == 0
    assert on_top(page, page.locator("#onb-title"))
    # The main path is in view without scrolling: the key, its link, Test connection.
    for name in ("onb-key", "onb-key-link", "onb-test"):
        assert on_top(page, page.locator(tid(name))), name
    controls = [
        "onb-openrouter",
        "onb-demo",
        "onb-provider",
        "onb-base-url",
        "onb-key",
        "onb-proxy",
        "onb-test",
    ]
    for size in ({"width": 1280, "height": 800}, {"width": 390, "height": 844}):
        page.set_viewport_size(size)
        for name in controls:
            assert on_top(page, tid(name), scroll=True), (size, name)
        page.screenshot(path=str(SHOTS / f"onboarding-{size['width']}.png"))
    set_size(page, 1920, 1080)
    page.screenshot(path=str(SHOTS / "onboarding-1920.png"))
    set_size(page, 1280, 800)
    # The key field is named for the provider and links to where keys are made.
    page.select_option(tid("onb-provider"), "anthropic")
    assert page.locator('label[for="onb-key"]').text_content() == "Anthropic API key"
    assert "console.anthropic.com" in page.get_attribute(tid("onb-key-link"), "href")


def test_each_failure_names_its_cause_and_fix(page):
    origin = page.evaluate("location.origin")
    with Simulator() as sim:
        sim.models_fault = http_error(401, message="Incorrect API key provided")
        fill_onboarding(page, "openai", sim.base_url + "/v1")
        cause, text = run_test(page)
        assert cause == "auth" and "platform.openai.com/api-keys" in text
        assert KEY not in text

        sim.models_fault = http_error(
            401,
            message="CORS requests are not allowed for this Organization because of its settings.",
            type="authentication_error",
        )
        fill_onboarding(page, "anthropic", sim.base_url)
        cause, text = run_test(page)
        assert cause == "org_forbids" and "organisation" in text

        sim.models_fault = http_error(404, message="no such route")
        fill_onboarding(page, "openai", sim.base_url + "/nope/v1")
        cause, text = run_test(page)
        assert cause == "not_found" and "https://api.openai.com/v1" in text

        sim.models_fault = None
        sim.set_models(["gpt-4o"], dialect="openai")  # the preset's gpt-4o-mini is not offered
        fill_onboarding(page, "openai", sim.base_url + "/v1")
        cause, text = run_test(page)
        assert cause == "model_missing" and "gpt-4o-mini" in text
        assert page.input_value(tid("onb-model")) == "gpt-4o"

        fill_onboarding(page, "openai", sim.base_url + "/v1", proxy="")
        cause, text = run_test(page)
        assert cause == "proxy_missing" and "proxy URL" in text

    with Simulator(cors=False) as bare:
        fill_onboarding(page, "mistral", bare.base_url + "/v1")
        cause, text = run_test(page)
        assert cause == "cors" and "use the proxy" in text
        # The onboarding turns the proxy on and shows where its URL goes.
        assert page.locator(tid("onb-proxy")).is_checked()
        assert page.locator(tid("onb-proxy-url")).is_visible()

    fill_onboarding(page, "ollama", f"http://127.0.0.1:{closed_port()}")
    cause, text = run_test(page)
    assert cause == "local_down" and f"OLLAMA_ORIGINS={origin}" in text
    fill_onboarding(page, "local", f"http://127.0.0.1:{closed_port()}/v1")
    cause, text = run_test(page)
    assert cause == "local_down" and "Enable CORS" in text

    # A proxy refusing this origin says so in a 403 the page can read, naming the variable.
    refusing = ProxyWorker("ALLOWED_ORIGINS=https://elsewhere.example")
    try:
        with Simulator() as sim:
            fill_onboarding(page, "openai", sim.base_url + "/v1", proxy=refusing.url)
            cause, text = run_test(page)
            assert cause == "proxy_origin", text
            assert f"origin not allowed: {origin}" in text and "ALLOWED_ORIGINS" in text
            assert not sim.all_requests  # refused at the proxy, never forwarded
    finally:
        refusing.stop()
    # A proxy refusing the provider's host says so in its 403 text.
    worker = ProxyWorker()
    try:
        fill_onboarding(page, "custom", "https://llm.example.invalid/v1", proxy=worker.url)
        cause, text = run_test(page)
        assert cause == "proxy_refused" and "host not allowed: llm.example.invalid" in text
        assert "ALLOWED_HOSTS" in text
    finally:
        worker.stop()

    dead_proxy = f"http://127.0.0.1:{closed_port()}"
    fill_onboarding(page, "openai", "https://api.openai.com/v1", proxy=dead_proxy)
    cause, text = run_test(page)
    assert cause == "proxy_unreachable"
    page.screenshot(path=str(SHOTS / "onboarding-error-1280.png"))


def test_onboarding_alone_reaches_a_streamed_answer(page):
    with Simulator() as sim:
        sim.set_models(["gpt-4o", "gpt-4o-mini"], dialect="openai")
        fill_onboarding(page, "openai", sim.base_url + "/v1")
        cause, text = run_test(page)
        assert cause in ("ok", "model_missing"), text
        page.locator(tid("onb-model")).wait_for(state="visible")
        page.fill(tid("onb-model"), "gpt-4o-mini")
        sim.script([Turn("Hello from Chief, streamed in pieces.", chunks=5, delay=0.1)])
        page.click(tid("onb-start"))
        page.locator(tid("onboarding")).wait_for(state="hidden")
        assert "gpt-4o-mini" in page.locator(tid("active-provider")).text_content()
        send(page, "hello")
        wait_reply(page, timeout=30_000)
        assert "Hello from Chief" in page.locator(tid("reply")).last.text_content()
        assert sim.chat_requests and sim.chat_requests[-1].json["model"] == "gpt-4o-mini"

        # The switcher lists the provider's models with window and price; the meter fills.
        bar = page.locator(tid("model-switcher-chief"))
        bar.wait_for(state="visible")
        page.wait_for_function(
            "() => document.querySelector('[data-testid=model-switcher-chief]').options.length >= 2"
        )
        labels = page.eval_on_selector_all(
            f"{tid('model-switcher-chief')} option", "os => os.map(o => o.textContent)"
        )
        assert any(lbl.startswith("gpt-4o · 128k context · $2.50 / $10.00") for lbl in labels)
        assert not any(lbl.startswith("p-") for lbl in labels)
        meter_text = page.text_content(tid("meter-text-chief"))
        assert meter_text.startswith("Context ") and "/ 128,000 tokens" in meter_text
        assert on_top(page, tid("model-switcher-chief"), scroll=True)
        page.screenshot(path=str(SHOTS / "chief-model-bar-1280.png"))
        # Chief switches to gpt-4o for this project; Ralph keeps his own choice.
        page.select_option(tid("model-switcher-chief"), "gpt-4o")
        sim.script([Turn("Now on the bigger model.", chunks=2)])
        send(page, "again")
        wait_reply_containing(page, "bigger model")
        assert sim.chat_requests[-1].json["model"] == "gpt-4o"
        page.click(tid("tab-ralph"))
        assert page.input_value(tid("model-switcher-ralph")) == "gpt-4o-mini"
        assert on_top(page, tid("model-switcher-ralph"), scroll=True)
        page.screenshot(path=str(SHOTS / "ralph-model-bar-1280.png"))
        page.click(tid("tab-chief"))


def test_settings_save_refuses_and_layout(page):
    open_settings(page)
    dialog = page.locator(tid("settings-dialog"))
    controls = [
        "provider-select", "provider-api-key", "provider-model", "test-connection",
        "provider-proxy", "proxy-template", "settings-save",
    ]  # fmt: skip
    for size in ({"width": 1280, "height": 800}, {"width": 390, "height": 844}):
        page.set_viewport_size(size)
        for name in controls:
            assert on_top(page, tid(name), scroll=True), (size, name)
        page.click("summary:has-text('Run your own proxy')")
        assert on_top(page, tid("worker-url"), scroll=True) and on_top(
            page, tid("use-worker"), scroll=True
        )
        page.screenshot(path=str(SHOTS / f"settings-{size['width']}.png"), full_page=False)
        page.click("summary:has-text('Run your own proxy')")
    set_size(page, 1280, 800)
    origin = page.evaluate("location.origin")
    assert f"ALLOWED_ORIGINS:{origin}" in page.text_content(tid("proxy-deploy-command"))

    # proxy on without a template, and a cloud provider without its key: both refused,
    # each beside its field (and no model list is fetched around the missing proxy)
    page.set_checked(tid("provider-proxy"), True)
    page.fill(tid("proxy-template"), "")
    page.fill(tid("provider-api-key"), "")
    page.fill(tid("provider-base-url"), "https://api.openai.com/v1")
    page.click(tid("settings-save"))
    assert dialog.is_visible()
    assert "OpenAI API key" in page.text_content(tid("api-key-error"))
    assert "no proxy URL" in page.text_content(tid("proxy-template-error"))
    page.fill(tid("provider-api-key"), KEY)
    # a template without {href}
    page.fill(tid("proxy-template"), "https://proxy.example/")
    page.click(tid("settings-save"))
    assert dialog.is_visible()
    assert "{href}" in page.text_content(tid("proxy-template-error"))
    # the worker URL field turns the address into the template
    page.click("summary:has-text('Run your own proxy')")
    page.fill(tid("worker-url"), "https://wiggum-cors-proxy.me.workers.dev")
    page.click(tid("use-worker"))
    assert page.input_value(tid("proxy-template")) == (
        "https://wiggum-cors-proxy.me.workers.dev/?url={href}"
    )
    page.keyboard.press("Escape")
    dialog.wait_for(state="hidden")


def test_proxy_on_means_no_direct_provider_request(page):
    worker = ProxyWorker()
    try:
        with Simulator() as sim:
            sim.set_models(["gpt-4o-mini"], dialect="openai")
            open_settings(page)
            page.fill(tid("provider-base-url"), sim.base_url + "/v1")
            page.fill(tid("provider-api-key"), KEY)
            page.fill(tid("provider-model"), "gpt-4o-mini")
            page.set_checked(tid("provider-proxy"), True)
            page.fill(tid("proxy-template"), worker.template)
            page.requests_seen.clear()
            page.click(tid("test-connection"))
            res = page.locator(tid("connection-result"))
            page.wait_for_function(
                "el => el.dataset.cause && el.dataset.cause !== 'pending'",
                arg=res.element_handle(),
                timeout=30_000,
            )
            assert res.get_attribute("data-cause") == "ok", res.text_content()
            save_settings(page)
            sim.script([Turn("Through the proxy.", chunks=3)])
            send(page, "via proxy")
            wait_reply_containing(page, "Through the proxy")
            direct = [u for u in page.requests_seen if u.startswith(sim.base_url)]
            assert direct == [], direct
            assert any(u.startswith(worker.url) for u in page.requests_seen)
            assert sim.chat_requests  # it did reach the provider, through the worker
    finally:
        worker.stop()
