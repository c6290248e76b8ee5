"""Images for Chief (issue 14): picker, paste and drop, thumbnails (phone too), OpenAI's
parts, the strip notice, the warning on attach, Anthropic's image blocks after switching
the provider in Settings.

Ollama's shape: tests/chief/test_attachments.py (same simulator, CPython).

One booted page and one simulator for the module; the checks go in order (the strip
test leaves gpt-4o-mini marked "no images" for the session, which the drop test sees).
"""

from __future__ import annotations

import base64
import struct
import zlib
from pathlib import Path

import pytest
from wiggum_e2e import (
    MOUNTED,
    booted_page,
    configure,
    fill_provider,
    on_top,
    open_app,
    open_settings,
    run_python,
    save_settings,
    send,
    set_size,
    tid,
    wait_requests,
)

from tests.sim import Simulator, Turn, http_error

pytestmark = pytest.mark.e2e

KEY = "sk-e2e-SECRET-attach"
SHOTS = Path("/tmp/shots-images")


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


#: The provider's model list (the switcher above the chat), which the warning names from.
MODELS = ["gpt-4o-mini", "gpt-3.5-turbo", "gpt-4o", "o3-mini"]


@pytest.fixture(scope="module")
def sim():
    with Simulator(models={"openai": MODELS}) as s:
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


def drop(
    page, name: str, data: bytes, mime: str = "image/png", on: str = "[data-testid=chat-input]"
) -> dict:
    """Drop a file where a person would: on the element ``on`` (the message box), at its
    centre (what is on top there gets the events). Returns what the page saw."""
    return page.evaluate(
        """([name, b64, mime, on]) => {
            const box = document.querySelector(on);
            const composer = document.querySelector('.composer');
            const r = box.getBoundingClientRect();
            const x = r.x + r.width / 2, y = r.y + r.height / 2;
            const target = document.elementFromPoint(x, y);
            const bytes = Uint8Array.from(atob(b64), c => c.charCodeAt(0));
            const dt = new DataTransfer();
            dt.items.add(new File([bytes], name, {type: mime}));
            const fire = kind => target.dispatchEvent(new DragEvent(kind,
                {dataTransfer: dt, bubbles: true, cancelable: true, clientX: x, clientY: y}));
            const enter = fire('dragenter'), over = fire('dragover');
            const shown = composer.classList.contains('drop-target');
            const dropped = fire('drop');
            return {onTop: target === box || box.contains(target), enterTaken: !enter,
                    overTaken: !over, shown, dropTaken: !dropped,
                    after: composer.classList.contains('drop-target')};
        }""",
        [name, base64.b64encode(data).decode(), mime, on],
    )


def thumbs(page):
    return page.locator(f".composer {tid('attach-thumb')}")


def shoot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for w, h in ((1280, 800), (1920, 1080), (390, 844)):
        set_size(page, w, h)
        page.screenshot(path=str(SHOTS / f"{name}-{w}x{h}.png"))
    set_size(page, 1280, 800)


def last_user(request) -> dict:
    return [m for m in request.json["messages"] if m["role"] == "user"][-1]


def clear_tray(page) -> None:
    while thumbs(page).count():
        page.locator(f".composer {tid('attach-remove')}").first.click()
    page.locator(tid("attach-message")).wait_for(state="hidden")


def box(page, selector: str) -> dict:
    return page.locator(selector).first.bounding_box()


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


def send_an_image_gpt_4o_mini_refuses(page, sim):
    """The model (gpt-4o-mini) turns an image down: sent again without it; its reply."""
    sim.script([http_error(400, "This model does not support image input"), Turn("No eyes.")])
    pick(page, "red.png", RED)
    thumbs(page).first.wait_for(timeout=10_000)
    send(page, "and this one?")
    reply = page.locator(tid("reply")).filter(has_text="No eyes.")
    reply.wait_for(timeout=20_000)
    return reply


@pytest.fixture
def mini_refused_images(page, sim) -> None:
    """This session has learned that gpt-4o-mini turns images down (taught now if
    the test that teaches it has not run)."""
    learned = run_python(
        page,
        "from wiggum.web.app import APP\n"
        "from wiggum.llm.normalize import DEFAULT_QUIRKS\n"
        "p = APP.settings.active().to_config().model_copy(update={'model': 'gpt-4o-mini'})\n"
        "DEFAULT_QUIRKS.refuses_images(p)",
    )
    if not learned:
        send_an_image_gpt_4o_mini_refuses(page, sim)


