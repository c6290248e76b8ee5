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
from pyodide.ffi import (  # type: ignore[import-not-found]
    JsException,
    create_once_callable,
    create_proxy,
)

from wiggum.ui.errors import Explanation, explain
from wiggum.ui.format import USAGE_NOT_REPORTED, usage_line
from wiggum.ui.stored_chat import StoredRecord
from wiggum.ui.turns import redraw_from, round_summary, turn_status, turn_usage

from ..dom import Listeners, closest_action, h, is_null, now_ms, render_markdown, spawn
from ..guard import guarded
from ..markdown_view import StreamingMarkdown
from .attach import Attachments, thumbnails
from .sources import show_sources

if TYPE_CHECKING:  # the first screen shows this view before pydantic has loaded
    from wiggum.chief.chat import ChatRecord, ChiefChat

log = logging.getLogger("wiggum.web")

__all__ = ["ChatView"]

#: Ideas on an empty chat: one click puts it in the message box, to adjust and send.
STARTERS = (
    "A one-page site for my bakery: menu, opening hours and where to find us.",
    "A small quiz game with ten questions and a score at the end.",
    "A habit tracker that keeps my ticks in this browser.",
)

_STATUS_LABEL = {"stopped": "stopped", "interrupted": "interrupted", "error": "failed"}
#: Replies that ended with text to account for (a failed one shows its error instead).
_ENDED = ("complete", "stopped", "interrupted")


def _strip_notice(el: Any, record: Any) -> None:
    """Say on the reply that its request went without the person's images."""
    if not getattr(record, "images_stripped", False):
        return
    from wiggum.chief.attachments import NO_IMAGES_NOTE

    if is_null(el.querySelector('[data-testid="images-stripped"]')):
        el.appendChild(
            h(
                "p",
                {"class": "msg-notice", "data-testid": "images-stripped", "role": "note"},
                NO_IMAGES_NOTE,
            )
        )


class TurnView:
    """One person turn's answer: one Chief block holding every round (reply
    record) of the turn, with one status, one usage line, Copy and Retry."""

    def __init__(self, *, elsewhere: bool = False) -> None:
        #: Not this tab's turn: if it is still streaming, another tab streams it.
        self.elsewhere = elsewhere
        self.rounds: list[ReplyView] = []
        self.usage = h("span", {"class": "usage", "data-testid": "usage"})
        self.status = h("span", {"class": "msg-status", "data-testid": "message-status"})
        self.retry = h(
            "button",
            {
                "type": "button",
                "class": "btn btn-small",
                "data-action": "retry",
                "data-testid": "retry-button",
                "hidden": True,
            },
            "Retry",
        )
        self.cont = h(
            "button",
            {
                "type": "button",
                "class": "btn btn-small",
                "data-action": "continue",
                "data-testid": "continue-button",
                "title": "Ask Chief to go on from where this reply stopped",
                "hidden": True,
            },
            "Continue",
        )
        self.regenerate = h(
            "button",
            {
                "type": "button",
                "class": "msg-copy",
                "data-action": "regenerate",
                "data-testid": "regenerate-button",
                "hidden": True,
            },
            "Regenerate",
        )
        self.alts = _alt_nav()
        self.box = h("div", {"class": "turn-rounds"})
        self.el = h(
            "article",
            {"class": "msg msg-assistant", "data-testid": "reply", "aria-label": "Chief"},
            h("div", {"class": "msg-author", "text": "Chief"}),
            self.box,
            h(
                "div",
                {"class": "msg-meta"},
                self.alts,
                self.status,
                self.usage,
                _copy_button(),
                self.regenerate,
                self.cont,
                self.retry,
            ),
        )

    def add(self, view: ReplyView) -> None:
        view.turn = self
        self.rounds.append(view)
        self.box.appendChild(view.el)
        self.refresh()

    def remove(self, view: ReplyView) -> None:
        if view in self.rounds:
            self.rounds.remove(view)
            view.el.remove()
        self.refresh()

    def text(self) -> str:
        """What Copy copies: the turn's words (markdown source), rounds joined."""
        words = (v.record.content.strip() for v in self.rounds)
        return "\n\n".join(w for w in words if w)

    def refresh(self) -> None:
        status = turn_status([v.record.status for v in self.rounds])
        self.el.setAttribute("data-status", status)
        self.el.setAttribute("aria-busy", "true" if status == "streaming" else "false")
        if self.rounds:
            self.el.setAttribute("data-seq", str(self.rounds[-1].record.seq))
        label = _STATUS_LABEL.get(status, "")
        if status == "streaming" and self.elsewhere:
            label = "writing in another tab"
        self.status.textContent = label
        self.status.hidden = not label
        total = turn_usage(v.record.usage for v in self.rounds)
        line = usage_line(total, missing=USAGE_NOT_REPORTED if status in _ENDED else "")
        self.usage.textContent = line
        self.usage.hidden = not line
        # The rounds before the last are the steps: their text stays, their tools fold.
        for i, view in enumerate(self.rounds):
            view.el.classList.toggle("is-step", i < len(self.rounds) - 1)


