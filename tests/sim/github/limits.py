"""The simulated GitHub's clock, rate limits and a fine-grained token's permissions.

- :class:`Clock`: the simulator's time; a test shares one with the publisher
  (``clock.sleep`` moves it), so waits take no wall time.
- :class:`Limits`: the primary limit (5,000 requests an hour, the
  ``x-ratelimit-*`` headers on every answer) and the secondary limit on
  content creation GitHub documents (80 a minute, 500 an hour), answered with
  403 and ``retry-after``.
- :data:`NEEDS`: which fine-grained permission each operation needs, as GitHub
  lists them ("Permissions required for fine-grained personal access tokens").
"""

from __future__ import annotations

import math
import time
from collections import deque
from dataclasses import dataclass, field


class Clock:
    """A clock a test moves: ``clock()`` is now, ``await clock.sleep(s)`` moves it."""

    def __init__(self, start: float | None = None) -> None:
        self.now = time.time() if start is None else start
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += max(0.0, seconds)


PRIMARY = 5000
PER_MINUTE = 80
PER_HOUR = 500
#: Methods that create content, as GitHub counts them for the secondary limit.
CREATING = {"POST", "PATCH", "PUT", "DELETE"}


@dataclass
class Limits:
    primary: int = PRIMARY
    used: int = 0
    window: float = 0.0
    per_minute: int = PER_MINUTE
    per_hour: int = PER_HOUR
    created: deque[float] = field(default_factory=deque)

    def count(self, now: float) -> None:
        if now >= self.window + 3600:
            self.window, self.used = now, 0
        self.used += 1

    def headers(self, now: float) -> dict[str, str]:
        if not self.window:
            self.window = now
        return {
            "x-ratelimit-limit": str(self.primary),
            "x-ratelimit-remaining": str(max(0, self.primary - self.used)),
            "x-ratelimit-reset": str(int(self.window + 3600)),
            "x-ratelimit-used": str(self.used),
            "x-ratelimit-resource": "core",
        }

    def exhausted(self, now: float) -> bool:
        if now >= self.window + 3600:
            return False
        return self.used >= self.primary

    def secondary_wait(self, method: str, now: float) -> int:
        """Seconds to wait before this content-creating request may go (0: it may)."""
        if method not in CREATING:
            return 0
        while self.created and self.created[0] <= now - 3600:
            self.created.popleft()
        last_minute = [t for t in self.created if t > now - 60]
        if len(last_minute) >= self.per_minute:
            return max(1, math.ceil(last_minute[-self.per_minute] + 60 - now))
        if len(self.created) >= self.per_hour:
            return max(1, math.ceil(self.created[-self.per_hour] + 3600 - now))
        return 0

    def created_one(self, method: str, now: float) -> None:
        if method in CREATING:
            self.created.append(now)


READ, WRITE = "read", "write"
ALL = {
    "administration": WRITE,
    "contents": WRITE,
    "pages": WRITE,
    "actions": READ,
    "metadata": READ,
}


def needs(method: str, rest: list[str]) -> dict[str, str]:
    """The permissions an operation on a repository path (after ``/repos/o/r``) needs."""
    write = method != "GET"
    head = rest[0] if rest else ""
    if head in ("git", "contents"):
        return {"contents": WRITE if write else READ}
    if head == "pages":
        # Creating a Pages site takes Administration too ("Create a GitHub Pages site").
        return {"pages": WRITE, "administration": WRITE} if write else {"pages": READ}
    if head == "actions":
        return {"actions": READ}
    return {"metadata": READ}


def missing(granted: dict[str, str], needed: dict[str, str]) -> dict[str, str]:
    return {
        name: level
        for name, level in needed.items()
        if granted.get(name) not in ((WRITE,) if level == WRITE else (READ, WRITE))
    }
