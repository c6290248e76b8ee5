"""Keep a refused write and write it again after the next one that succeeds.

Chief's conversation and Ralph's transcript are written record by record.  A
write the browser refuses (a full quota: ``StorageFull``; another tab owns the
project: ``ProjectPaused``) must not lose the record: it stays on screen, is
held here, and is written again, oldest first, right after the next write
that lands.  :class:`RetryingWriter` is that policy, once, for both; what a
refusal or a recovery means to the person is for the caller to say, from the
:class:`WriteOutcome` it gets back.

Pure: the write itself is injected, so CPython tests drive it with a store
that refuses on demand.
"""

from __future__ import annotations

import enum
from collections.abc import Awaitable, Callable, Hashable
from typing import Any, Generic, TypeVar

__all__ = ["RetryingWriter", "WriteOutcome"]

K = TypeVar("K", bound=Hashable)


class WriteOutcome(enum.Enum):
    #: Written, and nothing was held back before it.
    SAVED = "saved"
    #: This write was refused: the record is held (``writer.error`` says why).
    REFUSED = "refused"
    #: Written, and so was every record held back before it: the trouble is over.
    CAUGHT_UP = "caught-up"
    #: Written, but a record held back before it is still refused.
    BEHIND = "behind"


class RetryingWriter(Generic[K]):
    """Writes ``(key, record)`` through ``write``; what is refused is kept and
    written again after the next success.  A later record for the same key
    replaces a held one (a streaming reply is rewritten in place)."""

    def __init__(self, write: Callable[[K, Any], Awaitable[None]]) -> None:
        self._write = write
        #: The records refused so far, oldest first, by key.
        self.unsaved: dict[K, Any] = {}
        #: Why the last refused write was refused; ``None`` once caught up.
        self.error: BaseException | None = None

    @property
    def behind(self) -> bool:
        return bool(self.unsaved)

    async def write(self, key: K, record: Any) -> WriteOutcome:
        try:
            await self._write(key, record)
        except Exception as exc:  # storage trouble must not lose the record
            self.error = exc
            self.unsaved[key] = record
            return WriteOutcome.REFUSED
        self.unsaved.pop(key, None)
        was_behind = self.error is not None
        while self.unsaved:
            held_key, held = next(iter(self.unsaved.items()))
            try:
                await self._write(held_key, held)
            except Exception:
                return WriteOutcome.BEHIND  # still refused: kept for the next write
            self.unsaved.pop(held_key, None)
        self.error = None
        return WriteOutcome.CAUGHT_UP if was_behind else WriteOutcome.SAVED

    def forget(self, keep: Callable[[K], bool]) -> None:
        """Drop the held records whose key ``keep`` refuses (what storage holds
        now was read back and wins, e.g. after another tab wrote it)."""
        self.unsaved = {k: v for k, v in self.unsaved.items() if keep(k)}
        if not self.unsaved:
            self.error = None
