"""Chief's hold on a provider: one LLM call at a time per provider.

Chief and Ralph may use the same provider, and a provider takes one call at a
time from this page (the Coordinator's lock, :meth:`Coordinator.llm_lock`).
Each of Chief's calls holds it to the end of its stream.  One turn holds it
longer: when Chief hands the plan to Ralph, he takes the provider *before*
the hand-off runs, for the answer that follows it, so the person reads his
acknowledgement before Ralph's first call goes out (and the calls' order is
the same every time).

Without a Coordinator (tests, a chat alone) there is nothing to wait for.
"""

from __future__ import annotations

import contextlib
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

from wiggum.llm import ProviderConfig

__all__ = ["LeaseKeeper", "ProviderGate"]

#: The name Chief's calls hold the lock under, whichever conversation makes them.
HOLDER = "chief"


class ProviderGate(Protocol):
    """What Chief needs of the Coordinator's provider locks."""

    def llm_lock(self, provider_id: str, who: str = "") -> AbstractAsyncContextManager[Any]: ...

    def llm_holder(self, provider_id: str) -> str | None: ...


class _Held:
    """An already-entered lease used as ``async with``: only releases on exit."""

    def __init__(self, lease: AbstractAsyncContextManager[Any]) -> None:
        self.lease = lease

    async def __aenter__(self) -> AbstractAsyncContextManager[Any]:
        return self.lease

    async def __aexit__(self, *exc: object) -> None:
        await self.lease.__aexit__(None, None, None)


class LeaseKeeper:
    """Hands out the lease for each of Chief's calls, and keeps one reserved ahead."""

    def __init__(self, gate: ProviderGate | None, agent: str) -> None:
        self.gate = gate
        #: The conversation: a holder of that name is this chat, not someone to wait for.
        self.agent = agent
        self._reserved: AbstractAsyncContextManager[Any] | None = None

    async def reserve(self, provider: ProviderConfig) -> None:
        """Take the provider now, for the next call (waits while another holds it)."""
        if self.gate is None:
            return
        lease = self.gate.llm_lock(provider.id, HOLDER)
        await lease.__aenter__()
        self._reserved = lease

    def waiting_for(self, provider: ProviderConfig) -> str | None:
        """What to tell the person when the next call must wait for the provider
        (Ralph may be in the middle of one); ``None`` when it need not."""
        if self.gate is None or self._reserved is not None:
            return None
        holder = self.gate.llm_holder(provider.id)
        if holder is None or holder == self.agent:
            return None
        who = "Ralph" if holder == "ralph" else holder
        return f"Waiting for {provider.name or provider.id}: {who} is using it…"

    def for_call(self, provider: ProviderConfig) -> AbstractAsyncContextManager[Any]:
        """``async with`` around one call: the reserved lease if there is one
        (released when the call ends), else the provider's lock."""
        held, self._reserved = self._reserved, None
        if held is not None:
            return _Held(held)
        if self.gate is None:
            return contextlib.nullcontext()
        return self.gate.llm_lock(provider.id, HOLDER)

    async def release(self) -> None:
        """The turn ended: let a reservation no call used go."""
        held, self._reserved = self._reserved, None
        if held is not None:
            await held.__aexit__(None, None, None)
