"""Images for Chief (issue 14): picker and paste, thumbnails, OpenAI's parts, the strip notice.

Anthropic's and Ollama's shapes: tests/chief/test_attachments.py (same simulator, CPython).

One booted page and one simulator for the module; the checks go in order.
"""

from __future__ import annotations

import base64
import struct
import zlib
from pathlib import Path

import pytest
from wiggum_e2e import booted_page, configure, on_top, open_app, send, tid, wait_requests

from tests.sim import Simulator, Turn, http_error

pytestmark = pytest.mark.e2e

KEY = "sk-e2e-SECRET-attach"
MOUNTED = '#app-root[data-mounted="true"]'
SHOTS = Path("/tmp/shots-attach")


def png(r: int, g: int, b: int, size: int = 24) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    rows = b"".join(b"\0" + bytes((r, g, b)) * size for _ in range(size))
    head = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", head)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


RED, BLUE = png(220, 40, 40), png(40, 80, 220)


@pytest.fixture(scope="module")
def sim():
    with Simulator() as s:
        yield s


@pytest.fixture(scope="module")
def page(browser, base_url, sim):
    with booted_page(browser, base_url) as p:
        p.base_url = base_url
        p.wait_for_selector(MOUNTED, timeout=30_000)
        configure(p, sim, KEY, model="gpt-4o-mini")
        yield p


def pick(page, name: str, data: bytes) -> None:
    page.set_input_files(
        tid("attach-input"), files=[{"name": name, "mimeType": "image/png", "buffer": data}]
    )


def paste(page, name: str, data: bytes) -> None:
    page.evaluate(
        """([name, b64]) => {
            const bytes = Uint8Array.from(atob(b64), c => c.charCodeAt(0));
            const dt = new DataTransfer();
            dt.items.add(new File([bytes], name, {type: 'image/png'}));
            const ev = new ClipboardEvent('paste', {clipboardData: dt, bubbles: true, cancelable: true});
            document.querySelector('[data-testid=chat-input]').dispatchEvent(ev);
        }""",
        [name, base64.b64encode(data).decode()],
    )


def thumbs(page):
    return page.locator(f".composer {tid('attach-thumb')}")


def shoot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for w, h in ((1280, 800), (1920, 1080), (390, 844)):
        page.set_viewport_size({"width": w, "height": h})
        page.screenshot(path=str(SHOTS / f"{name}-{w}x{h}.png"))
    page.set_viewport_size({"width": 1280, "height": 800})


def last_user(request) -> dict:
    return [m for m in request.json["messages"] if m["role"] == "user"][-1]


def test_picker_and_paste_attach_thumbnails_then_openai_gets_image_url_parts(page, sim):
    assert on_top(page, page.locator(tid("attach-button")))
    pick(page, "red.png", RED)
    thumbs(page).first.wait_for(timeout=10_000)
    paste(page, "blue.png", BLUE)
    page.wait_for_function(
        "() => document.querySelectorAll('.composer [data-testid=attach-thumb]').length === 2"
    )
    # A text file is refused with a reason; the two images stay.
    page.set_input_files(
        tid("attach-input"), files=[{"name": "notes.txt", "mimeType": "image/png", "buffer": b"hi"}]
    )
    msg = page.locator(tid("attach-message"))
    msg.wait_for(state="visible", timeout=10_000)
    assert "notes.txt is not a PNG, JPEG, GIF or WebP image" in msg.text_content()
    assert thumbs(page).count() == 2
    page.fill(tid("chat-input"), "what colours are these?")
    shoot(page, "composer-two-images")
    sim.script([Turn("Red and blue.")])
    page.press(tid("chat-input"), "Control+Enter")
    page.locator(tid("reply")).filter(has_text="Red and blue.").wait_for(timeout=20_000)
    user = last_user(sim.chat_requests[-1])
    urls = [p["image_url"]["url"] for p in user["content"] if p["type"] == "image_url"]
    assert urls == [
        "data:image/png;base64," + base64.b64encode(RED).decode(),
        "data:image/png;base64," + base64.b64encode(BLUE).decode(),
    ]
    assert thumbs(page).count() == 0  # the composer is clear again
    sent = page.locator(f".msg-user {tid('attach-thumb')}")
    assert sent.count() == 2
    shoot(page, "sent-with-images")
    # A reload keeps them (stored with the conversation).
    open_app(page, page.base_url, reload=True)
    page.wait_for_selector(MOUNTED, timeout=30_000)
    page.locator(f".msg-user {tid('attach-thumb')}").nth(1).wait_for(timeout=20_000)


def test_a_model_that_refuses_images_gets_them_stripped_and_the_reply_says_so(page, sim):
    sim.script([http_error(400, "This model does not support image input"), Turn("No eyes.")])
    n = len(sim.chat_requests)
    pick(page, "red.png", RED)
    thumbs(page).first.wait_for(timeout=10_000)
    send(page, "and this one?")
    reply = page.locator(tid("reply")).filter(has_text="No eyes.")
    reply.wait_for(timeout=20_000)
    notice = reply.locator(tid("images-stripped"))
    notice.wait_for(timeout=10_000)
    assert notice.text_content() == "This model does not accept images; sent without them."
    wait_requests(sim, n + 2)
    assert "image_url" not in sim.chat_requests[-1].body.decode()
    shoot(page, "strip-notice")
