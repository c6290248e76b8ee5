"""Chief's conversation as the person drives it: Send, Stop, Retry, Continue,
Regenerate, Edit, versions and conversations, with effects out.

The chat view draws :class:`~wiggum.session.turns.TurnActions` and forwards
the person's clicks to :class:`ChiefSession`, which checks each against the
turn's state machine (:mod:`wiggum.session.turns`), the tab lock and the
provider, drives :class:`~wiggum.chief.chat.ChiefChat` (which owns the records,
the streaming and the saving), and tells its listeners what changed as typed
events.

The first screen builds a :class:`ChiefSession` before pydantic has loaded
(a message sent then is queued), so this module imports nothing heavy: the
agent's types are named for the type checker only.
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from wiggum._listeners import Listeners

from .refusals import NOT_SENT, Refusal, paused
from .turns import Trigger, TurnActions, TurnState, next_state, settled_state, turn_actions

if TYPE_CHECKING:
    from wiggum.chief.attachments import Attachment
    from wiggum.chief.chat import ChiefChat
    from wiggum.llm import ProviderConfig, RequestOptions

__all__ = [
    "Activity",
    "ChatBound",
    "ChiefContext",
    "ChiefSession",
    "QueueReady",
    "Refused",
    "SaveState",
    "SendOutcome",
    "TurnChanged",
    "TurnEnded",
    "TurnStarted",
    "Waiting",
    "save_failure_text",
]

log = logging.getLogger("wiggum.session")


# ------------------------------------------------------------------ events out


@dataclass(frozen=True, slots=True)
class TurnChanged:
    """The controls changed (busy or not, Retry…)."""

    actions: TurnActions


@dataclass(frozen=True, slots=True)
class TurnStarted:
    """A turn went out: the last error no longer applies."""


@dataclass(frozen=True, slots=True)
class TurnEnded:
    """The turn is over: the message box may take the focus back."""


@dataclass(frozen=True, slots=True)
class Refused:
    """Nothing happened, and why (the draft stays in the box)."""

    refusal: Refusal


@dataclass(frozen=True, slots=True)
class ChatBound:
    """Another conversation is shown (a project opened, a chat switched)."""

    chat: ChiefChat


@dataclass(frozen=True, slots=True)
class QueueReady:
    """The message sent before the app loaded may go now: send the box again."""


@dataclass(frozen=True, slots=True)
class Activity:
    """What Chief is doing while his tools run ("Chief is reading files…"), or ``None``."""

    text: str | None


@dataclass(frozen=True, slots=True)
class Waiting:
    """The client waits ``seconds`` before trying again, and why (the error's
    name, e.g. ``RateLimitError``); ``None``: the wait is over."""

    wait: tuple[float, str] | None


@dataclass(frozen=True, slots=True)
class SaveState:
    """A write of the conversation was refused (``text`` says why; the reply
    stays on screen and is written again with the next write), or ``None``:
    it is all stored again."""

    text: str | None


ChiefEvent = (
    TurnChanged
    | TurnStarted
    | TurnEnded
    | Refused
    | ChatBound
    | QueueReady
    | Activity
    | Waiting
    | SaveState
)


def save_failure_text(error: BaseException) -> str:
    """Why the conversation was not stored, for the banner.  A full quota and a
    project taken by another tab say so in their own words (with the fix)."""
    from wiggum.fs import StorageFull  # loaded with the chat, after the first screen
    from wiggum.persist.guarded import ProjectPaused

    if isinstance(error, StorageFull | ProjectPaused):
        return str(error)
    return (
        f"This browser refused to store the conversation ({type(error).__name__}). "
        "It stays on screen and is stored again with the next message."
    )


class SendOutcome(enum.Enum):
    STARTED = "started"  # the box's text and images went: clear them
    QUEUED = "queued"  # it waits for the app, in the box
    EMPTY = "empty"  # nothing to send
    BUSY = "busy"  # a turn is running
    REFUSED = "refused"  # said why (a ``Refused`` event); the draft stays


class ChiefContext(Protocol):
    """What Chief's session needs of the app around it (the open project's
    session implements it)."""

    @property
    def proxy_template(self) -> str: ...

    def paused(self) -> str | None:
        """Why this tab may not write the project now (another tab owns it)."""
        ...

    def provider(self) -> ProviderConfig | Refusal:
        """Chief's provider config, or why there is none."""
        ...

    def request_options(self, provider: ProviderConfig) -> RequestOptions: ...

    def title_chat(self, text: str) -> Awaitable[None]: ...

    def local_fix(self) -> str | None: ...

    def images_warning(self, count: int) -> str | None: ...

    def new_chat(self) -> Awaitable[None]: ...

    def switch_chat(self, chat_id: str) -> Awaitable[None]: ...

    def rename_chat(self, chat_id: str, title: str) -> Awaitable[None]: ...

    def delete_chat(self, chat_id: str) -> Awaitable[None]: ...

    def build_plan(self, plan: str | None) -> Awaitable[None]:
        """Hand ``plan`` (``None``: the saved one) to Ralph, with no model call."""
        ...

    def plan_again(self) -> Awaitable[None]:
        """Back to planning: Ralph stops (his run stays resumable)."""
        ...


