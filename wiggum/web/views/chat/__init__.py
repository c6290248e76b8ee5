"""Chief's tab: the conversation, the message box, the lines under it.

The view draws two things and decides neither: the conversation's records
(:class:`~wiggum.chief.chat.ChiefChat`'s events: ``added``, ``delta``,
``updated``, …) and the turn's state (:class:`~wiggum.session.chief.ChiefSession`'s
events: which buttons show, a refusal, a refused write).  What the person
does goes to the session (:class:`~wiggum.session.chat_actions.ChatActions`);
the view never learns what the app is.

Until a chat is bound (the first screen, before the app has loaded) it shows
the stored conversation (:meth:`ChatView.show_stored`); a message sent then
is queued by the session, shown as such, and goes out once the chat arrives.

Parts: ``turn`` (a turn's block and its rounds), ``composer`` (the box),
``banners`` (activity, retry countdown, notice, error), ``chats_bar``,
``editor`` (editing a message in place), ``scroll`` (following the end).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

import js  # type: ignore[import-not-found]

from wiggum.session.chat_actions import ChatActions
from wiggum.session.chief import (
    Activity,
    ChatBound,
    QueueReady,
    Refused,
    SaveState,
    SendOutcome,
    TurnChanged,
    TurnEnded,
    TurnStarted,
    Waiting,
)
from wiggum.session.refusals import SETUP_FIRST, card_notice
from wiggum.session.turns import TurnActions, TurnState
from wiggum.ui.errors import Explanation, explain
from wiggum.ui.markup import attach
from wiggum.ui.markup import chat as markup
from wiggum.ui.stored_chat import StoredRecord
from wiggum.ui.turns import redraw_from

from ...clipboard import copy_from
from ...dom import Listeners, is_null, mount, on_action, spawn
from .banners import Banners
from .chats_bar import ChatsBar
from .composer import Composer
from .editor import close_editor, edited_text, is_editing, open_editor
from .scroll import ScrollFollower
from .turn import ReplyView, TurnView, show_alts, strip_notice

if TYPE_CHECKING:  # the first screen shows this view before pydantic has loaded
    from wiggum.chief.chat import ChatRecord, ChiefChat
    from wiggum.session.build import ModeView
    from wiggum.session.chief import ChiefEvent
    from wiggum.session.refusals import Refusal

log = logging.getLogger("wiggum.web")

__all__ = ["ChatActions", "ChatView"]


class ChatView:
    """Chief's conversation, drawn from a chat's records and a session's state."""

    def __init__(self, session: ChatActions, open_settings: Callable[[], None]) -> None:
        self.session = session
        self.open_settings = open_settings
        self.chat: ChiefChat | None = None
        self._actions = session.actions
        #: The list shows stored rows (``show_stored``), not yet a bound chat's.
        self._stored = False
        self._unsubscribe: Callable[[], None] | None = None
        self._replies: dict[int, ReplyView] = {}
        #: The block the next reply record joins (``None`` after a message).
        self._turn: TurnView | None = None
        #: The person's messages shown, by seq (Edit and their versions).
        self._users: dict[int, Any] = {}
        #: Another tab's changes wait while the person edits a message here.
        self._reread_due = False
        #: The records the list shows, when only ``reread`` changed them since
        #: it was drawn whole: a reread then draws again only what changed.
        self._drawn: list[ChatRecord] | None = None
        #: The first-run card's notice line (``use_setup_card``): a setup refusal is said there.
        self._say_on_card: Callable[[str | None], None] | None = None
        self.listeners = Listeners()

        view = mount(markup.view(markup.send_hint(str(js.navigator.platform or ""))))
        self.mode, self.mode_plan, self.mode_build = view.mode, view.mode_plan, view.mode_build
        self.el, self.scroller, self.setup = view.el, view.scroller, view.setup
        self.empty, self.list, self.pill = view.empty, view.list, view.pill
        self.banners = Banners(view)
        self.chats_bar = ChatsBar(view, session.switch_chat)
        self.scroll = ScrollFollower(self.scroller, self.el, self.empty, self.pill, self.list)
        self.composer = Composer(view, self._send, session.images_warning, self.scroll.keeping_end)
        self.composer.attach.take_drops(self.el)
        self.listeners.on(self.el, "click", lambda event: on_action(event, self._clicks))
        self._clicks: dict[str, Callable[[Any], None]] = {
            "stop": lambda _: self.session.stop(),
            "banner-dismiss": lambda _: self.banners.hide_error(),
            "notice-dismiss": lambda _: self.banners.hide_notice(),
            "banner-settings": lambda _: self.open_settings(),
            "copy-code": self._copy_code,
            "copy-message": self._copy_message,
            "retry": lambda _: self.session.retry(),
            "continue": lambda _: self.session.resume(),
            "regenerate": lambda _: self.session.regenerate(),
            "chat-new": lambda _: self.session.new_chat(),
            "chat-rename": self._rename_chat,
            "chat-delete": self._delete_chat,
            "starter": lambda target: self.composer.put(target.textContent),
            "to-latest": lambda _: self.scroll.to_end(force=True),
            "alt-prev": lambda target: self._switch_version(target, "data-prev"),
            "alt-next": lambda target: self._switch_version(target, "data-next"),
            "edit": self._open_editor,
            "edit-cancel": self._close_editor,
            "edit-send": self._send_edit,
            "build-plan": self._build_plan,
            "mode-build": lambda _: self.session.build_plan(None),
            "mode-plan": lambda _: self.session.plan_again(),
        }
        self._unsubscribe_session = session.subscribe(self._on_session)

    # -------------------------------------------------------------- the session

    def _on_session(self, event: ChiefEvent) -> None:
        if isinstance(event, TurnChanged):
            self._show_actions(event.actions)
        elif isinstance(event, ChatBound):
            self.bind(event.chat)
        elif isinstance(event, TurnStarted):
            self.banners.hide_error()
        elif isinstance(event, TurnEnded):
            self.banners.show_activity(None)
            active = js.document.activeElement
            if is_null(active) or active == js.document.body:
                self.composer.focus()
        elif isinstance(event, Refused):
            self.show_refusal(event.refusal)
        elif isinstance(event, QueueReady):
            self._send()
        elif isinstance(event, Activity):
            self.banners.show_activity(event.text)
            view = self._last_reply()
            if view is not None:
                view.show_tool_calls()
        elif isinstance(event, Waiting):
            self.banners.show_retry_wait(event.wait)
        elif isinstance(event, SaveState):
            self.banners.show_save_state(event.text)

    def _show_actions(self, actions: TurnActions) -> None:
        was_busy, self._actions = self._actions.busy, actions
        self.composer.show_busy(actions.busy)
        self.el.classList.toggle("is-busy", actions.busy)
        if actions.state is TurnState.QUEUED:
            self.banners.show_activity(markup.QUEUED_TEXT)
        elif was_busy and not actions.busy:
            self.banners.show_activity(None)
            self.banners.show_retry_wait(None)
        self._sync_buttons()

    def _sync_buttons(self) -> None:
        """Retry, Continue, Regenerate, Edit and the versions, as the session says."""
        a = self._actions
        for view in self._replies.values():
            turn = view.turn
            if turn is None or turn.rounds[0] is not view:
                continue
            seq = view.record.seq
            turn.show_actions(a.retry == seq, a.resume == seq, a.regenerate == seq)
            if self.chat is not None:
                show_alts(turn.alts, self.session.alternatives(seq), seq)
        for seq, article in self._users.items():
            article.querySelector("[data-action=edit]").hidden = not a.edit
            if self.chat is not None:
                show_alts(article.querySelector(".alt-nav"), self.session.alternatives(seq), seq)

    def _send(self) -> None:
        outcome = self.session.send(self.composer.text, self.composer.images)
        if outcome is SendOutcome.STARTED:
            self.composer.take()
        elif outcome is SendOutcome.EMPTY:
            self.composer.focus()

    # -------------------------------------------------------------- binding

    def bind(self, chat: ChiefChat) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        # The first bind after the first screen renders the same conversation
        # again: someone reading further up stays where they are.
        keep = self.scroller.scrollTop if self._stored and not self.scroll.near_end() else None
        self._stored = False
        self.chat = chat
        self._unsubscribe = chat.subscribe(self._on_chat)
        self._reread_due = False
        self.banners.hide_notice()
        self.banners.show_activity(None)
        self._clear()
        for record in chat.records:
            self._add(record)
        self._drawn = None
        self._sync_empty()
        self.banners.hide_error()
        self._actions = self.session.actions
        self._show_actions(self._actions)
        if keep is None:
            self.scroll.to_end(force=True)
        else:
            self.scroller.scrollTop = keep

    def _clear(self) -> None:
        self._replies.clear()
        self._users.clear()
        self._turn = None
        self.list.replaceChildren()

    def _redraw_changed(self) -> None:
        """The conversation as another tab wrote it: the turns that changed are
        drawn again, the others are kept (a tool call opened there, a selection),
        so following a long conversation costs what its last turn costs."""
        chat = self.chat
        if chat is None:
            return
        start = 0 if self._drawn is None else redraw_from(self._drawn, chat.records)
        if start is not None:
            self._draw(start)

    def _draw(self, start: int) -> None:
        """Draw the chat's records from ``start`` on (a person's message, see
        :func:`redraw_from`; ``0``: all of them), where the reader was."""
        records = self.chat.records if self.chat is not None else []
        cut = self._users.get(records[start].seq) if start else None
        top = self.scroller.scrollTop
        if cut is None or not self.list.contains(cut):
            start = 0
            self._clear()
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
        self._drawn = list(records)
        self._sync_empty()
        self._sync_buttons()
        self.scroller.scrollTop = top

    def show_stored(self, rows: Iterable[Mapping[str, Any]]) -> None:
        """The stored conversation, shown before any chat is bound (read-only)."""
        self._clear()
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
        self.scroll.to_end(force=True)

    def close(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        self._unsubscribe_session()
        self.listeners.close()
        self.composer.close()
        self.chats_bar.close()
        self.scroll.close()

    # -------------------------------------------------------------- what the app shows here

    def use_setup_card(self, card: Any, say: Callable[[str | None], None]) -> None:
        """The first-run card (shown while no provider works) and how to say a line on it."""
        self.setup.replaceChildren(card)
        self._say_on_card = say

    def set_setup_needed(self, needed: bool) -> None:
        """The first-run card shows, and the message box waits for it, while no provider works."""
        self.setup.hidden = not needed
        self.composer.wait_for_setup(SETUP_FIRST if needed else None)
        if not needed:
            self.banners.hide_setup()
            if self._say_on_card is not None:
                self._say_on_card(None)

    @property
    def setup_shown(self) -> bool:
        return not self.setup.hidden

    def focus(self) -> None:
        self.composer.focus()

    def show_chats(self, data: Mapping[str, Any]) -> None:
        self.chats_bar.show(data)

    def show_notice(self, text: str) -> None:
        self.banners.show_notice(text)

    def show_message(self, title: str, message: str, *, settings: bool = False) -> None:
        self.banners.show_message(title, message, settings=settings)

    def show_refusal(self, refusal: Refusal) -> None:
        notice = card_notice(refusal, self.setup_shown and self._say_on_card is not None)
        if notice is not None and self._say_on_card is not None:
            self._say_on_card(notice)
        else:
            self.banners.show_refusal(refusal)

    def hide_error(self) -> None:
        self.banners.hide_error()

    def scroll_to_latest(self) -> None:
        """The tab was shown again: its latest message in view."""
        self.scroll.to_end(force=True)

    # -------------------------------------------------------------- records

    def _explain(self, err: Any) -> Explanation | None:
        return explain(err, local_fix=self.session.local_fix())

    def _last_reply(self) -> ReplyView | None:
        return next(reversed(self._replies.values()), None) if self._replies else None

    def _add(self, record: ChatRecord) -> None:
        if record.superseded:  # a failed reply the person retried
            return
        if record.role == "user" and record.note:
            self._turn = None
            self.list.appendChild(mount(markup.note(record.content)).el)
        elif record.role == "tool":
            for view in reversed(list(self._replies.values())):
                if record.tool_call_id in view.tool_els:
                    view.tool_result(record)
                    break
        elif record.role == "user":
            self._turn = None
            images = attach.thumbnails(record.images) if record.images else None
            tree = markup.user_message(
                record.seq, record.content, edit=self._actions.edit, images=images
            )
            article = mount(tree).el
            self._users[record.seq] = article
            self.list.appendChild(article)
        elif record.role == "assistant":
            view = ReplyView(record, self._explain, self.scroll.follow_soon)
            self._replies[record.seq] = view
            if self._turn is None:
                self._turn = TurnView(elsewhere=self.chat is not None and not self.chat.busy)
                self.list.appendChild(self._turn.el)
            self._turn.add(view)
            strip_notice(view.el, record)

    def _sync_empty(self) -> None:
        self.empty.hidden = bool(self.chat and self.chat.records)

    def _on_chat(self, event: str, record: ChatRecord) -> None:
        if event != "reread":  # drawn by this tab: what the list shows is its own
            self._drawn = None
        if event == "delta":  # per chunk: no layout read here (see ScrollFollower)
            view = self._replies.get(record.seq)
            if view is not None:
                view.delta()
            return
        if event == "drafting":  # the plan as Chief writes it
            view = self._replies.get(record.seq)
            draft = self.chat.draft if self.chat is not None else None
            if view is not None and draft is not None:
                view.show_draft(draft.text)
            return
        follow = self.scroll.at_end or self.scroll.near_end()
        if event == "added":
            self._add(record)
            self._sync_empty()
            # The person's own message brings them down; others wait behind the pill.
            follow = follow or (record.role == "user" and not record.note)
        elif event == "updated":
            view = self._replies.get(record.seq)
            if view is not None:
                view.update(final=True)
                strip_notice(view.el, record)
        elif event == "superseded":
            self._superseded(record)
        elif event == "reloaded":  # the path moved (regenerate, edit, another version)
            self._draw(0)
            follow = False
        elif event == "reread":  # as another tab wrote it: the end stays in view
            if not is_editing(self.list):
                self._redraw_changed()
            else:  # what is being typed in an edit here stays; shown once it closes
                self._reread_due = True
                follow = False
        self.scroll.after_change(follow, added=event == "added")

    def _superseded(self, record: ChatRecord) -> None:
        view = self._replies.pop(record.seq, None)
        if view is not None and view.turn is not None:
            turn = view.turn
            turn.remove(view)
            if not turn.rounds:
                turn.el.remove()
                if self._turn is turn:
                    self._turn = None
        self.banners.hide_error()

    # -------------------------------------------------------------- clicks

    def _copy_code(self, target: Any) -> None:
        block = target.closest(".codeblock")
        code = None if is_null(block) else block.querySelector("code")
        if not is_null(code):
            spawn(copy_from(target, code.textContent), what="copy code")

    def _copy_message(self, target: Any) -> None:
        article = target.closest(".msg")
        body = None if is_null(article) else article.querySelector(".msg-body")
        if is_null(body):
            return
        seq = article.getAttribute("data-seq") or ""
        view = self._replies.get(int(seq)) if seq.isdigit() else None
        # The markdown source of the turn's words (what one pastes on), else the text.
        turn = view.turn if view is not None else None
        text = turn.text() if turn is not None else body.textContent
        spawn(copy_from(target, text), what="copy message")

    def _build_plan(self, target: Any) -> None:
        seq = target.closest(".round").getAttribute("data-seq") or ""
        if seq.isdigit():
            self.session.build_plan(int(seq))

    def show_mode(self, view: ModeView) -> None:
        """Plan -> Build: the mode Chief is in (``session.build.chief_mode``)."""
        self.mode.setAttribute("data-mode", view.mode)
        self.mode_plan.setAttribute("aria-pressed", "true" if view.mode == "plan" else "false")
        self.mode_build.setAttribute("aria-pressed", "true" if view.mode == "build" else "false")
        self.mode_plan.title = view.plan_title
        self.mode_build.title = view.build_title

    def _rename_chat(self, _target: Any) -> None:
        if self._actions.manage_chats and (named := self.chats_bar.ask_name()) is not None:
            self.session.rename_chat(*named)

    def _delete_chat(self, _target: Any) -> None:
        if self._actions.manage_chats and (chat_id := self.chats_bar.confirm_delete()) is not None:
            self.session.delete_chat(chat_id)

    def _switch_version(self, target: Any, which: str) -> None:
        seq = target.closest(".alt-nav").getAttribute(which) or ""
        if seq.isdigit():
            self.session.switch_version(int(seq))

    def _open_editor(self, target: Any) -> None:
        article = target.closest(".msg-user")
        if not is_null(article) and self._actions.edit:
            open_editor(article)

    def _close_editor(self, target: Any) -> None:
        article = target.closest(".msg-user")
        if is_null(article):
            return
        close_editor(article)
        if self._reread_due:
            self._reread_due = False
            self._draw(0)

    def _send_edit(self, target: Any) -> None:
        article = target.closest(".msg-user")
        edited = None if is_null(article) else edited_text(article)
        if edited is not None:
            self.session.edit(*edited)
