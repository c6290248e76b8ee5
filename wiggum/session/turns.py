"""A turn of Chief's conversation: its states, every transition in one table,
and which controls show in each.

Everything that decides whether a turn may start, whether the chat is busy
and which of Send / Stop / Retry / Continue / Regenerate / Edit show lives in
this file (h11's ``_state.py`` rule); :mod:`wiggum.session.chief` drives it.

The states (:class:`TurnState`)::

    IDLE ─QUEUE→ QUEUED          Send before the app loaded: the message waits
      │            │              for the chat, in the box (Stop takes it back)
      └─START→ STREAMING ⇄ WAITING   the client waits to try again (a 429)
                   ⇅
                 TOOLS            Chief's tools run between two calls
                   │
                  END → IDLE | STOPPED | FAILED   (what the last reply says)

IDLE, STOPPED and FAILED are *settled*: which one is read from the records
(:func:`settled_state`), so a conversation read back after a reload, or as
another tab wrote it, is in the state its last reply says.  Records are read
by attribute (``ChatRecord`` or the first screen's ``StoredRecord``): nothing
here needs pydantic.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "SETTLED",
    "TRANSITIONS",
    "Trigger",
    "TurnActions",
    "TurnError",
    "TurnState",
    "next_state",
    "settled_state",
    "turn_actions",
]


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