class ReplyView:
    """One reply record (a round of a turn): reasoning, body, its tools, the plan, error."""

    def __init__(
        self,
        record: ChatRecord,
        explain_fn: Callable[[Any], Explanation | None],
        on_render: Callable[[], None] | None = None,
    ) -> None:
        self.record = record
        self._explain = explain_fn
        self.turn: TurnView | None = None
        self.reasoning_text = h("div", {"class": "reasoning-text"})
        self.reasoning = h(
            "details",
            {"class": "reasoning", "data-testid": "reasoning", "hidden": True},
            h("summary", {"text": "Reasoning"}),
            self.reasoning_text,
        )
        self.body = h("div", {"class": "msg-body md", "data-testid": "message-assistant"})
        self.trim = h("p", {"class": "msg-note", "hidden": True})
        self.error = h("p", {"class": "msg-error", "data-testid": "message-error", "hidden": True})
        self.sources = h("nav", {"class": "msg-sources", "data-testid": "sources", "hidden": True})
        self.tools_summary = h("summary", {"class": "tool-round-summary"})
        self.tools = h(
            "details",
            {"class": "tool-round", "data-testid": "tool-round", "hidden": True},
            self.tools_summary,
        )
        self.tool_els: dict[str, Any] = {}
        self.plan_body = h("div", {"class": "msg-body md"})
        self.plan = h(
            "details",
            {"class": "plan", "data-testid": "chief-plan", "open": True, "hidden": True},
            h("summary", {"text": "The plan"}),
            self.plan_body,
        )
        self.el = h(
            "div",
            {"class": "round", "data-testid": "round", "data-seq": str(record.seq)},
            self.trim,
            self.reasoning,
            self.body,
            self.sources,
            self.tools,
            self.plan,
            self.error,
        )
        self._md = StreamingMarkdown(self.body, on_render=on_render)
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
            if call.name == "write_plan":
                plan = call.args.get("content") if isinstance(call.args, dict) else None
                if isinstance(plan, str) and plan.strip():
                    self.plan_body.replaceChildren(render_markdown(plan))
                    self.plan.hidden = False
        self.tools.hidden = not self.tool_els
        self.tools_summary.textContent = round_summary(self.record.tool_calls)

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
            show_sources(self.sources, r.citations)
        self.el.setAttribute("data-status", r.status)
        # A round that only called tools has no words to show.
        self.body.hidden = not r.content.strip() and bool(r.tool_calls)
        if self.turn is not None:
            self.turn.refresh()
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


def _alt_nav() -> Any:
    """``‹ 1/2 ›``: flip between a message's or answer's alternatives."""
    return h(
        "span",
        {"class": "alt-nav", "data-testid": "alt-nav", "hidden": True},
        h(
            "button",
            {
                "type": "button",
                "class": "icon-btn",
                "data-action": "alt-prev",
                "data-testid": "alt-prev",
                "aria-label": "Previous version",
                "text": "‹",
            },
        ),
        h("span", {"class": "alt-label", "data-testid": "alt-label"}),
        h(
            "button",
            {
                "type": "button",
                "class": "icon-btn",
                "data-action": "alt-next",
                "data-testid": "alt-next",
                "aria-label": "Next version",
                "text": "›",
            },
        ),
    )


def _show_alts(nav: Any, alts: list[int], seq: int) -> None:
    if len(alts) < 2 or seq not in alts:
        nav.hidden = True
        return
    i = alts.index(seq)
    nav.hidden = False
    nav.setAttribute("data-prev", str(alts[i - 1]) if i > 0 else "")
    nav.setAttribute("data-next", str(alts[i + 1]) if i + 1 < len(alts) else "")
    nav.querySelector(".alt-label").textContent = f"{i + 1}/{len(alts)}"
    nav.querySelector("[data-action=alt-prev]").disabled = i == 0
    nav.querySelector("[data-action=alt-next]").disabled = i + 1 == len(alts)


