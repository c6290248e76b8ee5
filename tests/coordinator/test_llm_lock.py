"""One LLM caller at a time per provider, shared by Chief and Ralph."""

from __future__ import annotations

import asyncio

from tests.coordinator.helpers import FakeRunner
from wiggum.coordinator import Coordinator, ProviderLocks
from wiggum.fs import MemoryFileStore


def make() -> Coordinator:
    return Coordinator(MemoryFileStore(), ralph_runner=FakeRunner())


async def call(coord, provider, who, log, hold: asyncio.Event):
    async with coord.llm_lock(provider, who):
        log.append(("enter", who))
        await hold.wait()
        log.append(("exit", who))


async def test_same_provider_serializes():
    coord = make()
    log: list[tuple[str, str]] = []
    ralph_hold, chief_hold = asyncio.Event(), asyncio.Event()
    ralph = asyncio.create_task(call(coord, "openai", "ralph", log, ralph_hold))
    await asyncio.sleep(0)
    assert coord.is_busy("openai") and coord.llm_holder("openai") == "ralph"
    chief = asyncio.create_task(call(coord, "openai", "chief", log, chief_hold))
    for _ in range(5):
        await asyncio.sleep(0)
    assert log == [("enter", "ralph")]  # Chief waits
    assert coord.locks.waiting("openai") == 1
    chief_hold.set()
    ralph_hold.set()
    await asyncio.gather(ralph, chief)
    assert log == [("enter", "ralph"), ("exit", "ralph"), ("enter", "chief"), ("exit", "chief")]
    assert not coord.is_busy("openai") and coord.llm_holder("openai") is None


async def test_different_providers_overlap():
    coord = make()
    log: list[tuple[str, str]] = []
    hold = asyncio.Event()
    a = asyncio.create_task(call(coord, "openai", "ralph", log, hold))
    b = asyncio.create_task(call(coord, "anthropic", "chief", log, hold))
    for _ in range(3):
        await asyncio.sleep(0)
    assert log == [("enter", "ralph"), ("enter", "chief")]
    assert coord.is_busy("openai") and coord.is_busy("anthropic")
    hold.set()
    await asyncio.gather(a, b)


async def test_first_come_first_served_and_released_on_error():
    locks = ProviderLocks()
    order: list[str] = []

    async def user(name: str, fail: bool = False):
        async with locks.hold("p", name):
            order.append(name)
            await asyncio.sleep(0)
            if fail:
                raise RuntimeError("call failed")

    results = await asyncio.gather(
        user("ralph-1", fail=True), user("chief"), user("ralph-2"), return_exceptions=True
    )
    assert isinstance(results[0], RuntimeError)
    assert order == ["ralph-1", "chief", "ralph-2"]
    assert not locks.is_busy("p")


async def test_cancelled_waiter_does_not_keep_the_lock():
    locks = ProviderLocks()
    hold = asyncio.Event()

    async def holder():
        async with locks.hold("p", "ralph"):
            await hold.wait()

    async def waiter():
        async with locks.hold("p", "chief"):
            pass

    h = asyncio.create_task(holder())
    await asyncio.sleep(0)
    w = asyncio.create_task(waiter())
    await asyncio.sleep(0)
    assert locks.waiting("p") == 1
    w.cancel()
    await asyncio.gather(w, return_exceptions=True)
    assert locks.waiting("p") == 0
    hold.set()
    await h
    assert not locks.is_busy("p")


async def test_locks_can_be_shared_with_a_runner_built_first():
    locks = ProviderLocks()
    coord = Coordinator(MemoryFileStore(), ralph_runner=FakeRunner(), locks=locks)
    async with locks.hold("openai", "ralph"):
        assert coord.is_busy("openai")


async def test_a_lease_is_reusable_like_the_loops_llm_lock():
    # Ralph's loop keeps one lease and enters it around every call.
    locks = ProviderLocks()
    lease = locks.hold("openai", "ralph")
    for _ in range(3):
        async with lease:
            assert locks.holder("openai") == "ralph"
    assert not locks.is_busy("openai")

    order: list[str] = []
    chief_lease = locks.hold("openai", "chief")

    async def ralph_calls():
        for i in range(2):
            async with lease:
                order.append(f"ralph-{i}")
                while i == 0 and locks.waiting("openai") == 0:
                    await asyncio.sleep(0)  # hold the call until Chief is queued

    async def chief_call():
        async with chief_lease:
            order.append("chief")

    await asyncio.gather(ralph_calls(), chief_call())
    # Chief got in between two of Ralph's calls: served in arrival order.
    assert order == ["ralph-0", "chief", "ralph-1"]
