"""A cancellation signal in the shape of the web's AbortController.

The Stop button, a task cancel or a timeout all end in ``abort()``; whoever
holds the signal learns of it through ``aborted``, a callback or ``wait()``.
Callbacks are how the client turns an abort into cancelling the one task
that is reading the response, so the hot path pays nothing per chunk:
:class:`AbortGuard` is that wiring for one request.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TypeVar

from .errors import AbortError

T = TypeVar("T")


class AbortSignal:
    __slots__ = ("_callbacks", "_event", "aborted", "reason")

    def __init__(self) -> None:
        self.aborted = False
        self.reason: str | None = None
        self._callbacks: list[Callable[[], object]] = []
        self._event: asyncio.Event | None = None

    def add_listener(self, callback: Callable[[], object]) -> Callable[[], None]:
        """Call ``callback`` on abort (at once if already aborted); returns a remover."""
        if self.aborted:
            callback()
            return lambda: None
        self._callbacks.append(callback)

        def remove() -> None:
            if callback in self._callbacks:
                self._callbacks.remove(callback)

        return remove

    async def wait(self) -> None:
        if self.aborted:
            return
        if self._event is None:
            self._event = asyncio.Event()
        await self._event.wait()

    def _fire(self, reason: str | None) -> None:
        if self.aborted:
            return
        self.aborted = True
        self.reason = reason
        callbacks, self._callbacks = self._callbacks, []
        for callback in callbacks:
            callback()
        if self._event is not None:
            self._event.set()


class AbortController:
    __slots__ = ("signal",)

    def __init__(self) -> None:
        self.signal = AbortSignal()

    def abort(self, reason: str | None = None) -> None:
        self.signal._fire(reason)


class AbortGuard:
    """One request's abort wiring: an abort cancels only the await the request
    is in (sending, reading a chunk, waiting to retry), never one of the
    consumer's own, and that await raises :class:`AbortError` instead."""

    __slots__ = ("_label", "_remove", "_signal", "_task", "_waiting")

    def __init__(self, signal: AbortSignal | None, label: tuple[str, str]) -> None:
        self._signal = signal
        self._label = label
        self._task: asyncio.Task | None = None
        self._waiting = False
        self._remove = signal.add_listener(self._on_abort) if signal is not None else None

    def _on_abort(self) -> None:
        if self._waiting and self._task is not None:
            self._task.cancel()

    def _error(self) -> AbortError:
        assert self._signal is not None
        return AbortError(*self._label, self._signal.reason)

    async def __call__(self, awaitable: Awaitable[T]) -> T:
        """Await ``awaitable`` so that an abort interrupts exactly this await."""
        signal = self._signal
        if signal is None:
            return await awaitable
        if signal.aborted:
            if asyncio.iscoroutine(awaitable):
                awaitable.close()
            raise self._error()
        self._task = asyncio.current_task()
        self._waiting = True
        try:
            return await awaitable
        except asyncio.CancelledError:
            if signal.aborted:
                if self._task is not None:
                    self._task.uncancel()
                raise self._error() from None
            raise
        finally:
            self._waiting = False

    def close(self) -> None:
        """Stop listening to the signal (the request is over)."""
        if self._remove is not None:
            self._remove()
            self._remove = None
