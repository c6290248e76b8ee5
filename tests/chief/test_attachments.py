"""Images attached to Chief's messages: limits, the wire shapes, the strip notice."""

from __future__ import annotations

import base64

import pytest

from tests.chief.test_chat import MODELS, new_chat, provider
from tests.sim import Turn, http_error
from wiggum.chief.attachments import (
    MAX_IMAGE_BYTES,
    MAX_IMAGES,
    AttachmentError,
    check_image,
    images_warning,
)
from wiggum.llm.normalize import DEFAULT_QUIRKS, quirk_key
from wiggum.llm.types import ProviderConfig

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
    stored = await chat.saver.storage.load_messages(chat.saver.project_id, "chief")
    assert stored[-2]["images"][0]["data"] == B64  # a reload keeps them


async def test_a_model_without_images_gets_none_and_the_reply_says_so(sim, transport):
    sim.script([Turn("I cannot see images.")])
    chat = await new_chat(transport)
    p = provider(sim, supports_images=False)
    reply = await chat.send("look", p, images=[check_image("square.png", PNG)])
    assert reply.images_stripped
    assert "image_url" not in sim.chat_requests[-1].body.decode()


def _openai(model: str, **kw) -> ProviderConfig:
    return ProviderConfig(id="p", kind="openai", base_url="https://x.test/v1", model=model, **kw)


def test_attach_warning_when_the_registry_says_the_model_sees_no_images():
    listed = ["gpt-3.5-turbo", "o3-mini", "gpt-4o", "gpt-4o", "gpt-4.1-mini", "sim-model"]
    text = images_warning(_openai("gpt-3.5-turbo"), 1, listed)
    assert text == (
        "gpt-3.5-turbo cannot see images, so this image will be left out of the message. "
        "Models here that take images: gpt-4o and gpt-4.1-mini; "
        "choose one in the model list above the chat."
    )
    # Nothing listed that reads images: the advice still says what to look for.
    text = images_warning(_openai("o3-mini"), 2, ["o3-mini", "gpt-3.5-turbo"])
    assert text is not None and text.startswith(
        "o3-mini cannot see images, so these images will be left out of the message. "
        "To have Chief look at these images, choose a model that reads images"
    )


def test_no_attach_warning_for_a_model_that_sees_or_is_unknown():
    assert images_warning(_openai("gpt-4o-mini"), 1, ["gpt-3.5-turbo"]) is None
    # Unknown to the registry: the client finds out, and the reply says so.
    assert images_warning(_openai("sim-model"), 1) is None
    # The provider's own setting wins over the registry, both ways.
    assert images_warning(_openai("gpt-3.5-turbo", supports_images=True), 1) is None
    assert images_warning(_openai("gpt-4o", supports_images=False), 1) is not None


def test_attach_warning_after_the_model_refused_images_this_session():
    listed = ["sim-model", "gpt-4o-mini", "gpt-4o"]
    text = images_warning(_openai("sim-model"), 1, listed, refused={"sim-model", "gpt-4o-mini"})
    assert text == (
        "sim-model turned images down earlier in this session, so this image will be left "
        "out of the message. Models here that take images: gpt-4o; choose one in the model "
        "list above the chat."
    )
    assert images_warning(_openai("gpt-4o"), 1, listed, refused={"sim-model"}) is None


async def test_a_refusal_is_remembered_for_that_model_only_and_each_stripped_reply_says_so(
    sim, transport
):
    sim.script([http_error(400, "This model does not support image input"), Turn("Blind.")])
    chat = await new_chat(transport)
    blind = provider(sim, model="text-only-sim")
    image = check_image("square.png", PNG)
    first = await chat.send("look", blind, images=[image])
    assert first.images_stripped and DEFAULT_QUIRKS.refuses_images(blind)
    try:
        # The same model again: left out from the start, and said so again.
        sim.script([Turn("Still blind.")])
        n = len(sim.chat_requests)
        again = await chat.send("and now?", blind, images=[image])
        assert again.images_stripped and len(sim.chat_requests) == n + 1
        assert B64 not in sim.chat_requests[-1].body.decode()
        # The same Settings entry switched to Anthropic (the person changed the
        # kind, the server and the model): the images go, nothing is said.
        seeing = blind.model_copy(
            update={"kind": "anthropic", "base_url": sim.base_url, "model": MODELS["anthropic"]}
        )
        sim.script([Turn("A square.")])
        reply = await chat.send("and this?", seeing, images=[image])
        assert not reply.images_stripped
        assert B64 in sim.chat_requests[-1].body.decode()
    finally:
        DEFAULT_QUIRKS.no_images.discard(quirk_key(blind))
