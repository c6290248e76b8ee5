"""What the page says when the provider misbehaves, for Chief and for Ralph, in Chromium.

Four faults the client names since it bounds every wait and reads answers by
their content: an error event inside a stream that had begun (OpenAI's
``server_error``, which has no HTTP status of its own), a web page where the
reply should be, a stream of garbage, and a server that takes the request
and never answers.  Chief streams (the error said in his reply, the text that
had arrived kept); Ralph calls ``chat()`` (his run's error line).

One booted page and one simulator for the module; every test scripts the
turns it needs and brings Chief to rest first, so each passes alone.  The
answer timeout is set to its least (10 s) in Settings, so a stall costs that.
Screenshots of the words go to /tmp/shots-faults/ at 1280x800 and 390x844.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from wiggum_e2e import (
    MOUNTED,
    booted_page,
    configure,
    open_app,
    open_settings,
    run_async,
    save_settings,
    send,
    set_size,
    settle_chief,
    tid,
)

from tests.sim import Turn, raw

pytestmark = pytest.mark.e2e

KEY = "sk-e2e-SECRET-faults"
MODEL = "gpt-4o-mini"
SHOTS = Path("/tmp/shots-faults")
#: The answer timeout set in Settings for this module (its least).
WAIT = 10

IN_STREAM_ERROR = [
    'data: {"id":"c1","object":"chat.completion.chunk","model":"gpt-4o-mini","choices":'
    '[{"index":0,"delta":{"role":"assistant","content":"Half an answer"}}]}\n\n',
    0.05,
    'data: {"error":{"message":"The server had an error while processing your request.",'
    '"type":"server_error"}}\n\n',
]
ERROR_BODY = json.dumps({"error": {"message": "The server had an error.", "type": "server_error"}})
WEB_PAGE = "<!DOCTYPE html><html><head><title>Welcome</title></head><body>Hi</body></html>"
GARBAGE = ["lorem ipsum dolor\n", "sit amet, consectetur\n", "adipiscing elit\n"]

#: fault -> (Chief's turns, Ralph's turns, the title, words the message must hold)
FAULTS = {
    "in-stream-error": (
        [raw(IN_STREAM_ERROR)],
        # a 200 body with the error object: trouble on the provider's side, retried twice
        [raw([ERROR_BODY], content_type="application/json") for _ in range(3)],
        "Provider unavailable",
        ["it reported server_error", "try again in a little while"],
    ),
    "html-200": (
        [raw([WEB_PAGE], content_type="text/html; charset=utf-8")],
        [raw([WEB_PAGE], content_type="text/html; charset=utf-8")],
        "Unreadable reply",
        ["sent a web page instead of a reply", "base URL in Settings"],
    ),
    "garbage-stream": (
        [raw(GARBAGE)],
        [raw(GARBAGE)],
        "Unreadable reply",
        ["sent text that is not", "instead of a reply", "provider kind"],
    ),
    "stall-before-headers": (
        [Turn("never sent", ttfb=60)],
        [Turn("never sent", ttfb=60)],
        "No answer",
        [f"did not answer within {WAIT} seconds", "set in Settings"],
    ),
}


@pytest.fixture(scope="module")
def page(browser, base_url, sim):
    with booted_page(browser, base_url) as p:
        set_size(p, 1280, 800)
        p.wait_for_selector(MOUNTED, timeout=30_000)
        configure(p, sim, KEY, model=MODEL)
        open_settings(p)
        p.fill(tid("request-timeout-seconds"), str(WAIT))
        save_settings(p)
        yield p


@pytest.fixture(autouse=True)
def known_state(page, sim):
    set_size(page, 1280, 800)
    page.click(tid("tab-chief"))
    settle_chief(page)
    sim.drop_pending()
    yield
    sim.drop_pending()


def chief_fails(page, sim, fault: str):
    """Chief's reply to a message meets ``fault``; returns what the failed reply says
    (once: no banner repeats it)."""
    turns, _, title, _ = FAULTS[fault]
    sim.script(turns)
    replies = page.locator(tid("reply")).count()
    send(page, f"Tell me something ({fault})")
    # this message's reply (an earlier test's failed reply may say the same)
    page.wait_for_function(
        """([n, title]) => { const all = document.querySelectorAll('[data-testid=reply]');
            const error = all.length > n && all[all.length - 1]
                .querySelector('[data-testid=message-error]');
            return !!error && error.textContent.includes(title); }""",
        arg=[replies, title],
        timeout=(WAIT + 20) * 1000,
    )
    said = page.locator(tid("reply")).last.locator(tid("message-error"))
    assert page.locator(tid("error-banner")).is_hidden()
    return said.text_content()


def ralph_fails(page, sim, fault: str) -> str:
    """A run of Ralph's meets ``fault`` at his first call; returns how his run ended."""
    _, turns, title, _ = FAULTS[fault]
    # Chief reads Ralph's note afterwards: a turn of his own ends the exchange.
    sim.script([*turns, Turn("Ralph ran into a problem with the provider.")])
    page.click(tid("tab-ralph"))
    runs = page.locator(tid("ralph-run")).count()
    # Every run's note gets the same reply: count them, so this run's is waited for
    # (an earlier one's would let the next test start while this note turn is still to come).
    noted = page.locator(tid("reply")).filter(has_text="Ralph ran into a problem").count()
    out = run_async(
        page,
        f"""
        from wiggum.web.app import APP
        await APP.coordinator.send_to_ralph("Build a page ({fault}).")
        """,
    )
    assert "started" in out, out
    page.wait_for_function(
        "n => document.querySelectorAll('[data-testid=ralph-run]').length > n",
        arg=runs,
        timeout=(WAIT + 30) * 1000,
    )
    ended = page.locator(f"{tid('ralph-summary')} .ralph-summary-text")
    ended.filter(has_text=title).wait_for(timeout=30_000)
    page.wait_for_function(
        """n => [...document.querySelectorAll('[data-testid=reply]')]
            .filter(r => r.textContent.includes('Ralph ran into a problem')).length > n""",
        arg=noted,
        timeout=30_000,
    )
    assert sim.drop_pending() == [], "a scripted turn was left for the next test"
    return ended.text_content()


