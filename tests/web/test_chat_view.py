"""Chief's chat view over a real session: ``ChiefSession`` driving a real
``ChiefChat`` that talks HTTP to the provider simulator, drawn by the real
``ChatView`` into the fake DOM, clicked the way a person clicks.

What it holds the view to: Send on the first screen queues and says so, and
the bind sends it; a reply lands in the message list; Retry, Continue,
Regenerate and Edit show exactly where the session's ``TurnActions`` says;
Stop, Retry and the banner's Settings reach the session and the app through
the view's clicks; a refusal shows its banner (``data-kind="paused"`` when
another tab owns the project) and keeps the draft; the stored conversation
draws before a chat is bound.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.session.fakes import FakeHost, sim_settings
from tests.sim import Disconnect, Simulator, Stall, Turn, http_error
from tests.web.fake_dom import FakeBrowser, is_shown
from wiggum.persist import MemoryAppStorage
from wiggum.session import providers
from wiggum.session.turns import TurnState


class Context:
    """The open project's side of Chief's session (``ChiefContext``), over real settings."""

    def __init__(self, settings: Any) -> None:
        self.settings = settings
        self.paused_text: str | None = None

    @property
    def proxy_template(self) -> str:
        return self.settings.proxy_template

    def paused(self) -> str | None:
        return self.paused_text

    def provider(self) -> Any:
        return providers.provider_for(self.settings, "p1", "chief")

    def request_options(self, provider: Any) -> Any:
        return providers.request_options(self.settings, provider)

    async def title_chat(self, text: str) -> None:
        pass

    def local_fix(self) -> str | None:
        return None

    def images_warning(self, count: int) -> str | None:
        return None

    async def new_chat(self) -> None:
        pass

    async def switch_chat(self, chat_id: str) -> None:
        pass

    async def rename_chat(self, chat_id: str, title: str) -> None:
        pass

    async def delete_chat(self, chat_id: str) -> None:
        pass


class Page:
    """Chief's tab on a fake page: the session, its view, and what the view shows."""

    def __init__(self, dom: FakeBrowser, sim: Simulator, transport: Any) -> None:
        from wiggum.session.chief import ChiefSession
        from wiggum.web.views.chat import ChatView

        self.dom, self.sim, self.transport = dom, sim, transport
        self.host = FakeHost()
        self.session = ChiefSession(self.host)
        self.context = Context(sim_settings(sim))
        self.settings_opened = 0
        self.view = ChatView(self.session, self.open_settings)
        dom.document.getElementById("app-root").appendChild(self.view.el)
        self.storage = MemoryAppStorage()

    def open_settings(self) -> None:
        self.settings_opened += 1

    async def chat(self) -> Any:
        from wiggum.chief.chat import ChiefChat

        project = await self.storage.create_project("Bakery")
        # Retries wait on the host's clock: no wall time.
        chat = ChiefChat(
            self.storage, project["id"], transport=self.transport, sleep=self.host.sleep
        )
        await chat.load()
        return chat

    async def bind(self) -> Any:
        """The app has loaded: the session gets its project and a chat."""
        chat = await self.chat()
        self.session.attach(self.context)
        self.session.bind(chat)
        return chat

    # -- the person

    def type(self, text: str) -> None:
        self.find("chat-input").value = text

    def click(self, testid: str, within: Any = None) -> None:
        """Click ``testid`` as a person does: only where it shows."""
        found = (within or self.view.el).querySelector(f'[data-testid="{testid}"]')
        assert found and is_shown(found), f"{testid} is not there to click"
        found.click()

    async def settle(self) -> None:
        await self.host.settle()
        await self.dom.flush()

    # -- what shows

    def find(self, testid: str) -> Any:
        return self.view.el.querySelector(f'[data-testid="{testid}"]')

    def all(self, testid: str) -> list[Any]:
        return self.view.el.querySelectorAll(f'[data-testid="{testid}"]')

    def shows(self, testid: str) -> bool:
        found = self.find(testid)
        return bool(found) and is_shown(found)

    def texts(self, testid: str) -> list[str]:
        return [el.textContent for el in self.all(testid)]

    def buttons(self) -> dict[str, list[int]]:
        """Which turn shows each of its buttons, by its first round's seq; and the
        messages whose Edit shows."""
        shown: dict[str, list[int]] = {"retry": [], "continue": [], "regenerate": [], "edit": []}
        for turn in self.all("reply"):
            seq = int(turn.querySelector("[data-testid=round]").getAttribute("data-seq"))
            for name in ("retry", "continue", "regenerate"):
                if is_shown(turn.querySelector(f"[data-testid={name}-button]")):
                    shown[name].append(seq)
        for message in self.view.el.querySelectorAll(".msg-user"):
            if is_shown(message.querySelector("[data-testid=edit-button]")):
                shown["edit"].append(int(message.getAttribute("data-seq")))
        return shown

    def expected_buttons(self) -> dict[str, list[int]]:
        """What the session's ``TurnActions`` says should show."""
        a = self.session.actions
        users = [
            int(m.getAttribute("data-seq")) for m in self.view.el.querySelectorAll(".msg-user")
        ]
        return {
            "retry": [] if a.retry is None else [a.retry],
            "continue": [] if a.resume is None else [a.resume],
            "regenerate": [] if a.regenerate is None else [a.regenerate],
            "edit": users if a.edit else [],
        }


