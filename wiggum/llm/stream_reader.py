"""One streamed body, read chunk by chunk into the accumulator.

:func:`read_chunks` feeds each chunk of the body to the dialect's stream
parser and yields, per read, the deltas the accumulator made of it (a list,
not one delta at a time: one hop per read between this generator and the
client's, however many events the read held).  It stops at the stream's end
marker or at an error reported inside the stream, and decides what an
interrupted body means:

- **idle**: with an idle timeout, one :class:`~wiggum.llm.idle.IdleWatch`
  times the waits for the next chunk; a wait that runs out becomes
  :class:`StreamIdleError` (what arrived is kept in the accumulator);
- **a broken connection** after the end marker (or after an error the
  provider reported) is the end of the body; before it, the reply is
  incomplete: :class:`StreamIncompleteError`;
- a client-side request timeout is a :class:`RequestTimeoutError` as it stands.

Every await of a chunk goes through ``guard`` (the request's abort wiring),
so a Stop interrupts exactly that await.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from .accumulator import ResponseAccumulator
from .dialects.base import StreamParser
from .errors import NetworkError, RequestTimeoutError, StreamIdleError, StreamIncompleteError
from .idle import IdleWatch
from .types import StreamDelta


async def close_iterator(iterator: Any) -> None:
    """``aclose`` an async iterator that has one (leaving a body early, at its end
    marker or on an error, must not leave a pending generator)."""
    aclose = getattr(iterator, "aclose", None)
    if aclose is not None:
        await aclose()


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
    try:
        while True:
            try:
                if watch is not None:
                    watch.start()
                chunk = await guard(chunks.__anext__())
                if watch is not None:
                    watch.waiting = False
            except StopAsyncIteration:
                parser.close()
                return
            except RequestTimeoutError:  # a NetworkError, not a lost connection
                raise
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
            if out:
                acc.out = []
                yield out
            if acc.ended or acc.error is not None:
                return
    finally:
        if watch is not None:
            watch.stop()
        await close_iterator(chunks)
