"""File operations above the file tree: new file/folder, rename, delete, upload, download.

A toolbar (``data-testid="file-ops"``) sits above the tree of a
:class:`~wiggum.web.views.files.FilesView`.  Rename, Delete and Download act on
the open file; New file/folder are created in the open file's folder (or at the
top).  Names are typed into an inline form, never ``window.prompt``, and every
refusal shows the reason from :mod:`wiggum.ui.workspace` under it, keeping what
was typed.  Delete asks first, inline.

Uploads come from the file picker or a drop on the tree; they are stored as
bytes (a logo stays a PNG) after the size limit and the name rules are
checked, one message per refused file.  Download builds a Blob from the
stored bytes and clicks a temporary ``<a download>``; no data is sent anywhere.

Files in ``.ralph/`` and ``.chief/`` are the agents' memory: they stay
visible, the tree marks them (CSS on their ``data-path``) and Delete says
whose memory a file is before it goes.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import to_js  # type: ignore[import-not-found]

from wiggum.fs import FileStore, FileStoreError
from wiggum.fs.paths import PathError, basename, dirname
from wiggum.preview.bundle import mime_type
from wiggum.ui.workspace import (
    UPLOAD_LIMIT,
    agent_memory_owner,
    check_upload,
    new_path,
    rename_target,
)

from ...dom import Listeners, closest_action, h, spawn

__all__ = ["FileOps", "mount_file_ops"]

_BUTTONS = (
    ("new-file", "New file", "Create a file in the open file's folder"),
    ("new-folder", "New folder", "Create a folder in the open file's folder"),
    ("rename", "Rename", "Rename the open file"),
    ("delete", "Delete", "Delete the open file"),
    ("upload", "Upload", f"Add files from your computer (up to {UPLOAD_LIMIT // 2**20} MB each)"),
    ("download", "Download", "Save the open file to your computer"),
)


class FileOps:
    def __init__(
        self,
        files: Any,
        *,
        on_changed: Callable[[list[str]], Any] | None = None,
    ) -> None:
        #: The FilesView whose tree this toolbar serves (its ``fs`` may change).
        self.files = files
        #: Called with the paths a person changed (the history hook's place).
        self.on_changed = on_changed
        self.listeners = Listeners()
        self._mode: str | None = None
        self.buttons = {
            action: h(
                "button",
                {
                    "type": "button",
                    "class": "file-op",
                    "data-action": f"op-{action}",
                    "data-testid": f"file-op-{action}",
                    "title": title,
                    "text": label,
                },
            )
            for action, label, title in _BUTTONS
        }
        self.picker = h(
            "input",
            {"type": "file", "multiple": True, "hidden": True, "data-testid": "file-op-picker"},
        )
        self.input = h(
            "input",
            {"type": "text", "class": "file-op-input", "data-testid": "file-op-input"},
        )
        self.form_label = h("label", {"class": "file-op-label"})
        self.ok = h(
            "button",
            {"type": "submit", "class": "file-op", "data-testid": "file-op-ok", "text": "OK"},
        )
        cancel = h(
            "button",
            {
                "type": "button",
                "class": "file-op",
                "data-action": "op-cancel",
                "data-testid": "file-op-cancel",
                "text": "Cancel",
            },
        )
        self.form = h(
            "form",
            {"class": "file-op-form", "data-testid": "file-op-form", "hidden": True},
            self.form_label,
            self.input,
            self.ok,
            cancel,
        )
        self.message = h(
            "p",
            {"class": "file-op-message", "data-testid": "file-op-message", "role": "status"},
        )
        self.el = h(
            "div",
            {"class": "file-ops", "data-testid": "file-ops"},
            h("div", {"class": "file-ops-bar"}, list(self.buttons.values()), self.picker),
            self.form,
            self.message,
        )
        files.tree_el.before(self.el)
        self.listeners.on(self.el, "click", self._on_click)
        self.listeners.on(self.form, "submit", self._on_submit)
        self.listeners.on(self.picker, "change", self._on_pick)
        self.listeners.on(files.tree_el, "dragover", self._on_dragover)
        self.listeners.on(files.tree_el, "dragleave", self._on_dragleave)
        self.listeners.on(files.tree_el, "drop", self._on_drop)

    # ------------------------------------------------------------ state

    @property
    def fs(self) -> FileStore:
        return self.files.fs

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
        if target is None:
            return
        action = str(target.getAttribute("data-action"))
        current = self.files.current
        if action in ("op-rename", "op-delete", "op-download") and not current:
            self._say("Open a file in the tree first, then choose what to do with it.", error=True)
        elif action == "op-upload":
            self.picker.click()
        elif action == "op-download" and current:
            spawn(self._download(current), what="download file")
        elif action == "op-cancel":
            self._close_form()
        elif action in ("op-new-file", "op-new-folder"):
            where = self._folder() or "the top folder"
            kind = "file" if action == "op-new-file" else "folder"
            self._open_form(action, f"New {kind} in {where}:", "")
        elif action == "op-rename" and current:
            self._open_form(action, f"Rename {current} to:", basename(current))
        elif action == "op-delete" and current:
            owner = agent_memory_owner(current)
            note = f" It is part of {owner}'s memory." if owner else ""
            self._open_form(action, f"Delete {current}?{note} This cannot be undone here.", None)

    def _open_form(self, mode: str, label: str, value: str | None) -> None:
        self._mode = mode
        self.form_label.textContent = label
        self.input.hidden = value is None
        self.ok.textContent = "Delete" if mode == "op-delete" else "OK"
        self.form.setAttribute("data-mode", mode)
        self.form.hidden = False
        self._say("")
        if value is not None:
            self.input.value = value
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
        mode, typed, current = self._mode, str(self.input.value), self.files.current
        try:
            if mode in ("op-new-file", "op-new-folder"):
                path, reason = new_path(self._folder(), typed)
                if path is None:
                    return self._say(str(reason), error=True)
                if await self.fs.exists(path):
                    return self._say(f"{path} already exists. Choose another name.", error=True)
                if mode == "op-new-file":
                    await self.fs.write_bytes(path, b"")
                else:
                    await self.fs.mkdir(path)
                await self._done([path], f"Created {path}.", open_path=path)
            elif mode == "op-rename" and current:
                target, reason = rename_target(current, typed)
                if target is None:
                    return self._say(str(reason), error=True)
                if await self.fs.exists(target):
                    return self._say(f"{target} already exists. Choose another name.", error=True)
                await self.fs.rename(current, target)
                await self._done([current, target], f"Renamed to {target}.", open_path=target)
            elif mode == "op-delete" and current:
                await self.fs.remove(current)
                self.files.current = None
                self.files.viewer.hidden = True
                await self._done([current], f"Deleted {current}.")
        except (FileStoreError, PathError) as exc:
            # What was typed stays in the form so it can be corrected.
            self._say(f"Could not do that: {exc}", error=True)

    async def _done(self, changed: list[str], text: str, *, open_path: str | None = None) -> None:
        self._close_form()
        self._say(text)
        await self.files.refresh()
        if open_path is not None and open_path in self.files.paths:
            await self.files.open(open_path)
        if self.on_changed is not None:
            result = self.on_changed(changed)
            if asyncio.iscoroutine(result):
                await result

    # ------------------------------------------------------------ upload

    def _on_pick(self, _event: Any) -> None:
        spawn(self._upload(list(self.picker.files)), what="upload")

    def _on_dragover(self, event: Any) -> None:
        event.preventDefault()  # without it the browser opens the dropped file itself
        self.files.tree_el.setAttribute("data-drop", "true")

    def _on_dragleave(self, _event: Any) -> None:
        self.files.tree_el.removeAttribute("data-drop")

    def _on_drop(self, event: Any) -> None:
        event.preventDefault()
        self.files.tree_el.removeAttribute("data-drop")
        transfer = event.dataTransfer
        if transfer is None:
            return
        spawn(self._upload(list(transfer.files)), what="upload")

    async def _upload(self, picked: list[Any]) -> None:
        folder = self._folder()
        stored: list[str] = []
        refused: list[str] = []
        for file in picked:
            name, size = str(file.name), int(file.size)
            reason = check_upload(name, size)
            if reason is not None:
                refused.append(reason)
                continue
            data = (await file.arrayBuffer()).to_py().tobytes()
            path = f"{folder}/{name}" if folder else name
            try:
                await self.fs.write_bytes(path, data)
            except (FileStoreError, PathError) as exc:
                refused.append(f"{name}: could not be stored: {exc}")
                continue
            stored.append(path)
        self.picker.value = ""  # the same file can be picked again
        parts = []
        if stored:
            parts.append("Uploaded " + ", ".join(stored) + ".")
        parts.extend(refused)
        if stored:
            await self._done(stored, " ".join(parts), open_path=stored[-1])
        self._say(" ".join(parts), error=bool(refused))

    # ------------------------------------------------------------ download

    async def _download(self, path: str) -> None:
        try:
            data = await self.fs.read_bytes(path)
        except (FileStoreError, PathError) as exc:
            return self._say(f"Could not read {path}: {exc}", error=True)
        options = to_js({"type": mime_type(path)}, dict_converter=js.Object.fromEntries)
        blob = js.Blob.new(to_js([to_js(data)]), options)
        url = js.URL.createObjectURL(blob)
        link = h("a", {"href": url, "download": basename(path), "hidden": True})
        js.document.body.appendChild(link)
        try:
            link.click()
        finally:
            link.remove()
            # Revoke later: revoking at once can cancel the download in some browsers.
            js.setTimeout(js.URL.revokeObjectURL, 10_000, url)
        self._say(f"Downloading {basename(path)}.")


def mount_file_ops(files: Any, *, on_changed: Callable[[list[str]], Any] | None = None) -> FileOps:
    """Put the file-operations toolbar above ``files``' tree.

    ``on_changed(paths)`` (sync or async) runs after every change a person
    makes here: the place for the history hook and a preview refresh.
    """
    return FileOps(files, on_changed=on_changed)