@pytest.fixture
def page(dom, sim, transport) -> Page:
    return Page(dom, sim, transport)


# ------------------------------------------------------------------ the first screen


async def test_send_before_the_app_has_loaded_queues_and_the_bind_sends_it(page):
    from wiggum.ui.markup.chat import QUEUED_TEXT

    page.type("Hello Chief")
    page.click("send-button")
    assert page.session.state is TurnState.QUEUED
    assert page.shows("chief-activity") and page.find("chief-activity").textContent == QUEUED_TEXT
    assert page.shows("stop-button") and not page.shows("send-button")
    assert page.find("chat-input").value == "Hello Chief"  # waits in the box
    assert page.view.el.classList.contains("is-busy")

    page.sim.script([Turn("Hello! What shall we build?", chunks=3)])
    await page.bind()
    assert page.find("chat-input").value == ""  # it went out
    await page.settle()
    assert page.texts("message-user") == ["Hello Chief"]
    assert page.texts("message-assistant") == ["Hello! What shall we build?"]
    assert [r.json["messages"][-1]["content"] for r in page.sim.chat_requests] == ["Hello Chief"]
    assert not page.shows("chief-activity") and not page.shows("stop-button")
    assert page.shows("send-button") and not page.view.el.classList.contains("is-busy")


async def test_stop_takes_back_a_message_queued_on_the_first_screen(page):
    page.type("Hello Chief")
    page.click("send-button")
    page.click("stop-button")
    assert page.session.state is TurnState.IDLE
    assert not page.shows("chief-activity") and page.shows("send-button")
    await page.bind()
    await page.settle()
    assert page.sim.chat_requests == [] and page.texts("message-user") == []
    assert page.find("chat-input").value == "Hello Chief"


async def test_the_stored_conversation_draws_before_a_chat_is_bound(page):
    page.view.show_stored(
        [
            {"seq": 0, "role": "user", "content": "A page for my bakery"},
            {"seq": 1, "role": "assistant", "content": "Sure, **three** sections."},
            "not a row",  # skipped, as the app's own load skips it
            {"seq": 2, "role": "assistant", "content": "cut", "status": "streaming"},
        ]
    )
    assert page.texts("message-user") == ["A page for my bakery"]
    bodies = page.all("message-assistant")
    assert bodies[0].querySelector("strong").textContent == "three"
    # A reply stored while it streamed was cut off when the page went away.
    assert page.all("round")[-1].getAttribute("data-status") == "interrupted"
    assert not is_shown(page.view.empty)
    # Read-only until the chat arrives: no Edit, no turn buttons.
    assert page.buttons() == {"retry": [], "continue": [], "regenerate": [], "edit": []}


# ------------------------------------------------------------------ replies


async def test_a_reply_renders_into_the_message_list_and_copies(page):
    page.sim.script([Turn("Here is **the plan**:\n\n```html\n<h1>Hi</h1>\n```\n", chunks=5)])
    await page.bind()
    assert is_shown(page.view.empty)
    page.type("Plan it")
    page.click("send-button")
    assert page.shows("stop-button") and page.find("chat-input").value == ""
    await page.settle()
    assert not is_shown(page.view.empty)
    body = page.find("message-assistant")
    assert body.querySelector("strong").textContent == "the plan"
    assert body.querySelector(".codeblock pre code").textContent == "<h1>Hi</h1>\n"
    reply = page.find("reply")
    assert reply.getAttribute("data-status") == "complete" and page.shows("usage")

    page.click("copy-message", within=reply)
    body.querySelector("[data-action=copy-code]").click()
    await page.dom.flush()
    assert page.dom.clipboard.written == [
        "Here is **the plan**:\n\n```html\n<h1>Hi</h1>\n```",
        "<h1>Hi</h1>\n",
    ]


@pytest.mark.parametrize(
    ("second", "state"),
    [
        (Turn("Second answer."), TurnState.IDLE),
        (http_error(400), TurnState.FAILED),
        (Turn("Half an answer", chunks=4, fault=Disconnect(after=2)), TurnState.FAILED),
    ],
    ids=["complete", "failed", "dropped"],
)
async def test_the_turn_buttons_show_where_the_session_says(page, second, state):
    page.sim.script([Turn("First answer."), second])
    await page.bind()
    for text in ("one", "two"):
        page.type(text)
        page.click("send-button")
        await page.settle()
    assert page.session.state is state
    assert page.buttons() == page.expected_buttons()
    shown = page.buttons()
    assert shown["edit"] == [0, 2]
    assert sum(len(v) for k, v in shown.items() if k != "edit") >= 1  # the last turn has one
    assert all(seq == 3 for k, v in shown.items() if k != "edit" for seq in v)
    if state is TurnState.FAILED:
        last = page.all("reply")[-1]
        # said once: in the failed reply, not again in a banner
        assert not page.shows("error-banner") and is_shown(
            last.querySelector("[data-testid=message-error]")
        )
        page.dom.forgive()  # the failed request is logged; the reply says it


