"""Images for Chief as markup: the Attach button, the hidden file picker, the
tray of thumbnails over the message box and the line that says what was
refused.  They are parts of Chief's message box (``wiggum.ui.markup.chat.composer``),
which ``wiggum.web.views.attach`` drives.

A thumbnail is a ``data:`` URL of the image's own bytes (nothing is fetched);
in the tray each has a ✕ (``data-attach-remove``: its place in the tray).
Shown on the first screen: nothing here needs pydantic.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..markdown import El
from ..tree import btn, e

if TYPE_CHECKING:  # wiggum.chief needs pydantic, loaded after the first screen
    from wiggum.chief.attachments import Attachment

__all__ = ["ACCEPT", "attach_button", "message", "picker", "thumbnails", "tray"]

#: wiggum.chief.attachments.IMAGE_TYPES (not imported: see above).
ACCEPT = "image/png,image/jpeg,image/gif,image/webp"


def picker() -> El:
    """Never shown: Attach clicks it (``picker``)."""
    return e(
        "input",
        type="file",
        accept=ACCEPT,
        multiple=True,
        hidden=True,
        testid="attach-input",
        ref="picker",
    )


def attach_button() -> El:
    return btn(
        "Attach",
        testid="attach-button",
        cls="btn btn-small",
        aria_label="Attach images",
        title="Attach images (PNG, JPEG, GIF, WebP; or paste or drop them here)",
        ref="attach",
    )


def tray() -> El:
    return e("div", "attach-tray", hidden=True, ref="tray")


def message() -> El:
    return e(
        "p",
        "attach-message",
        testid="attach-message",
        role="status",
        hidden=True,
        ref="attach_message",
    )


def thumbnails(images: list[Attachment], *, removable: bool = False) -> El:
    """A row of thumbnails (with a remove button each when ``removable``)."""
    items = []
    for i, image in enumerate(images):
        img = e(
            "img",
            src=f"data:{image.media_type};base64,{image.data}",
            alt=image.name or "attached image",
            testid="attach-thumb",
        )
        remove = None
        if removable:
            remove = btn(
                "✕",
                testid="attach-remove",
                cls="attach-remove",
                data_attach_remove=str(i),
                aria_label=f"Remove {image.name or 'image'}",
            )
        items.append(e("figure", "attach-thumb", img, remove))
    return e("div", "attach-thumbs", items, testid="attach-thumbs")
