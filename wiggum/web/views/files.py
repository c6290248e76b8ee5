"""The project's files: a collapsible tree and a read-only viewer.

Every file of the FileStore is listed, the agents' ``.chief/`` and ``.ralph/``
folders included; folders first, names sorted.  Folders are ``<details>``
(collapsible, state kept across refreshes); files are buttons
(``data-testid="file-entry"``, ``data-path``).  The viewer shows text with
line numbers through ``textContent`` only (never parsed as HTML), images via a
``data:`` URL in an ``<img>`` (an image element never runs SVG scripts), and
other binary files as their size.
"""

from __future__ import annotations

import asyncio
import base64
import inspect
from collections.abc import Callable
from typing import Any

from wiggum.fs import FileStore, FileStoreError
from wiggum.fs.paths import PathError
from wiggum.preview.bundle import IMAGE_EXTS, mime_type

from ..dom import Listeners, closest_action, h, spawn

__all__ = ["FilesView", "format_size", "is_binary", "mount_files"]

#: Text larger than this is cut in the viewer (the rest is summarised).
MAX_TEXT = 400_000


def format_size(n: int) -> str:
    if n < 1024:
        return f"{n} B"
    if n < 1024 * 1024:
        return f"{n / 1024:.1f} KB"
    return f"{n / (1024 * 1024):.1f} MB"


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
    ) -> None:
        self.container = container
        self.fs = fs
        self.on_open = on_open
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

    # ------------------------------------------------------------ public

    def refresh(self) -> asyncio.Task:
        """Re-list the files (and reload the open one).  Await the task if needed."""
        return spawn(self._refresh(), what="files refresh")

    def open(self, path: str) -> asyncio.Task:
        """Show ``path`` in the viewer."""
        return spawn(self._open(path), what="open file")

    def set_fs(self, fs: FileStore) -> asyncio.Task:
        self.fs = fs
        self.current = None
        self.viewer.hidden = True
        return self.refresh()

    def close(self) -> None:
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
            else:
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
        try:
            data = await self.fs.read_bytes(path)
        except (FileStoreError, PathError) as exc:
            if gen == self._open_gen:
                self._show(path, h("p", {"class": "file-error", "text": f"Cannot open: {exc}"}))
            return
        if gen != self._open_gen:
            return
        self.current = path
        for el in self.tree_el.querySelectorAll("[data-testid=file-entry]"):
            if el.getAttribute("data-path") == path:
                el.setAttribute("aria-current", "true")
            else:
                el.removeAttribute("aria-current")
        ext = path.rsplit(".", 1)[-1].lower() if "." in path.rsplit("/", 1)[-1] else ""
        size = format_size(len(data))
        if ext in IMAGE_EXTS:
            url = f"data:{mime_type(path)};base64,{base64.b64encode(data).decode('ascii')}"
            body = h(
                "div",
                {"class": "file-image", "data-kind": "image"},
                h("img", {"src": url, "alt": path, "data-testid": "file-image"}),
            )
            self._show(path, body, f"image, {size}", "image")
        elif is_binary(data):
            body = h(
                "p",
                {"class": "file-binary", "data-kind": "binary", "text": f"{size}, binary"},
            )
            self._show(path, body, f"{size}, binary", "binary")
        else:
            text = data.decode("utf-8")
            cut = len(text) > MAX_TEXT
            if cut:
                text = text[:MAX_TEXT]
            lines = text.split("\n")
            if len(lines) > 1 and lines[-1] == "":
                lines.pop()
            gutter = h(
                "pre",
                {"class": "file-gutter", "aria-hidden": "true"},
                "\n".join(str(i) for i in range(1, len(lines) + 1)),
            )
            code = h(
                "pre",
                {"class": "file-code", "data-testid": "file-content", "tabindex": "0"},
                "\n".join(lines),
            )
            body = h("div", {"class": "file-text", "data-kind": "text"}, gutter, code)
            note = f"{len(lines)} lines, {size}" + (" (cut)" if cut else "")
            self._show(path, body, note, "text")

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
