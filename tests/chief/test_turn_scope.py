"""A turn's scope: one at a time, and the chat idle again however it ends."""

from __future__ import annotations

import asyncio

import pytest

from tests.chief.test_chat import new_chat, provider
from tests.sim import Turn
from wiggum.chief.chat import ChatRecord


async def test_a_refused_turn_leaves_the_chat_idle(sim, transport):
    chat = await new_chat(transport)
    p = provider(sim)
    with pytest.raises(ValueError, match="nothing to regenerate"):
        await chat.regenerate(p)
    assert not chat.busy
    chat.records.append(ChatRecord(seq=0, role="user", content="a note", note=True))
    with pytest.raises(ValueError, match="only the person's messages"):
        await chat.edit(0, "mine now", p)
    assert not chat.busy and len(chat.records) == 1 and sim.chat_requests == []
    with pytest.raises(ValueError, match="nothing to send"):
        await chat.send("  ", p)
    assert not chat.busy


async def test_every_entry_point_is_refused_while_a_turn_runs(sim, transport):
    sim.script([Turn("Slow answer.", chunks=6, delay=0.1), Turn("Next.")])
    chat = await new_chat(transport)
    p = provider(sim)
    first = asyncio.create_task(chat.send("one", p))
    while not chat.busy:
        await asyncio.sleep(0.01)
    for attempt in (
        chat.send("two", p),
        chat.regenerate(p),
        chat.edit(0, "one, edited", p),
        chat.retry(p),
        chat.continue_reply(p),
        chat.switch(0),
    ):
        with pytest.raises(RuntimeError):
            await attempt
    reply = await first
    assert reply.content == "Slow answer." and not chat.busy
    assert chat.activity is None and chat.retry_wait is None
    assert [r.content for r in chat.records] == ["one", "Slow answer."]


async def test_stop_ends_the_turn_and_the_next_one_runs(sim, transport):
    sim.script([Turn("word " * 30, chunks=30, delay=0.05), Turn("Again.")])
    chat = await new_chat(transport)
    p = provider(sim)
    task = asyncio.create_task(chat.send("go", p))
    while not any(r.role == "assistant" and r.content for r in chat.records):
        await asyncio.sleep(0.01)
    assert chat.stop()
    cut = await task
    assert cut.status == "stopped" and not chat.busy and not chat.stop()
    assert (await chat.send("again", p)).content == "Again."
