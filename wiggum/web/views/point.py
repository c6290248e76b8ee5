"""Point at the page: the preview's Select toggle and the selection panel (in the
preview's view, with the frame's slot: under it, or beside it in a wide pane).

Draws what :class:`~wiggum.session.point.PointSession` decides and forwards the
person's clicks.  The channel: a message is read only when the preview's own
frame posted it (``event.source`` is that frame's window) and
:func:`wiggum.preview.point.read_point_message` finds this load's secret in
it, in its exact shape; the element's number is looked up in the load's table
(``PreviewState.page.places``).  Wiggum's orders to the frame (select mode on
and off, move, edit, pick again after a reload) go to that window only.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import to_js  # type: ignore[import-not-found]

from wiggum.preview.point import (
    EXIT_MESSAGE,
    POINT_MESSAGES,
    TO_FRAME,
    Picked,
    TextCommitted,
    read_point_message,
)
from wiggum.session.inspector import StyleEdit, StyleWritten
from wiggum.session.point import Edited, PointSession
from wiggum.session.workspace import Picked as PickedFile
from wiggum.ui.markup import point as markup

from ..dom import (
    Listeners,
    closest_action,
    file_bytes,
    file_list,
    is_null,
    mount,
    plain,
    say,
    spawn,
)
from ..preview_host import message_type
from .inspector import InspectorView
from .preview import PreviewView

__all__ = ["PointView"]

_ARROWS = {"ArrowUp": "up", "ArrowDown": "down", "ArrowLeft": "prev", "ArrowRight": "next"}


class PointView:
    """``open_source(path, line, show)`` opens the editor there (``show``: brings the
    code forward; a pick leaves the preview in front); ``ask_chief(label,
    where, context)`` puts the element before Chief's message box;
    ``start_task(task)`` starts Ralph on a task; ``load_packages(*names)`` loads
    a vendored package (the inspector's tinycss2)."""

    def __init__(
        self,
        preview: PreviewView,
        session: PointSession,
        open_source: Callable[[str, int, bool], Any],
        ask_chief: Callable[[str, str, str], Any],
        start_task: Callable[[str], Any],
        load_packages: Callable[..., Awaitable[None]],
    ) -> None:
        self.preview, self.session = preview, session
        self.load_packages = load_packages
        self.open_source, self.ask_chief, self.start_task = open_source, ask_chief, start_task
        self.listeners = Listeners()
        self.button = mount(markup.select_button()).el
        widths = preview.el.querySelector(".preview-widths")
        if widths is not None:
            widths.after(self.button)
        else:
            preview.status_el.after(self.button)
        self.parts = mount(markup.panel())
        self.el = self.parts.el
        # The style inspector mounts in the panel's place for it.
        self.inspector = InspectorView(self.parts.inspector, self._apply_style)
        self._inspected = -1
        #: The number the frame was asked to pick again after a reload (``_started``).
        self._repick = -1
        preview.view.appendChild(self.el)
        self._context = ""
        self.listeners.on(self.button, "click", lambda _e: self.toggle())
        self.listeners.on(self.el, "click", self._pressed)
        self.listeners.on(self.parts.link_form, "submit", self._save_link)
        self.listeners.on(self.parts.ralph_form, "submit", self._start_ralph)
        self.listeners.on(self.parts.image_input, "change", self._image_picked)
        self.listeners.on(js.window, "message", self._on_message)
        self.listeners.on(js.document, "keydown", self._on_keydown)
        preview.on_started.append(self._started)

    def reset(self) -> None:
        """Another project: select mode off, nothing of the last one's kept."""
        self.session.forget()
        self._ralph_cancel()
        self.parts.link_form.hidden = True
        say(self.parts.note, None)
        self._mode(False)
        self._draw()
        self._inspected = -1
        self.inspector.hide()

    def close(self) -> None:
        self.listeners.close()
        self.inspector.close()
        if self._started in self.preview.on_started:
            self.preview.on_started.remove(self._started)

    # ------------------------------------------------------------ mode

    def toggle(self) -> None:
        self._mode(self.session.toggle())

    def _mode(self, on: bool) -> None:
        self.button.setAttribute("aria-pressed", "true" if on else "false")
        self.preview.el.setAttribute("data-selecting", "true" if on else "false")
        self.el.hidden = not on
        self._post("on" if on else "off")

    def _post(self, op: str, **fields: Any) -> None:
        window = self.preview.frame.contentWindow
        if is_null(window):
            return
        message = to_js(
            {"type": TO_FRAME, "op": op, **fields}, dict_converter=js.Object.fromEntries
        )
        window.postMessage(message, "*")

    def _started(self) -> None:
        """A new page is in the frame: it is told the mode and the selection again."""
        if self.session.on:
            self._post("on")
            sel = self.session.selection
            if sel is not None and sel.number >= 0:
                self._repick = sel.number
                self._post("pick", place=sel.number)

    def _on_keydown(self, event: Any) -> None:
        if not self.session.on:
            return
        target = event.target
        tag = str(getattr(target, "localName", "") or "")
        if tag in ("input", "textarea", "select") or getattr(target, "isContentEditable", False):
            return
        # The keys are select mode's only where the person is at the preview
        # (elsewhere, the file tree's arrows stay the tree's).
        if not (target == js.document.body or self.preview.el.contains(target)):
            return
        if event.key == "Escape":
            self.session.leave()
            self._mode(False)
        elif event.key in _ARROWS and self.session.selection is not None:
            event.preventDefault()
            self._post("move", dir=_ARROWS[event.key])

    # ------------------------------------------------------------ the channel

    def _on_message(self, event: Any) -> None:
        kind, data = message_type(event, self.preview.frame)
        if kind not in POINT_MESSAGES:
            return
        msg = read_point_message(plain(data), self.preview.state.secret)
        if msg is None:
            return  # not this load's injected script: the site's own, or another page's
        if msg == EXIT_MESSAGE:
            self.session.leave()
            self._mode(False)
        elif isinstance(msg, Picked):
            spawn(self._picked(msg), what="show the selected element")
        elif isinstance(msg, TextCommitted):
            spawn(self._commit(msg), what="write the text typed in place")

    def _places(self) -> tuple[Any, ...]:
        page = self.preview.state.page
        return page.places if page is not None else ()

    async def _picked(self, picked: Picked) -> None:
        before = self.session.selection
        sel = self.session.pick(picked, self._places())
        # The same element picked again after the preview reloaded (an edit): what the
        # panel and the inspector said of it stays.  Only the frame's answer to our own
        # pick, and only where the same start tag is still written: after a rewrite
        # (Ralph's, or another site) the same number may be another element.
        repick, self._repick = self._repick, -1
        again = (
            before is not None
            and sel.number >= 0
            and sel.number == repick == before.number
            and sel.place == before.place
        )
        self._draw()
        if not again:
            self.parts.link_form.hidden = True
            say(self.parts.note, None)
        if sel.open_at is not None:
            self.open_source(*sel.open_at, False)
        if picked.edit:
            await self._edit_text()
        if not (again and self._inspected == sel.number):
            await self._inspect()
        else:  # the element of the last Apply, reloaded: does it show what was written?
            page = self.preview.state.page
            target = self.session.style_target(page.stylesheets if page is not None else ())
            if target is not None:
                self.inspector.recheck(target)

    async def _inspect(self) -> None:
        """Show the inspector for the selection (hidden for one a script made)."""
        page = self.preview.state.page
        sel = self.session.selection
        found = await self.session.inspect(page.stylesheets if page else (), self.load_packages)
        if sel is not self.session.selection:
            return  # another element was picked meanwhile
        if found is None:
            self._inspected = -1
            self.inspector.hide()
            return
        self._inspected = sel.number if sel is not None else -1
        self.inspector.show(*found)

    async def _apply_style(self, edit: StyleEdit) -> StyleWritten:
        written = await self.session.apply_style(edit)
        self._draw()
        if not written.error:
            self.preview.refresh(None)
        return written

    def _draw(self) -> None:
        shown = self.session.shown()
        p = self.parts
        p.selected.hidden = shown is None
        p.hint.hidden = shown is not None
        if shown is None:
            return
        p.selector.textContent = shown.selector
        p.where.textContent = shown.where
        p.where.disabled = not shown.openable
        p.size.textContent = shown.size
        p.edit.hidden = not shown.edit_text
        p.link.hidden = not shown.edit_link
        p.image.hidden = not shown.replace_image
        p.undo.hidden = not shown.undo_shown
        p.undo.title = shown.undo

    def _said(self, done: Edited) -> None:
        say(self.parts.note, done.message)
        self.parts.note.classList.toggle("file-error", done.error)
        self.el.setAttribute("data-edited", "error" if done.error else "true")
        self._draw()
        if done.changed:
            self.preview.refresh(None)

    # ------------------------------------------------------------ actions

    def _pressed(self, event: Any) -> None:
        found = closest_action(event)
        if found is None:
            return
        actions: dict[str, Callable[[], Any]] = {
            "open-source": self._open_source,
            "edit-text": lambda: spawn(self._edit_text(), what="edit text in place"),
            "edit-link": lambda: spawn(self._edit_link(), what="edit a link"),
            "replace-image": self.parts.image_input.click,
            "undo": lambda: spawn(self._undo(), what="undo an edit"),
            "ask-chief": lambda: spawn(self._ask_chief(), what="ask Chief"),
            "ask-ralph": lambda: spawn(self._ask_ralph(), what="ask Ralph"),
            "ralph-cancel": self._ralph_cancel,
            "drop-context": self._drop_context,
        }
        action = actions.get(str(found.getAttribute("data-action")))
        if action is not None:
            action()

    def _open_source(self) -> None:
        sel = self.session.selection
        if sel is not None and sel.open_at is not None:
            self.open_source(*sel.open_at, True)

    async def _edit_text(self) -> None:
        refusal = await self.session.text_refusal()
        if refusal is not None:
            self._said(Edited(refusal, error=True))
            return
        say(self.parts.note, "Type the new text in the page: Enter keeps it, Esc puts it back.")
        self.parts.note.classList.remove("file-error")
        self.preview.frame.focus()
        self._post("edit")

    async def _commit(self, msg: TextCommitted) -> None:
        self._said(await self.session.commit_text(msg.place, msg.text, self._places()))

    async def _edit_link(self) -> None:
        sel = self.session.selection
        if sel is None:
            return
        refusal = await self.session.text_refusal()
        p = self.parts
        p.link_text.value = sel.picked.text.strip()
        p.link_text.disabled = refusal is not None
        p.link_href.value = sel.picked.href or ""
        p.link_form.hidden = False
        (p.link_href if refusal else p.link_text).focus()

    def _save_link(self, event: Any) -> None:
        event.preventDefault()
        p = self.parts
        text = None if p.link_text.disabled else str(p.link_text.value)
        spawn(self._set_link(text, str(p.link_href.value)), what="save a link")

    async def _set_link(self, text: str | None, href: str) -> None:
        done = await self.session.set_link(text, href)
        if not done.error:
            self.parts.link_form.hidden = True
        self._said(done)

    def _image_picked(self, _event: Any) -> None:
        files = file_list(self.parts.image_input.files)
        if files:
            file = files[0]
            picked = PickedFile(str(file.name), int(file.size), lambda: file_bytes(file))
            spawn(self._replace_image(picked), what="replace an image")
        self.parts.image_input.value = ""

    async def _replace_image(self, picked: PickedFile) -> None:
        self._said(await self.session.replace_image(picked))

    async def _undo(self) -> None:
        self._said(await self.session.undo())

    async def _ask_chief(self) -> None:
        sel = self.session.selection
        if sel is not None:
            self.ask_chief(sel.selector, sel.where, await self.session.context())

    async def _ask_ralph(self) -> None:
        sel = self.session.selection
        if sel is None:
            return
        self._context = await self.session.context()
        chip = mount(markup.chip(sel.selector, sel.where, self._context)).el
        self.parts.ralph_chip.replaceChildren(chip)
        self.parts.ralph_form.hidden = False
        self.parts.ralph_task.focus()

    def _ralph_cancel(self) -> None:
        self.parts.ralph_form.hidden = True
        self._drop_context()

    def _drop_context(self) -> None:
        self.parts.ralph_chip.replaceChildren()
        self._context = ""

    def _start_ralph(self, event: Any) -> None:
        event.preventDefault()
        typed = str(self.parts.ralph_task.value).strip()
        if not typed:
            self.parts.ralph_task.focus()
            return
        task = f"{typed}\n\n{self._context}" if self._context else typed
        self.parts.ralph_task.value = ""
        self._ralph_cancel()
        spawn(self.start_task(task), what="start ralph on the element")
