"""One LLM caller at a time per provider.

Policy: a provider is a ``ProviderConfig.id`` (one endpoint + key, so one rate
limit); Chief and Ralph take the provider's lock around each *call* (request
through the end of its stream), never around a whole iteration or run.
Waiters are served first come, first served (``asyncio.Lock``), nobody is
pre-empted, so a message typed to Chief while Ralph works goes out as soon as
Ralph's current call ends, between two of his calls.  Different providers never
wait for each other.
"""

from __future__ import annotations

import asyncio

__all__ = ["ProviderLease", "ProviderLocks"]


class ProviderLease:
    """``async with lease:`` holds the provider for one LLM call.

    Reusable, like an ``asyncio.Lock``: Ralph's loop keeps one lease and enters
    it around each of its calls (``make_runner(..., llm_lock=lease)``).
    """

    def __init__(self, locks: ProviderLocks, provider_id: str, who: str = "") -> None:
        self._locks = locks
        self.provider_id = provider_id
        self.who = who

    async def __aenter__(self) -> ProviderLease:
        await self._locks._acquire(self.provider_id, self.who)
        return self

    async def __aexit__(self, *_exc: object) -> None:
        self._locks._release(self.provider_id)


class ProviderLocks:
    """One LLM call at a time per provider id (see the module docstring)."""

    def __init__(self) -> None:
        self._locks: dict[str, asyncio.Lock] = {}
        self._holders: dict[str, str] = {}
        self._waiting: dict[str, int] = {}

    def hold(self, provider_id: str, who: str = "") -> ProviderLease:
        """A reusable async context manager around one call to ``provider_id``."""
        return ProviderLease(self, provider_id, who)

    async def _acquire(self, provider_id: str, who: str) -> None:
        lock = self._locks.setdefault(provider_id, asyncio.Lock())
        self._waiting[provider_id] = self._waiting.get(provider_id, 0) + 1
        try:
            await lock.acquire()
        finally:
            self._waiting[provider_id] -= 1
        self._holders[provider_id] = who

    def _release(self, provider_id: str) -> None:
        self._holders.pop(provider_id, None)
        self._locks[provider_id].release()

    def is_busy(self, provider_id: str) -> bool:
        lock = self._locks.get(provider_id)
        return lock is not None and lock.locked()

    def holder(self, provider_id: str) -> str | None:
        """Who holds the provider (``"chief"``, ``"ralph"``, ...), when busy."""
        return self._holders.get(provider_id) if self.is_busy(provider_id) else None

    def waiting(self, provider_id: str) -> int:
        return self._waiting.get(provider_id, 0)
