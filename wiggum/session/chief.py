"""Chief's turns: one state machine, its transitions in one table, effects out.

Everything that decides whether a turn may start, whether the chat is busy
and which of Send / Stop / Retry / Continue / Regenerate / Edit show lives in
this file (h11's ``_state.py`` rule).  The chat view draws
:class:`TurnActions` and forwards the person's clicks to
:class:`ChiefSession`; the conversation itself (records, streaming, saving)
is :class:`~wiggum.chief.chat.ChiefChat`'s, which this drives.

The states of a turn (:class:`TurnState`)::

    IDLE ─QUEUE→ QUEUED          Send before the app loaded: the message waits
      │            │              for the chat, in the box (Stop takes it back)
      └─START→ STREAMING ⇄ WAITING   the client waits to try again (a 429)
                   ⇅
                 TOOLS            Chief's tools run between two calls
                   │
                  END → IDLE | STOPPED | FAILED   (what the last reply says)

IDLE, STOPPED and FAILED are *settled*: which one is read from the records
(:func:`settled_state`), so a conversation read back after a reload, or as
another tab wrote it, is in the state its last reply says.

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

from .refusals import NOT_SENT, Refusal, paused

if TYPE_CHECKING:
    from wiggum.chief.attachments import Attachment
    from wiggum.chief.chat import ChiefChat
    from wiggum.llm import ProviderConfig, RequestOptions

__all__ = [
    "TRANSITIONS",
    "ChatBound",
    "ChiefContext",
    "ChiefSession",
    "QueueReady",
    "Refused",
    "SendOutcome",
    "Trigger",
    "TurnActions",
    "TurnChanged",
    "TurnEnded",
    "TurnError",
    "TurnStarted",
    "TurnState",
    "settled_state",
    "turn_actions",
]

log = logging.getLogger("wiggum.session")


class TurnState(enum.Enum):
    IDLE = "idle"
    QUEUED = "queued"
    STREAMING = "streaming"
    WAITING = "waiting"
    TOOLS = "tools"
    STOPPED = "stopped"
    FAILED = "failed"

    @property
    def busy(self) -> bool:
        return self in _BUSY

    @property
    def settled(self) -> bool:
        return self in _SETTLED


_BUSY = frozenset({TurnState.QUEUED, TurnState.STREAMING, TurnState.WAITING, TurnState.TOOLS})
_SETTLED = frozenset({TurnState.IDLE, TurnState.STOPPED, TurnState.FAILED})


class Trigger(enum.Enum):
    QUEUE = "queue"  # Send with no chat bound yet
    UNQUEUE = "unqueue"  # Stop while queued, or the chat arrived (the message goes out now)
    START = "start"  # a turn begins: send, retry, continue, regenerate, edit, a note
    WAIT = "wait"  # the client waits before trying again
    TOOLS = "tools"  # tools run
    RESUME = "resume"  # streaming again (the wait is over, the tools are done)
    END = "end"  # the turn is over
    SETTLE = "settle"  # the records changed (read back, another version shown)


#: The state a settled conversation is in is read from its records.
SETTLED = None

#: Every transition of a turn: ``TRANSITIONS[state][trigger]`` is the next
#: state (``SETTLED``: the one the records say); a trigger not listed for a
#: state is a bug in the caller (:class:`TurnError`).
TRANSITIONS: dict[TurnState, dict[Trigger, TurnState | None]] = {
    **{
        s: {
            Trigger.QUEUE: TurnState.QUEUED,
            Trigger.START: TurnState.STREAMING,
            Trigger.SETTLE: SETTLED,
        }
        for s in _SETTLED
    },
    TurnState.QUEUED: {
        Trigger.QUEUE: TurnState.QUEUED,
        Trigger.UNQUEUE: SETTLED,
        Trigger.SETTLE: TurnState.QUEUED,
    },
    TurnState.STREAMING: {
        Trigger.WAIT: TurnState.WAITING,
        Trigger.TOOLS: TurnState.TOOLS,
        Trigger.RESUME: TurnState.STREAMING,
        Trigger.SETTLE: TurnState.STREAMING,
        Trigger.END: SETTLED,
    },
    TurnState.WAITING: {
        Trigger.WAIT: TurnState.WAITING,
        Trigger.RESUME: TurnState.STREAMING,
        Trigger.SETTLE: TurnState.WAITING,
        Trigger.END: SETTLED,
    },
    TurnState.TOOLS: {
        Trigger.TOOLS: TurnState.TOOLS,
        Trigger.WAIT: TurnState.WAITING,
        Trigger.RESUME: TurnState.STREAMING,
        Trigger.SETTLE: TurnState.TOOLS,
        Trigger.END: SETTLED,
    },
}


class TurnError(RuntimeError):
    """A trigger the current state does not take (the caller's bug)."""


#: Reply statuses a turn can be retried or continued from.
_CUT = ("error", "stopped", "interrupted")


def settled_state(records: Sequence[Any]) -> TurnState:
    """What the conversation's last reply says: failed, stopped (or cut off by a
    reload), or nothing to do (``IDLE``)."""
    last = next((r for r in reversed(records) if not r.superseded and r.role == "assistant"), None)
    if last is None:
        return TurnState.IDLE
    if last.status == "error":
        return TurnState.FAILED
    if last.status in ("stopped", "interrupted"):
        return TurnState.STOPPED
    return TurnState.IDLE


def next_state(state: TurnState, trigger: Trigger, records: Sequence[Any]) -> TurnState:
    try:
        target = TRANSITIONS[state][trigger]
    except KeyError:
        raise TurnError(f"{trigger.value} in state {state.value}") from None
    return settled_state(records) if target is SETTLED else target


# ------------------------------------------------------------------ actions


@dataclass(frozen=True, slots=True)
class TurnActions:
    """Which controls show.  ``retry``, ``resume`` and ``regenerate`` name the
    reply (the first round of the last turn, by ``seq``) that carries the
    button, or ``None`` where it does not show."""

    state: TurnState
    bound: bool = False
    retry: int | None = None
    resume: int | None = None
    regenerate: int | None = None

    @property
    def busy(self) -> bool:
        return self.state.busy

    @property
    def edit(self) -> bool:
        """Edit on the person's messages (and switching between versions)."""
        return self.bound and not self.busy

    @property
    def manage_chats(self) -> bool:
        """New, rename, delete and switch conversation."""
        return not (self.bound and self.busy)


def _last_turn_start(path: Sequence[Any]) -> int | None:
    """The first reply after the last message (the person's or a note): where a
    turn's block begins, and so where its buttons sit."""
    first = None
    for r in path:
        if r.role == "user":
            first = None
        elif r.role == "assistant" and first is None:
            first = r.seq
    return first


def turn_actions(state: TurnState, records: Sequence[Any] | None) -> TurnActions:
    """What shows for ``records`` (``None``: no chat bound yet) in ``state``."""
    if records is None or not state.settled:
        return TurnActions(state, bound=records is not None)
    path = [r for r in records if not r.superseded]
    first = _last_turn_start(path)
    last = path[-1] if path else None
    reply = next((r for r in reversed(path) if r.role == "assistant"), None)
    cut = last is not None and last.role == "assistant" and last.status in _CUT
    can_continue = cut and bool(last.content.strip()) and not last.tool_calls
    ended = reply is not None and reply.status in ("complete", "stopped", "interrupted")
    return TurnActions(
        state,
        bound=True,
        retry=first if cut else None,
        resume=first if can_continue else None,
        regenerate=first if ended and not cut else None,
    )


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


ChiefEvent = TurnChanged | TurnStarted | TurnEnded | Refused | ChatBound | QueueReady


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
        self._listeners: list[Callable[[ChiefEvent], None]] = []
        self._unsubscribe: Callable[[], None] | None = None

    # ------------------------------------------------------------ wiring

    def subscribe(self, listener: Callable[[ChiefEvent], None]) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def _emit(self, event: ChiefEvent) -> None:
        for listener in list(self._listeners):
            try:
                listener(event)
            except Exception:  # a view's bug must not stop the conversation
                log.exception("chief session: listener failed on %s", type(event).__name__)

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
        self._emit(ChatBound(chat))
        self._changed()
        if queued:
            self._emit(QueueReady())

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
        self._emit(TurnChanged(self.actions))

    def _on_chat(self, event: str, record: Any) -> None:
        chat = self.chat
        if chat is None:
            return
        if event == "retry-wait" and self.state.busy:
            self._fire(Trigger.WAIT if chat.retry_wait is not None else Trigger.RESUME)
        elif event == "activity" and self.state.busy:
            self._fire(Trigger.TOOLS if chat.activity else Trigger.RESUME)
        elif event in ("reloaded", "reread", "superseded") and not self.state.busy:
            self._fire(Trigger.SETTLE)

    # ------------------------------------------------------------ starting turns

    def _refused(self, refusal: Refusal) -> None:
        self._emit(Refused(refusal))

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
        self._emit(TurnStarted())
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
                self._emit(TurnEnded())

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
