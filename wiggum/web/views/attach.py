"""Images in Chief's composer: the Attach button, paste and drop (on the whole
conversation), thumbnails (their markup: :mod:`wiggum.ui.markup.attach`).

Files are read in the page (``File.arrayBuffer``), checked by
:func:`wiggum.chief.attachments.check_image` and kept as base64 until Send.
Hand-written: a file input and three DOM events, no library needed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from wiggum.ui.markup import attach as markup

from ..dom import Listeners, Parts, file_bytes, file_list, is_null, mount, say, spawn

if TYPE_CHECKING:  # wiggum.chief needs pydantic, loaded after the first screen
    from wiggum.chief.attachments import Attachment

__all__ = ["Attachments", "thumbnails"]


def thumbnails(images: list[Attachment], *, removable: bool = False) -> Any:
    """A row of thumbnails (with a remove button each when ``removable``)."""
    return mount(markup.thumbnails(images, removable=removable)).el


class Attachments:
    """The images waiting to go with the next message; ``composer`` holds the
    message box as mounted (``wiggum.ui.markup.chat.composer``: its tray, Attach, picker)."""

    def __init__(
        self,
        composer: Parts,
        warning: Callable[[int], str | None],
        keep_end: Callable[[Callable[[], None]], None] | None = None,
    ) -> None:
        self.images: list[Attachment] = []
        #: Runs a change of the composer's height so that a conversation read
        #: to its end stays at its end (the composer grows over it otherwise).
        self._keep_end = keep_end or (lambda change: change())
        #: ``warning(count)``: what to say about ``count`` images for the chosen
        #: model before they are sent (``wiggum.chief.attachments.images_warning``).
        self._warning = warning
        self.form = self.zone = composer.composer
        self.picker, self.tray = composer.picker, composer.tray
        self.message = composer.attach_message
        self.listeners = Listeners()
        self.listeners.on(composer.attach, "click", lambda _e: self.picker.click())
        self.listeners.on(self.picker, "change", self._on_pick)
        self.listeners.on(self.tray, "click", self._on_tray_click)
        self.listeners.on(composer.input, "paste", self._on_paste)

    def take_drops(self, zone: Any) -> None:
        """Attach files dropped anywhere on ``zone`` (once; it holds the composer):
        a person aims at the conversation as much as at the box, and a drop
        nobody takes makes the browser leave the page for the file.  While files
        are over it the composer shows it takes them."""
        self.zone = zone
        self.listeners.on(zone, "dragenter", self._on_dragover)
        self.listeners.on(zone, "dragover", self._on_dragover)
        self.listeners.on(zone, "dragleave", self._on_dragleave)
        self.listeners.on(zone, "drop", self._on_drop)

    def take(self) -> list[Attachment]:
        images, self.images = self.images, []
        self._render()
        return images

    def _say(self, text: str) -> None:
        self._keep_end(lambda: say(self.message, text))

    def _render(self) -> None:
        def change() -> None:
            self.tray.replaceChildren(thumbnails(self.images, removable=True))
            self.tray.hidden = not self.images

        self._keep_end(change)
        if not self.images:
            self._say("")

    async def _add_files(self, files: list[Any]) -> None:
        from wiggum.chief.attachments import AttachmentError, check_image

        problems: list[str] = []
        for f in files:
            try:
                raw = await file_bytes(f)
                self.images.append(check_image(str(f.name or ""), raw, len(self.images)))
            except AttachmentError as err:
                problems.append(str(err))
        self._render()
        warning = self._warning(len(self.images)) if self.images else None
        if warning:
            problems.append(warning)
        self._say(" ".join(problems))

    def _on_pick(self, _event: Any) -> None:
        files = file_list(self.picker.files)
        self.picker.value = ""  # the same file can be picked again
        if files:
            spawn(self._add_files(files), what="attach images")

    def _on_paste(self, event: Any) -> None:
        data = event.clipboardData
        files = file_list(data.files) if data is not None else []
        if files:  # text pastes go on as usual
            event.preventDefault()
            spawn(self._add_files(files), what="paste images")

    def _on_dragover(self, event: Any) -> None:
        types = event.dataTransfer.types if event.dataTransfer else None
        if types is not None and "Files" in list(types):
            event.preventDefault()  # else the browser opens the file instead
            event.dataTransfer.dropEffect = "copy"
            self.form.classList.add("drop-target")

    def _on_dragleave(self, event: Any) -> None:
        inside = event.relatedTarget
        if is_null(inside) or not self.zone.contains(inside):
            self.form.classList.remove("drop-target")

    def _on_drop(self, event: Any) -> None:
        self.form.classList.remove("drop-target")
        files = file_list(event.dataTransfer.files) if event.dataTransfer else []
        if files:
            event.preventDefault()
            spawn(self._add_files(files), what="drop images")

    def _on_tray_click(self, event: Any) -> None:
        target = event.target.closest("[data-attach-remove]")
        if is_null(target):
            return
        i = int(target.getAttribute("data-attach-remove"))
        if 0 <= i < len(self.images):
            del self.images[i]
            self._render()
            self._say("")