@pytest.fixture
def images_in_the_conversation(page, sim) -> None:
    """A message with images has been sent (now, if no earlier test sent one)."""
    if not page.locator(f".msg-user {tid('attach-thumb')}").count():
        sim.script([Turn("Red.")])
        pick(page, "red.png", RED)
        thumbs(page).first.wait_for(timeout=10_000)
        send(page, "what colour is it?")
        page.locator(tid("reply")).filter(has_text="Red.").wait_for(timeout=20_000)


def test_a_model_that_refuses_images_gets_them_stripped_and_the_reply_says_so(page, sim):
    n = len(sim.chat_requests)
    reply = send_an_image_gpt_4o_mini_refuses(page, sim)
    notice = reply.locator(tid("images-stripped"))
    notice.wait_for(timeout=10_000)
    assert notice.text_content() == "This model does not accept images; sent without them."
    wait_requests(sim, n + 2, page=page)
    assert "image_url" not in sim.chat_requests[-1].body.decode()
    shoot(page, "strip-notice")


def test_a_dropped_image_is_attached_and_a_dropped_text_file_is_refused_by_name(
    page, sim, mini_refused_images
):
    # Files held over the composer: it shows it takes them (looked at in the shots),
    # and lets go of the look when they leave.
    hover = """kind => { const box = document.querySelector('[data-testid=chat-input]');
        const dt = new DataTransfer(); dt.items.add(new File(['x'], 'a.png', {type: 'image/png'}));
        box.dispatchEvent(new DragEvent(kind, {dataTransfer: dt, bubbles: true, cancelable: true}));
        return box.closest('.composer').classList.contains('drop-target'); }"""
    assert page.evaluate(hover, "dragover")
    shoot(page, "drop-hover")
    assert not page.evaluate(hover, "dragleave")
    seen = drop(page, "dropped.png", RED)
    # The message box is on top where the person lets go; the composer takes the
    # drag (so the browser does not open the file instead) and shows it does.
    assert seen == {
        "onTop": True,
        "enterTaken": True,
        "overTaken": True,
        "shown": True,
        "dropTaken": True,
        "after": False,
    }
    thumbs(page).first.wait_for(timeout=10_000)
    assert page.locator(f".composer {tid('attach-thumb')}").get_attribute("alt") == "dropped.png"
    # The strip test above taught this session that gpt-4o-mini takes no images:
    # the person is told at once, with the listed models that do.
    msg = page.locator(tid("attach-message"))
    msg.wait_for(state="visible", timeout=10_000)
    assert msg.text_content() == (
        "gpt-4o-mini turned images down earlier in this session, so this image will be "
        "left out of the message. Models here that take images: gpt-4o; choose one in "
        "the model list above the chat."
    )
    # Aimed at the conversation rather than the box: taken all the same (the browser
    # would otherwise leave the page to show the file).
    seen = drop(page, "notes.txt", b"just some notes", "text/plain", on=".messages-scroll")
    assert seen["onTop"] and seen["dropTaken"] and not seen["after"]
    page.wait_for_function(
        "() => document.querySelector('[data-testid=attach-message]').textContent"
        ".startsWith('notes.txt is not')"
    )
    assert msg.text_content().startswith(
        "notes.txt is not a PNG, JPEG, GIF or WebP image. "
        "Save it in one of those formats and attach it again."
    )
    assert thumbs(page).count() == 1
    clear_tray(page)


def test_attaching_for_a_model_known_to_see_no_images_warns_before_sending(
    page, sim, mini_refused_images
):
    configure(page, sim, KEY, model="gpt-3.5-turbo")
    n = len(sim.chat_requests)
    pick(page, "red.png", RED)
    thumbs(page).first.wait_for(timeout=10_000)
    msg = page.locator(tid("attach-message"))
    msg.wait_for(state="visible", timeout=10_000)
    # The registry's word; gpt-4o-mini reads images but refused them above, so it is
    # not offered.
    assert msg.text_content() == (
        "gpt-3.5-turbo cannot see images, so this image will be left out of the message. "
        "Models here that take images: gpt-4o; choose one in the model list above the chat."
    )
    assert on_top(page, msg)
    shoot(page, "attach-warning")
    assert len(sim.chat_requests) == n  # told before anything was sent
    clear_tray(page)


