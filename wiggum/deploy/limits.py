"""Keeping under GitHub's rate limits, and waiting out the ones that are hit.

GitHub documents, for the REST API: at most 80 content-creating requests a
minute and 500 an hour (secondary limits), and 5,000 requests an hour per
token (the primary limit, ``x-ratelimit-remaining`` and ``x-ratelimit-reset``
on every answer).  When a secondary limit is hit it answers 403 or 429 with
``retry-after`` (seconds); without it, "wait at least one minute".

:class:`Pacer` spaces content-creating requests so a publish stays under the
secondary limits, and turns a limit that was hit into a wait, counted down
second by second through ``on_wait`` so the person sees how long.  A wait
longer than ``max_wait`` is not waited in place: the publish stops and says
when to publish again.  Time is injected (``clock``, ``sleep``): tests move a
clock instead of waiting.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections import deque
from collections.abc import Awaitable, Callable, Mapping

from .errors import GitHubError, when

__all__ = ["CREATING", "LIMITED", "PACING", "PER_HOUR", "PER_MINUTE", "Pacer", "retry_after"]

PER_MINUTE = 80
PER_HOUR = 500
#: Methods GitHub counts as creating content.
CREATING = frozenset({"POST", "PATCH", "PUT", "DELETE"})
#: GitHub counts a request when it arrives, later than it was sent: a second to spare.
MARGIN = 1.0
#: "Wait at least one minute" when a secondary limit says no more.
SECONDARY_DEFAULT = 60.0

#: Why a wait happens, as the countdown says it.
PACING = "Keeping under GitHub's limit on new content (80 a minute, 500 an hour)"
LIMITED = "GitHub asked to slow down (its rate limit)"

OnWait = Callable[[int, str], Awaitable[None] | None]


def retry_after(
    status: int, headers: Mapping[str, str], now: float, message: str = ""
) -> float | None:
    """Seconds GitHub asks to wait before this request may go again (``None``: not a
    rate limit); ``message`` is GitHub's, which names a secondary limit."""
    if status not in (403, 429):
        return None
    after = headers.get("retry-after") or ""
    if after.strip().isdigit():
        return float(after.strip())
    if headers.get("x-ratelimit-remaining") == "0":
        reset = headers.get("x-ratelimit-reset") or ""
        if reset.isdigit():
            return max(1.0, float(reset) - now)
        return 3600.0
    if status == 429 or "secondary rate limit" in message.lower():
        return SECONDARY_DEFAULT
    return None


class Pacer:
    def __init__(
        self,
        *,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        per_minute: int = PER_MINUTE,
        per_hour: int = PER_HOUR,
        max_wait: float = 15 * 60,
    ) -> None:
        self.clock = clock
        self.sleep = sleep
        self.per_minute = per_minute
        self.per_hour = per_hour
        self.max_wait = max_wait
        self.on_wait: OnWait | None = None
        self.sent: deque[float] = deque()
        #: Seconds spent waiting, in all (what a bench reports).
        self.waited = 0.0
        #: Until when the primary limit has nothing left (from the last answer).
        self._empty_until = 0.0

    def until_free(self, method: str) -> float:
        """Seconds until a request of ``method`` may go without breaking a limit."""
        now = self.clock()
        wait = max(0.0, self._empty_until - now)
        if method not in CREATING:
            return wait
        while self.sent and self.sent[0] <= now - 3600:
            self.sent.popleft()
        recent = [t for t in self.sent if t > now - 60]
        if len(recent) >= self.per_minute:
            wait = max(wait, recent[-self.per_minute] + 60 + MARGIN - now)
        if len(self.sent) >= self.per_hour:
            wait = max(wait, self.sent[-self.per_hour] + 3600 + MARGIN - now)
        return wait

    async def before(self, method: str) -> None:
        """Wait, if need be, until ``method`` may go; then count it.  A wait too long
        to spend in place stops the publish, saying when to publish again."""
        wait = self.until_free(method)
        if wait > self.max_wait:
            now = self.clock()
            if self._empty_until > now + self.max_wait:
                head = "GitHub's limit of requests an hour for this token is used up"
            else:
                head = (
                    f"GitHub allows {self.per_hour} new files and commits an hour, and this "
                    "publish needs more"
                )
            raise GitHubError(
                "rate_limit",
                f"{head}. Publish again after {when(now + wait, now)}: what was uploaded "
                "is kept, and publishing continues where it stopped.",
                429,
                retry_at=now + wait,
            )
        if wait > 0:
            await self.wait(wait, PACING)
        if method in CREATING:
            self.sent.append(self.clock())

    def seen(self, headers: Mapping[str, str]) -> None:
        """An answer's primary-limit headers: when nothing is left, the next request waits."""
        if headers.get("x-ratelimit-remaining") == "0":
            reset = headers.get("x-ratelimit-reset") or ""
            if reset.isdigit():
                self._empty_until = float(reset)

    def can_wait(self, seconds: float) -> bool:
        return seconds <= self.max_wait

    async def wait(self, seconds: float, why: str) -> None:
        """Wait ``seconds``, saying how many are left each second."""
        end = self.clock() + seconds
        while True:
            left = end - self.clock()
            if left <= 0:
                break
            await self._tell(math.ceil(left), why)
            step = left - (math.ceil(left) - 1)  # to the next whole second left
            await self.sleep(step)
            self.waited += step
        await self._tell(0, why)

    async def _tell(self, left: int, why: str) -> None:
        if self.on_wait is not None:
            said = self.on_wait(left, why)
            if asyncio.iscoroutine(said):
                await said
