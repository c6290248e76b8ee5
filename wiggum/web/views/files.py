"""The project's files: a collapsible tree, and the open file beside it.

Draws what :mod:`wiggum.ui.files` lists and shows, in the markup of
:mod:`wiggum.ui.markup.files`, and keeps the open file and the unsaved
buffers as :class:`wiggum.session.workspace.OpenFiles` decides.  Text opens in
the editor (:mod:`.workspace.editor`, CodeMirror, loaded on the first open).
The page asks before it is left with unsaved edits.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable
from typing import Any

import js  # type: ignore[import-not-found]

from wiggum.fs import FileStore, FileStoreError, is_binary
from wiggum.fs.paths import PathError
from wiggum.session.workspace import OpenFiles
from wiggum.ui.files import file_tree, show_as
from wiggum.ui.markup import files as markup

from ..dom import Listeners, mount, mount_all, on_action, set_attrs, spawn

__all__ = ["FilesView", "mount_files"]


class FilesView:
    def __init__(
        self,
        container: Any,
        fs: FileStore,
        *,
        on_open: Callable[[str], Any] | None = None,
        on_saved: Callable[[list[str]], Any] | None = None,
    ) -> None:
        self.fs = fs
        #: Called with a path the person opened (sync or async).
        self.on_open = on_open
        #: Called with ``[path]`` after the person saved (the app's history hook).
        self.on_saved = on_saved
        self.editor: Any = None
        self.state = OpenFiles()
        self.paths: list[str] = []
        self.collapsed: set[str] = set()
        self._gen = self._open_gen = 0
        self.listeners = Listeners()
        parts = mount(markup.frame())
        self.el, self.tree_el, self.viewer = parts.el, parts.tree, parts.viewer
        self.viewer_head, self.viewer_body = parts.head, parts.body
        self.empty = mount(markup.empty()).el
        container.appendChild(self.el)
        self._actions: dict[str, Callable[[Any], Any]] = {
            "open-file": lambda target: self._opened(str(target.getAttribute("data-path"))),
            "svg-image": lambda _target: self._svg(source=False),
            "svg-source": lambda _target: self._svg(source=True),
        }
        self.listeners.on(self.tree_el, "click", lambda event: on_action(event, self._actions))
        self.listeners.on(self.viewer_body, "click", lambda event: on_action(event, self._actions))
        self.listeners.on(js.window, "beforeunload", self._on_beforeunload)

    # ------------------------------------------------------------ public

    @property
    def current(self) -> str | None:
        """The open file's path."""
        return self.state.current

    def refresh(self) -> asyncio.Task:
        """Re-list the files (and reload the open one).  Await the task if needed."""
        return spawn(self._refresh(), what="files refresh")

    def open(self, path: str, line: int = 0) -> asyncio.Task:
        """Show ``path`` in the viewer (``line``: the editor's cursor there)."""
        return spawn(self._open(path, line), what="open file")

    def set_fs(self, fs: FileStore) -> asyncio.Task:
        """Another project: its files, nothing of the last one kept."""
        self._close_editor(keep=False)
        self.state.forget()
        self.fs = fs
        self.viewer.hidden = True
        return self.refresh()

    def close_file(self) -> None:
        """The open file is gone (deleted): the viewer closes."""
        self._close_editor(keep=False)
        self.state.current = None
        self.viewer.hidden = True

    def say(self, text: str, *, error: bool = False) -> bool:
        """Show ``text`` in the open editor's message line; ``False`` when none is open."""
        if self.editor is None:
            return False
        self.editor.say(text, error=error)
        return True

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
        self.paths = sorted(files)
        self._remember_collapsed()
        listed = set(files)
        tree = file_tree(files, [p for p in every if p not in listed])
        self.tree_el.replaceChildren(self._list(tree) if tree else self.empty)
        dirty = self.editor is not None and self.editor.dirty
        then = self.state.after_refresh(files, editor_dirty=dirty)
        if then == "reopen":
            await self._open(str(self.state.current))
        elif then == "close":
            self._close_editor(keep=False)
            self.viewer.hidden = True

    def _list(self, nodes: tuple[Any, ...]) -> Any:
        editing = self._editing()
        unsaved = {p for p in self.paths if self.state.unsaved(p, editing)}
        tree = markup.tree(nodes, collapsed=self.collapsed, current=self.current, unsaved=unsaved)
        return mount(tree).el

    def _opened(self, path: str) -> None:
        """The person chose ``path`` in the tree."""
        self.open(path)
        result = self.on_open(path) if self.on_open is not None else None
        if inspect.isawaitable(result):
            spawn(result, what="on_open")

    def _remember_collapsed(self) -> None:
        """Folders the person closed stay closed when the tree is drawn again."""
        for el in self.tree_el.querySelectorAll("[data-testid=file-folder]"):
            path = str(el.getAttribute("data-path"))
            (self.collapsed.discard if el.open else self.collapsed.add)(path)

    def _entries(self, path: str) -> list[Any]:
        found = self.tree_el.querySelectorAll("[data-testid=file-entry]")
        return [el for el in found if el.getAttribute("data-path") == path]

    # ------------------------------------------------------------ viewer

    async def _open(self, path: str, line: int = 0) -> None:
        self._open_gen += 1
        gen = self._open_gen
        try:
            data = await self.fs.read_bytes(path)
        except (FileStoreError, PathError) as exc:
            if gen == self._open_gen:
                self._show(path, mount(markup.error_body(str(exc))).el)
            return
        if gen != self._open_gen:
            return
        if self.current == path and self.editor is not None and self.editor.path == path:
            # The open file changed on disk (or the tree was listed again): the
            # editor's buffer decides what that does; the editor stays.
            if not is_binary(data):
                self.editor.disk_changed(data.decode("utf-8"))
            if line:
                self.editor.go_to(line)
            return
        self._close_editor(keep=True)
        self.state.opening(path)
        for el in self.tree_el.querySelectorAll("[data-testid=file-entry]"):
            current = el.getAttribute("data-path") == path
            set_attrs(el, {"aria-current": "true" if current else None})
        shown = show_as(path, data, svg_source=self.state.svg_source)
        body = mount(markup.body(shown, path, data)).el
        if shown.kind == "text":
            from .workspace.editor import Editor

            text = data.decode("utf-8")
            kept = self.state.take(path)
            if kept is not None:
                kept.disk_changed(text)
            self.editor = Editor(
                self.fs, path, text, on_saved=self._saved, on_dirty=self._mark, buffer=kept
            )
            self.editor.line = line
            body.appendChild(self.editor.el)
        self._show(path, body, shown.note, shown.kind)
        if self.editor is not None:
            self._mark(path, self.editor.dirty)
            await self.editor.start()

    def _show(self, path: str, body: Any, note: str = "", kind: str = "error") -> None:
        self.viewer_head.replaceChildren(*mount_all(markup.viewer_head(path, note)))
        self.viewer_body.replaceChildren(body)
        for name, value in (("path", path), ("kind", kind), ("unsaved", "false")):
            self.viewer.setAttribute(f"data-{name}", value)
        self.viewer.hidden = False

    def _svg(self, *, source: bool) -> None:
        """The person asks for the open SVG's source or its image."""
        if self.current is None:
            return
        dirty = self.editor is not None and self.editor.dirty
        then = self.state.svg_switch(source, editor_dirty=dirty)
        if then == "switch":
            path = self.current
            self._close_editor(keep=True)
            self.state.current = None  # a fresh open, not a change on disk
            self.open(path)
        elif then is not None:
            self.say(then)

    # ------------------------------------------------------------ editor glue

    def _editing(self) -> tuple[str, bool] | None:
        return None if self.editor is None else (self.editor.path, bool(self.editor.dirty))

    def _close_editor(self, *, keep: bool) -> None:
        if self.editor is not None:
            buffer = self.editor.close()
            if keep:
                self.state.keep(buffer)
            self.editor = None

    def _mark(self, path: str, dirty: bool) -> None:
        """The tree's entry and the viewer say whether ``path`` has unsaved edits."""
        for el in self._entries(path):
            set_attrs(el, {"data-unsaved": "true" if dirty else None})
        if self.viewer.getAttribute("data-path") == path:
            self.viewer.setAttribute("data-unsaved", "true" if dirty else "false")

    def _saved(self, paths: list[str]) -> Any:
        for p in paths:
            self._mark(p, False)
        return self.on_saved(paths) if self.on_saved is not None else None

    def _on_beforeunload(self, event: Any) -> None:
        if self.state.any_unsaved(self.editor is not None and self.editor.dirty):
            event.preventDefault()
            event.returnValue = "You have unsaved edits."


def mount_files(
    container: Any, fs: FileStore, *, on_open: Callable[[str], Any] | None = None
) -> FilesView:
    """Mount the file tree + viewer into ``container`` and list the files.

    ``on_open(path)`` (sync or async) is called when the person opens a file.
    """
    view = FilesView(container, fs, on_open=on_open)
    view.refresh()
    return view