async def test_stop_and_retry_clicked_reach_the_session(page):
    page.sim.script([Turn("The first half of it", chunks=4, fault=Stall(after=2))])
    chat = await page.bind()
    page.type("Hi")
    page.click("send-button")
    await page.dom.until(lambda: chat.records and chat.records[-1].content)
    # While it streams: no turn buttons, no Edit, Stop instead of Send.
    assert (
        page.buttons()
        == page.expected_buttons()
        == {
            "retry": [],
            "continue": [],
            "regenerate": [],
            "edit": [],
        }
    )
    assert not page.shows("send-button")
    page.click("stop-button")
    await page.settle()
    assert page.session.state is TurnState.STOPPED
    assert page.find("reply").getAttribute("data-status") == "stopped"
    assert (
        page.buttons()
        == page.expected_buttons()
        == {
            "retry": [1],
            "continue": [1],
            "regenerate": [],
            "edit": [0],
        }
    )

    page.sim.script([Turn("A whole answer.")])
    page.click("retry-button")
    assert page.shows("stop-button")
    await page.settle()
    assert len(page.sim.chat_requests) == 2
    assert page.texts("message-assistant") == ["A whole answer."]
    assert page.buttons() == page.expected_buttons()
    assert page.buttons()["regenerate"] == [page.session.actions.regenerate]


async def test_continue_and_regenerate_clicked_reach_the_session(page):
    page.sim.script([Turn("Half of it", chunks=4, fault=Disconnect(after=3))])
    chat = await page.bind()
    page.type("Hi")
    page.click("send-button")
    await page.settle()
    page.dom.forgive()  # the dropped stream is logged; the banner says it
    half = chat.records[-1].content
    assert half and page.texts("message-assistant") == [half]
    page.sim.script([Turn(" and the rest.")])
    page.click("continue-button")
    await page.settle()
    assert page.texts("message-assistant") == [half + " and the rest."]
    page.sim.script([Turn("Another answer.")])
    page.click("regenerate-button")
    await page.settle()
    assert page.texts("message-assistant") == ["Another answer."]
    latest = chat.records[-1].seq
    assert len(page.session.alternatives(latest)) == 2
    nav = page.find("reply").querySelector("[data-testid=alt-nav]")
    assert is_shown(nav) and nav.querySelector("[data-testid=alt-label]").textContent == "2/2"


# ------------------------------------------------------------------ refusals


async def test_a_message_refused_in_a_paused_tab_shows_why_and_stays_in_the_box(page):
    await page.bind()
    page.context.paused_text = "This project is open in another tab."
    page.type("Hi")
    page.click("send-button")
    banner = page.find("error-banner")
    assert is_shown(banner) and banner.getAttribute("data-kind") == "paused"
    assert "This project is open in another tab." in banner.textContent
    assert page.find("chat-input").value == "Hi"
    assert page.sim.chat_requests == [] and page.shows("send-button")
    banner.querySelector("[data-action=banner-dismiss]").click()
    assert not is_shown(banner)


async def test_without_a_provider_the_banner_opens_settings(page):
    from wiggum.ui.settings import Settings

    await page.bind()
    page.context.settings = Settings()
    page.type("Hi")
    page.click("send-button")
    banner = page.find("error-banner")
    assert is_shown(banner) and banner.getAttribute("data-kind") == "setup"
    settings = banner.querySelector("[data-action=banner-settings]")
    assert is_shown(settings)
    settings.click()
    assert page.settings_opened == 1
    assert page.find("chat-input").value == "Hi"
    # a provider works now: the banner that said none did goes with the card
    page.view.set_setup_needed(False)
    assert not is_shown(banner)


async def test_while_the_setup_card_shows_the_box_waits_and_a_refusal_is_said_on_the_card(page):
    from wiggum.ui.settings import Settings

    card = page.dom.document.createElement("section")
    said: list[str | None] = []
    page.view.use_setup_card(card, said.append)
    # a message typed on the first screen, before the app knew no provider works
    page.type("Make me a bakery page")
    await page.bind()
    page.context.settings = Settings()
    page.view.set_setup_needed(True)
    box, send = page.find("chat-input"), page.find("send-button")
    assert box.disabled and send.disabled
    assert "Connect a provider above" in box.placeholder
    assert box.value == "Make me a bakery page"  # nothing typed is lost
    # the message queued before the app had loaded is refused: said on the card, no banner
    page.session.send(box.value, [])
    assert said and said[-1] is not None and "Connect a provider with this form" in said[-1]
    assert "Settings" not in said[-1]
    assert not is_shown(page.find("error-banner"))
    assert page.sim.chat_requests == []
    # set up: the box is live again with its own placeholder, the card's line cleared
    page.view.set_setup_needed(False)
    assert not box.disabled and not send.disabled and box.placeholder == "Message Chief…"
    assert said[-1] is None and box.value == "Make me a bakery page"