Spawn = Callable[..., Any]
#: A turn: ``call(chat, provider, proxy_template=…, options=…)``.
TurnCall = Callable[..., Coroutine[Any, Any, Any]]


class ChiefSession:
    """Chief's conversation as the person drives it: Send, Stop, Retry,
    Continue, Regenerate, Edit, versions, conversations.

    ``host`` is the :class:`~wiggum.session.host.Host` (only its ``spawn`` is
    used).  Until :meth:`attach` and :meth:`bind` (the first screen) a message
    is queued; once the chat is bound it goes out (:class:`QueueReady`)."""

    def __init__(self, host: Any) -> None:
        self.host = host
        self.context: ChiefContext | None = None
        self.chat: ChiefChat | None = None
        self.state = TurnState.IDLE
        self.events: Listeners[[ChiefEvent]] = Listeners(log, "chief session: listener")
        self._unsubscribe: Callable[[], None] | None = None

    # ------------------------------------------------------------ wiring

    def subscribe(self, listener: Callable[[ChiefEvent], None]) -> Callable[[], None]:
        return self.events.subscribe(listener)

    def attach(self, context: ChiefContext) -> None:
        self.context = context

    def bind(self, chat: ChiefChat) -> None:
        """Show and drive ``chat`` (a project opened, a conversation switched)."""
        if self._unsubscribe is not None:
            self._unsubscribe()
        self.chat = chat
        self._unsubscribe = chat.subscribe(self._on_chat)
        queued = self.state is TurnState.QUEUED
        self.state = TurnState.STREAMING if chat.busy else settled_state(chat.records)
        self.events.emit(ChatBound(chat))
        self._changed()
        if queued:
            self.events.emit(QueueReady())

    @property
    def actions(self) -> TurnActions:
        return turn_actions(self.state, None if self.chat is None else self.chat.records)

    @property
    def busy(self) -> bool:
        return self.state.busy

    def _fire(self, trigger: Trigger) -> None:
        records = () if self.chat is None else self.chat.records
        state = next_state(self.state, trigger, records)
        if state is not self.state or trigger in (Trigger.SETTLE, Trigger.END):
            self.state = state
            self._changed()

    def _changed(self) -> None:
        self.events.emit(TurnChanged(self.actions))

    def _on_chat(self, event: str, record: Any) -> None:
        chat = self.chat
        if chat is None:
            return
        if event == "retry-wait":
            self.events.emit(Waiting(chat.retry_wait))
            if self.state.busy:
                self._fire(Trigger.WAIT if chat.retry_wait is not None else Trigger.RESUME)
        elif event == "drafting":
            # Said at once, without a change of the turn's state: it is still streaming.
            self.events.emit(Activity(chat.drafting_text))
        elif event == "activity":
            self.events.emit(Activity(chat.activity))
            if self.state.busy:
                self._fire(Trigger.TOOLS if chat.activity else Trigger.RESUME)
        elif event == "save-error" and chat.save_error is not None:
            self.events.emit(SaveState(save_failure_text(chat.save_error)))
        elif event == "saved":
            self.events.emit(SaveState(None))
        elif event in ("reloaded", "reread", "superseded") and not self.state.busy:
            self._fire(Trigger.SETTLE)

    # ------------------------------------------------------------ starting turns

    def _refused(self, refusal: Refusal) -> None:
        self.events.emit(Refused(refusal))

    def _paused(self) -> bool:
        """True (after saying so) when another tab owns the project."""
        text = self.context.paused() if self.context is not None else None
        if text is None:
            return False
        self._refused(paused(NOT_SENT, text))
        return True

    def _provider(self) -> ProviderConfig | None:
        """Chief's provider, or ``None`` after saying why not."""
        if self.context is None or self._paused():
            return None
        provider = self.context.provider()
        if isinstance(provider, Refusal):
            self._refused(provider)
            return None
        return provider

    def _start(self, call: TurnCall, provider: ProviderConfig, what: str) -> None:
        chat = self.chat
        assert chat is not None and self.context is not None
        self.state = next_state(self.state, Trigger.START, chat.records)
        self.events.emit(TurnStarted())
        self._changed()
        self.host.spawn(self._run(chat, call, provider), what=what)

    async def _run(self, chat: ChiefChat, call: TurnCall, provider: ProviderConfig) -> None:
        context = self.context
        assert context is not None
        try:
            await call(
                chat,
                provider,
                proxy_template=context.proxy_template,
                options=context.request_options(provider),
            )
        finally:
            if chat is self.chat and self.state.busy:
                self._fire(Trigger.END)
                self.events.emit(TurnEnded())

    def send(self, text: str, images: Sequence[Attachment] = ()) -> SendOutcome:
        """The person's message (and images) to Chief."""
        if self.busy:
            return SendOutcome.BUSY
        text = text.strip()
        if not text and not images:
            return SendOutcome.EMPTY
        chat = self.chat
        if chat is None or self.context is None:
            self._fire(Trigger.QUEUE)
            return SendOutcome.QUEUED
        provider = self._provider()
        if provider is None:
            return SendOutcome.REFUSED
        if not any(r.role == "user" and not r.note for r in chat.records):
            # The first message names the conversation (until the person renames it).
            self.host.spawn(self.context.title_chat(text), what="name conversation")
        pictures = list(images)

        async def call(chat: ChiefChat, provider: ProviderConfig, **kw: Any) -> Any:
            return await chat.send(text, provider, images=pictures, **kw)

        self._start(call, provider, "chief reply")
        return SendOutcome.STARTED

    def stop(self) -> None:
        """Stop the reply in flight, or take back a message still queued."""
        if self.chat is not None:
            self.chat.stop()
        elif self.state is TurnState.QUEUED:
            self._fire(Trigger.UNQUEUE)

    def retry(self) -> bool:
        """Ask again for the last reply, which failed, was stopped or interrupted."""
        if self.chat is None or self.busy or not self.chat.can_retry():
            return False
        provider = self._provider()
        if provider is None:
            return False
        self._start(_retry, provider, "chief retry")
        return True

    def resume(self) -> bool:
        """Continue the last reply, cut off with some words in it."""
        if self.chat is None or self.busy or not self.chat.can_continue():
            return False
        provider = self._provider()
        if provider is None:
            return False
        self._start(_continue, provider, "chief continue")
        return True

    def regenerate(self) -> bool:
        """A new answer to the last message; the old one stays as a version."""
        if self.chat is None or self.actions.regenerate is None:
            return False
        provider = self._provider()
        if provider is None:
            return False
        self._start(_regenerate, provider, "chief regenerate")
        return True

    def edit(self, seq: int, text: str) -> bool:
        """Send ``text`` in place of the person's message ``seq``."""
        text = text.strip()
        if self.chat is None or self.busy or not text:
            return False
        provider = self._provider()
        if provider is None:
            return False

        async def call(chat: ChiefChat, provider: ProviderConfig, **kw: Any) -> Any:
            return await chat.edit(seq, text, provider, **kw)

        self._start(call, provider, "chief edit and resend")
        return True

    def note_turn(self) -> bool:
        """A turn without the person's words: Chief reads the notes waiting for
        him (Ralph's report).  Quiet when it cannot run now: the notes wait for
        the next turn."""
        context = self.context
        if self.chat is None or self.busy or context is None or context.paused() is not None:
            return False
        provider = context.provider()
        if isinstance(provider, Refusal):
            return False
        self._start(_notes, provider, "chief note turn")
        return True

    def switch_version(self, seq: int) -> bool:
        """Show another version of a message or an answer."""
        chat = self.chat
        if chat is None or self.busy or self._paused():
            return False
        self.host.spawn(chat.switch(seq), what="chief switch version")
        return True

    def alternatives(self, seq: int) -> list[int]:
        return [] if self.chat is None else self.chat.alternatives(seq)

    # ------------------------------------------------------------ conversations

    def _chats(self) -> ChiefContext | None:
        return self.context if self.actions.manage_chats else None

    def new_chat(self) -> None:
        if (context := self._chats()) is not None:
            self.host.spawn(context.new_chat(), what="new conversation")

    def switch_chat(self, chat_id: str) -> None:
        if (context := self._chats()) is not None:
            self.host.spawn(context.switch_chat(chat_id), what="switch conversation")

    def rename_chat(self, chat_id: str, title: str) -> None:
        if (context := self._chats()) is not None and title.strip():
            self.host.spawn(context.rename_chat(chat_id, title), what="rename conversation")

    def delete_chat(self, chat_id: str) -> None:
        if (context := self._chats()) is not None:
            self.host.spawn(context.delete_chat(chat_id), what="delete conversation")

    # ------------------------------------------------------------ for the view

    # ------------------------------------------------------------ Plan -> Build

    def build_plan(self, seq: int | None = None) -> bool:
        """Build: the plan of the card at ``seq`` (``None``: the saved plan) goes
        to Ralph now, whatever the model would have done.  ``False`` (after
        saying why) when this tab may not."""
        if self.context is None or self._paused():
            return False
        plan = None
        if seq is not None and self.chat is not None and 0 <= seq < len(self.chat.records):
            from wiggum.ui.turns import plan_text

            plan = next((t for c in self.chat.records[seq].tool_calls if (t := plan_text(c))), None)
        self.host.spawn(self.context.build_plan(plan), what="build the plan")
        return True

    def plan_again(self) -> bool:
        """Plan: stop the build and talk the next change through with Chief."""
        if self.context is None or self._paused():
            return False
        self.host.spawn(self.context.plan_again(), what="back to planning")
        return True

    def local_fix(self) -> str | None:
        return None if self.context is None else self.context.local_fix()

    def images_warning(self, count: int) -> str | None:
        return None if self.context is None else self.context.images_warning(count)


async def _retry(chat: ChiefChat, provider: ProviderConfig, **kw: Any) -> Any:
    return await chat.retry(provider, **kw)


async def _continue(chat: ChiefChat, provider: ProviderConfig, **kw: Any) -> Any:
    return await chat.continue_reply(provider, **kw)


async def _regenerate(chat: ChiefChat, provider: ProviderConfig, **kw: Any) -> Any:
    return await chat.regenerate(provider, **kw)


async def _notes(chat: ChiefChat, provider: ProviderConfig, **kw: Any) -> Any:
    try:
        return await chat.send(None, provider, **kw)
    except ValueError:  # the note was taken by a turn that started meanwhile
        return None
