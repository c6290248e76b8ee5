"""The workspace editor: one open text file in CodeMirror 6, saved to the FileStore.

CodeMirror is vendored by ``build.py`` (pinned in build_lock.json, resolved by
index.html's import map) and loaded the first time a text file is opened: the
glue module ``static/editor.mjs`` is added with a ``<script src>`` (no eval, no
inline script, so the page's CSP needs nothing new) and answers on
``globalThis.wiggumEditor``.  Why JS glue at all: the EditorView and its
keymap are JavaScript objects, and Ctrl/Cmd-S must be prevented in the key
event itself, before the browser's "save page" runs.

Saving (the Save button or Ctrl/Cmd-S) writes through the FileStore
(:func:`wiggum.session.workspace.save_file` says what a refusal means) and
calls ``on_saved([path])``, which the app turns into a "you" checkpoint in
History.
The path shows a dot while the buffer has unsaved edits, and leaving the page
then asks first (``beforeunload``).

When the file changes on disk while open (Ralph rewrote it), the policy of
:mod:`wiggum.ui.editor_buffer` applies: a clean buffer takes the new text; the
person's unsaved edits are never replaced: a bar offers [Show his version]
[Keep mine] [Take his].
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

from wiggum.fs import FileStore
from wiggum.session.workspace import save_file
from wiggum.ui.editor_buffer import (
    CONFLICT_SAID,
    Buffer,
    can_save,
    is_save_key,
    language_for,
    save_hint,
    state_text,
    theirs_label,
)
from wiggum.ui.markup import editor as markup

from ...dom import Listeners, is_null, mount, spawn

__all__ = ["Editor", "load_codemirror"]

_loading: asyncio.Future | None = None


async def load_codemirror() -> Any:
    """``globalThis.wiggumEditor``, adding ``static/editor.mjs`` once."""
    global _loading
    api = getattr(js.globalThis, "wiggumEditor", None)
    if api is not None and not is_null(api):
        return api
    if _loading is None or (_loading.done() and _loading.exception() is not None):
        loop = asyncio.get_event_loop()
        _loading = loop.create_future()
        fut = _loading

        def ready(_e: Any = None) -> None:
            if not fut.done():
                fut.set_result(js.globalThis.wiggumEditor)

        def failed(_e: Any = None) -> None:
            if not fut.done():
                fut.set_exception(RuntimeError(markup.LOAD_FAILED))

        js.document.addEventListener("wiggum-editor-ready", create_proxy(ready))
        old = js.document.getElementById(markup.SCRIPT_ID)
        if not is_null(old):
            old.remove()
        script = mount(markup.script()).el
        script.addEventListener("error", create_proxy(failed))
        js.document.head.appendChild(script)
    return await _loading


class Editor:
    """The editor pane for one text file; ``el`` goes into the file viewer."""

    def __init__(
        self,
        fs: FileStore,
        path: str,
        text: str,
        *,
        on_saved: Callable[[list[str]], Any] | None = None,
        on_dirty: Callable[[str, bool], Any] | None = None,
        buffer: Buffer | None = None,
    ) -> None:
        self.fs = fs
        self.path = path
        self.buffer = buffer or Buffer(path, text, text)
        self.on_saved = on_saved
        self.on_dirty = on_dirty
        self.handle: Any = None
        self.dirty = self.buffer.dirty
        self.closed = False
        #: The line to show once CodeMirror is up (0: the top).
        self.line = 0
        self.listeners = Listeners()
        self._proxies: list[Any] = []

        hint = save_hint(str(getattr(js.navigator, "platform", "") or ""))
        parts = mount(markup.editor(path, hint))
        self.el, self.save_btn = parts.el, parts.save
        self.state_el, self.message = parts.state, parts.message
        self.conflict, self.theirs_pre = parts.conflict, parts.theirs
        self.host, self.loading = parts.host, parts.loading
        self.listeners.on(self.save_btn, "click", lambda _e: self.save())
        # Ctrl/Cmd-S saves while the editor is on screen even when the focus has moved
        # to the tree or a toolbar: a person expects it, and the browser's own "Save
        # page as" dialog must never open instead.
        self.listeners.on(js.document, "keydown", self._on_document_keydown)
        self.listeners.on(self.conflict, "click", self._on_conflict_click)
        self._render_state()

    # ------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Load CodeMirror (first time only) and show the buffer in it."""
        try:
            api = await load_codemirror()
        except Exception as exc:  # the text stays readable, read-only
            self.loading.textContent = str(exc)
            self.loading.className = "editor-loading file-error"
            return
        if self.closed:
            return
        change = create_proxy(self._on_change)
        save = create_proxy(lambda: self.save())
        self._proxies += [change, save]
        opts = js.Object.new()
        opts.onChange = change
        opts.onSave = save
        self.loading.remove()
        self.handle = await api.create(self.host, self.buffer.base, language_for(self.path), opts)
        if self.closed:
            self.handle.destroy()
            return
        if self.buffer.dirty:  # a buffer kept while another file was open
            self.handle.setText(self.buffer.text)
        if self.buffer.theirs is not None:
            self.conflict.hidden = False
        if self.line:
            self.go_to(self.line)
        self.el.setAttribute("data-ready", "true")

    def close(self) -> Buffer:
        """Tear down; returns the buffer (with its unsaved text) to keep."""
        self.sync()
        self.closed = True
        if self.handle is not None:
            self.handle.destroy()
            self.handle = None
        self.listeners.close()
        for p in self._proxies:
            p.destroy()
        self._proxies.clear()
        self.el.remove()
        return self.buffer

    def go_to(self, line: int) -> None:
        """The cursor at the start of ``line`` (from 1), scrolled into view."""
        self.line = line
        if self.handle is not None:
            self.handle.goTo(line)
            self.el.setAttribute("data-line", str(line))

    def sync(self) -> None:
        if self.handle is not None:
            self.buffer.edited(str(self.handle.getText()))

    def say(self, text: str, *, error: bool = False) -> None:
        """Show ``text`` in the editor's message line (an error in the error colour)."""
        self.message.textContent = text
        self.message.className = "editor-message" + (" file-error" if error else "")

    # ------------------------------------------------------------ state

    def _on_change(self, dirty: Any) -> None:
        dirty = bool(dirty)
        if dirty == self.dirty:
            return
        self.dirty = dirty
        self._render_state()
        if self.on_dirty is not None:
            self.on_dirty(self.path, dirty)

    def _render_state(self) -> None:
        self.el.setAttribute("data-unsaved", "true" if self.dirty else "false")
        self.state_el.textContent = state_text(self.dirty)
        self.save_btn.disabled = not can_save(self.dirty, self.buffer)

    def _on_document_keydown(self, event: Any) -> None:
        keys = {"ctrl": event.ctrlKey, "meta": event.metaKey, "alt": event.altKey}
        if not is_save_key(str(event.key), shift=bool(event.shiftKey), **keys):
            return
        if is_null(self.el.offsetParent):
            return  # the editor is not on screen (another tab)
        if (
            event.defaultPrevented
            and not is_null(event.target)
            and self.host.contains(event.target)
        ):
            return  # CodeMirror's own Mod-s binding saved already
        event.preventDefault()
        if can_save(self.dirty, self.buffer):
            self.save()

    # ------------------------------------------------------------ save

    def save(self) -> asyncio.Task:
        return spawn(self._save(), what="save file")

    async def _save(self) -> None:
        if self.handle is None:
            return
        text = str(self.handle.takeText())
        refused = await save_file(self.fs, self.path, text)
        if refused is not None:
            self.say(refused, error=True)
            return
        self.buffer.edited(text)
        self.buffer.saved()
        self.conflict.hidden = True
        self.handle.markSaved()
        self.say("")
        self._render_state()
        self.el.setAttribute("data-saved-at", str(js.Date.now()))
        result = self.on_saved([self.path]) if self.on_saved is not None else None
        if inspect.isawaitable(result):
            await result

    # ------------------------------------------------------------ conflicts

    def disk_changed(self, disk: str) -> None:
        """The file on disk now reads ``disk`` (Ralph or a revert wrote it)."""
        self.sync()
        action = self.buffer.disk_changed(disk)
        if action == "reload" and self.handle is not None:
            self.handle.setText(disk)
            self.handle.markSaved()
        elif action == "conflict":
            self.theirs_pre.textContent = disk
            self.conflict.hidden = False
        self._render_state()

    def _on_conflict_click(self, event: Any) -> None:
        target = event.target.closest("[data-conflict]")
        if not is_null(target):
            {"show": self._show_theirs, "mine": self._keep_mine, "his": self._take_his}[
                str(target.getAttribute("data-conflict"))
            ](target)

    def _show_theirs(self, target: Any) -> None:
        self.theirs_pre.hidden = not self.theirs_pre.hidden
        target.textContent = theirs_label(not self.theirs_pre.hidden)

    def _keep_mine(self, _target: Any) -> None:
        self.sync()
        self.buffer.keep_mine()
        self._resolved(CONFLICT_SAID["mine"])

    def _take_his(self, _target: Any) -> None:
        self.sync()
        if self.handle is not None:
            self.handle.setText(self.buffer.take_theirs())
            self.handle.markSaved()
            self.say(CONFLICT_SAID["his"])
        self._resolved(None)

    def _resolved(self, said: str | None) -> None:
        if said is not None:
            self.say(said)
        self.conflict.hidden = True
        self.theirs_pre.hidden = True
        self._render_state()
