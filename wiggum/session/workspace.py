"""What Ralph's workspace does when the person acts on the project's files.

The views of ``wiggum/web/views/files.py`` and ``web/views/workspace/`` draw;
what happens is decided here, against a :class:`~wiggum.fs.FileStore`, and
tested under CPython (``tests/session/test_workspace.py``):

* :class:`OpenFiles`: which file is open, the unsaved buffers kept while
  another file is open, what a refresh does under the open file, and when an
  SVG may switch between its image and its source;
* :func:`save_file`: the editor's save, and what the person reads when the
  browser or another tab refused it (their text stays in the editor);
* :func:`create`, :func:`rename`, :func:`delete`, :func:`upload` (and
  :func:`submit`, the inline form's OK): the file operations above the tree,
  each returning a :class:`Done` that says what to show, what changed (the
  history hook's paths) and which file to open.

Every refusal names its cause and its fix in the person's words
(``wiggum.ui.workspace`` for typed names and uploads).
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Literal, ParamSpec

from wiggum.fs import FileStore, FileStoreError, PathError, StorageFull
from wiggum.ui.editor_buffer import Buffer
from wiggum.ui.tab_lock import ProjectPaused
from wiggum.ui.workspace import check_upload, new_path, rename_target

__all__ = [
    "Done",
    "OpenFiles",
    "Picked",
    "create",
    "delete",
    "rename",
    "save_file",
    "submit",
    "upload",
]

P = ParamSpec("P")

#: What a refresh of the tree does to the open file.
AfterRefresh = Literal["reopen", "keep", "close", "none"]

#: Said when the image of an SVG is asked for while its source has unsaved edits.
SAVE_BEFORE_IMAGE = "Save (or undo) your edits before showing the image."


@dataclass
class OpenFiles:
    """The open file, and the unsaved buffers of the files not shown now."""

    current: str | None = None
    #: Unsaved buffers (or unresolved conflicts) of files not shown now, by path.
    kept: dict[str, Buffer] = field(default_factory=dict)
    #: Whether an SVG shows its source (in the editor) rather than its image.
    svg_source: bool = False

    def after_refresh(self, listed: Iterable[str], *, editor_dirty: bool) -> AfterRefresh:
        """The tree was listed again: what happens to the open file.

        Still there: read again (the editor's buffer decides what a change on
        disk does).  Gone (deleted or renamed) under unsaved edits: they stay
        open, a save writes the file again.  Gone otherwise: closed."""
        if self.current is None:
            return "none"
        if self.current in set(listed):
            return "reopen"
        if editor_dirty:
            return "keep"
        self.current = None
        return "close"

    def opening(self, path: str) -> None:
        """Another file is opened: an SVG opens as its image first."""
        if path != self.current:
            self.svg_source = False
        self.current = path

    def keep(self, buffer: Buffer) -> None:
        """The editor closes: its buffer is kept when it holds something unsaved."""
        if buffer.dirty or buffer.theirs is not None:
            self.kept[buffer.path] = buffer

    def take(self, path: str) -> Buffer | None:
        """The buffer kept for ``path`` (it goes back into an editor), if any."""
        return self.kept.pop(path, None)

    def unsaved(self, path: str, editor: tuple[str, bool] | None) -> bool:
        """Whether ``path`` has unsaved edits; ``editor``: the open editor's (path, dirty)."""
        if editor is not None and editor[0] == path:
            return editor[1]
        return path in self.kept

    def any_unsaved(self, editor_dirty: bool) -> bool:
        """Whether leaving the page now would lose edits."""
        return bool(self.kept) or editor_dirty

    def svg_switch(self, want_source: bool, *, editor_dirty: bool) -> str | None:
        """The person asks for an SVG's source or image: ``"switch"`` (open it
        again that way), ``None`` (it shows that way already), or the refusal."""
        if want_source == self.svg_source:
            return None
        if not want_source and editor_dirty:
            return SAVE_BEFORE_IMAGE
        self.svg_source = want_source
        return "switch"

    def forget(self) -> None:
        """Another project: nothing of this one stays open or kept."""
        self.current = None
        self.kept.clear()


