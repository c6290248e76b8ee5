"""Point at the page and change it: the decisions of the preview's select mode.

What the person picked in the preview (:class:`~wiggum.preview.point.Picked`,
already checked on the channel) is looked up in the load's own table of where
each start tag is written (:class:`~wiggum.preview.point.SourcePlace`), never
read as a path.  From there this decides what the selection panel says
("index.html:12", or the script that made the element), which actions it
offers (Edit text, the link's address, Replace image, Undo), writes the edits
into the source (text by :mod:`wiggum.preview.source_edit`, an ``href`` or
``src`` by :mod:`wiggum.project.start_tag`, the inspector's writer too) and makes each one a
checkpoint of the person's in History, with an Undo that puts the files back
as they were, itself a checkpoint.  The style inspector
(:mod:`wiggum.session.inspector`) is given the selection as a
:func:`style_target`, and its Apply goes through :meth:`PointSession.apply_style`
so the same Undo takes it back.  The context "Ask Chief" / "Ask Ralph"
carry (:func:`element_context`) is built here too.

The web view (``wiggum.web.views.point``) only draws and forwards.
"""

from __future__ import annotations

import logging
import posixpath
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from wiggum.fs import FileStore, FileStoreError
from wiggum.fs.paths import PathError, dirname
from wiggum.preview.point import INSPECTED, Picked, SourcePlace
from wiggum.preview.source_edit import EditRefused, set_text, text_of
from wiggum.project.start_tag import StartTagError, set_attribute

from .inspector import StyleEdit, StyleTarget, StyleWritten, read_style_files, write_style_edit
from .workspace import Picked as PickedFile
from .workspace import upload

__all__ = [
    "Edited",
    "PanelShown",
    "PointSession",
    "Selection",
    "element_context",
    "panel_shown",
    "person_checkpoint",
    "selection_of",
    "style_target",
]

log = logging.getLogger("wiggum.session.point")

#: Where an uploaded image is kept in the project.
ASSETS = "assets"
#: Lines of source an Ask carries, at most.
EXCERPT_LINES = 12
NOT_KNOWN = "made by the page's script, source not known"

#: ``checkpoint(message)``: a checkpoint of the person's with ``message``.
Checkpoint = Callable[[str], Awaitable[Any]]


@dataclass(frozen=True, slots=True)
class Selection:
    """A picked element and where it is written (``place``: ``None`` when a
    script made it)."""

    picked: Picked
    place: SourcePlace | None
    #: The page's number of it (to pick it again after the preview reloads).
    number: int = -1

    @property
    def selector(self) -> str:
        p = self.picked
        if p.id:
            return f"{p.tag}#{p.id}"
        return p.tag + "".join(f".{c}" for c in p.classes[:3])

    @property
    def where(self) -> str:
        """ "index.html:12", or where the script that made it is, or that it is not known."""
        if self.place is not None:
            return self.place.where
        if self.picked.made:
            return f"made by the page's script at {self.picked.made}"
        return NOT_KNOWN

    @property
    def kind(self) -> str:
        """ "link", "image" or "text" (what may be edited in place), else "other"."""
        if self.picked.tag == "a":
            return "link"
        if self.picked.tag == "img":
            return "image"
        return "text" if self.picked.plain else "other"

    @property
    def size(self) -> str:
        return f"{round(self.picked.width)}×{round(self.picked.height)}"

    @property
    def open_at(self) -> tuple[str, int] | None:
        """The file and line the editor opens at."""
        if self.place is not None:
            return self.place.path, self.place.line
        if ":" in self.picked.made:
            path, _, line = self.picked.made.rpartition(":")
            if line.isdigit():
                return path, int(line)
        return None


@dataclass(frozen=True, slots=True)
class PanelShown:
    """What the selection panel shows for a selection."""

    selector: str
    where: str
    size: str
    #: The where-button opens the editor (a place in a file is known).
    openable: bool
    edit_text: bool
    edit_link: bool
    replace_image: bool
    undo: str

    @property
    def undo_shown(self) -> bool:
        return bool(self.undo)


