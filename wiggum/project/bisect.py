"""Bisect: which checkpoint broke a check that passes no more.

A check is any callable over a :class:`~wiggum.fs.store.FileStore` (the site
checks today, acceptance probes tomorrow) answering whether the files pass:
``True``/``False``, or its findings (none found: it passes), plainly or
awaited.  :func:`bisect` runs it on the project's checkpoints, read from
History into memory stores one at a time, and searches them in halves for the
first one where it fails: no model is called, nothing is written to the
project, and ``log2(n)`` checkpoints are read and checked, not ``n``.

Like ``git bisect`` it assumes one break: passed up to some checkpoint, fails
from it on.  When the newest checkpoint passes, or the oldest already fails,
there is nothing to find, and :class:`Bisected` says which of the two it was.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence, Sized
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from wiggum.fs.memory import MemoryFileStore
from wiggum.fs.store import FileStore

__all__ = ["Bisected", "Check", "CheckpointLog", "bisect", "fails"]

#: ``check(fs)``: whether the files pass (``bool``), or its findings (empty: it passes).
Check = Callable[[FileStore], Any]
#: How many checkpoints back a search looks at most.
LIMIT = 200

Verdict = Literal["found", "fails-everywhere", "passes-now", "no-checkpoints"]


class CheckpointLog(Protocol):
    """What bisect reads of a project's history (``wiggum.project.history.History``)."""

    async def list(self, limit: int | None = None) -> Sequence[Any]: ...

    async def files_at(self, checkpoint: str) -> dict[str, bytes]: ...


@dataclass(frozen=True, slots=True)
class Bisected:
    """What the search found.  ``broke``: the first checkpoint where the check
    fails (``found``; the oldest one searched for ``fails-everywhere``);
    ``good``: the last one where it passed (the newest for ``passes-now``);
    ``tried``: how many checkpoints were checked; ``searched``: how many there were."""

    verdict: Verdict
    broke: Any = None
    good: Any = None
    tried: int = 0
    searched: int = 0


async def fails(check: Check, fs: FileStore) -> bool:
    """Whether ``check`` fails on ``fs``: ``False``, or findings that are not empty."""
    result = check(fs)
    if inspect.isawaitable(result):
        result = await result
    if isinstance(result, bool):
        return not result
    if isinstance(result, Sized) and not isinstance(result, str | bytes):
        return len(result) > 0
    raise TypeError(f"a check answers True/False or its findings, not {type(result).__name__}")


async def bisect(history: CheckpointLog, check: Check, *, limit: int = LIMIT) -> Bisected:
    """The first of the last ``limit`` checkpoints at which ``check`` fails."""
    newest_first = list(await history.list(limit))
    checkpoints = newest_first[::-1]
    n = len(checkpoints)
    if not n:
        return Bisected("no-checkpoints")
    tried = 0

    async def failing(index: int) -> bool:
        nonlocal tried
        tried += 1
        files = await history.files_at(checkpoints[index].id)
        return await fails(check, MemoryFileStore(files))

    if not await failing(n - 1):
        return Bisected("passes-now", good=checkpoints[-1], tried=tried, searched=n)
    if n == 1 or await failing(0):
        return Bisected("fails-everywhere", broke=checkpoints[0], tried=tried, searched=n)
    good, bad = 0, n - 1  # passes at good, fails at bad
    while bad - good > 1:
        mid = (good + bad) // 2
        if await failing(mid):
            bad = mid
        else:
            good = mid
    return Bisected(
        "found", broke=checkpoints[bad], good=checkpoints[good], tried=tried, searched=n
    )