async def save_file(fs: FileStore, path: str, text: str) -> str | None:
    """Write the editor's ``text``; ``None`` when saved, else what the person reads."""
    try:
        await fs.write_text(path, text)
    except ProjectPaused as exc:  # another tab owns the project
        return f"Not saved. {exc} Your text is still here."
    except StorageFull as exc:  # a full quota: the unsaved text and marker stay
        return f"Not saved. {exc} Your text is still here: save again then."
    except (FileStoreError, PathError, OSError) as exc:
        return (
            f"Not saved: {exc}. Your text is still here; free some space or "
            "download the project, then save again."
        )
    return None


# ------------------------------------------------------------------ file operations


@dataclass(frozen=True, slots=True)
class Done:
    """What a file operation did: the line to show, and what follows."""

    message: str
    error: bool = False
    #: The paths the person changed (history's checkpoint, the preview's refresh).
    changed: tuple[str, ...] = ()
    #: The file to open once the tree is listed again.
    open_path: str | None = None
    #: The open file is gone (deleted): the viewer closes.
    closed: bool = False


def _refused(message: str) -> Done:
    return Done(message, error=True)


def _said(operation: Callable[P, Awaitable[Done]]) -> Callable[P, Awaitable[Done]]:
    """A store's refusal of ``operation`` said to the person, not raised."""

    @functools.wraps(operation)
    async def said(*args: P.args, **kwargs: P.kwargs) -> Done:
        try:
            return await operation(*args, **kwargs)
        except (FileStoreError, PathError) as exc:
            # What was typed stays in the form so it can be corrected.
            return _refused(f"Could not do that: {exc}")

    return said


async def _free(fs: FileStore, found: tuple[str | None, str | None]) -> str | Done:
    """The path a typed name leads to, or why not: the name's fault, or it is taken."""
    path, reason = found
    if path is None:
        return _refused(str(reason))
    if await fs.exists(path):
        return _refused(f"{path} already exists. Choose another name.")
    return path


@_said
async def create(fs: FileStore, folder: str, typed: str, *, is_folder: bool = False) -> Done:
    """A new empty file (or folder) named ``typed`` in ``folder`` (``""``: the top)."""
    path = await _free(fs, new_path(folder, typed))
    if isinstance(path, Done):
        return path
    if is_folder:
        await fs.mkdir(path)
    else:
        await fs.write_bytes(path, b"")
    return Done(f"Created {path}.", changed=(path,), open_path=path)


@_said
async def rename(fs: FileStore, current: str, typed: str) -> Done:
    """``current`` renamed to the single name ``typed`` in its folder."""
    target = await _free(fs, rename_target(current, typed))
    if isinstance(target, Done):
        return target
    await fs.rename(current, target)
    return Done(f"Renamed to {target}.", changed=(current, target), open_path=target)


@_said
async def delete(fs: FileStore, current: str) -> Done:
    await fs.remove(current)
    return Done(f"Deleted {current}.", changed=(current,), closed=True)


async def submit(
    fs: FileStore, mode: str | None, typed: str, *, current: str | None, folder: str
) -> Done | None:
    """The inline form's OK for the operation ``mode`` (``new-file``, ``new-folder``,
    ``rename``, ``delete``) with what was ``typed``, on the open file ``current`` or
    in ``folder``; ``None`` when there is nothing to do (no form, no open file)."""
    if mode in ("new-file", "new-folder"):
        return await create(fs, folder, typed, is_folder=mode == "new-folder")
    if mode == "rename" and current:
        return await rename(fs, current, typed)
    if mode == "delete" and current:
        return await delete(fs, current)
    return None


@dataclass(frozen=True, slots=True)
class Picked:
    """A file the person picked or dropped: its name, size, and how to read it."""

    name: str
    size: int
    read: Callable[[], Awaitable[bytes]]


async def upload(fs: FileStore, folder: str, picked: Iterable[Picked]) -> Done:
    """Store each picked file in ``folder`` as bytes, once its size and name pass.

    One line says what was stored and, after it, why each refused file was."""
    stored: list[str] = []
    refused: list[str] = []
    for file in picked:
        reason = check_upload(file.name, file.size)
        if reason is not None:
            refused.append(reason)
            continue
        path = f"{folder}/{file.name}" if folder else file.name
        try:
            await fs.write_bytes(path, await file.read())
        except (FileStoreError, PathError) as exc:
            refused.append(f"{file.name}: could not be stored: {exc}")
            continue
        stored.append(path)
    parts = (["Uploaded " + ", ".join(stored) + "."] if stored else []) + refused
    return Done(
        " ".join(parts),
        error=bool(refused),
        changed=tuple(stored),
        open_path=stored[-1] if stored else None,
    )
