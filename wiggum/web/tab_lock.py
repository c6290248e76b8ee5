"""One tab owns a project at a time: ``navigator.locks`` for :mod:`wiggum.ui.tab_lock`.

The decisions are :class:`wiggum.ui.tab_lock.TabLock`'s; this module asks the
browser and reports its answers.  Three kinds of request, all ``exclusive``
on ``wiggum:project:<id>``:

- *ask* (``ifAvailable``) when a project opens: the callback gets the lock, or
  ``null`` when another tab holds it;
- *wait* (queued, with an ``AbortSignal``) while paused: granted when the other
  tab lets the project go (switches project, closes);
- *steal*, when "Use here" asked the owner to let go (a ``release`` message
  on the ``BroadcastChannel`` :data:`CHANNEL`) and it has not within
  :data:`HANDOVER_TIMEOUT`, or when there is no channel: granted at once; the
  other tab's held request rejects with ``AbortError``, which is how that tab
  learns it lost the lock.

Each grant makes the project's *fence* anew (``take_fence``, the storage's
:meth:`~wiggum.web.storage.IndexedDBAppStorage.take_fence`) and this tab's
writes to it carry that value (:meth:`TabLockHost.fence`): a tab whose lock
was stolen while it was frozen cannot write once it runs again, before it
has heard of the steal (its write is refused as :class:`ProjectPaused`).

The owner also says on that channel what it wrote (``changed``: a project's
conversation, its other records, its files), a few times a second at most, so
a paused tab can show the project as it grows (``ProjectSession.changed_elsewhere``).

A granted callback returns a promise this module resolves to let the lock go
(switching project); the lock is held until then.  Proxies: each request's
callback is a ``create_proxy`` destroyed once the request has settled (the
browser calls it at most once, before that); the promise executor is a
``create_once_callable``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

import js  # type: ignore[import-not-found]
from pyodide.ffi import (  # type: ignore[import-not-found]
    create_once_callable,
    create_proxy,
    to_js,
)

from wiggum.persist.guarded import GuardedAppStorage
from wiggum.ui import tab_lock as rules
from wiggum.ui.tab_lock import Effect, LockState, TabLock, TabMessage

from .dom import is_null, spawn
from .web_lock import web_locks

__all__ = ["TabLockHost", "web_locks"]

log = logging.getLogger("wiggum.web.tab_lock")

#: How long opening a project waits for the browser's answer to "ask".
ASK_TIMEOUT = 10.0
#: The tabs' channel (its messages: :class:`~wiggum.ui.tab_lock.TabMessage`).
CHANNEL = "wiggum:tabs"
#: How long "Use here" waits for the owner to let go before it steals the lock.
HANDOVER_TIMEOUT = 4.0
#: The owner's writes of this long are announced together (``changed``).
ANNOUNCE_EVERY = 0.2


@runtime_checkable
class Fenced(Protocol):
    """A storage whose writes carry the project's fence (``web.storage``'s)."""

    fence: Any

    async def take_fence(self, project_id: str) -> int: ...


@dataclass(eq=False)
class _Request:
    project_id: str
    kind: Literal["ask", "wait", "steal"]
    callback: Any = None
    controller: Any = None
    #: The callback ran with a lock (we held it at some point).
    granted: bool = False
    #: We withdrew it (``AbortController.abort``) before it was granted.
    cancelled: bool = False
    release: Any = None
    done: asyncio.Event = field(default_factory=asyncio.Event)


class TabLockHost:
    """The app's one :class:`TabLock`, driven by ``navigator.locks``.

    ``on_change(effects)`` gets what the app must do (``RELOAD``, ``STOP_WORK``,
    ``HAND_OVER`` — then :meth:`handed_over` —, ``SHOW``); the lock requests
    and the channel are handled here."""

    def __init__(self, on_change: Callable[[list[Effect]], None], locks: Any = None) -> None:
        self._locks = web_locks() if locks is None else locks
        #: Tells the owner of a project another tab wants it (``None``: cannot).
        self.channel: Any = None
        self._on_message: Any = None
        if self._locks is not None and hasattr(js, "BroadcastChannel"):
            try:
                self.channel = js.BroadcastChannel.new(CHANNEL)
                self._on_message = create_proxy(self._message)
                self.channel.addEventListener("message", self._on_message)
            except Exception as exc:
                log.warning("tab lock: no BroadcastChannel (%s)", type(exc).__name__)
                self.channel = None
        self.machine = TabLock(supported=self._locks is not None, channel=self.channel is not None)
        self.on_change = on_change
        self._held: _Request | None = None
        self._wait: _Request | None = None
        self._decided = asyncio.Event()
        self._takeovers = 0
        #: Told ``(project_id, what)`` when the tab that owns a project wrote it.
        self.on_changed: Callable[[str, str], None] | None = None
        self._changes: set[tuple[str, str]] = set()  # to announce, gathered
        #: Makes the fence of a project just granted; ``None``: writes go unfenced.
        self.take_fence: Callable[[str], Awaitable[int]] | None = None
        self._fences: dict[str, asyncio.Task] = {}
        self._unfenced = False

    @property
    def supported(self) -> bool:
        return self.machine.supported

    # ------------------------------------------------------------ the app's calls

    def guard(self, storage: Any) -> GuardedAppStorage:
        """``storage`` with every write to the open project refused unless this
        tab owns it, told to the other tabs, and fenced where the storage can
        carry a fence (IndexedDB; the memory fallback cannot)."""
        guarded = GuardedAppStorage(storage, self.machine)
        guarded.on_write = self.announce
        if isinstance(storage, Fenced):
            self.take_fence = storage.take_fence
            storage.fence = self.fence
        return guarded

    async def open(self, project_id: str) -> None:
        """Let the old project go and ask for ``project_id``; returns once this tab
        knows whether it owns it (the app loads the project after that)."""
        self._decided.clear()
        self._apply(self.machine.open(project_id))
        if not self.supported:
            return
        try:
            await asyncio.wait_for(self._decided.wait(), ASK_TIMEOUT)
        except TimeoutError:
            self._apply(self.machine.failed(project_id, "no answer from navigator.locks"))

    def take_over(self) -> None:
        """ "Use here": take the lock from the tab that has it."""
        self._apply(self.machine.take_over())

    async def open_elsewhere(self, project_id: str) -> bool:
        """Whether another tab has ``project_id`` open (``navigator.locks.query()``)."""
        if not self.supported:
            return False
        try:
            snapshot = await self._locks.query()
        except Exception as exc:
            log.warning("tab lock: query failed: %s", type(exc).__name__)
            return False
        names = (str(getattr(info, "name", "")) for info in [*snapshot.held, *snapshot.pending])
        return rules.open_elsewhere(self.machine, project_id, names)

    async def fence(self, project_id: str) -> int | None:
        """The fence value this tab writes ``project_id`` with, once made at its
        grant; ``None``: unfenced (no Web Locks, or it could not be made)."""
        task = self._fences.get(project_id)
        if task is None or self._unfenced:
            return None
        return await asyncio.shield(task)

    @staticmethod
    async def _take_fence(take: Callable[[str], Awaitable[int]], project_id: str) -> int | None:
        try:
            return await take(project_id)
        except Exception as exc:  # e.g. a full quota: said where the writes fail
            log.warning("tab lock: no fence for %s, writes go unfenced: %r", project_id, exc)
            return None

    @contextlib.contextmanager
    def unfenced(self) -> Iterator[None]:
        """Writes requested inside go unfenced: a page being unloaded commits
        its last write at once, with no fence read to wait for."""
        self._unfenced = True
        try:
            yield
        finally:
            self._unfenced = False

    def reloaded(self, project_id: str) -> None:
        """The app has re-read ``project_id``: the person may act again."""
        self._apply(self.machine.reloaded(project_id))

    def handed_over(self, project_id: str) -> None:
        """The app has stopped its work for the tab that asked: let the lock go."""
        self._apply(self.machine.handed_over(project_id))

    def close(self) -> None:
        self._apply(self.machine.close())
        if self.channel is not None:
            self.channel.removeEventListener("message", self._on_message)
            self.channel.close()
            self._on_message.destroy()
            self.channel = None

    # ------------------------------------------------------------ the channel

    def announce(self, project_id: str, what: str) -> None:
        """Tell the other tabs this one wrote ``what`` of ``project_id``.  The
        writes of a short while go as one message each (a stream writes its
        reply every 0.25 s; Ralph writes files in bursts)."""
        if self.channel is None:
            return
        if not self._changes:
            spawn(self._announce_soon(), what="tab lock: announce changes")
        self._changes.add((project_id, what))

    async def _announce_soon(self) -> None:
        await asyncio.sleep(ANNOUNCE_EVERY)
        changes, self._changes = self._changes, set()
        for project_id, what in sorted(changes):
            self._post(TabMessage("changed", project_id, what))

    def _post(self, message: TabMessage) -> None:
        if self.channel is not None:
            data = to_js(message.as_dict(), dict_converter=js.Object.fromEntries)
            self.channel.postMessage(data)

    def _message(self, event: Any) -> None:
        try:
            data = event.data.to_py() if hasattr(event.data, "to_py") else None
        except Exception:
            data = None
        message = rules.read_message(data)
        if message is not None and message.type == "release":
            self._apply(self.machine.release_asked(message.project))
        elif message is not None and self.on_changed is not None:
            self.on_changed(message.project, message.what)

    def _ask_release(self, project_id: str) -> None:
        self._takeovers += 1
        self._post(TabMessage("release", project_id))
        spawn(self._steal_later(self._takeovers), what="tab lock: steal if not let go")

    async def _steal_later(self, takeover: int) -> None:
        await asyncio.sleep(HANDOVER_TIMEOUT)
        if takeover == self._takeovers:
            self._apply(self.machine.steal_now())

    # ------------------------------------------------------------ effects

    def _apply(self, effects: list[Effect]) -> None:
        if self.machine.state != LockState.ACQUIRING:
            self._decided.set()
        project_id = self.machine.project_id
        for effect in effects:
            if effect == Effect.RELEASE:
                self._release()
            elif effect == Effect.CANCEL_WAIT:
                self._cancel_wait()
            elif effect == Effect.REQUEST and project_id is not None:
                self._request(project_id, "ask")
            elif effect == Effect.WAIT and project_id is not None:
                self._cancel_wait()
                self._wait = self._request(project_id, "wait")
            elif effect == Effect.STEAL and project_id is not None:
                self._request(project_id, "steal")
            elif effect == Effect.ASK_RELEASE and project_id is not None:
                self._ask_release(project_id)
        app_effects = [e for e in effects if e in rules.APP_EFFECTS]
        if effects:
            log.info("tab lock: %s -> %s", self.machine.state, ", ".join(map(str, effects)))
        if app_effects:
            try:
                self.on_change(app_effects)
            except Exception:
                log.exception("tab lock: the app could not follow %s", app_effects)

    def _release(self) -> None:
        held, self._held = self._held, None
        if held is not None and held.release is not None:
            held.release()

    def _cancel_wait(self) -> None:
        wait, self._wait = self._wait, None
        if wait is not None and not wait.granted:
            wait.cancelled = True
            wait.controller.abort()

    # ------------------------------------------------------------ requests

    def _request(self, project_id: str, kind: Literal["ask", "wait", "steal"]) -> _Request:
        req = _Request(project_id, kind)
        options = rules.request_options(kind)
        if kind == "wait":  # withdrawn when the wait is cancelled
            req.controller = js.AbortController.new()
            options["signal"] = req.controller.signal

        def on_lock(lock: Any) -> Any:
            return self._on_lock(req, lock)

        req.callback = create_proxy(on_lock)
        promise = self._locks.request(
            rules.lock_name(project_id),
            to_js(options, dict_converter=js.Object.fromEntries),
            req.callback,
        )
        spawn(self._settle(req, promise), what="tab lock request")
        return req

    def _on_lock(self, req: _Request, lock: Any) -> Any:
        """The browser's answer to ``req`` (``lock`` is ``null``: held elsewhere)."""
        if lock is None or is_null(lock):
            self._apply(self.machine.unavailable(req.project_id))
            return None
        req.granted = True
        if self._wait is req:
            self._wait = None
        effects = self.machine.granted(req.project_id)
        machine = self.machine
        if machine.project_id != req.project_id or machine.state != LockState.OWNER:
            return None  # no longer wanted (another project is open): let it go at once
        previous, self._held = self._held, req

        def executor(resolve: Any, _reject: Any) -> None:
            req.release = resolve

        hold = js.Promise.new(create_once_callable(executor))
        if previous is not None and previous is not req and previous.release is not None:
            previous.release()  # our own queued lock, overtaken by the steal
        if self.take_fence is not None:
            self._fences[req.project_id] = spawn(
                self._take_fence(self.take_fence, req.project_id), what="tab lock: fence"
            )
        self._apply(effects)
        return hold

    async def _settle(self, req: _Request, promise: Any) -> None:
        try:
            await promise
        except Exception as exc:
            name = str(getattr(exc, "name", "") or type(exc).__name__)
            if req is self._held:
                # Stolen: another tab pressed "Use here".
                self._held = None
                self._apply(self.machine.lost(req.project_id))
            elif not req.granted and not req.cancelled:
                log.warning("tab lock: %s request failed: %s", req.kind, name)
                self._apply(self.machine.failed(req.project_id, name))
        finally:
            req.done.set()
            req.callback.destroy()