def panel_shown(sel: Selection, undo: str = "") -> PanelShown:
    """Which of the panel's actions a selection offers: text to type for any
    element written in the page but an image (the source says at the click
    whether it is plain text, and why not), the address for a link, an upload
    for an image; Undo while an edit of this session can be undone."""
    written = sel.place is not None
    return PanelShown(
        selector=sel.selector,
        where=sel.where,
        size=f"{sel.size} px",
        openable=sel.open_at is not None,
        edit_text=written and sel.kind != "image",
        edit_link=written and sel.kind == "link",
        replace_image=written and sel.kind == "image",
        undo=undo,
    )


def style_target(sel: Selection, stylesheets: Sequence[str]) -> StyleTarget | None:
    """The style inspector's view of a selection written in the page."""
    if sel.place is None:
        return None
    p = sel.picked
    return StyleTarget(
        tag=p.tag,
        id=p.id,
        classes=p.classes,
        computed=dict(p.styles),
        html_path=sel.place.path,
        offset=sel.place.offset,
        line=sel.place.line,
        css_files=tuple(stylesheets),
    )


def selection_of(picked: Picked, places: Sequence[SourcePlace]) -> Selection:
    """The selection for what the frame picked, placed by Wiggum's own table."""
    number = picked.place
    place = places[number] if 0 <= number < len(places) else None
    if place is not None and place.tag != picked.tag:
        place = None  # the frame's number does not name this element: not trusted
    return Selection(picked, place, number if place is not None else -1)


@dataclass(frozen=True, slots=True)
class Edited:
    """What an edit did: the line to show, and whether it was refused."""

    message: str
    error: bool = False
    changed: tuple[str, ...] = ()


@dataclass(slots=True)
class _Undo:
    message: str
    #: path -> (its text before the edit, its text after)
    files: dict[str, tuple[bytes | None, bytes]] = field(default_factory=dict)


def element_context(sel: Selection, source: str | None) -> str:
    """What "Ask Chief about this" / "Ask Ralph to change this" carry: the
    selector, where it is written with an excerpt of the source, its size and
    computed styles."""
    p = sel.picked
    lines = [f"The element `{sel.selector}` of the page ({sel.where}), {sel.size} px."]
    styles = [f"{name}: {p.styles[name]}" for name in INSPECTED if p.styles.get(name)]
    if styles:
        lines.append("Computed styles: " + "; ".join(styles) + ".")
    if sel.place is not None and source is not None:
        rows = source.splitlines()
        first = sel.place.line
        excerpt = rows[first - 1 : first - 1 + EXCERPT_LINES]
        numbered = "\n".join(f"{first + i:>4}  {row}" for i, row in enumerate(excerpt))
        lines.append(f"Source ({sel.place.path} from line {first}):\n```html\n{numbered}\n```")
    elif p.text.strip():
        lines.append(f"Its text: “{p.text.strip()[:300]}”")
    return "\n".join(lines)


