"""The first-run form in Chief's tab over the provider simulator: what the
person fills in, Test connection through the real route (HTTP to the
simulator's model list), and "Start chatting" only after a passed test.

The decisions are ``wiggum.session.onboarding.FirstRun``'s (tested in
``tests/session``); this holds the view to them: the test's line, the model
row it opens, the proxy it turns on, and what reaches the app.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.sim import Simulator, http_error
from tests.web.fake_dom import FakeBrowser, is_shown


class Quick:
    """The quick ways in: what was asked, and the local servers ``servers`` lists
    (asked over real HTTP, ``reachable`` any answer at all)."""

    def __init__(self) -> None:
        self.asked: list[str] = []
        self.servers: tuple[Any, ...] = ()

    def connect_openrouter(self) -> None:
        self.asked.append("openrouter")

    def demo(self) -> None:
        self.asked.append("demo")

    async def find_local(self) -> list[Any]:
        from tests.session.test_local_servers import Browserlike, reachable
        from wiggum.llm.httpx_transport import HttpxTransport
        from wiggum.session.local_servers import find_local_servers

        self.asked.append("local")
        browser = Browserlike(HttpxTransport(), ORIGIN)  # a refused origin fails the fetch
        return await find_local_servers(
            ORIGIN, reachable, browser, servers=self.servers, host="127.0.0.1"
        )


ORIGIN = "http://127.0.0.1:8000"


class Form:
    """The onboarding view on a fake page, and what reached the app."""

    def __init__(self, dom: FakeBrowser) -> None:
        from wiggum.web.views.onboarding import Onboarding

        self.dom = dom
        self.done: list[tuple[Any, str]] = []
        self.settings_opened = 0
        self.quick = Quick()
        #: The chips the form asked the header for (``None``: the settings' own again).
        self.chips: list[Any] = []
        self.view = Onboarding(
            self.on_done,
            origin=ORIGIN,
            open_settings=self.open_settings,
            quick=self.quick,
            on_tested=self.chips.append,
        )
        dom.document.getElementById("app-root").appendChild(self.view.el)

    async def on_done(self, provider: Any, template: str) -> None:
        self.done.append((provider, template))

    def open_settings(self) -> None:
        self.settings_opened += 1

    def find(self, testid: str) -> Any:
        return self.view.el.querySelector(f'[data-testid="{testid}"]')

    def fill(self, testid: str, value: str) -> None:
        """Type ``value`` into a field (the form hears it as the browser says it)."""
        field = self.find(testid)
        field.value = value
        field.dispatch("input")

    def choose(self, preset_id: str) -> None:
        self.find("onb-provider").value = preset_id
        self.find("onb-provider").dispatch("change")

    def click(self, testid: str) -> None:
        found = self.find(testid)
        assert found and is_shown(found), f"{testid} is not there to click"
        found.click()

    async def test_connection(self) -> Any:
        self.click("onb-test")
        result = self.find("onb-result")
        assert result.getAttribute("data-cause") == "pending"  # at once, before the answer
        # The simulator answers over HTTP.
        await self.dom.until(lambda: result.getAttribute("data-cause") != "pending")
        return result


@pytest.fixture
def form(dom, transport, monkeypatch) -> Form:
    import wiggum.llm.transport as transport_module

    # The route the chat takes (in the page: fetch), here HTTP in this test's loop.
    monkeypatch.setattr(transport_module, "_default", transport)
    return Form(dom)


def to_sim(form: Form, sim: Simulator) -> None:
    form.choose("custom")
    form.fill("onb-base-url", sim.base_url + "/v1")
    form.fill("onb-key", "sk-sim-first-run")


async def test_a_passed_test_offers_the_models_and_start_hands_the_provider_over(form, sim):
    sim.set_models(["gpt-4o-mini", "gpt-4o"])
    to_sim(form, sim)
    form.fill("onb-model", "not-listed")
    assert not is_shown(form.view.model_row)
    result = await form.test_connection()
    # The key works; the model typed is not the provider's: pick one of the list.
    assert result.getAttribute("data-cause") == "model_missing"
    assert is_shown(form.view.model_row)
    listed = [o.value for o in form.view.models.querySelectorAll("option")]
    assert sorted(listed) == ["gpt-4o", "gpt-4o-mini"]
    assert form.find("onb-model").value == listed[0]  # the typed one is not offered
    assert form.dom.document.activeElement is form.find("onb-model")

    form.click("onb-start")
    await form.dom.flush()
    ((provider, template),) = form.done
    assert provider.base_url == sim.base_url + "/v1" and provider.model == listed[0]
    assert provider.key == "sk-sim-first-run" and template == ""


async def test_start_does_nothing_before_a_passed_test_and_after_a_change(form, sim):
    sim.set_models(["gpt-4o-mini"])
    to_sim(form, sim)
    start = form.view.el.querySelector("[data-action=onb-start]")
    start.click()  # hidden with its row: even a script's click starts nothing
    await form.dom.flush()
    assert form.done == []
    await form.test_connection()
    form.fill("onb-key", "sk-another")  # the test was for the other key
    assert not is_shown(form.view.model_row)
    start.click()
    await form.dom.flush()
    assert form.done == []


async def test_a_passed_test_makes_the_chip_say_ready_until_the_form_changes(form, sim):
    sim.set_models(["gpt-4o-mini"])
    form.choose("openai")
    form.fill("onb-base-url", sim.base_url + "/v1")
    form.fill("onb-key", "sk-sim-first-run")
    assert form.chips == []
    form.view.show_notice("Not sent. Connect a provider with this form first.")
    await form.test_connection()
    assert not is_shown(form.find("onb-notice"))  # done what it asked
    (chip,) = form.chips
    assert chip.name == "OpenAI: ready" and "finish setup" not in chip.name
    assert "Start chatting" in chip.title
    form.fill("onb-key", "sk-another")  # the test was for the other key
    assert form.chips[-1] is None


async def test_the_card_says_why_an_action_waits_for_it_and_clears_it(form):
    notice = form.find("onb-notice")
    assert not is_shown(notice)
    form.view.show_notice("Not sent. Connect a provider with this form first.")
    assert is_shown(notice) and "Connect a provider" in notice.textContent
    form.view.show_notice(None)
    assert not is_shown(notice)


async def test_a_refused_key_says_why_and_offers_no_model(form, sim):
    sim.models_fault = http_error(401)
    to_sim(form, sim)
    result = await form.test_connection()
    assert result.getAttribute("data-cause") not in ("ok", "pending")
    assert result.textContent.strip() and not is_shown(form.view.model_row)
    assert not form.find("onb-test").disabled


async def test_more_settings_opens_settings(form):
    form.view.el.querySelector("[data-action=onb-settings]").click()
    assert form.settings_opened == 1


async def test_openrouter_and_the_demo_are_a_click_away(form):
    form.click("onb-openrouter")
    form.click("onb-demo")
    assert form.quick.asked == ["openrouter", "demo"]


async def test_local_servers_are_listed_with_their_models_and_use_keeps_one(form, sim):
    from wiggum.session.local_servers import LocalServer

    sim.set_models(["llama3.2", "qwen2.5-coder"])
    with Simulator(cors=False) as refusing:
        form.quick.servers = (
            LocalServer("LM Studio", sim.port, "local"),
            LocalServer("vLLM", refusing.port, "local"),
        )
        form.view.shown()  # served from this computer: it looks at once, and once
        form.view.shown()
        await form.dom.until(lambda: form.find("onb-local-list").querySelectorAll("li"))
    assert form.quick.asked == ["local"]
    rows = form.find("onb-local-list").querySelectorAll("li")
    assert "llama3.2, qwen2.5-coder" in rows[0].textContent
    assert "--allowed-origins" in rows[1].textContent and ORIGIN in rows[1].textContent
    assert not rows[1].querySelector("[data-action=onb-use-local]")
    rows[0].querySelector("[data-action=onb-use-local]").click()
    await form.dom.flush()
    ((provider, template),) = form.done
    assert provider.base_url == f"http://127.0.0.1:{sim.port}/v1"
    assert provider.model == "llama3.2" and template == ""


async def test_no_server_found_is_said_and_the_button_looks_again(form):
    import socket

    from wiggum.session.local_servers import NONE_FOUND, LocalServer

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    form.quick.servers = (LocalServer("Ollama", port, "ollama"),)
    form.click("onb-find-local")
    status = form.find("onb-local-status")
    await form.dom.until(lambda: status.textContent == NONE_FOUND)
    assert not form.find("onb-local-list").querySelectorAll("li")


async def test_the_cors_proxy_is_not_offered_for_a_server_on_this_machine(form):
    box = form.find("onb-proxy")
    for local in ("ollama", "local"):
        form.choose(local)
        assert not is_shown(box.parentElement) and not box.checked
    form.choose("anthropic")  # a provider on the web: offered (on where browsers are refused)
    assert is_shown(box.parentElement)
