"""One streamed body, read chunk by chunk into the accumulator.

:func:`read_chunks` feeds each chunk of the body to the dialect's stream
parser and yields, per read, the deltas the accumulator made of it (a list,
not one delta at a time: one hop per read between this generator and the
client's, however many events the read held).  It stops at the stream's end
marker or at an error reported inside the stream, and decides what an
interrupted body means:

- **idle**: with an idle timeout, one :class:`~wiggum.llm.idle.IdleWatch`
  times the waits for the next *event* (a read that only brought keep-alive
  comments or part of an event does not restart it); a wait that runs out
  becomes :class:`StreamIdleError` (what arrived is kept in the accumulator);
- **no event at all**: a body that ends without one event the dialect could
  read (a web page, garbage) is :class:`MalformedResponseError`, not an
  incomplete reply: nothing was cut, and asking again gets the same;
- **a broken connection** after the end marker (or after an error the
  provider reported) is the end of the body; before it, the reply is
  incomplete: :class:`StreamIncompleteError`;
- a read that the transport's own timeout ended is a :class:`StreamIdleError` too.

Every await of a chunk goes through ``guard`` (the request's abort wiring),
so a Stop interrupts exactly that await.

:func:`read_body` reads a whole body (a batch answer, an error answer) with
the same kind of watch over each read: a body that stops arriving is a
:class:`RequestTimeoutError`.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from .accumulator import ResponseAccumulator
from .dialects.base import StreamParser
from .errors import (
    MalformedResponseError,
    NetworkError,
    RequestTimeoutError,
    StreamIdleError,
    StreamIncompleteError,
)
from .idle import IdleWatch
from .transport import HttpResponse
from .types import StreamDelta


async def close_iterator(iterator: Any) -> None:
    """``aclose`` an async iterator that has one (leaving a body early, at its end
    marker or on an error, must not leave a pending generator)."""
    aclose = getattr(iterator, "aclose", None)
    if aclose is not None:
        await aclose()


async def _next(
    chunks: AsyncIterator[bytes],
    guard: Callable[[Awaitable[bytes]], Awaitable[bytes]],
    watch: IdleWatch | None,
) -> bytes:
    """The next chunk, its wait watched (and abortable through ``guard``)."""
    if watch is None:
        return await guard(chunks.__anext__())
    watch.start()
    try:
        return await guard(chunks.__anext__())
    finally:
        watch.waiting = False


async def read_chunks(
    chunks: AsyncIterator[bytes],
    parser: StreamParser,
    acc: ResponseAccumulator,
    *,
    guard: Callable[[Awaitable[bytes]], Awaitable[bytes]],
    idle_timeout: float | None,
    label: tuple[str, str],
    log: Callable[..., None],
) -> AsyncIterator[list[StreamDelta]]:
    """The deltas of each read of ``chunks``, until the stream ends."""
    watch = IdleWatch(idle_timeout) if idle_timeout is not None else None
    seen = acc.last_event  # every event the dialect reads replaces it
    try:
        while True:
            try:
                chunk = await _next(chunks, guard, watch)
            except StopAsyncIteration:
                parser.close()
                if acc.last_event is None and not acc.ended and acc.error is None:
                    log("llm:malformed-answer", read="no event")
                    raise MalformedResponseError(
                        "The answer held no event of the provider kind's stream format",
                        *label,
                        detail="text that is not a reply stream",
                    ) from None
                return
            except RequestTimeoutError as quiet:
                # The transport's own bound on a read ran out first: for a
                # stream that is the same fault as the watch's, said the same way.
                parser.close()
                seconds = quiet.timeout_seconds or idle_timeout or 0.0
                log("llm:stream-idle", seconds=seconds)
                raise StreamIdleError(*label, seconds=seconds, delivered=acc.delivered) from None
            except asyncio.CancelledError:
                if watch is None or not watch.fired:
                    raise
                watch.absorb()
                parser.close()
                log("llm:stream-idle", seconds=idle_timeout)
                raise StreamIdleError(
                    *label, seconds=idle_timeout or 0.0, delivered=acc.delivered
                ) from None
            except NetworkError as lost:
                # The connection broke mid-body: what arrived is kept, and the
                # reply is reported as incomplete unless it had already ended.
                parser.close()
                if acc.ended or acc.error is not None:
                    return
                raise StreamIncompleteError(*label, delivered=acc.delivered) from lost
            parser.feed(chunk)
            out = acc.out
            if watch is not None and (out or acc.last_event is not seen):
                watch.progress()
                seen = acc.last_event
            if out:
                acc.out = []
                yield out
            if acc.ended or acc.error is not None:
                return
    finally:
        if watch is not None:
            watch.stop()
        await close_iterator(chunks)


async def read_body(
    response: HttpResponse,
    *,
    guard: Callable[[Awaitable[bytes]], Awaitable[bytes]],
    timeout: float | None,
    label: tuple[str, str],
) -> bytes:
    """The whole body of ``response``, each read bounded by ``timeout``; closes it.

    Blank bytes (the whitespace some servers send to keep a slow answer's
    connection open) do not restart the bound: a body of nothing else ends.
    A connection that breaks before the body is whole is an incomplete
    reply, like a cut stream (retried: nothing of it was delivered).
    """
    chunks = response.aiter_bytes().__aiter__()
    watch = IdleWatch(timeout) if timeout is not None else None
    parts: list[bytes] = []
    try:
        while True:
            try:
                chunk = await _next(chunks, guard, watch)
            except StopAsyncIteration:
                return b"".join(parts)
            except asyncio.CancelledError:
                if watch is None or not watch.fired:
                    raise
                watch.absorb()
                raise RequestTimeoutError(
                    f"The answer stopped arriving: no data for {timeout:g} s",
                    *label,
                    seconds=timeout,
                ) from None
            except RequestTimeoutError:
                raise
            except NetworkError as lost:
                raise StreamIncompleteError(*label) from lost
            if watch is not None and chunk.strip():
                watch.progress()
            parts.append(chunk)
    finally:
        if watch is not None:
            watch.stop()
        await close_iterator(chunks)
        await response.aclose()
