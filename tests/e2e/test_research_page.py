"""Chief researches: with "Let Chief search the web" on for an Anthropic provider, the
request carries Anthropic's web_search tool, the simulator answers with a search turn
(server_tool_use, web_search_tool_result, cited text) and the page shows the answer
with its sources as safe links.  Off (the default), the request carries no search.

One page is shared by the checks (booting costs more than all of them).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from wiggum_e2e import (
    booted_page,
    fill_provider,
    on_top,
    open_settings,
    save_settings,
    send,
    set_size,
    tid,
    wait_requests,
)

from tests.sim import Text, Turn, WebSearch

pytestmark = pytest.mark.e2e

KEY = "sk-ant-e2e-SECRET-research"
MODEL = "claude-sonnet-4-20250514"
SHOTS = Path("/tmp/shots-llm")
SOURCES = [
    ("https://www.pantone.com/color-of-the-year/2025", "Pantone Color of the Year 2025"),
    ("javascript:alert(1)", "never a link"),
    ("https://example.org/palettes", "Warm palettes for 2025"),
]
ANSWER = "Pantone's colour for 2025 is Mocha Mousse, a warm brown."


@pytest.fixture(scope="module")
def page(browser, base_url):
    with booted_page(browser, base_url) as p:
        set_size(p, 1280, 800)
        yield p


def ask(page, text: str, n: int) -> None:
    send(page, text)
    page.locator(f'{tid("reply")}[data-status="complete"]').nth(n - 1).wait_for(timeout=30_000)


def searches(body: dict) -> list:
    return [t for t in body.get("tools", []) if str(t.get("type", "")).startswith("web_search")]


def test_research_off_by_default_then_on_with_sources(page, sim):
    open_settings(page)
    fill_provider(page, sim, KEY, kind="anthropic", model=MODEL)
    box = page.locator(tid("web-search"))
    assert box.is_enabled() and not box.is_checked()  # offered, never on by itself
    save_settings(page)

    # Off: an ordinary request, no search tool, no sources shown.
    sim.script([Turn("Plain answer.")])
    ask(page, "Hello", 1)
    wait_requests(sim, 1, timeout=30, page=page)
    assert searches(sim.chat_requests[-1].json) == []
    assert page.locator(tid("sources")).first.is_hidden()

    # On: the request carries web_search and the reply lists its sources.
    open_settings(page)
    page.set_checked(tid("web-search"), True)
    save_settings(page)
    sim.script(
        [
            Turn(
                Text("Let me look that up. "),
                WebSearch("colour of the year 2025", SOURCES),
                Text(ANSWER, citations=SOURCES),
            )
        ]
    )
    ask(page, "What's the colour of the year?", 2)
    wait_requests(sim, 2, timeout=30, page=page)
    [tool] = searches(sim.chat_requests[-1].json)
    assert tool["name"] == "web_search" and tool["max_uses"] > 0

    reply = page.locator(tid("reply")).nth(1)
    assert ANSWER in reply.locator(tid("message-assistant")).text_content()
    sources = reply.locator(tid("sources"))
    sources.wait_for(state="visible")
    links = sources.locator("a")
    assert links.count() == 2  # the javascript: URL is not a link
    assert [links.nth(i).get_attribute("href") for i in range(2)] == [SOURCES[0][0], SOURCES[2][0]]
    assert links.nth(0).text_content() == SOURCES[0][1]
    for i in range(2):
        assert links.nth(i).get_attribute("rel") == "noopener noreferrer"
        assert links.nth(i).get_attribute("target") == "_blank"
    assert "javascript" not in sources.inner_html()
    assert reply.locator(tid("chief-tool-call")).count() == 0  # the search is not a tool call

    SHOTS.mkdir(parents=True, exist_ok=True)
    for w, h in ((1280, 800), (1920, 1080), (390, 844)):
        set_size(page, w, h)
        links.nth(0).scroll_into_view_if_needed()
        assert on_top(page, links.nth(0)), f"the first source link is covered at {w}x{h}"
        page.screenshot(path=str(SHOTS / f"research-{w}x{h}.png"))
    set_size(page, 1280, 800)

    # The setting is kept per provider, and reads back as on.
    open_settings(page)
    box = page.locator(tid("web-search"))
    assert box.is_checked()
    # The dialog's footer is sticky: scroll the box clear of it, as a person would.
    box.evaluate("b => b.scrollIntoView({block: 'center'})")
    page.screenshot(path=str(SHOTS / "research-setting-1280x800.png"))
    at = box.evaluate(
        """b => { const r = b.getBoundingClientRect();
                 const el = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
                 return el === b ? "ok" : (el ? el.outerHTML.slice(0, 200) : "none")
                        + " " + JSON.stringify(r); }"""
    )
    assert at == "ok", f"the web search checkbox is covered by {at}"
    page.keyboard.press("Escape")
