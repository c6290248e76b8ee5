"""A cancellation signal in the shape of the web's AbortController.

The Stop button, a task cancel or a timeout all end in ``abort()``; whoever
holds the signal learns of it through ``aborted``, a callback or ``wait()``.
Callbacks are how the client turns an abort into cancelling the one task
that is reading the response, so the hot path pays nothing per chunk.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable


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