def test_anthropic_gets_an_image_block_after_switching_provider_in_settings(page, sim):
    # This project chose gpt-4o for Chief in the switcher; that choice was made on
    # OpenAI's endpoint and must not follow the entry to Anthropic.
    page.select_option(tid("model-switcher-chief"), "gpt-4o")
    page.wait_for_function(
        "() => document.querySelector('.provider-chip .chip-model')?.textContent === 'gpt-4o'"
    )
    # The same Settings entry, switched to Anthropic (kind, server, model).
    open_settings(page)
    fill_provider(page, sim, kind="anthropic", model="claude-sonnet-4-5")
    save_settings(page)
    # The header names the provider the entry now is, not its old preset.
    chip = page.locator(".provider-chip .chip-name")
    page.wait_for_function(
        "() => document.querySelector('.provider-chip .chip-name')?.textContent === 'Anthropic'"
    )
    assert chip.text_content() == "Anthropic"
    assert page.locator(".provider-chip .chip-model").text_content() == "claude-sonnet-4-5"
    pick(page, "blue.png", BLUE)
    thumbs(page).first.wait_for(timeout=10_000)
    # Neither the registry nor the OpenAI models' refusals hold against Claude.
    page.wait_for_timeout(300)
    assert page.locator(tid("attach-message")).is_hidden()
    sim.script([Turn("A blue square.")])
    n = len(sim.chat_requests)
    send(page, "what is in this one?")
    wait_requests(sim, n + 1, page=page)
    request = sim.chat_requests[-1]
    assert request.dialect == "anthropic" and request.path == "/v1/messages"
    assert request.json["model"] == "claude-sonnet-4-5"
    content = last_user(request)["content"]
    image = {
        "type": "image",
        "source": {
            "type": "base64",
            "media_type": "image/png",
            "data": base64.b64encode(BLUE).decode(),
        },
    }
    assert image in content
    assert any(b.get("type") == "text" and "what is in this one?" in b["text"] for b in content)
    reply = page.locator(tid("reply")).filter(has_text="A blue square.")
    reply.wait_for(timeout=20_000)
    assert reply.locator(tid("images-stripped")).count() == 0


def test_thumbnails_on_a_phone_are_small_in_one_scrolling_row_clear_of_the_box(
    page, sim, images_in_the_conversation
):
    set_size(page, 390, 844)
    gap = """() => { const s = document.querySelector('.messages-scroll');
                     return s.scrollHeight - s.scrollTop - s.clientHeight; }"""
    try:
        page.evaluate(
            "() => { const s = document.querySelector('.messages-scroll');"
            " s.scrollTop = s.scrollHeight; }"
        )
        pick(page, "red.png", RED)
        paste(page, "blue.png", BLUE)
        page.wait_for_function(
            "() => document.querySelectorAll('.composer [data-testid=attach-thumb]').length === 2"
        )
        # The composer grew; the conversation, read to its end, still shows its end.
        assert page.evaluate(gap) < 2
        rem = page.evaluate("parseFloat(getComputedStyle(document.documentElement).fontSize)")
        sent = box(page, f".msg-user {tid('attach-thumb')}")
        assert sent["width"] <= 4 * rem + 2 and sent["height"] <= 4 * rem + 2
        row = page.locator(f".msg-user {tid('attach-thumbs')}").first
        assert row.evaluate("el => getComputedStyle(el).flexWrap") == "nowrap"
        assert row.evaluate("el => getComputedStyle(el).overflowX") == "auto"
        tray, text = box(page, f".composer {tid('attach-thumb')}"), box(page, tid("chat-input"))
        assert tray["height"] <= 4 * rem + 2
        assert tray["y"] + tray["height"] <= text["y"]  # above the box, not over it
        assert on_top(page, page.locator(tid("chat-input")))
        assert on_top(page, page.locator(f".composer {tid('attach-remove')}").first)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        set_size(page, 1280, 800)
    shoot(page, "phone-two-attached")
    clear_tray(page)
