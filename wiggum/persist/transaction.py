"""An IndexedDB transaction's body, driven: what follows each answer, decided without a browser.

A transaction cannot span Python ``await``\\ s, so its body is a *generator*
(``wiggum.web.idb``): it yields a request and is resumed with the request's
result inside the request's ``success`` event, while the transaction is still
active.  :class:`BodyRun` decides what happens at each step: the body runs on
with each result; what it returns is the transaction's result; the first
failure (the body raised, or its fence did not hold) aborts the transaction
and nothing more of the body runs; and the error the transaction ends with is
that failure, else the first request that failed, else the transaction's own.

The page's glue (``wiggum.web.idb``) hands it the requests' answers and
carries out its two calls into the browser: ``wire`` (listen to a request the
body made) and ``abort``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from .schema import Fence

__all__ = ["BodyRun"]


class BodyRun:
    """One body's run: ``wire(request)`` listens to a request it made, ``abort()``
    aborts its transaction."""

    def __init__(self, *, wire: Callable[[Any], None], abort: Callable[[], None]) -> None:
        self._wire = wire
        self._abort = abort
        self._gen: Any = None
        #: What the body returned (the transaction's result once it completes).
        self.result: Any = None
        #: The failure that aborted the transaction (the body's, or its fence's).
        self.error: BaseException | None = None
        #: The first request that failed (its transaction aborts by itself).
        self.request_error: BaseException | None = None

    def start(self, body: Callable[[], Any]) -> None:
        """Run ``body()``: a generator is driven request by request, anything else
        is the result."""
        try:
            out = body()
        except BaseException as exc:
            self.fail(exc)
            return
        if inspect.isgenerator(out):
            self._gen = out
            self.resume(None)
        else:
            self.result = out

    def resume(self, value: Any) -> None:
        """A request of the body succeeded with ``value``: the body runs on."""
        if self.error is not None:  # failed already (its fence did not hold): no more of it
            return
        try:
            request = self._gen.send(value)
        except StopIteration as stop:
            self.result = stop.value
            return
        except BaseException as exc:
            self.fail(exc)
            return
        self._wire(request)

    def fail(self, exc: BaseException) -> None:
        """The transaction fails with ``exc``: abort it."""
        self.error = exc
        self._abort()

    def request_failed(self, error: BaseException) -> None:
        """A request failed (the transaction aborts by itself; the first one says why)."""
        if self.request_error is None:
            self.request_error = error

    def fence_read(self, fence: Fence, found: Any) -> None:
        """The fence's record reads ``found``: unless it still holds the writer's
        value, the write is refused."""
        if found != fence.value:
            self.fail(fence.refused())

    def failure(self, aborted: BaseException) -> BaseException:
        """What an aborted transaction raises (``aborted``: the transaction's own error)."""
        if self.error is not None:
            return self.error
        return self.request_error if self.request_error is not None else aborted
