"""Images the person attaches to a message for Chief: limits and checks.

Pure (tested under CPython); the page reads the files and calls
:func:`check_image` before showing a thumbnail.  Images travel as base64 data
inside the message record, so a reload keeps them and nothing is ever fetched
from another origin.
"""

from __future__ import annotations

import base64
import binascii

from pydantic import BaseModel

#: What providers accept across OpenAI, Anthropic and Ollama.
IMAGE_TYPES = ("image/png", "image/jpeg", "image/gif", "image/webp")
#: Anthropic's per-image limit is 5 MB; the others accept at least that.
MAX_IMAGE_BYTES = 5 * 1024 * 1024
MAX_IMAGES = 4

_NAMES = {"image/png": "PNG", "image/jpeg": "JPEG", "image/gif": "GIF", "image/webp": "WebP"}
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


def decoded_size(att: Attachment) -> int:
    try:
        return len(base64.b64decode(att.data, validate=True))
    except (binascii.Error, ValueError):
        return 0


def describe(media_type: str) -> str:
    return _NAMES.get(media_type, media_type)


NO_IMAGES_NOTE = "This model does not accept images; sent without them."
NO_IMAGES_WARNING = (
    "The chosen model does not accept images: they would be sent without them. "
    "Choose a model that reads images in Settings to have Chief look at them."
)


def model_takes_images(model: str, kind: str, override: bool | None = None) -> bool | None:
    """Whether the model reads images: the provider's own setting, else the
    registry's word; ``None`` when nobody knows (then the client finds out)."""
    if override is not None:
        return override
    from wiggum.llm.registry import lookup_model

    entry = lookup_model(model, kind)
    return None if entry is None else entry.capability.supports_images
