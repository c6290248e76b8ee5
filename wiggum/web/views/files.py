"""The project's files: a collapsible tree, and the open file beside it.

Every file of the FileStore is listed, the agents' ``.chief/`` and ``.ralph/``
folders included; folders first, names sorted.  Folders are ``<details>``
(collapsible, state kept across refreshes); files are buttons
(``data-testid="file-entry"``, ``data-path``).  Text files open in the editor
(:mod:`.workspace.editor`, CodeMirror, loaded on the first open); images show via
a ``data:`` URL in an ``<img>`` (an image element never runs SVG scripts; an SVG
also offers its source in the editor); other binary files show their size and a
download.  Unsaved buffers are kept while another file is open (the tree marks
them), and the page asks before it is left with unsaved edits.
"""

from __future__ import annotations

import asyncio
import base64
import inspect
from collections.abc import Callable
from typing import Any

import js  # type: ignore[import-not-found]

from wiggum.fs import FileStore, FileStoreError
from wiggum.fs.paths import PathError
from wiggum.fs.sizes import format_size
from wiggum.preview.bundle import IMAGE_EXTS, mime_type

from ..dom import Listeners, closest_action, h, spawn

__all__ = ["FilesView", "is_binary", "mount_files"]


def is_binary(data: bytes) -> bool:
    if b"\x00" in data[:8192]:
        return True
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


def _tree(files: list[str], dirs: list[str]) -> dict[str, Any]:
    """Nested dicts: folder name -> dict, file name -> path."""
    root: dict[str, Any] = {}
    for d in dirs:
        node = root
        for part in d.split("/"):
            node = node.setdefault(part, {})
    for path in files:
        node = root
        *folders, name = path.split("/")
        for part in folders:
            child = node.setdefault(part, {})
            if not isinstance(child, dict):  # a file and a folder of one name: keep both
                child = node[part + "/"] = {}
            node = child
        node[name] = path
    return root


