"""Two tabs on one project: which tab may write, and what the other says.

Every tab of the page shares one IndexedDB.  Two tabs writing the same
project would overwrite each other's conversation and files, so one tab owns
a project at a time: it holds the Web Lock named :func:`lock_name` (the glue
is ``wiggum.web.tab_lock``).  The tab that cannot get the lock is *paused*:
it shows :data:`PAUSED_TEXT` at the top with a "Use here" button and refuses
writes with the same words, keeping whatever the person typed.

"Use here" first asks the owner, over a ``BroadcastChannel``, to let the
project go: the owner stops its work (Chief's reply, Ralph's run), lets their
last writes land, releases the lock and pauses, and the lock passes to the
asking tab, which was queued for it.  An owner that does not answer in time
(frozen, or no channel) has the lock taken (``steal``): its request rejects
with ``AbortError``, it stops its work and pauses, and its late writes are
refused.  Either way the tab that gains the lock re-reads the project from
storage (the other tab may have written since this one read it).

:class:`TabLock` is the decision logic, pure: the glue reports what the
browser did (``granted``, ``unavailable``, ``lost``), what the other tab
asked (``release_asked``) and the person's "Use here" (``take_over``); each
call returns the :class:`Effect` s the
glue and the app carry out.  Events about another project than the open
one (a late answer after a switch) change nothing.

The backstop under every write path is :class:`GuardedAppStorage`
(:mod:`wiggum.persist.guarded`, re-exported here with :class:`ProjectPaused`
and :data:`PAUSED_TEXT`): it asks :meth:`TabLock.may_write` before each write
and refuses, with :class:`ProjectPaused`, any write to the paused project,
however the write was reached.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

# The storage guard and its refusal live with storage; they are re-exported here,
# where the page has always found them.
from wiggum.persist.guarded import PAUSED_TEXT, GuardedAppStorage, GuardedFileStore, ProjectPaused

__all__ = [
    "APP_EFFECTS",
    "BUTTON_TEXT",
    "DELETE_REFUSED_TEXT",
    "HANDING_OVER_TEXT",
    "PAUSED_TEXT",
    "RELOADING_TEXT",
    "TAKING_OVER_TEXT",
    "UNSUPPORTED_TEXT",
    "Effect",
    "GuardedAppStorage",
    "GuardedFileStore",
    "LockState",
    "ProjectPaused",
    "TabLock",
    "TabMessage",
    "lock_name",
    "open_elsewhere",
    "read_message",
    "request_options",
]

#: The banner while "Use here" waits for the lock (the paused one is ``PAUSED_TEXT``).
TAKING_OVER_TEXT = "Taking this project over from the other tab…"
#: The owner's banner while it finishes its writes for the tab that asked.
HANDING_OVER_TEXT = "Handing this project over to the other tab…"
#: The banner, and what an action says, while the new owner re-reads the project.
RELOADING_TEXT = "Loading this project's latest state from the other tab…"
BUTTON_TEXT = "Use here"
#: A project open in another tab is not deleted from this one.
DELETE_REFUSED_TEXT = (
    "Not deleted: this project is open in another tab. Close it there, or open "
    "another project there, then delete it here."
)
#: Said once in the Log when the browser has no Web Locks API (the app behaves as before).
UNSUPPORTED_TEXT = (
    "This browser has no Web Locks API (navigator.locks): Wiggum cannot tell whether a "
    "project is open in another tab, so two tabs on one project can overwrite each other."
)


def lock_name(project_id: str) -> str:
    """The Web Lock one tab holds while it owns ``project_id``."""
    return f"wiggum:project:{project_id}"


def open_elsewhere(lock: TabLock, project_id: str, names: Iterable[str]) -> bool:
    """Whether another tab has ``project_id`` open, given the names of the lock
    requests (held and queued, every tab's: ``navigator.locks.query()``).

    This tab accounts for one request of its name while it has the project open
    (it holds the lock, asks for it, or waits for it); any more are another tab's."""
    if not lock.supported:
        return False  # nothing to go by: as before
    requests = sum(1 for name in names if name == lock_name(project_id))
    mine = 1 if lock.project_id == project_id and lock.state != LockState.IDLE else 0
    return requests > mine


def request_options(kind: Literal["ask", "wait", "steal"]) -> dict[str, Any]:
    """A lock request's options: *ask* takes the lock only if it is free, *steal*
    takes it from its owner, *wait* queues for it (the glue adds the signal that
    withdraws it)."""
    extra = {"ask": {"ifAvailable": True}, "steal": {"steal": True}}.get(kind, {})
    return {"mode": "exclusive", **extra}


@dataclass(frozen=True, slots=True)
class TabMessage:
    """What a tab says to the others on their channel: ``release`` asks the owner
    of ``project`` to let it go ("Use here"); ``changed`` tells that this tab
    wrote ``what`` of it (a paused tab follows)."""

    type: Literal["release", "changed"]
    project: str
    what: str = ""

    def as_dict(self) -> dict[str, str]:
        said = {"type": self.type, "project": self.project}
        return {**said, "what": self.what} if self.type == "changed" else said


def read_message(data: Any) -> TabMessage | None:
    """The message another tab posted (``None``: not one of these)."""
    if not isinstance(data, dict) or data.get("type") not in ("release", "changed"):
        return None
    return TabMessage(data["type"], str(data.get("project", "")), str(data.get("what", "")))


class LockState(enum.StrEnum):
    #: No Web Locks API: every write goes through, as before.
    UNSUPPORTED = "unsupported"
    #: No project open yet (or between two).
    IDLE = "idle"
    #: Asked for the open project's lock; the answer has not come.
    ACQUIRING = "acquiring"
    #: This tab holds the lock: it may write.
    OWNER = "owner"
    #: Another tab holds it: writes are refused, the banner shows.
    PAUSED = "paused"
    #: "Use here" was pressed: asking the owner to let go (then stealing).
    TAKING_OVER = "taking-over"
    #: Another tab asked for the project: finishing this tab's writes, then letting go.
    HANDING_OVER = "handing-over"


class Effect(enum.StrEnum):
    #: Ask for the lock if it is free (``ifAvailable``).
    REQUEST = "request"
    #: Queue for the lock (granted when the other tab lets it go or closes).
    WAIT = "wait"
    #: Stop waiting in the queue (before stealing or releasing).
    CANCEL_WAIT = "cancel-wait"
    #: Take the lock from the other tab (``steal``).
    STEAL = "steal"
    #: Ask the owner (``BroadcastChannel``) to let go; steal if it has not soon.
    ASK_RELEASE = "ask-release"
    #: The app stops what writes, lets the last writes land, then ``handed_over``.
    HAND_OVER = "hand-over"
    #: Let the held lock go.
    RELEASE = "release"
    #: Re-read the project's files and conversation from storage.
    RELOAD = "reload"
    #: Stop what writes: Ralph's run, Chief's reply (what was done is kept).
    STOP_WORK = "stop-work"
    #: Show (or hide) the banner: the state changed.
    SHOW = "show"


#: The effects the app carries out (the glue carries out the others: the requests, the channel).
APP_EFFECTS = (Effect.RELOAD, Effect.STOP_WORK, Effect.HAND_OVER, Effect.SHOW)


@dataclass
class TabLock:
    """Whether this tab owns its open project, and what follows from each event."""

    supported: bool = True
    #: Tabs can talk (``BroadcastChannel``): "Use here" asks before it steals.
    channel: bool = True
    project_id: str | None = None
    state: LockState = LockState.IDLE
    #: The project's state in memory was read while another tab owned it
    #: (or before it took over): re-read it when this tab becomes the owner.
    stale: bool = False
    #: The owner is re-reading the project (``RELOAD``): storage may be written
    #: (the re-read's own writes), but the person's actions wait for it.
    reloading: bool = False
    #: What happened last, for the Log.
    history: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.supported:
            self.state = LockState.UNSUPPORTED

    # ------------------------------------------------------------ questions

    @property
    def paused(self) -> bool:
        """Writes to the open project are refused (it is not, or not yet, this tab's)."""
        return self.state in (LockState.ACQUIRING, LockState.PAUSED, LockState.TAKING_OVER)

    def may_write(self, project_id: str | None = None) -> bool:
        """Whether a write to ``project_id`` (default: the open project) may go.

        Only the open project is ever refused: a project this tab does not
        have open (a new one, one deleted from the list) is not its to guard."""
        if self.state == LockState.UNSUPPORTED:
            return True
        if project_id is not None and project_id != self.project_id:
            return True
        # Handing over, the last writes of the work being stopped still land.
        return not self.paused

    def banner(self) -> tuple[str, str] | None:
        """``(text, button)`` for the top of the page, or ``None`` to show nothing."""
        if self.state == LockState.PAUSED:
            return PAUSED_TEXT, BUTTON_TEXT
        if self.state == LockState.TAKING_OVER:
            return TAKING_OVER_TEXT, BUTTON_TEXT
        if self.state == LockState.HANDING_OVER:
            return HANDING_OVER_TEXT, BUTTON_TEXT
        if self.reloading:
            return RELOADING_TEXT, BUTTON_TEXT
        return None

    def refusal(self) -> str | None:
        """What the person's write says when refused (``None``: it may go)."""
        if not self.may_write() or self.state == LockState.HANDING_OVER:
            return PAUSED_TEXT
        return RELOADING_TEXT if self.reloading else None

    # ------------------------------------------------------------ events

    def _mine(self, project_id: str) -> bool:
        return self.supported and project_id == self.project_id

    def open(self, project_id: str) -> list[Effect]:
        """The tab opens ``project_id`` (at start, or switching from another)."""
        if not self.supported:
            self.project_id = project_id
            return []
        effects: list[Effect] = []
        if self.state in (LockState.OWNER, LockState.TAKING_OVER, LockState.HANDING_OVER):
            effects.append(Effect.RELEASE)
        if self.state in (LockState.PAUSED, LockState.TAKING_OVER):
            effects.append(Effect.CANCEL_WAIT)
        self.project_id = project_id
        self.state = LockState.ACQUIRING
        self.stale = self.reloading = False
        self._note(f"open {project_id}")
        return [*effects, Effect.REQUEST, Effect.SHOW]

    def granted(self, project_id: str) -> list[Effect]:
        """The browser gave this tab the lock (asked, queued or stolen)."""
        if not self._mine(project_id) or self.state == LockState.OWNER:
            return []
        effects = [Effect.CANCEL_WAIT] if self.state == LockState.TAKING_OVER else []
        self.state = LockState.OWNER
        if self.stale:
            effects.append(Effect.RELOAD)
            self.reloading = True
        self.stale = False
        self._note("owner")
        return [*effects, Effect.SHOW]

    def reloaded(self, project_id: str) -> list[Effect]:
        """The app has re-read the project (``RELOAD``): the person may act."""
        if not self._mine(project_id) or not self.reloading:
            return []
        self.reloading = False
        return [Effect.SHOW]

    def unavailable(self, project_id: str) -> list[Effect]:
        """``ifAvailable`` found the lock held by another tab."""
        if not self._mine(project_id) or self.state != LockState.ACQUIRING:
            return []
        self.state = LockState.PAUSED
        # What this tab reads now may be changed by the owner before it is ours.
        self.stale = True
        self._note("paused: held elsewhere")
        return [Effect.WAIT, Effect.SHOW]

    def take_over(self) -> list[Effect]:
        """The person pressed "Use here"."""
        if self.state != LockState.PAUSED:
            return []
        self.state = LockState.TAKING_OVER
        self._note("take over")
        if self.channel:  # ask first; the queued request gets the lock when it goes
            return [Effect.ASK_RELEASE, Effect.SHOW]
        return [Effect.CANCEL_WAIT, Effect.STEAL, Effect.SHOW]

    def steal_now(self) -> list[Effect]:
        """The owner did not let go in time after being asked: take the lock."""
        if self.state != LockState.TAKING_OVER:
            return []
        self._note("no answer: steal")
        return [Effect.CANCEL_WAIT, Effect.STEAL]

    def release_asked(self, project_id: str) -> list[Effect]:
        """Another tab pressed "Use here" on the project this tab owns."""
        if not self._mine(project_id) or self.state != LockState.OWNER:
            return []
        self.state = LockState.HANDING_OVER
        self.reloading = False
        self._note("asked to let go")
        return [Effect.HAND_OVER, Effect.SHOW]

    def handed_over(self, project_id: str) -> list[Effect]:
        """The app stopped its work and its last writes landed: let the lock go."""
        if not self._mine(project_id) or self.state != LockState.HANDING_OVER:
            return []
        self.state = LockState.PAUSED
        self.stale = True
        self._note("paused: handed over")
        return [Effect.RELEASE, Effect.WAIT, Effect.SHOW]

    def lost(self, project_id: str) -> list[Effect]:
        """Another tab took the lock ("Use here" there): its promise rejected."""
        if not self._mine(project_id) or self.state not in (
            LockState.OWNER,
            LockState.HANDING_OVER,
        ):
            return []
        self.state = LockState.PAUSED
        self.stale = True
        self.reloading = False
        self._note("paused: taken by another tab")
        return [Effect.STOP_WORK, Effect.WAIT, Effect.SHOW]

    def failed(self, project_id: str, why: str) -> list[Effect]:
        """Asking for the lock failed outright (not stolen, not cancelled).

        Opening: the tab is not left paused for ever; it writes, as before this
        existed.  Taking over: another tab still holds the lock, so this one
        stays paused (and queued) rather than write beside it."""
        if not self._mine(project_id):
            return []
        if self.state == LockState.TAKING_OVER:
            self.state = LockState.PAUSED
            self._note(f"take over failed ({why}): still paused")
            return [Effect.WAIT, Effect.SHOW]
        if self.state != LockState.ACQUIRING:
            return []
        self.state = LockState.OWNER
        self._note(f"lock request failed ({why}): writing without it")
        return [Effect.SHOW]

    def close(self) -> list[Effect]:
        """The tab goes away (or the app closes): let everything go."""
        effects: list[Effect] = []
        if self.state in (LockState.OWNER, LockState.TAKING_OVER, LockState.HANDING_OVER):
            effects.append(Effect.RELEASE)
        if self.state in (LockState.PAUSED, LockState.TAKING_OVER):
            effects.append(Effect.CANCEL_WAIT)
        if self.supported:
            self.state = LockState.IDLE
        return effects

    def _note(self, what: str) -> None:
        self.history = [*self.history[-19:], what]