@pytest.mark.parametrize("fault", list(FAULTS))
def test_chiefs_words_for_the_fault(page, sim, fault):
    _, _, title, words = FAULTS[fault]
    text = chief_fails(page, sim, fault)
    assert title in text and all(w in text for w in words), text
    assert "HTTP 0" not in text and "refused the request" not in text
    reply = page.locator(tid("reply")).last
    assert reply.get_attribute("data-status") == "error"
    if fault == "in-stream-error":  # what arrived before the error is kept
        kept = reply.locator(tid("message-assistant")).text_content()
        assert kept.strip() == "Half an answer"
    if fault in ("html-200", "garbage-stream"):  # no page or garbage is shown as the reply
        shown = reply.locator(tid("message-assistant")).all_text_contents()
        assert not any("lorem" in s or "Welcome" in s for s in shown), shown
    assert reply.locator(tid("retry-button")).is_visible()
    assert KEY not in text


def test_chiefs_words_are_the_same_after_a_reload(page, sim):
    # the failed reply is stored with its error; the page explains the record again
    chief_fails(page, sim, "in-stream-error")
    reply = page.locator(tid("reply")).last
    before = reply.locator(tid("message-error")).text_content()
    assert "Provider unavailable" in before and "it reported server_error" in before
    open_app(page, page.url, reload=True)
    page.wait_for_selector(MOUNTED, timeout=30_000)
    reply = page.locator(tid("reply")).last
    reply.locator(tid("message-error")).wait_for(timeout=30_000)
    assert reply.locator(tid("message-error")).text_content() == before
    assert reply.locator(tid("message-assistant")).text_content().strip() == "Half an answer"


@pytest.mark.parametrize("fault", list(FAULTS))
def test_ralphs_words_for_the_fault(page, sim, fault):
    _, _, title, words = FAULTS[fault]
    text = ralph_fails(page, sim, fault)
    assert text.startswith(f"{title}: "), text
    assert all(w in text for w in words), text
    assert "HTTP 0" not in text and KEY not in text


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
def test_screenshots_of_the_words(page, sim, size):
    width, height = size
    SHOTS.mkdir(exist_ok=True)
    chief_fails(page, sim, "in-stream-error")
    set_size(page, width, height)
    said = page.locator(tid("message-error")).last
    said.scroll_into_view_if_needed()
    page.screenshot(path=f"{SHOTS}/chief-in-stream-error-{width}x{height}.png")
    box = said.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    set_size(page, 1280, 800)
    ralph_fails(page, sim, "html-200")
    set_size(page, width, height)
    page.click(tid("tab-ralph"))
    error = page.locator(tid("ralph-summary"))
    error.scroll_into_view_if_needed()
    page.screenshot(path=f"{SHOTS}/ralph-web-page-{width}x{height}.png")
    box = error.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