class PointSession:
    """The select mode's state and the edits it writes.

    ``fs()`` is the open project's files, ``history()`` its History (a
    ``HistoryService``): each edit is the person's checkpoint there, shown like
    any save; the style inspector's edits go through it too, for one Undo."""

    def __init__(self, fs: Callable[[], FileStore | None], history: Callable[[], Any]) -> None:
        self._fs = fs
        self._history = history
        self._checkpoint = person_checkpoint(history)
        self.on = False
        self.selection: Selection | None = None
        self._undo: list[_Undo] = []

    # ------------------------------------------------------------ mode

    def toggle(self) -> bool:
        self.on = not self.on
        return self.on

    def leave(self) -> None:
        self.on = False

    def forget(self) -> None:
        """Another project: nothing of the last one's selection or edits is kept."""
        self.on, self.selection = False, None
        self._undo.clear()

    def pick(self, picked: Picked, places: Sequence[SourcePlace]) -> Selection:
        self.selection = selection_of(picked, places)
        return self.selection

    def shown(self) -> PanelShown | None:
        sel = self.selection
        return None if sel is None else panel_shown(sel, self.undo_label)

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    @property
    def undo_label(self) -> str:
        return f"Undo: {self._undo[-1].message}" if self._undo else ""

    # ------------------------------------------------------------ reading

    async def source(self, sel: Selection | None = None) -> str | None:
        sel = sel or self.selection
        fs = self._fs()
        if sel is None or sel.place is None or fs is None:
            return None
        try:
            return await fs.read_text(sel.place.path)
        except (FileStoreError, PathError, UnicodeDecodeError):
            return None

    async def text_refusal(self, sel: Selection | None = None) -> str | None:
        """Why the selection's text cannot be typed in place (``None``: it can)."""
        sel = sel or self.selection
        if sel is None:
            return "Select an element first."
        if sel.place is None:
            return f"This element was {sel.where}: change that script, or ask Ralph."
        source = await self.source(sel)
        if source is None:
            return f"{sel.place.path} cannot be read now."
        try:
            text_of(source, sel.place.offset, sel.place.tag)
        except EditRefused as exc:
            return str(exc)
        return None

    async def context(self) -> str:
        sel = self.selection
        return "" if sel is None else element_context(sel, await self.source(sel))

    # ------------------------------------------------------------ edits

    async def commit_text(self, number: int, text: str, places: Sequence[SourcePlace]) -> Edited:
        """Text typed in place in element ``number`` (of the page whose table is
        ``places``), written into its file."""
        place = places[number] if 0 <= number < len(places) else None
        if place is None:
            return Edited("That element is not written in the page's file.", error=True)
        return await self._edit_file(
            place,
            lambda source: set_text(source, place.offset, place.tag, text),
            f"Edit text of <{place.tag}> in {place.path}",
        )

    async def set_link(self, text: str | None, href: str | None) -> Edited:
        """The selected link's text and/or address."""
        sel = self.selection
        if sel is None or sel.place is None or sel.kind != "link":
            return Edited("Select a link written in the page first.", error=True)
        place = sel.place

        def change(source: str) -> str:
            if href is not None:
                source = set_attribute(source, place.offset, "href", href.strip(), tag="a")
            if text is not None:
                source = set_text(source, place.offset, "a", text)
            return source

        return await self._edit_file(place, change, f"Edit link in {place.path}")

    async def replace_image(self, file: PickedFile) -> Edited:
        """The selected image replaced by ``file``: kept under ``assets/``, its
        ``src`` pointed there."""
        sel, fs = self.selection, self._fs()
        if sel is None or sel.place is None or sel.kind != "image" or fs is None:
            return Edited("Select an image written in the page first.", error=True)
        done = await upload(fs, ASSETS, [file])
        if done.error or not done.changed:
            return Edited(done.message, error=True)
        stored = done.changed[0]
        place = sel.place
        src = posixpath.relpath(stored, dirname(place.path) or ".")
        return await self._edit_file(
            place,
            lambda source: set_attribute(source, place.offset, "src", src, tag="img"),
            f"Replace image in {place.path} with {stored}",
        )

    async def apply(self, files: dict[str, str], message: str) -> Edited:
        """Write ``files`` (path -> new text) as one edit: one checkpoint, one Undo
        (the inspector's style edits come this way)."""
        fs = self._fs()
        if fs is None:
            return Edited("No project is open.", error=True)
        undo = _Undo(message)
        for path, text in files.items():
            undo.files[path] = (await _read(fs, path), text.encode("utf-8"))
        try:
            for path, text in files.items():
                await fs.write_text(path, text)
        except (FileStoreError, PathError, OSError) as exc:
            await _put_back(fs, undo)
            return Edited(f"Not written: {exc}. Nothing was changed.", error=True)
        self._undo.append(undo)
        await self._checkpoint(message)
        return Edited(message + ".", changed=tuple(files))

    def remember(self, message: str, files: dict[str, tuple[bytes | None, bytes]]) -> None:
        """An edit written elsewhere (the inspector's, its own checkpoint taken):
        ``files`` is path -> (its bytes before, after); Undo takes it back."""
        self._undo.append(_Undo(message, dict(files)))

    async def snapshot(self, paths: Sequence[str]) -> dict[str, bytes | None]:
        """What ``paths`` hold now (``None``: no such file), for :meth:`remember`."""
        fs = self._fs()
        return {path: (await _read(fs, path) if fs is not None else None) for path in paths}

    async def inspect(
        self, stylesheets: Sequence[str], load: Callable[..., Awaitable[None]]
    ) -> tuple[StyleTarget, dict[str, str]] | None:
        """What the style inspector shows for the selection: its target and the
        files read for it (``None``: not an element written in the page)."""
        fs, target = self._fs(), self.style_target(stylesheets)
        if target is None or fs is None:
            return None
        return target, await read_style_files(fs, target, load)

    def style_target(self, stylesheets: Sequence[str]) -> StyleTarget | None:
        """The selection as the style inspector sees it (``None``: nothing selected,
        or an element no page file holds)."""
        sel = self.selection
        return None if sel is None else style_target(sel, stylesheets)

    async def apply_style(self, edit: StyleEdit) -> StyleWritten:
        """The inspector's Apply: its files and one checkpoint, with an Undo here."""
        fs, history = self._fs(), self._history()
        if fs is None or history is None:
            return StyleWritten("No project is open.", error=True)
        before = await self.snapshot([path for path, _ in edit.writes])
        written = await write_style_edit(fs, history, edit)
        if not written.error and written.paths:
            after = await self.snapshot(written.paths)
            self.remember(
                edit.summary, {p: (before.get(p), after[p] or b"") for p in written.paths}
            )
        return written

    async def undo(self) -> Edited:
        """Put the files of the last edit back as they were, as a checkpoint."""
        if not self._undo:
            return Edited("Nothing to undo.", error=True)
        fs = self._fs()
        if fs is None:
            return Edited("No project is open.", error=True)
        last = self._undo[-1]
        for path, (_, after) in last.files.items():
            if await _read(fs, path) != after:
                self._undo.pop()
                return Edited(
                    f"{path} changed since this edit; restore it from History instead.",
                    error=True,
                )
        self._undo.pop()
        try:
            await _put_back(fs, last)
        except (FileStoreError, PathError, OSError) as exc:
            return Edited(f"Could not undo: {exc}.", error=True)
        message = f"Undo: {last.message}"
        await self._checkpoint(message)
        return Edited(message + ".", changed=tuple(last.files))

    async def _edit_file(
        self, place: SourcePlace, change: Callable[[str], str], message: str
    ) -> Edited:
        fs = self._fs()
        if fs is None:
            return Edited("No project is open.", error=True)
        try:
            source = await fs.read_text(place.path)
            new = change(source)
        except EditRefused as exc:
            return Edited(str(exc), error=True)
        except StartTagError as exc:
            return Edited(f"{place.path}: {exc}", error=True)
        except (FileStoreError, PathError, UnicodeDecodeError) as exc:
            return Edited(f"{place.path} cannot be read: {exc}", error=True)
        if new == source:
            return Edited("Nothing changed.")
        return await self.apply({place.path: new}, message)


async def _read(fs: FileStore, path: str) -> bytes | None:
    try:
        return await fs.read_bytes(path)
    except (FileStoreError, PathError):
        return None


async def _put_back(fs: FileStore, undo: _Undo) -> None:
    for path, (before, _) in undo.files.items():
        if before is None:
            if await fs.exists(path):
                await fs.write_many({}, remove=[path])
        else:
            await fs.write_bytes(path, before)


def person_checkpoint(history: Callable[[], Any]) -> Checkpoint:
    """``checkpoint(message)`` over the open project's History (``history()``):
    a checkpoint of the person's, the agents' notes left out, as a save makes.
    A checkpoint that cannot be taken is logged; the edit stays written."""
    from wiggum.project.service import AGENT_MEMORY

    async def checkpoint(message: str) -> Any:
        service = history()
        if service is None:
            return None
        try:
            return await service.checkpoint("you", message, leave_out=AGENT_MEMORY)
        except Exception:
            log.exception("point: no checkpoint for %s", message)
            return None

    return checkpoint
