"""File operations above the file tree: new file/folder, rename, delete, upload, download.

A toolbar (``data-testid="file-ops"``) sits above the tree of a
:class:`~wiggum.web.views.files.FilesView`.  Rename, Delete and Download act on
the open file; New file/folder are created in the open file's folder (or at the
top).  Names are typed into an inline form, never ``window.prompt``, and every
refusal shows the reason under it, keeping what was typed; what each
operation does is :mod:`wiggum.session.workspace`'s, what the toolbar shows
:mod:`wiggum.ui.workspace`'s.  Delete asks first, inline.

Uploads come from the file picker or a drop on the tree; they are stored as
bytes (a logo stays a PNG) after the size limit and the name rules are
checked, one message per refused file.  Download builds a Blob from the
stored bytes and clicks a temporary ``<a download>``; no data is sent anywhere.

Files in ``.ralph/`` and ``.chief/`` are the agents' memory: they stay
visible, the tree marks them (CSS on their ``data-path``) and Delete says
whose memory a file is before it goes.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from wiggum.fs import FileStoreError
from wiggum.fs.paths import PathError, basename, dirname
from wiggum.preview.bundle import mime_type
from wiggum.session.workspace import Done, Picked, submit, upload
from wiggum.ui.markup import workspace as markup
from wiggum.ui.workspace import NEEDS_A_FILE, OpForm, op_form

from ...dom import Listeners, closest_action, download, file_bytes, file_list, mount, spawn
from ..files import FilesView

__all__ = ["FileOps"]

#: Called with the paths a person changed (sync or async).
OnChanged = Callable[[list[str]], Any]


class FileOps:
    """The toolbar above ``files``' tree; ``on_changed(paths)`` (sync or async)
    runs after every change a person makes here (the history hook, a preview
    refresh)."""

    def __init__(self, files: FilesView, *, on_changed: OnChanged | None = None) -> None:
        #: The FilesView whose tree this toolbar serves (its ``fs`` may change).
        self.files = files
        #: Called with the paths a person changed (the history hook's place).
        self.on_changed = on_changed
        self.listeners = Listeners()
        self._mode: str | None = None
        parts = mount(markup.file_ops())
        self.el, self.picker, self.message = parts.el, parts.picker, parts.message
        self.form, self.form_label = parts.form, parts.label
        self.input, self.ok = parts.input, parts.ok
        files.tree_el.before(self.el)
        self._actions: dict[str, Callable[[], Any]] = {
            "op-upload": self.picker.click,
            "op-download": lambda: spawn(self._download(), what="download file"),
            "op-cancel": self._close_form,
        }
        self.listeners.on(self.el, "click", self._on_click)
        self.listeners.on(self.form, "submit", self._on_submit)
        self.listeners.on(self.picker, "change", self._on_pick)
        tree = files.tree_el
        self.listeners.on(tree, "dragover", self._on_dragover)
        self.listeners.on(tree, "dragleave", lambda _e: tree.removeAttribute("data-drop"))
        self.listeners.on(tree, "drop", self._on_drop)

    def close(self) -> None:
        self.listeners.close()
        self.el.remove()

    def _say(self, text: str, *, error: bool = False) -> None:
        self.message.textContent = text
        self.message.setAttribute("data-error", "true" if error else "false")

    def _folder(self) -> str:
        current = self.files.current
        return dirname(current) if current else ""

    # ------------------------------------------------------------ buttons

    def _on_click(self, event: Any) -> None:
        target = closest_action(event)
        action = "" if target is None else str(target.getAttribute("data-action"))
        if action in self._actions and (action != "op-download" or self.files.current):
            self._actions[action]()
            return
        form = op_form(action.removeprefix("op-"), self.files.current, self._folder())
        if form is not None:
            self._open_form(form)
        elif action in ("op-rename", "op-delete", "op-download"):
            self._say(NEEDS_A_FILE, error=True)

    def _open_form(self, form: OpForm) -> None:
        self._mode = form.mode
        self.form_label.textContent = form.label
        self.input.hidden = form.value is None
        self.ok.textContent = form.ok
        self.form.setAttribute("data-mode", f"op-{form.mode}")
        self.form.hidden = False
        self._say("")
        if form.value is not None:
            self.input.value = form.value
            self.input.focus()
            self.input.select()
        else:
            self.ok.focus()

    def _close_form(self) -> None:
        self._mode = None
        self.form.hidden = True

    def _on_submit(self, event: Any) -> None:
        event.preventDefault()
        spawn(self._submit(), what="file operation")

    async def _submit(self) -> None:
        current, folder = self.files.current, self._folder()
        done = await submit(
            self.files.fs, self._mode, str(self.input.value), current=current, folder=folder
        )
        if done is None:
            return
        if done.error:  # what was typed stays in the form, to be corrected
            self._say(done.message, error=True)
            return
        if done.closed:
            self.files.close_file()
        await self._done(done)

    async def _done(self, done: Done) -> None:
        self._close_form()
        self._say(done.message, error=done.error)
        await self.files.refresh()
        if done.open_path is not None and done.open_path in self.files.paths:
            await self.files.open(done.open_path)
        result = self.on_changed(list(done.changed)) if self.on_changed is not None else None
        if inspect.isawaitable(result):
            await result

    # ------------------------------------------------------------ upload

    def _on_pick(self, _event: Any) -> None:
        spawn(self._upload(file_list(self.picker.files)), what="upload")

    def _on_dragover(self, event: Any) -> None:
        event.preventDefault()  # without it the browser opens the dropped file itself
        self.files.tree_el.setAttribute("data-drop", "true")

    def _on_drop(self, event: Any) -> None:
        event.preventDefault()
        self.files.tree_el.removeAttribute("data-drop")
        if event.dataTransfer is not None:
            spawn(self._upload(file_list(event.dataTransfer.files)), what="upload")

    async def _upload(self, picked: list[Any]) -> None:
        done = await upload(self.files.fs, self._folder(), [_picked(f) for f in picked])
        self.picker.value = ""  # the same file can be picked again
        if done.changed:
            await self._done(done)
        self._say(done.message, error=done.error)

    # ------------------------------------------------------------ download

    async def _download(self) -> None:
        path = str(self.files.current)
        try:
            data = await self.files.fs.read_bytes(path)
        except (FileStoreError, PathError) as exc:
            return self._say(f"Could not read {path}: {exc}", error=True)
        download(data, basename(path), mime_type(path))
        self._say(f"Downloading {basename(path)}.")


def _picked(file: Any) -> Picked:
    return Picked(str(file.name), int(file.size), lambda: file_bytes(file))
