"""Chief's tab: the message list, the composer, the error banner.

Streaming: each ``delta`` hands the reply's text to a
:class:`~wiggum.web.markdown_view.StreamingMarkdown`, which re-renders only
the still-open last block (finished blocks are built once).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import JsException  # type: ignore[import-not-found]

from wiggum.ui.errors import Explanation, explain
from wiggum.ui.format import USAGE_NOT_REPORTED, usage_line
from wiggum.ui.stored_chat import StoredRecord

from ..dom import Listeners, closest_action, h, is_null, spawn
from ..markdown_view import StreamingMarkdown

if TYPE_CHECKING:  # the first screen shows this view before pydantic has loaded
    from wiggum.chief.chat import ChatRecord, ChiefChat

log = logging.getLogger("wiggum.web")

__all__ = ["ChatView"]

_STATUS_LABEL = {"stopped": "stopped", "interrupted": "interrupted", "error": "failed"}
#: Replies that ended with text to account for (a failed one shows its error instead).
_ENDED = ("complete", "stopped", "interrupted")


class ReplyView:
    """One assistant reply: reasoning, body, meta line, error."""

    def __init__(self, record: ChatRecord, explain_fn: Callable[[Any], Explanation | None]) -> None:
        self.record = record
        self._explain = explain_fn
        self.reasoning_text = h("div", {"class": "reasoning-text"})
        self.reasoning = h(
            "details",
            {"class": "reasoning", "data-testid": "reasoning", "hidden": True},
            h("summary", {"text": "Reasoning"}),
            self.reasoning_text,
        )
        self.body = h("div", {"class": "msg-body md", "data-testid": "message-assistant"})
        self.usage = h("span", {"class": "usage", "data-testid": "usage"})
        self.status = h("span", {"class": "msg-status", "data-testid": "message-status"})
        self.trim = h("p", {"class": "msg-note", "hidden": True})
        self.error = h("p", {"class": "msg-error", "data-testid": "message-error", "hidden": True})
        self.tools = h("div", {"class": "tool-calls", "hidden": True})
        self.tool_els: dict[str, Any] = {}
        self.el = h(
            "article",
            {"class": "msg msg-assistant", "data-testid": "reply", "aria-label": "Chief"},
            h("div", {"class": "msg-author", "text": "Chief"}),
            self.trim,
            self.reasoning,
            self.body,
            self.tools,
            self.error,
            h("div", {"class": "msg-meta"}, self.status, self.usage),
        )
        self._md = StreamingMarkdown(self.body)
        self._shown = 0
        self._reasoning_shown = 0
        self.renders = 0
        self.update(final=True)

    # -------------------------------------------------------------- streaming

    def _render_body(self) -> None:
        text = self.record.content
        if self.record.status == "streaming":
            self._md.update(text)
        else:
            self._md.finish(text)
        self._shown = len(text)
        self.renders = self._md.renders

    def delta(self) -> None:
        r = self.record
        if r.reasoning and len(r.reasoning) > self._reasoning_shown:
            self.reasoning.hidden = False
            self.reasoning_text.appendChild(
                js.document.createTextNode(r.reasoning[self._reasoning_shown :])
            )
            self._reasoning_shown = len(r.reasoning)
        text = r.content
        if len(text) <= self._shown:
            return
        self._md.feed(text)
        self._shown = len(text)

    def show_tool_calls(self) -> None:
        """One compact line per tool call; its result fills in when it arrives."""
        for call in self.record.tool_calls:
            if call.id in self.tool_els:
                continue
            output = h("pre", {"class": "tool-output", "text": "…"})
            el = h(
                "details",
                {"class": "tool-call", "data-testid": "chief-tool-call", "data-tool": call.name},
                h(
                    "summary",
                    {},
                    h("code", {"class": "tool-name", "text": call.name}),
                    h("span", {"class": "tool-args", "text": _brief_args(call.args)}),
                    h("span", {"class": "tool-result"}),
                ),
                output,
            )
            self.tool_els[call.id] = el
            self.tools.appendChild(el)
        self.tools.hidden = not self.tool_els

    def tool_result(self, record: ChatRecord) -> None:
        el = self.tool_els.get(record.tool_call_id or "")
        if el is None:
            return
        el.querySelector(".tool-output").textContent = record.content
        brief = " ".join(record.content.split())
        el.querySelector(".tool-result").textContent = " → " + (
            brief if len(brief) <= 70 else brief[:69] + "…"
        )
        el.setAttribute("data-error", "true" if record.is_error else "false")

    def update(self, *, final: bool = False) -> None:
        r = self.record
        if r.tool_calls:
            self.show_tool_calls()
        if r.reasoning:
            self.reasoning.hidden = False
            self.reasoning_text.textContent = r.reasoning
            self._reasoning_shown = len(r.reasoning)
        if final or r.status != "streaming":
            self._render_body()
        self.el.setAttribute("data-status", r.status)
        self.el.setAttribute("aria-busy", "true" if r.status == "streaming" else "false")
        self.status.textContent = _STATUS_LABEL.get(r.status, "")
        self.status.hidden = r.status not in _STATUS_LABEL
        line = usage_line(r.usage, missing=USAGE_NOT_REPORTED if r.status in _ENDED else "")
        self.usage.textContent = line
        self.usage.hidden = not line
        if r.trimmed:
            noun = "message was" if r.trimmed == 1 else "messages were"
            self.trim.textContent = (
                f"{r.trimmed} earlier {noun} left out to fit the model's context window."
            )
            self.trim.hidden = False
        explanation = self._explain(r.error) if r.error is not None else None
        if explanation is not None:
            self.error.textContent = f"{explanation.title}: {explanation.message}"
            self.error.hidden = False
        else:
            self.error.hidden = True


def _brief_args(args: Any) -> str:
    if not isinstance(args, dict) or not args:
        return ""
    parts = []
    for key, value in args.items():
        text = " ".join(str(value).split())
        parts.append(f"{key}={text[:40] + '…' if len(text) > 40 else text}")
    return " " + ", ".join(parts[:3])


class ChatView:
    """Message list + composer + error banner for one :class:`ChiefChat`.

    Until the first ``bind`` (the first screen, before the app has loaded) it
    shows the stored conversation (:meth:`show_stored`) and a message sent then
    waits, shown as such, and goes out as soon as a chat is bound.
    """

    def __init__(self, app: Any) -> None:
        self.app = app
        self.chat: ChiefChat | None = None
        #: Send was pressed before any chat was bound.
        self._queued = False
        #: The list shows stored rows (``show_stored``), not yet a bound chat's.
        self._stored = False
        self._unsubscribe: Callable[[], None] | None = None
        self._replies: dict[int, ReplyView] = {}
        self.listeners = Listeners()

        self.setup = h(
            "div",
            {"class": "chat-setup", "data-testid": "setup-hint", "hidden": True},
            h(
                "p",
                {"text": "First, choose a model provider and enter your API key."},
            ),
            h(
                "button",
                {"type": "button", "class": "btn btn-primary", "data-action": "banner-settings"},
                "Set up a provider",
            ),
        )
        self.empty = h(
            "div",
            {"class": "chat-empty"},
            h("h2", {"text": "What would you like to build?"}),
            h(
                "p",
                {
                    "text": "Tell Chief about your idea: a page, a small game, a tool. "
                    "Chief asks what it needs to know and helps you shape a plan."
                },
            ),
            self.setup,
        )
        self.list = h(
            "div",
            {
                "class": "messages",
                "data-testid": "message-list",
                "role": "log",
                "aria-label": "Conversation with Chief",
                "aria-live": "polite",
                "aria-relevant": "additions",
                "tabindex": "0",
            },
        )
        self.scroller = h("div", {"class": "messages-scroll"}, self.empty, self.list)
        self.banner_text = h("div", {"class": "banner-text"})
        self.banner_settings = h(
            "button",
            {"type": "button", "class": "btn btn-small", "data-action": "banner-settings"},
            "Open Settings",
        )
        self.banner = h(
            "div",
            {
                "class": "error-banner",
                "data-testid": "error-banner",
                "role": "alert",
                "hidden": True,
            },
            self.banner_text,
            h(
                "div",
                {"class": "banner-actions"},
                self.banner_settings,
                h(
                    "button",
                    {
                        "type": "button",
                        "class": "icon-btn",
                        "data-action": "banner-dismiss",
                        "aria-label": "Dismiss error",
                        "text": "✕",
                    },
                ),
            ),
        )
        self.input = h(
            "textarea",
            {
                "class": "chat-input",
                "data-testid": "chat-input",
                "rows": "3",
                "placeholder": "Message Chief…",
                "aria-label": "Message to Chief",
                "aria-describedby": "composer-hint",
            },
        )
        self.send_btn = h(
            "button",
            {"type": "submit", "class": "btn btn-primary", "data-testid": "send-button"},
            "Send",
        )
        self.stop_btn = h(
            "button",
            {
                "type": "button",
                "class": "btn btn-stop",
                "data-testid": "stop-button",
                "data-action": "stop",
                "hidden": True,
            },
            "Stop",
        )
        is_mac = "Mac" in str(js.navigator.platform or "")
        self.hint = h(
            "span",
            {
                "class": "composer-hint",
                "id": "composer-hint",
                "text": ("⌘" if is_mac else "Ctrl") + "+Enter to send",
            },
        )
        self.form = h(
            "form",
            {"class": "composer", "aria-label": "Write to Chief"},
            self.input,
            h("div", {"class": "composer-bar"}, self.hint, self.stop_btn, self.send_btn),
        )
        self.activity = h(
            "div",
            {"class": "chief-activity", "data-testid": "chief-activity", "hidden": True},
        )
        self.notice_text = h("span", {"class": "banner-text"})
        self.notice = h(
            "div",
            {
                "class": "chief-notice",
                "data-testid": "chief-notice",
                "role": "status",
                "hidden": True,
            },
            self.notice_text,
            h(
                "button",
                {
                    "type": "button",
                    "class": "icon-btn",
                    "data-action": "notice-dismiss",
                    "aria-label": "Dismiss notice",
                    "text": "✕",
                },
            ),
        )
        self.el = h(
            "div",
            {"class": "chat"},
            self.scroller,
            self.activity,
            self.notice,
            self.banner,
            self.form,
        )

        self.listeners.on(self.form, "submit", self._on_submit)
        self.listeners.on(self.input, "keydown", self._on_keydown)
        self.listeners.on(self.el, "click", self._on_click)

    # -------------------------------------------------------------- binding

    def bind(self, chat: ChiefChat) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        # The first bind after the first screen renders the same conversation
        # again: someone reading further up stays where they are.
        keep = self.scroller.scrollTop if self._stored and not self._near_end() else None
        self._stored = False
        self.chat = chat
        self._unsubscribe = chat.subscribe(self._on_event)
        self._replies.clear()
        self.list.replaceChildren()
        self.notice.hidden = True
        self.activity.hidden = True
        for record in chat.records:
            self._add(record)
        self._sync_empty()
        self.hide_error()
        self._set_busy(chat.busy)
        if keep is None:
            self._scroll_to_end(force=True)
        else:
            self.scroller.scrollTop = keep
        if self._queued:
            self._queued = False
            self.activity.hidden = True
            self._send()

    def show_stored(self, rows: Iterable[Mapping[str, Any]]) -> None:
        """The stored conversation, shown before any chat is bound (read-only)."""
        self._replies.clear()
        self.list.replaceChildren()
        shown = 0
        for row in rows:
            if not isinstance(row, Mapping):
                continue
            try:
                self._add(StoredRecord(row))
            except Exception:  # the app's own load skips it too, with a warning
                log.debug("first screen: a stored message could not be shown")
                continue
            shown += 1
        self._stored = True
        self.empty.hidden = shown > 0
        self._scroll_to_end(force=True)

    def close(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        self.listeners.close()

    def set_setup_needed(self, needed: bool) -> None:
        self.setup.hidden = not needed

    def focus(self) -> None:
        self.input.focus()

    # -------------------------------------------------------------- rendering

    def _explain(self, err: Any) -> Explanation | None:
        return explain(err)

    def _add(self, record: ChatRecord) -> None:
        if record.role == "user" and record.note:
            self.list.appendChild(
                h(
                    "div",
                    {"class": "msg msg-note", "data-testid": "message-note"},
                    h("details", {}, h("summary", {"text": "Note to Chief"}), record.content),
                )
            )
        elif record.role == "tool":
            for view in reversed(list(self._replies.values())):
                if record.tool_call_id in view.tool_els:
                    view.tool_result(record)
                    break
        elif record.role == "user":
            el = h(
                "article",
                {"class": "msg msg-user", "aria-label": "You"},
                h("div", {"class": "msg-author", "text": "You"}),
                h(
                    "div",
                    {"class": "msg-body", "data-testid": "message-user", "text": record.content},
                ),
            )
            self.list.appendChild(el)
        elif record.role == "assistant":
            view = ReplyView(record, self._explain)
            self._replies[record.seq] = view
            self.list.appendChild(view.el)

    def _sync_empty(self) -> None:
        self.empty.hidden = bool(self.chat and self.chat.records)

    def _near_end(self) -> bool:
        s = self.scroller
        return s.scrollHeight - s.scrollTop - s.clientHeight < 80

    def _scroll_to_end(self, *, force: bool = False) -> None:
        if force or self._near_end():
            self.scroller.scrollTop = self.scroller.scrollHeight

    def _on_event(self, event: str, record: ChatRecord) -> None:
        follow = self._near_end()
        if event == "added":
            self._add(record)
            self._sync_empty()
            follow = True
        elif event == "delta":
            view = self._replies.get(record.seq)
            if view is not None:
                view.delta()
        elif event == "updated":
            view = self._replies.get(record.seq)
            if view is not None:
                view.update(final=True)
            if record.error is not None:
                self.show_error(explain(record.error))
        elif event == "activity":
            text = self.chat.activity if self.chat is not None else None
            self.activity.textContent = text or ""
            self.activity.hidden = not text
            view = self._replies.get(record.seq)
            if view is not None:
                view.show_tool_calls()
        if follow:
            self._scroll_to_end(force=True)

    # -------------------------------------------------------------- banner

    def show_error(self, explanation: Explanation | None) -> None:
        if explanation is None:
            return
        self.banner_text.replaceChildren(
            h("strong", {"text": explanation.title}), " ", explanation.message
        )
        self.banner_settings.hidden = not explanation.settings
        self.banner.hidden = False

    def show_message(self, title: str, message: str, *, settings: bool = False) -> None:
        self.show_error(Explanation(title, message, "notice", settings=settings))

    def hide_error(self) -> None:
        self.banner.hidden = True

    def show_notice(self, text: str) -> None:
        self.notice_text.textContent = text
        self.notice.hidden = False

    def start_note_turn(self, provider: Any) -> bool:
        """A turn without the person's words: Chief reads the pending notes."""
        chat = self.chat
        if chat is None or chat.busy:
            return False
        self._set_busy(True)
        spawn(self._run(chat, None, provider), what="chief note turn")
        return True

    # -------------------------------------------------------------- sending

    def _set_busy(self, busy: bool) -> None:
        self.send_btn.hidden = busy
        self.stop_btn.hidden = not busy
        self.el.classList.toggle("is-busy", busy)

    def _on_keydown(self, event: Any) -> None:
        if event.key == "Enter" and (event.ctrlKey or event.metaKey):
            event.preventDefault()
            self._send()

    def _on_submit(self, event: Any) -> None:
        event.preventDefault()
        self._send()

    def _on_click(self, event: Any) -> None:
        target = closest_action(event)
        if target is None:
            return
        action = target.getAttribute("data-action")
        if action == "stop":
            if self.chat is not None:
                self.chat.stop()
            elif self._queued:  # not sent yet: back into the box
                self._queued = False
                self.activity.hidden = True
                self._set_busy(False)
        elif action == "banner-dismiss":
            self.hide_error()
        elif action == "notice-dismiss":
            self.notice.hidden = True
        elif action == "banner-settings":
            self.app.open_settings()
        elif action == "copy-code":
            spawn(self._copy(target), what="copy code")

    async def _copy(self, button: Any) -> None:
        block = button.closest(".codeblock")
        code = None if is_null(block) else block.querySelector("code")
        if is_null(code):
            return
        try:
            await js.navigator.clipboard.writeText(code.textContent)
            button.textContent = "Copied"
        except (JsException, AttributeError):
            button.textContent = "Copy failed"
        import asyncio

        await asyncio.sleep(1.5)
        button.textContent = "Copy"

    def _send(self) -> None:
        chat = self.chat
        if chat is not None and chat.busy:
            return
        text = self.input.value.strip()
        if not text:
            self.input.focus()
            return
        if chat is None:
            # The app is still loading: the message stays in the box and goes
            # out when the chat is bound (Stop takes it back).
            self._queued = True
            self.activity.textContent = "Chief is starting… your message goes out in a moment."
            self.activity.hidden = False
            self._set_busy(True)
            return
        provider = self.app.current_provider()
        if provider is None:
            return
        self.hide_error()
        self.input.value = ""
        self._set_busy(True)
        spawn(self._run(chat, text, provider), what="chief reply")

    async def _run(self, chat: ChiefChat, text: str | None, provider: Any) -> None:
        try:
            await chat.send(text, provider, proxy_template=self.app.settings.proxy_template)
        except ValueError:  # a notes-only turn whose note was already taken
            if text is not None:
                raise
        finally:
            if chat is self.chat:
                self._set_busy(False)
                self.activity.hidden = True
                active = js.document.activeElement
                if is_null(active) or active == js.document.body:
                    self.input.focus()
