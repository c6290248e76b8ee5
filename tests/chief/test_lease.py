"""Chief's hold on a provider: what he says while he waits, the lease reserved ahead
of a hand-off, and nothing to wait for without a Coordinator."""

from __future__ import annotations

import asyncio

from wiggum.chief.lease import LeaseKeeper
from wiggum.coordinator import ProviderLocks
from wiggum.llm import ProviderConfig

PROVIDER = ProviderConfig(
    id="p", name="Sim", kind="openai", base_url="http://sim.invalid/v1", model="m"
)


class Gate:
    """The Coordinator's two methods, over real provider locks."""

    def __init__(self) -> None:
        self.locks = ProviderLocks()

    def llm_lock(self, provider_id: str, who: str = ""):
        return self.locks.hold(provider_id, who)

    def llm_holder(self, provider_id: str) -> str | None:
        return self.locks.holder(provider_id)


async def test_without_a_coordinator_nothing_waits():
    keeper = LeaseKeeper(None, "chief")
    await keeper.reserve(PROVIDER)
    assert keeper.waiting_for(PROVIDER) is None
    async with keeper.for_call(PROVIDER):
        pass
    await keeper.release()


async def test_chief_says_who_he_waits_for_but_not_when_it_is_himself():
    gate = Gate()
    keeper = LeaseKeeper(gate, "chief")
    assert keeper.waiting_for(PROVIDER) is None  # free
    ralph = gate.llm_lock("p", "ralph")
    await ralph.__aenter__()
    assert keeper.waiting_for(PROVIDER) == "Waiting for Sim: Ralph is using it…"
    await ralph.__aexit__(None, None, None)
    async with gate.llm_lock("p", "chief"):
        assert keeper.waiting_for(PROVIDER) is None


async def test_a_reserved_lease_is_the_next_call_s_and_is_let_go_after_it():
    gate = Gate()
    keeper = LeaseKeeper(gate, "chief")
    await keeper.reserve(PROVIDER)
    assert gate.llm_holder("p") == "chief"
    assert keeper.waiting_for(PROVIDER) is None  # it holds the provider already

    async def call() -> None:
        async with keeper.for_call(PROVIDER):
            assert gate.llm_holder("p") == "chief"

    await asyncio.wait_for(call(), 1)  # a second lock would wait for the reserved one
    assert not gate.locks.is_busy("p")
    await keeper.release()  # nothing left to let go
    assert not gate.locks.is_busy("p")


async def test_a_reservation_no_call_used_is_let_go_when_the_turn_ends():
    gate = Gate()
    keeper = LeaseKeeper(gate, "chief")
    await keeper.reserve(PROVIDER)
    await keeper.release()
    assert not gate.locks.is_busy("p")
