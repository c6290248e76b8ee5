"""Images attached to Chief's messages: limits, the wire shapes, the strip notice."""

from __future__ import annotations

import base64

import pytest

from tests.chief.test_chat import new_chat, provider
from tests.sim import Turn
from wiggum.chief.attachments import (
    MAX_IMAGE_BYTES,
    MAX_IMAGES,
    AttachmentError,
    check_image,
)

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 24
B64 = base64.b64encode(PNG).decode()


def test_accepts_the_four_types_by_their_bytes():
    assert check_image("a.png", PNG).media_type == "image/png"
    assert check_image("a.jpg", b"\xff\xd8\xff\xe0" + b"0" * 8).media_type == "image/jpeg"
    assert check_image("a.gif", b"GIF89a" + b"0" * 8).media_type == "image/gif"
    assert check_image("a.webp", b"RIFF\0\0\0\0WEBPVP8 ").media_type == "image/webp"
    assert check_image("a.png", PNG).data == B64
    assert B64 not in repr(check_image("a.png", PNG))


def test_limits_say_what_is_wrong_and_what_to_do():
    with pytest.raises(AttachmentError, match=r"notes\.pdf is not a PNG, JPEG, GIF or WebP"):
        check_image("notes.pdf", b"%PDF-1.7")
    with pytest.raises(AttachmentError, match=r"big\.png is 5\.0 MB; images can be at most 5 MB"):
        check_image("big.png", PNG + b"\0" * MAX_IMAGE_BYTES)
    with pytest.raises(AttachmentError, match=f"at most {MAX_IMAGES} images"):
        check_image("one-more.png", PNG, already=MAX_IMAGES)


@pytest.mark.parametrize("kind", ["openai", "anthropic", "ollama"])
async def test_images_go_out_in_each_dialects_shape_and_are_kept(sim, transport, kind):
    sim.script([Turn("A tiny square.")])
    chat = await new_chat(transport)
    image = check_image("square.png", PNG)
    reply = await chat.send("what is this?", provider(sim, kind), images=[image])
    assert reply.status == "complete" and not reply.images_stripped
    user = [m for m in sim.chat_requests[-1].json["messages"] if m["role"] == "user"][-1]
    if kind == "openai":
        assert {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{B64}"}} in (
            user["content"]
        )
    elif kind == "anthropic":
        source = {"type": "base64", "media_type": "image/png", "data": B64}
        assert {"type": "image", "source": source} in user["content"]
    else:
        assert user["images"] == [B64]
    stored = await chat.storage.load_messages(chat.project_id, "chief")
    assert stored[-2]["images"][0]["data"] == B64  # a reload keeps them


async def test_a_model_without_images_gets_none_and_the_reply_says_so(sim, transport):
    sim.script([Turn("I cannot see images.")])
    chat = await new_chat(transport)
    p = provider(sim, supports_images=False)
    reply = await chat.send("look", p, images=[check_image("square.png", PNG)])
    assert reply.images_stripped
    assert "image_url" not in sim.chat_requests[-1].body.decode()
