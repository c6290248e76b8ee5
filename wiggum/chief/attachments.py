"""Images the person attaches to a message for Chief: limits and checks.

Pure (tested under CPython); the page reads the files and calls
:func:`check_image` before showing a thumbnail.  Images travel as base64 data
inside the message record, so a reload keeps them and nothing is ever fetched
from another origin.
"""

from __future__ import annotations

import base64
from collections.abc import Collection, Iterable

from pydantic import BaseModel

from wiggum.llm.types import ProviderConfig

#: What providers accept across OpenAI, Anthropic and Ollama.
IMAGE_TYPES = ("image/png", "image/jpeg", "image/gif", "image/webp")
#: Anthropic's per-image limit is 5 MB; the others accept at least that.
MAX_IMAGE_BYTES = 5 * 1024 * 1024
MAX_IMAGES = 4

#: First bytes of each accepted type: the file's own type, not its name's.
_MAGIC = {
    "image/png": (b"\x89PNG\r\n\x1a\n",),
    "image/jpeg": (b"\xff\xd8\xff",),
    "image/gif": (b"GIF87a", b"GIF89a"),
}


class Attachment(BaseModel):
    """One image of a message: base64 data and its media type."""

    media_type: str
    data: str
    name: str = ""

    def __repr__(self) -> str:  # the data is the person's: never in logs
        return f"Attachment({self.media_type}, {self.name!r}, {len(self.data)} chars)"

    __str__ = __repr__


class AttachmentError(ValueError):
    """Why an image cannot be attached, in the person's words."""


def _sniff(raw: bytes) -> str | None:
    if raw[:4] == b"RIFF" and raw[8:12] == b"WEBP":
        return "image/webp"
    return next((t for t, heads in _MAGIC.items() if raw.startswith(heads)), None)


def check_image(name: str, raw: bytes, already: int = 0) -> Attachment:
    """An :class:`Attachment` for the file ``name`` with bytes ``raw``, or an
    :class:`AttachmentError` naming the limit and what to do about it.

    ``already`` is how many images the message has so far."""
    label = name or "this file"
    if already >= MAX_IMAGES:
        raise AttachmentError(
            f"{label}: a message can carry at most {MAX_IMAGES} images. "
            "Remove one to attach another, or send them in two messages."
        )
    media_type = _sniff(raw)
    if media_type is None:
        raise AttachmentError(
            f"{label} is not a PNG, JPEG, GIF or WebP image. "
            "Save it in one of those formats and attach it again."
        )
    if len(raw) > MAX_IMAGE_BYTES:
        size = len(raw) / (1024 * 1024)
        raise AttachmentError(
            f"{label} is {size:.1f} MB; images can be at most "
            f"{MAX_IMAGE_BYTES // (1024 * 1024)} MB. Make it smaller and attach it again."
        )
    return Attachment(media_type=media_type, data=base64.b64encode(raw).decode(), name=name)


NO_IMAGES_NOTE = "This model does not accept images; sent without them."


def model_takes_images(model: str, kind: str, override: bool | None = None) -> bool | None:
    """Whether the model reads images: the provider's own setting, else the
    registry's word; ``None`` when nobody knows (then the client finds out)."""
    if override is not None:
        return override
    from wiggum.llm.registry import lookup_model

    entry = lookup_model(model, kind)
    return None if entry is None else entry.capability.supports_images


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def images_warning(
    provider: ProviderConfig,
    count: int,
    listed: Iterable[str] = (),
    *,
    refused: Collection[str] = (),
) -> str | None:
    """What to tell the person the moment they attach ``count`` images for
    ``provider``'s model, or ``None`` when it reads images or nobody knows yet
    (then the client finds out, and the reply says so if it had to leave them out).

    ``refused``: this endpoint's models that turned images down earlier in this
    session (the client's memory,
    :meth:`wiggum.llm.normalize.ProviderQuirks.refuses_images`).
    ``listed``: the models of this provider the person can switch to; those the
    registry knows to read images (and that have not refused them) are named."""
    model = provider.model
    takes = model_takes_images(model, provider.kind, provider.supports_images)
    if takes is not False and model not in refused:
        return None
    them = "this image" if count == 1 else "these images"
    why = "cannot see images" if takes is False else "turned images down earlier in this session"
    head = f"{model} {why}, so {them} will be left out of the message."
    seeing = [m for m in dict.fromkeys(listed) if m != model and m not in refused]
    seeing = [m for m in seeing if model_takes_images(m, provider.kind) is True][:3]
    if seeing:
        more = " (and others)" if len(seeing) == 3 else ""
        return (
            f"{head} Models here that take images: {_and(seeing)}{more}; "
            "choose one in the model list above the chat."
        )
    return (
        f"{head} To have Chief look at {them}, choose a model that reads images "
        "(most recent GPT, Claude and Gemini models do) above the chat or in Settings."
    )