def _copy_button() -> Any:
    return h(
        "button",
        {
            "type": "button",
            "class": "msg-copy",
            "data-action": "copy-message",
            "data-testid": "copy-message",
            "aria-label": "Copy this message",
        },
        "Copy",
    )


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
        #: The block the next reply record joins (``None`` after the person's message).
        self._turn: TurnView | None = None
        #: The person's messages shown, by seq (Edit and their alternatives).
        self._users: dict[int, Any] = {}
        #: The person follows the conversation's end (kept by scroll events, so that
        #: following a streaming reply reads no layout per chunk).
        self._at_end = True
        self._auto_top = -1.0  # where the view last scrolled to
        #: Another tab's changes wait while the person edits a message here.
        self._reread_due = False
        #: The records the list shows, when only ``reread`` changed them since
        #: it was drawn whole: a reread then draws again only what changed.
        self._shown: list[ChatRecord] | None = None
        self._follow_frame = False
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
            # Connecting a provider comes before the ideas: nothing can be sent without it.
            self.setup,
            h(
                "div",
                {"class": "starters", "data-testid": "starters", "aria-label": "Ideas to start"},
                [
                    h(
                        "button",
                        {
                            "type": "button",
                            "class": "starter",
                            "data-action": "starter",
                            "data-testid": "starter",
                        },
                        text,
                    )
                    for text in STARTERS
                ],
            ),
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
        self.pill = h(
            "button",
            {
                "type": "button",
                "class": "btn btn-small new-messages",
                "data-action": "to-latest",
                "data-testid": "new-messages",
                "hidden": True,
            },
            "New messages ↓",
        )
        self.scroller = h("div", {"class": "messages-scroll"}, self.empty, self.list, self.pill)
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
        # Both keys work everywhere (a Mac keyboard on Linux, Ctrl on a Mac).
        is_mac = "Mac" in str(js.navigator.platform or "")
        self.hint = h(
            "span",
            {
                "class": "composer-hint",
                "id": "composer-hint",
                "text": ("⌘+Enter or Ctrl+Enter" if is_mac else "Ctrl+Enter or ⌘+Enter")
                + " to send",
            },
        )
        bar = h("div", {"class": "composer-bar"}, self.hint, self.stop_btn, self.send_btn)
        self.form = h(
            "form",
            {"class": "composer", "aria-label": "Write to Chief"},
            self.input,
            bar,
        )
        self.attach = Attachments(self.form, self.input, self._images_warning, self._keeping_end)
        self.form.insertBefore(self.attach.tray, self.input)
        bar.insertBefore(self.attach.button, self.hint)
        self.form.append(self.attach.message, self.attach.picker)
        self.activity = h(
            "div",
            {"class": "chief-activity", "data-testid": "chief-activity", "hidden": True},
        )
        self.wait_text = h("span", {"class": "banner-text", "data-testid": "retry-countdown"})
        self.wait = h(
            "div",
            {"class": "chief-wait", "data-testid": "retry-wait", "role": "status", "hidden": True},
            self.wait_text,
            h(
                "button",
                {
                    "type": "button",
                    "class": "btn btn-small",
                    "data-action": "stop",
                    "data-testid": "retry-cancel",
                },
                "Cancel",
            ),
        )
        self._wait_gen = 0
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
        self.chat_select = h(
            "select",
            {
                "class": "chat-select",
                "data-testid": "chat-select",
                "aria-label": "Conversation",
            },
        )
        self.chats_bar = h(
            "div",
            {"class": "chats-bar", "data-testid": "chats-bar", "hidden": True},
            self.chat_select,
            h(
                "button",
                {
                    "type": "button",
                    "class": "btn btn-small",
                    "data-action": "chat-new",
                    "data-testid": "chat-new",
                },
                "New chat",
            ),
            h(
                "button",
                {
                    "type": "button",
                    "class": "msg-copy",
                    "data-action": "chat-rename",
                    "data-testid": "chat-rename",
                },
                "Rename",
            ),
            h(
                "button",
                {
                    "type": "button",
                    "class": "msg-copy",
                    "data-action": "chat-delete",
                    "data-testid": "chat-delete",
                },
                "Delete",
            ),
        )
        self.el = h(
            "div",
            {"class": "chat"},
            self.chats_bar,
            self.scroller,
            self.activity,
            self.wait,
            self.notice,
            self.banner,
            self.form,
        )

        self.attach.take_drops(self.el)
        self.listeners.on(self.form, "submit", self._on_submit)
        self.listeners.on(self.input, "keydown", self._on_keydown)
        self.listeners.on(self.el, "click", self._on_click)
        self.listeners.on(self.scroller, "scroll", self._on_scroll)
        self.listeners.on(self.chat_select, "change", self._on_pick_chat)
        # A conversation read to its end stays there when its height changes without
        # a scroll: the window resized, a stored reply's code coloured in late, an
        # image arrived.  (Resize callbacks run after layout: reading sizes is free.)
        self._resized = create_proxy(guarded(self._on_resize, "keep the end in view"))
        self._resize_observer = js.ResizeObserver.new(self._resized)
        self._resize_observer.observe(self.list)
        self._resize_observer.observe(self.scroller)

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
        self._users.clear()
        self._turn = None
        self._reread_due = False
        self._shown = None
        self.list.replaceChildren()
        self.notice.hidden = True
        self.activity.hidden = True
        for record in chat.records:
            self._add(record)
        self._sync_empty()
        self.hide_error()
        self._set_busy(chat.busy)
        self._sync_retry()
        if keep is None:
            self._scroll_to_end(force=True)
        else:
            self.scroller.scrollTop = keep
        if self._queued:
            self._queued = False
            self.activity.hidden = True
            self._send()

    def _rerender(self) -> None:
        if self.chat is not None:
            self._draw(0)

    def _redraw_changed(self) -> None:
        """The conversation as another tab wrote it: the turns that changed are
        drawn again, the others are kept (a tool call opened there, a selection),
        so following a long conversation costs what its last turn costs."""
        chat = self.chat
        if chat is None:
            return
        start = 0 if self._shown is None else redraw_from(self._shown, chat.records)
        if start is not None:
            self._draw(start)

    def _draw(self, start: int) -> None:
        """Draw the chat's records from ``start`` on (a person's message, see
        :func:`redraw_from`; ``0``: all of them), where the reader was."""
        records = self.chat.records
        cut = self._users.get(records[start].seq) if start else None
        top = self.scroller.scrollTop
        if cut is None or not self.list.contains(cut):
            start = 0
            self._replies.clear()
            self._users.clear()
            self.list.replaceChildren()
        else:
            seq = records[start].seq
            while True:  # the cut message and everything after it
                last = self.list.lastElementChild
                if is_null(last):
                    break
                last.remove()
                if last.isSameNode(cut):
                    break
            for kept in (self._replies, self._users):
                for s in [s for s in kept if s >= seq]:
                    del kept[s]
        self._turn = None
        for record in records[start:]:
            self._add(record)
        self._shown = list(records)
        self._sync_empty()
        self._sync_retry()
        self.scroller.scrollTop = top

    def show_stored(self, rows: Iterable[Mapping[str, Any]]) -> None:
        """The stored conversation, shown before any chat is bound (read-only)."""
        self._replies.clear()
        self._users.clear()
        self._turn = None
        self.list.replaceChildren()
        shown = 0
        for row in rows:
            if not isinstance(row, Mapping):
                continue
            try:
                self._add(StoredRecord(row))
            except Exception as exc:  # the app's own load skips it too, with a warning
                log.warning("first screen: a stored message could not be shown: %r", exc)
                continue
            shown += 1
        self._stored = True
        self.empty.hidden = shown > 0
        self._scroll_to_end(force=True)

    def close(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        self.listeners.close()
        self._resize_observer.disconnect()
        self._resized.destroy()

    def set_setup_needed(self, needed: bool) -> None:
        self.setup.hidden = not needed

    def focus(self) -> None:
        self.input.focus()

    # -------------------------------------------------------------- rendering

    def _explain(self, err: Any) -> Explanation | None:
        local_fix = getattr(self.app, "local_fix", None)
        return explain(err, local_fix=local_fix() if local_fix else None)

    def _add(self, record: ChatRecord) -> None:
        if record.superseded:  # a failed reply the person retried
            return
        if record.role == "user" and record.note:
            self._turn = None
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
            self._turn = None
            el = h(
                "article",
                {"class": "msg msg-user", "aria-label": "You", "data-seq": str(record.seq)},
                h("div", {"class": "msg-author", "text": "You"}),
                h(
                    "div",
                    {"class": "msg-body", "data-testid": "message-user", "text": record.content},
                ),
                thumbnails(record.images) if record.images else None,
                h(
                    "div",
                    {"class": "msg-meta"},
                    _alt_nav(),
                    _copy_button(),
                    h(
                        "button",
                        {
                            "type": "button",
                            "class": "msg-copy",
                            "data-action": "edit",
                            "data-testid": "edit-button",
                            "hidden": self.chat is None,
                        },
                        "Edit",
                    ),
                ),
            )
            self._users[record.seq] = el
            self.list.appendChild(el)
        elif record.role == "assistant":
            view = ReplyView(record, self._explain, self._follow_soon)
            self._replies[record.seq] = view
            if self._turn is None:
                self._turn = TurnView(elsewhere=self.chat is not None and not self.chat.busy)
                self.list.appendChild(self._turn.el)
            self._turn.add(view)
            _strip_notice(view.el, record)

    def show_chats(self, data: Mapping[str, Any]) -> None:
        """The project's conversations in the bar, the open one selected."""
        options = [
            h("option", {"value": c["id"], "text": c["title"]}) for c in data.get("chats") or ()
        ]
        self.chat_select.replaceChildren(*options)
        self.chat_select.value = data.get("current") or ""
        self.chats_bar.hidden = False
        self._chats = data

    def _on_pick_chat(self, event: Any) -> None:
        chat_id = str(self.chat_select.value)
        if chat_id:
            spawn(self.app.switch_chat(chat_id), what="switch conversation")

    def _chat_action(self, action: str) -> None:
        data = getattr(self, "_chats", None) or {}
        current = data.get("current")
        title = next((c["title"] for c in data.get("chats") or () if c["id"] == current), "")
        if action == "chat-new":
            spawn(self.app.new_chat(), what="new conversation")
        elif action == "chat-rename" and current:
            name = js.window.prompt("Name this conversation", title)
            if name is not None and str(name).strip():
                spawn(self.app.rename_chat(current, str(name)), what="rename conversation")
        elif (
            action == "chat-delete"
            and current
            and js.window.confirm(f"Delete the conversation “{title}”? This cannot be undone.")
        ):
            spawn(self.app.delete_chat(current), what="delete conversation")

    def _sync_retry(self) -> None:
        """Retry sits on the last reply when it failed, was stopped or interrupted."""
        chat = self.chat
        busy = self.el.classList.contains("is-busy")
        can = chat is not None and not busy and chat.can_retry()
        last = next(reversed(self._replies.values()), None) if self._replies else None
        last_turn = last.turn if last is not None else None
        ended = last_turn is not None and last_turn.el.getAttribute("data-status") in _ENDED
        for view in self._replies.values():
            turn = view.turn
            if turn is None or turn.rounds[0] is not view:
                continue
            turn.retry.hidden = not (can and turn is last_turn)
            turn.cont.hidden = not (
                chat is not None and not busy and turn is last_turn and chat.can_continue()
            )
            turn.regenerate.hidden = not (
                chat is not None and not busy and ended and turn is last_turn and not can
            )
            if chat is not None:
                _show_alts(turn.alts, chat.alternatives(view.record.seq), view.record.seq)
        for seq, el in self._users.items():
            edit = el.querySelector("[data-action=edit]")
            edit.hidden = chat is None or busy
            if chat is not None:
                _show_alts(el.querySelector(".alt-nav"), chat.alternatives(seq), seq)

    def _sync_empty(self) -> None:
        self.empty.hidden = bool(self.chat and self.chat.records)

    def _near_end(self) -> bool:
        s = self.scroller
        return s.scrollHeight - s.scrollTop - s.clientHeight < 80

    def _keeping_end(self, change: Callable[[], None]) -> None:
        """Run ``change`` (the composer grows or shrinks); a conversation read to
        its end stays at its end."""
        near = self._near_end()
        change()
        if near:
            self._scroll_to_end(force=True)

    def _scroll_to_end(self, *, force: bool = False) -> None:
        if not self.empty.hidden:
            # An empty chat is read from its top: the welcome, then setup or the ideas.
            self.scroller.scrollTop = 0
            return
        if force or self._near_end():
            self.scroller.scrollTop = self.scroller.scrollHeight
            self.pill.hidden = True
            self._at_end = True
            self._auto_top = self.scroller.scrollTop

    def _follow_soon(self) -> None:
        """A reply's text grew (a render slice): follow its end at the next frame, if
        the person is following it.  Once a frame, never per chunk: reading the
        scroller's size forces a layout, which the frame does anyway."""
        if not self._follow_frame:
            self._follow_frame = True
            js.requestAnimationFrame(
                create_once_callable(guarded(self._follow, "follow the reply"))
            )

    def _follow(self, *_: Any) -> None:
        self._follow_frame = False
        if self._at_end:
            self._scroll_to_end(force=True)
        elif is_null(self.el.closest("[hidden]")):
            self.pill.hidden = False

    def _on_resize(self, *_: Any) -> None:
        if self._at_end and is_null(self.el.closest("[hidden]")):
            self._scroll_to_end(force=True)

    def scroll_to_latest(self) -> None:
        """The tab was shown again: its latest message in view."""
        self._scroll_to_end(force=True)

    def _on_scroll(self, event: Any) -> None:
        near = self._near_end()
        if near:
            self._at_end = True
        elif self.scroller.scrollTop != self._auto_top:
            # Moved away from where the view put it (the person scrolled): the
            # reply's end is followed again once they are back near it.  Left
            # where the view put it, the text may just have grown below.
            self._at_end = False
        if not self.pill.hidden and near:
            self.pill.hidden = True

    def _on_event(self, event: str, record: ChatRecord) -> None:
        if event != "reread":  # drawn by this tab: what the list shows is its own
            self._shown = None
        if event == "delta":  # per chunk: no layout read here (see _follow_soon)
            view = self._replies.get(record.seq)
            if view is not None:
                view.delta()
            return
        follow = self._at_end or self._near_end()
        if event == "added":
            self._add(record)
            self._sync_empty()
            # The person's own message brings them down; others wait behind the pill.
            follow = follow or (record.role == "user" and not record.note)
        elif event == "updated":
            view = self._replies.get(record.seq)
            if view is not None:
                view.update(final=True)
                _strip_notice(view.el, record)
            if record.error is not None:
                self.show_error(explain(record.error))
        elif event == "superseded":
            view = self._replies.pop(record.seq, None)
            if view is not None and view.turn is not None:
                turn = view.turn
                turn.remove(view)
                if not turn.rounds:
                    turn.el.remove()
                    if self._turn is turn:
                        self._turn = None
            self.hide_error()
        elif event == "retry-wait":
            self._show_retry_wait()
        elif event in ("save-error", "saved"):  # issue 12: a write refused (full quota)
            self._show_save_state(event)
        elif event == "reloaded":  # the path moved (regenerate, edit, another version)
            self._rerender()
            follow = False
        elif event == "reread":  # as another tab wrote it: the end stays in view
            if is_null(self.list.querySelector(".msg-editor")):
                self._redraw_changed()
            else:  # what is being typed in an edit here stays; shown once it closes
                self._reread_due = True
                follow = False
        elif event == "activity":
            text = self.chat.activity if self.chat is not None else None
            self.activity.textContent = text or ""
            self.activity.hidden = not text
            view = self._replies.get(record.seq)
            if view is not None:
                view.show_tool_calls()
        if follow:
            self._scroll_to_end(force=True)
        elif event == "added" and is_null(self.el.closest("[hidden]")):
            self.pill.hidden = False

    # -------------------------------------------------------------- banner

    def show_error(self, explanation: Explanation | None) -> None:
        if explanation is None:
            return
        self.banner_text.replaceChildren(
            h("strong", {"text": explanation.title}), " ", explanation.message
        )
        self.banner_settings.hidden = not explanation.settings
        self.banner.removeAttribute("data-kind")
        self.banner.hidden = False

    def show_message(self, title: str, message: str, *, settings: bool = False) -> None:
        self.show_error(Explanation(title, message, "notice", settings=settings))

    def hide_error(self) -> None:
        self.banner.hidden = True

    def _show_save_state(self, event: str) -> None:
        from wiggum.fs import StorageFull
        from wiggum.ui.tab_lock import ProjectPaused

        error = None if self.chat is None else self.chat.save_error
        if event == "saved" or error is None:
            if self.banner.getAttribute("data-kind") == "save":
                self.banner.removeAttribute("data-kind")
                self.hide_error()
            return
        text = (
            str(error)
            if isinstance(error, StorageFull | ProjectPaused)
            else (
                f"This browser refused to store the conversation ({type(error).__name__}). "
                "It stays on screen and is stored again with the next message."
            )
        )
        self.show_message("Not saved.", text)
        self.banner.setAttribute("data-kind", "save")  # after show_message clears it

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

    def _images_warning(self, count: int) -> str | None:
        from wiggum.chief.attachments import images_warning
        from wiggum.llm.normalize import DEFAULT_QUIRKS

        p = self.app.settings.active()
        if p is None:
            return None
        model = self.app._model("chief") if hasattr(self.app, "_model") else p.model
        provider = p.to_config().model_copy(update={"model": model})
        bar = getattr(self.app, "model_bars", {}).get("chief")
        listed = bar.listed if bar is not None else []
        refused = {
            m
            for m in (model, *listed)
            if DEFAULT_QUIRKS.refuses_images(provider.model_copy(update={"model": m}))
        }
        return images_warning(provider, count, listed, refused=refused)

    def _set_busy(self, busy: bool) -> None:
        self.send_btn.hidden = busy
        self.stop_btn.hidden = not busy
        self.el.classList.toggle("is-busy", busy)
        if self.chat is not None:
            self._sync_retry()
        if not busy:
            self._wait_gen += 1
            self.wait.hidden = True

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
        elif action == "copy-message":
            spawn(self._copy_message(target), what="copy message")
        elif action == "retry":
            self._retry()
        elif action == "continue":
            self._retry(resume=True)
        elif action in ("chat-new", "chat-rename", "chat-delete"):
            if self.chat is None or not self.chat.busy:
                self._chat_action(action)
        elif action == "starter":
            self.input.value = target.textContent
            self.input.focus()
        elif action == "to-latest":
            self._scroll_to_end(force=True)
        elif action == "regenerate":
            self._start(lambda chat, p, **kw: chat.regenerate(p, **kw), "chief regenerate")
        elif action in ("alt-prev", "alt-next"):
            nav = target.closest(".alt-nav")
            seq = nav.getAttribute("data-prev" if action == "alt-prev" else "data-next") or ""
            chat = self.chat
            if chat is not None and seq.isdigit() and not chat.busy and not self._refused():
                spawn(chat.switch(int(seq)), what="chief switch version")
        elif action == "edit":
            self._open_editor(target.closest(".msg-user"))
        elif action == "edit-cancel":
            self._close_editor(target.closest(".msg-user"))
        elif action == "edit-send":
            self._send_edit(target.closest(".msg-user"))

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

    async def _copy_message(self, button: Any) -> None:
        article = button.closest(".msg")
        body = None if is_null(article) else article.querySelector(".msg-body")
        if is_null(body):
            return
        seq = article.getAttribute("data-seq") or ""
        view = self._replies.get(int(seq)) if seq.isdigit() else None
        # The markdown source of the turn's words (what one pastes on), else the text.
        turn = view.turn if view is not None else None
        text = turn.text() if turn is not None else body.textContent
        try:
            await js.navigator.clipboard.writeText(text)
            button.textContent = "Copied"
        except (JsException, AttributeError):
            button.textContent = "Copy failed"
        import asyncio

        await asyncio.sleep(1.5)
        button.textContent = "Copy"

    def _show_retry_wait(self) -> None:
        """A countdown while the client waits to try again (e.g. a 429's Retry-After)."""
        chat = self.chat
        wait = chat.retry_wait if chat is not None else None
        self._wait_gen += 1
        if wait is None:
            self.wait.hidden = True
            return
        seconds, reason = wait
        why = (
            "The provider asked Chief to slow down"
            if reason == "RateLimitError"
            else ("The provider did not answer")
        )
        spawn(self._count_down(self._wait_gen, why, seconds), what="retry countdown")

    async def _count_down(self, gen: int, why: str, seconds: float) -> None:
        import asyncio
        import math

        end = now_ms() + seconds * 1000
        self.wait.hidden = False
        while gen == self._wait_gen:
            left = max(0, math.ceil((end - now_ms()) / 1000))
            self.wait_text.textContent = f"{why}: trying again in {left} s…"
            if left <= 0:
                break
            await asyncio.sleep(min(1.0, max(0.05, (end - now_ms()) / 1000 - (left - 1))))

    def _options(self, provider: Any = None) -> Any:
        """The turn's request options: the idle timeout, and web search where the
        person turned it on for this provider (``wiggum.chief.research``)."""
        from wiggum.chief.research import research_options  # loaded with the chat
        from wiggum.llm import RequestOptions

        idle = getattr(self.app.settings, "stream_idle_seconds", None)
        options = RequestOptions(idle_timeout=idle)
        if provider is None:
            return options
        return research_options(provider, self._research_on(provider), options)

    def _start(self, call: Callable[..., Any], what: str) -> None:
        """Run ``call(chat, provider, proxy_template=…, options=…)`` as a turn."""
        chat = self.chat
        if chat is None or chat.busy:
            return
        provider = self.app.current_provider()
        if provider is None:
            return
        self.hide_error()
        self._set_busy(True)
        spawn(self._run_call(chat, call), what=what)

    async def _run_call(self, chat: ChiefChat, call: Callable[..., Any]) -> None:
        provider = self.app.current_provider()
        try:
            await call(
                chat,
                provider,
                proxy_template=self.app.settings.proxy_template,
                options=self._options(provider),
            )
        finally:
            if chat is self.chat:
                self._set_busy(False)
                self.activity.hidden = True

    def _refused(self) -> bool:
        """Whether the app refuses writes now (another tab owns the project); it says why."""
        refuse = getattr(self.app, "refuse_write", None)
        return bool(refuse is not None and refuse("chat"))

    def _open_editor(self, article: Any) -> None:
        if is_null(article) or self.chat is None or self.chat.busy:
            return
        body = article.querySelector(".msg-body")
        if is_null(body) or not is_null(article.querySelector(".msg-editor")):
            return
        box = h(
            "textarea",
            {
                "class": "chat-input msg-editor-input",
                "data-testid": "edit-input",
                "rows": "3",
                "aria-label": "Edit your message",
            },
        )
        box.value = body.textContent
        editor = h(
            "div",
            {"class": "msg-editor"},
            box,
            h(
                "div",
                {"class": "composer-bar"},
                h(
                    "span",
                    {
                        "class": "composer-hint",
                        "text": "Sends from here; what followed stays as the earlier version.",
                    },
                ),
                h(
                    "button",
                    {"type": "button", "class": "btn", "data-action": "edit-cancel"},
                    "Cancel",
                ),
                h(
                    "button",
                    {
                        "type": "button",
                        "class": "btn btn-primary",
                        "data-action": "edit-send",
                        "data-testid": "edit-send",
                    },
                    "Send",
                ),
            ),
        )
        body.hidden = True
        body.after(editor)
        box.focus()

    def _close_editor(self, article: Any) -> None:
        if is_null(article):
            return
        editor = article.querySelector(".msg-editor")
        if not is_null(editor):
            editor.remove()
        body = article.querySelector(".msg-body")
        if not is_null(body):
            body.hidden = False
        if self._reread_due:
            self._reread_due = False
            self._rerender()

    def _send_edit(self, article: Any) -> None:
        if is_null(article):
            return
        seq = article.getAttribute("data-seq") or ""
        box = article.querySelector(".msg-editor-input")
        text = "" if is_null(box) else str(box.value).strip()
        if not seq.isdigit() or not text:
            return
        self._start(
            lambda chat, p, **kw: chat.edit(int(seq), text, p, **kw), "chief edit and resend"
        )

    def _retry(self, *, resume: bool = False) -> None:
        """Retry the last failed reply, or with ``resume`` continue its partial."""
        chat = self.chat
        if chat is None or not (chat.can_continue() if resume else chat.can_retry()):
            return
        provider = self.app.current_provider()
        if provider is None:
            return
        self.hide_error()
        self._set_busy(True)
        spawn(self._run(chat, None, provider, retry=True, resume=resume), what="chief retry")

    def _send(self) -> None:
        chat = self.chat
        if chat is not None and chat.busy:
            return
        text = self.input.value.strip()
        if not text and not self.attach.images:
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
        images = self.attach.take()
        self._set_busy(True)
        if not any(r.role == "user" and not r.note for r in chat.records):
            titled = getattr(self.app, "title_chat", None)
            if titled is not None:
                spawn(titled(text), what="name conversation")
        spawn(self._run(chat, text, provider, images=images), what="chief reply")

    def _research_on(self, provider: Any) -> bool:
        chosen = self.app.settings.provider(provider.id)
        return bool(chosen and chosen.web_search)

    async def _run(
        self,
        chat: ChiefChat,
        text: str | None,
        provider: Any,
        *,
        retry: bool = False,
        resume: bool = False,
        images: list[Any] | None = None,
    ) -> None:
        template = self.app.settings.proxy_template
        try:
            if resume:
                await chat.continue_reply(
                    provider, proxy_template=template, options=self._options(provider)
                )
            elif retry:
                await chat.retry(provider, proxy_template=template, options=self._options(provider))
            else:
                await chat.send(
                    text,
                    provider,
                    proxy_template=template,
                    options=self._options(provider),
                    images=images or (),
                )
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