class FilesView:
    def __init__(
        self,
        container: Any,
        fs: FileStore,
        *,
        on_open: Callable[[str], Any] | None = None,
        on_saved: Callable[[list[str]], Any] | None = None,
    ) -> None:
        self.container = container
        self.fs = fs
        self.on_open = on_open
        #: Called with ``[path]`` after the person saved (the app's history hook).
        self.on_saved = on_saved
        self.editor: Any = None
        #: Unsaved buffers of files not shown now, by path.
        self.kept: dict[str, Any] = {}
        self._svg_source = False
        self.current: str | None = None
        self.paths: list[str] = []
        self.collapsed: set[str] = set()
        self._gen = 0
        self._open_gen = 0
        self.listeners = Listeners()

        self.tree_el = h(
            "nav",
            {"class": "file-tree", "data-testid": "file-tree", "aria-label": "Project files"},
        )
        self.viewer_head = h("div", {"class": "file-viewer-head"})
        self.viewer_body = h("div", {"class": "file-viewer-body"})
        self.viewer = h(
            "section",
            {"class": "file-viewer", "data-testid": "file-viewer", "hidden": True},
            self.viewer_head,
            self.viewer_body,
        )
        self.empty = h(
            "p", {"class": "file-empty", "data-testid": "file-empty", "text": "No files yet."}
        )
        self.el = h("div", {"class": "files", "data-testid": "files"}, self.tree_el, self.viewer)
        container.appendChild(self.el)
        self.listeners.on(self.tree_el, "click", self._on_click)
        self.listeners.on(self.viewer_body, "click", self._on_viewer_click)
        self.listeners.on(js.window, "beforeunload", self._on_beforeunload)

    # ------------------------------------------------------------ public

    def refresh(self) -> asyncio.Task:
        """Re-list the files (and reload the open one).  Await the task if needed."""
        return spawn(self._refresh(), what="files refresh")

    def open(self, path: str) -> asyncio.Task:
        """Show ``path`` in the viewer."""
        return spawn(self._open(path), what="open file")

    def set_fs(self, fs: FileStore) -> asyncio.Task:
        self._close_editor(keep=False)
        self.kept.clear()
        self.fs = fs
        self.current = None
        self.viewer.hidden = True
        return self.refresh()

    def close(self) -> None:
        self._close_editor(keep=False)
        self._gen += 1
        self.listeners.close()
        self.el.remove()

    # ------------------------------------------------------------ tree

    async def _refresh(self) -> None:
        self._gen += 1
        gen = self._gen
        try:
            files = await self.fs.list("", recursive=True)
            every = await self.fs.list("", recursive=True, dirs=True)
        except (FileStoreError, PathError):
            files, every = [], []
        if gen != self._gen:
            return
        fileset = set(files)
        dirs = [p for p in every if p not in fileset]
        self.paths = sorted(files)
        self._remember_collapsed()
        if files or dirs:
            self.tree_el.replaceChildren(self._render(_tree(files, dirs), ""))
        else:
            self.tree_el.replaceChildren(self.empty)
        if self.current is not None:
            if self.current in fileset:
                await self._open(self.current)
            elif self.editor is not None and self.editor.dirty:
                pass  # deleted or renamed under unsaved edits: keep them open (save recreates)
            else:
                self._close_editor(keep=False)
                self.current = None
                self.viewer.hidden = True

    def _render(self, node: dict[str, Any], prefix: str) -> Any:
        folders = sorted((k, v) for k, v in node.items() if isinstance(v, dict))
        files = sorted((k, v) for k, v in node.items() if not isinstance(v, dict))
        items = []
        for name, child in folders:
            name = name.rstrip("/")
            path = f"{prefix}{name}"
            summary = h("summary", {"class": "file-folder-name", "text": name})
            details = h(
                "details",
                {
                    "class": "file-folder",
                    "data-testid": "file-folder",
                    "data-path": path,
                    "open": path not in self.collapsed,
                },
                summary,
                self._render(child, f"{path}/"),
            )
            items.append(h("li", None, details))
        for name, path in files:
            button = h(
                "button",
                {
                    "type": "button",
                    "class": "file-entry",
                    "data-testid": "file-entry",
                    "data-action": "open-file",
                    "data-path": path,
                    "title": path,
                    "aria-current": "true" if path == self.current else None,
                    "data-unsaved": "true" if self._is_unsaved(path) else None,
                    "text": name,
                },
            )
            items.append(h("li", None, button))
        return h("ul", {"class": "file-list", "role": "list"}, items)

    def _on_click(self, event: Any) -> None:
        target = closest_action(event)
        if target is None or target.getAttribute("data-action") != "open-file":
            return
        path = str(target.getAttribute("data-path"))
        self.open(path)
        if self.on_open is not None:
            result = self.on_open(path)
            if inspect.isawaitable(result):
                spawn(result, what="on_open")

    def _remember_collapsed(self) -> None:
        """Folders the user closed stay closed when the tree is rebuilt."""
        for el in self.tree_el.querySelectorAll("[data-testid=file-folder]"):
            path = str(el.getAttribute("data-path"))
            if el.open:
                self.collapsed.discard(path)
            else:
                self.collapsed.add(path)

    # ------------------------------------------------------------ viewer

    async def _open(self, path: str) -> None:
        self._open_gen += 1
        gen = self._open_gen
        same = self.current == path
        try:
            data = await self.fs.read_bytes(path)
        except (FileStoreError, PathError) as exc:
            if gen == self._open_gen:
                self._show(path, h("p", {"class": "file-error", "text": f"Cannot open: {exc}"}))
            return
        if gen != self._open_gen:
            return
        if same and self.editor is not None and self.editor.path == path:
            # The open file changed on disk (or the tree was refreshed): the
            # editor decides (editor_buffer's policy), the buffer stays.
            if not is_binary(data):
                self.editor.disk_changed(data.decode("utf-8"))
            return
        if not same:
            self._svg_source = False
        self._close_editor(keep=True)
        self.current = path
        for el in self.tree_el.querySelectorAll("[data-testid=file-entry]"):
            if el.getAttribute("data-path") == path:
                el.setAttribute("aria-current", "true")
            else:
                el.removeAttribute("aria-current")
        ext = path.rsplit(".", 1)[-1].lower() if "." in path.rsplit("/", 1)[-1] else ""
        size = format_size(len(data))
        is_svg = ext == "svg" and not is_binary(data)
        if ext in IMAGE_EXTS and not (is_svg and self._svg_source):
            url = f"data:{mime_type(path)};base64,{base64.b64encode(data).decode('ascii')}"
            body = h(
                "div",
                {"class": "file-image", "data-kind": "image"},
                self._svg_toggle(is_svg, source=False),
                h("img", {"src": url, "alt": path, "data-testid": "file-image"}),
            )
            self._show(path, body, f"image, {size}", "image")
        elif is_binary(data):
            body = h(
                "div",
                {"class": "file-binary", "data-kind": "binary"},
                h("p", {"data-testid": "file-binary", "text": f"binary, {len(data):,} bytes"}),
                h(
                    "a",
                    {
                        "class": "file-download",
                        "data-testid": "file-download",
                        "download": path.rsplit("/", 1)[-1],
                        "href": "data:application/octet-stream;base64,"
                        + base64.b64encode(data).decode("ascii"),
                        "text": "Download",
                    },
                ),
            )
            self._show(path, body, f"{size}, binary", "binary")
        else:
            from .workspace.editor import Editor

            text = data.decode("utf-8")
            kept = self.kept.pop(path, None)
            if kept is not None:
                kept.disk_changed(text)
            self.editor = Editor(
                self.fs,
                path,
                text,
                on_saved=self._saved,
                on_dirty=self._dirty_changed,
                buffer=kept,
            )
            lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
            note = f"{lines} line{'' if lines == 1 else 's'}, {size}"
            body = h("div", {"class": "file-text", "data-kind": "text"})
            if is_svg:
                body.appendChild(self._svg_toggle(True, source=True))
            body.appendChild(self.editor.el)
            self._show(path, body, note, "text")
            self._mark_unsaved(path, self.editor.dirty)
            await self.editor.start()

    # ------------------------------------------------------------ editor glue

    def _close_editor(self, *, keep: bool) -> None:
        if self.editor is None:
            return
        buffer = self.editor.close()
        if keep and (buffer.dirty or buffer.theirs is not None):
            self.kept[buffer.path] = buffer
        self.editor = None

    def _is_unsaved(self, path: str) -> bool:
        if self.editor is not None and self.editor.path == path:
            return bool(self.editor.dirty)
        return path in self.kept

    def _any_unsaved(self) -> bool:
        return bool(self.kept) or (self.editor is not None and self.editor.dirty)

    def _mark_unsaved(self, path: str, dirty: bool) -> None:
        for el in self.tree_el.querySelectorAll("[data-testid=file-entry]"):
            if el.getAttribute("data-path") == path:
                if dirty:
                    el.setAttribute("data-unsaved", "true")
                else:
                    el.removeAttribute("data-unsaved")
        if self.viewer.getAttribute("data-path") == path:
            self.viewer.setAttribute("data-unsaved", "true" if dirty else "false")

    def _dirty_changed(self, path: str, dirty: bool) -> None:
        self._mark_unsaved(path, dirty)

    def _saved(self, paths: list[str]) -> Any:
        for p in paths:
            self._mark_unsaved(p, False)
        if self.on_saved is not None:
            return self.on_saved(paths)
        return None

    def _on_beforeunload(self, event: Any) -> None:
        if self._any_unsaved():
            event.preventDefault()
            event.returnValue = "You have unsaved edits."

    def _svg_toggle(self, is_svg: bool, *, source: bool) -> Any:
        if not is_svg:
            return h("span", {"hidden": True})
        return h(
            "div",
            {"class": "file-svg-toggle", "role": "group", "aria-label": "Show SVG as"},
            h(
                "button",
                {
                    "type": "button",
                    "data-action": "svg-image",
                    "aria-pressed": "false" if source else "true",
                },
                "Image",
            ),
            h(
                "button",
                {
                    "type": "button",
                    "data-action": "svg-source",
                    "data-testid": "svg-source",
                    "aria-pressed": "true" if source else "false",
                },
                "Source",
            ),
        )

    def _on_viewer_click(self, event: Any) -> None:
        target = closest_action(event)
        if target is None or self.current is None:
            return
        action = str(target.getAttribute("data-action"))
        if action in ("svg-image", "svg-source"):
            want = action == "svg-source"
            if want != self._svg_source:
                if not want and self.editor is not None and self.editor.dirty:
                    self.editor._say("Save (or undo) your edits before showing the image.")
                    return
                self._svg_source = want
                path = self.current
                self._close_editor(keep=True)
                self.current = None  # a fresh open, not a disk change
                self.open(path)

    def _show(self, path: str, body: Any, note: str = "", kind: str = "error") -> None:
        self.viewer_head.replaceChildren(
            h(
                "code",
                {"class": "file-viewer-path", "data-testid": "file-viewer-path", "text": path},
            ),
            h("span", {"class": "file-viewer-note", "text": note}),
        )
        self.viewer_body.replaceChildren(body)
        self.viewer.setAttribute("data-path", path)
        self.viewer.setAttribute("data-kind", kind)
        self.viewer.setAttribute("data-unsaved", "false")
        self.viewer.hidden = False


def mount_files(
    container: Any, fs: FileStore, *, on_open: Callable[[str], Any] | None = None
) -> FilesView:
    """Mount the file tree + viewer into ``container`` and list the files.

    ``on_open(path)`` (sync or async) is called when the user opens a file.
    """
    view = FilesView(container, fs, on_open=on_open)
    view.refresh()
    return view
