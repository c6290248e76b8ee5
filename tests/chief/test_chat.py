"""Chief's conversation: streaming, stop, errors, budget, write-through records."""

from __future__ import annotations

import asyncio
import itertools
import json
from typing import Any

import pytest
from pydantic import SecretStr

from tests.sim import (
    Disconnect,
    Gate,
    Reasoning,
    Simulator,
    Stall,
    Text,
    Turn,
    http_error,
    rate_limited,
)
from wiggum.chief import chat as chief_chat
from wiggum.chief.chat import (
    AUTOSAVE_SECONDS,
    MIN_RECENT_MESSAGES,
    ChatRecord,
    ChiefChat,
    records_to_messages,
)
from wiggum.llm import (
    Message,
    ParsedToolCall,
    ProviderConfig,
    RequestOptions,
    ThinkingBlock,
    ToolDefinition,
    UsageData,
    estimate_tokens,
    preflight_check,
    stream,
)
from wiggum.llm.transport import ReplayResponse, ReplayTransport
from wiggum.persist import MemoryAppStorage

KEY = "sk-sim-chief-SECRET"
MODELS = {
    "openai": "gpt-4o-mini",
    "anthropic": "claude-sonnet-4-20250514",
    "ollama": "llama3.2:latest",
}
_ids = itertools.count()


class FakeSleep:
    def __init__(self) -> None:
        self.calls: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.calls.append(seconds)


class SpyStorage(MemoryAppStorage):
    def __init__(self) -> None:
        super().__init__()
        self.writes: list[tuple[int, str, int]] = []

    async def put_message(self, project_id, agent, seq, record):
        self.writes.append((seq, record.get("status", ""), len(record.get("content", ""))))
        await super().put_message(project_id, agent, seq, record)


def provider(sim: Simulator, kind: str = "openai", **kw: Any) -> ProviderConfig:
    base = sim.base_url + "/v1" if kind == "openai" else sim.base_url
    fields = {
        "id": f"chief-{kind}-{next(_ids)}",
        "name": f"Sim {kind}",
        "kind": kind,
        "base_url": base,
        "model": MODELS[kind],
        "api_key": SecretStr(KEY),
        **kw,
    }
    return ProviderConfig(**fields)


async def new_chat(transport, storage=None, **kw) -> ChiefChat:
    storage = storage or MemoryAppStorage()
    project = await storage.create_project("Test")
    chat = ChiefChat(storage, project["id"], transport=transport, sleep=FakeSleep(), **kw)
    await chat.load()
    return chat


async def stored_rows(chat: ChiefChat) -> list[dict]:
    """The conversation's records as storage holds them."""
    saver = chat.saver
    return await saver.storage.load_messages(saver.project_id, saver.agent)


@pytest.mark.parametrize("kind", ["openai", "anthropic", "ollama"])
async def test_streams_a_reply_and_saves_it(sim, transport, kind):
    sim.script(
        [Turn(Reasoning("Let me think."), "Hello **there**, friend!", chunks=5, usage=(40, 10))]
    )
    chat = await new_chat(transport)
    events: list[tuple[str, str, int]] = []
    chat.subscribe(lambda ev, r: events.append((ev, r.role, len(r.content))))
    reply = await chat.send("Hi", provider(sim, kind))
    assert reply.status == "complete" and reply.content == "Hello **there**, friend!"
    assert reply.reasoning == "Let me think."
    assert reply.usage.total_tokens == 50
    assert reply.finish_reason == "stop"
    assert events[0] == ("added", "user", 2) and events[1][:2] == ("added", "assistant")
    grows = [n for ev, role, n in events if ev == "delta" and role == "assistant"]
    assert len([n for n in grows if n]) >= 3 and grows == sorted(grows)
    assert events[-1][0] == "updated"
    # the request carried the system prompt and the user message
    body = sim.chat_requests[-1].json
    text = json.dumps(body)
    assert "You are Chief" in text and "Hi" in text
    # write-through: a reload sees the same conversation
    again = ChiefChat(chat.saver.storage, chat.saver.project_id, transport=transport)
    records = await again.load()
    assert [(r.role, r.status, r.content) for r in records] == [
        ("user", "complete", "Hi"),
        ("assistant", "complete", "Hello **there**, friend!"),
    ]
    assert records[1].usage == reply.usage


async def test_history_is_sent_on_the_next_turn(sim, transport):
    sim.script([Turn("First answer."), Turn("Second answer.")])
    chat = await new_chat(transport)
    p = provider(sim)
    await chat.send("one", p)
    await chat.send("two", p)
    msgs = sim.chat_requests[-1].json["messages"]
    assert [m["role"] for m in msgs] == ["system", "user", "assistant", "user"]
    assert msgs[2]["content"] == "First answer."


async def test_stop_keeps_the_partial_reply(sim, transport):
    sim.script([Turn("word " * 40, chunks=40, delay=0.05)])
    chat = await new_chat(transport, storage=SpyStorage())
    seen = asyncio.Event()

    def on(ev, r):
        if ev == "delta" and r.role == "assistant" and len(r.content) >= 10:
            seen.set()

    chat.subscribe(on)
    task = asyncio.create_task(chat.send("go", provider(sim)))
    await asyncio.wait_for(seen.wait(), 5)
    assert chat.busy
    assert chat.stop()
    reply = await asyncio.wait_for(task, 5)
    assert reply.status == "stopped"
    assert 10 <= len(reply.content) < len("word " * 40)
    assert reply.error is None
    assert not chat.busy
    assert await asyncio.to_thread(sim.chat_requests[-1].wait) == "client_disconnected"
    stored = (await stored_rows(chat))[-1]
    assert stored["status"] == "stopped" and stored["content"] == reply.content


async def test_stop_while_stalled(sim, transport):
    sim.script([Turn("abc", chunks=3, fault=Stall(after=2))])
    chat = await new_chat(transport)
    task = asyncio.create_task(chat.send("go", provider(sim)))
    await asyncio.to_thread(sim.wait_for_requests, 1)
    await asyncio.sleep(0.2)
    chat.stop()
    reply = await asyncio.wait_for(task, 5)
    assert reply.status == "stopped"


async def test_error_keeps_the_partial_reply(sim, transport):
    sim.script([Turn("Part one. Part two. Part three.", chunks=6, fault=Disconnect(after=3))])
    chat = await new_chat(transport)
    reply = await chat.send("go", provider(sim))
    assert reply.status == "error"
    assert reply.error.name == "StreamIncompleteError"
    assert reply.content and "Part three" not in reply.content


async def test_the_text_kept_on_an_error_is_the_accumulators(sim, transport, monkeypatch):
    # A reasoning model writing its thoughts inline: the blank line after </think>
    # is no part of the reply's text (the accumulator strips it, as the finished
    # reply would); summing the deltas again would keep it, and the longer text
    # used to win when the stream broke.
    text = "<think>Plan it.</think>\n\nPart one. Part two. Part three."
    sim.script([Turn(text, chunks=8, fault=Disconnect(after=7))])
    streams = []

    async def spy(*args, **kwargs):
        streams.append(await stream(*args, **kwargs))
        return streams[-1]

    monkeypatch.setattr(chief_chat, "stream", spy)
    chat = await new_chat(transport)
    reply = await chat.send("go", provider(sim))
    assert reply.status == "error" and reply.error.name == "StreamIncompleteError"
    [result] = streams
    assert reply.content == result.partial.content
    assert reply.content.startswith("Part one. ") and "Part three" not in reply.content
    assert reply.reasoning == result.partial.reasoning == "Plan it."
    stored = (await stored_rows(chat))[-1]
    assert stored["content"] == reply.content


async def test_bad_key_is_kept_as_an_error_without_the_key(sim, transport):
    sim.script([http_error(401)])
    chat = await new_chat(transport)
    reply = await chat.send("hi", provider(sim))
    assert reply.status == "error" and reply.error.name == "AuthenticationError"
    assert reply.error.status == 401
    stored = json.dumps(await stored_rows(chat))
    assert KEY not in stored
    # an empty failed reply is not sent back to the model
    assert [m.role for m in records_to_messages(chat.records)] == ["user"]


async def test_rate_limit_is_retried(sim, transport):
    sim.script([rate_limited(1), Turn("ok now")])
    chat = await new_chat(transport)
    reply = await chat.send("hi", provider(sim))
    assert reply.status == "complete" and reply.content == "ok now"
    assert chat.sleep.calls == [1.0]


async def test_budget_trims_old_history_with_a_note(sim, transport):
    sim.script([Turn("fine")])
    chat = await new_chat(transport)
    for i in range(40):
        role = "user" if i % 2 == 0 else "assistant"
        r = ChatRecord(seq=i, role=role, content=f"message {i} " + "lorem ipsum " * 100)
        chat.records.append(r)
    p = provider(sim, context_window=8000, max_output_tokens=1000)
    reply = await chat.send("latest question", p)
    assert reply.status == "complete"
    assert reply.trimmed > 0
    msgs = sim.chat_requests[-1].json["messages"]
    assert msgs[0]["role"] == "system" and "You are Chief" in msgs[0]["content"]
    assert msgs[1]["role"] == "system" and "earlier messages trimmed" in msgs[1]["content"]
    assert msgs[-1]["content"] == "latest question"
    assert len(msgs) < 42


#: A tool whose definition is large next to the test histories below.
BIG_TOOL = ToolDefinition(
    name="big_tool", description="Reads things. " * 300, parameters={"type": "object"}
)


class BigToolbox:
    """Declares :data:`BIG_TOOL`; the scripted replies never call it."""

    def definitions(self) -> list[ToolDefinition]:
        return [BIG_TOOL]

    async def dispatch(self, call):  # pragma: no cover - never called
        raise AssertionError("no tool call expected")


def fill(chat: ChiefChat, count: int, words: int = 60) -> None:
    for i in range(count):
        role = "user" if i % 2 == 0 else "assistant"
        chat.records.append(ChatRecord(seq=i, role=role, content=f"m{i} " + "word " * words))


def window_between(chat: ChiefChat, tools: list[ToolDefinition], reserve: int) -> int:
    """A context window the history fits without ``tools`` but not with them."""
    history = estimate_tokens(chat.history())
    tools_tokens = estimate_tokens([], tools)
    assert tools_tokens > 100  # the test means something only if the tools weigh
    return reserve + history + tools_tokens // 2


async def test_budget_counts_the_tool_definitions(sim, transport):
    chat = await new_chat(transport)
    fill(chat, 20)
    window = window_between(chat, [BIG_TOOL], 1000)
    p = provider(sim, context_window=window, max_output_tokens=1000)
    without, plain = chat.prepare(p)
    assert plain.trimmed == 0 and without == chat.history()
    messages, result = chat.prepare(p, [BIG_TOOL])
    assert result.trimmed > 0 and not result.over_budget
    assert messages[1].role == "system" and "trimmed" in messages[1].text
    # What is sent (note included) passes the preflight the call will run.
    check = preflight_check(p, messages, [BIG_TOOL], max_tokens=1000)
    assert check.context_window == window
    assert check.ok, check.warning
    # The reply reserve follows the call's max_tokens, like the preflight's.
    _, bigger_reserve = chat.prepare(p, [BIG_TOOL], max_tokens=1500)
    assert bigger_reserve.trimmed > result.trimmed


async def test_a_history_that_fits_only_without_tools_is_trimmed_not_refused(sim, transport):
    sim.script([Turn("fine")])
    chat = await new_chat(transport, toolbox=BigToolbox())
    fill(chat, 20)
    # The new message is in the history when the call is prepared.
    chat.records.append(ChatRecord(seq=20, role="user", content="and one more"))
    window = window_between(chat, [BIG_TOOL], 1000)
    chat.records.pop()
    reply = await chat.send(
        "and one more", provider(sim, context_window=window, max_output_tokens=1000)
    )
    assert reply.status == "complete", reply.error
    assert reply.trimmed > 0
    body = sim.chat_requests[-1].json
    assert [t["function"]["name"] for t in body["tools"]] == ["big_tool"]
    assert "earlier messages trimmed" in body["messages"][1]["content"]
    assert body["messages"][-1]["content"] == "and one more"


async def test_budget_keeps_the_last_four_messages(sim, transport):
    """Seed 000 §13: at least the last 4 messages (2 turns) stay, even over budget."""
    assert MIN_RECENT_MESSAGES == 4
    chat = await new_chat(transport)
    fill(chat, 10, words=400)
    history = chat.history()
    p = provider(sim, context_window=1500, max_output_tokens=1000)
    _, result = chat.prepare(p)
    assert result.over_budget
    assert result.messages == [history[0], *history[-4:]]


class VirtualTime:
    """The chat's clock, and the sleeps of its autosave: time moves only when the
    test moves it, so what is written when does not depend on the machine's speed."""

    def __init__(self) -> None:
        self.now = 0.0
        self._moved = asyncio.Condition()

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        until = self.now + seconds
        if seconds <= 0:
            await REAL_SLEEP(0)
            return
        async with self._moved:
            await self._moved.wait_for(lambda: self.now >= until)

    async def advance(self, seconds: float) -> None:
        self.now += seconds
        async with self._moved:
            self._moved.notify_all()
        await REAL_SLEEP(0)


REAL_SLEEP = asyncio.sleep


async def test_saves_follow_the_stream_at_most_every_quarter_second(sim, transport, monkeypatch):
    """A streaming reply is written as it grows, but not at every chunk: at most one
    write per ``AUTOSAVE_SECONDS``; its end is written when it ends."""
    import wiggum.chief.chat as chat_module

    virtual = VirtualTime()

    class Asyncio:  # the chat module's ``asyncio``, sleeping in virtual time
        def __getattr__(self, name):
            return virtual.sleep if name == "sleep" else getattr(asyncio, name)

    monkeypatch.setattr(chat_module, "asyncio", Asyncio())
    gate = Gate()
    sim.script([Turn(Text(["xxxxx"] * 12), gate=gate)])
    storage = SpyStorage()
    times: list[float] = []
    put = storage.put_message

    async def timed(*args):
        times.append(virtual.now)
        await put(*args)

    storage.put_message = timed
    chat = await new_chat(transport, storage=storage, clock=virtual)
    sending = asyncio.create_task(chat.send("go", provider(sim)))
    # 12 chunks 50 ms apart, each handled before the next is let out (the role chunk first)
    for n in range(1, 13):
        await virtual.advance(0.05)
        gate.allow_until(1 + n)

        async def shown(n=n):
            while not chat.records or len(chat.records[-1].content) < 5 * n:
                await REAL_SLEEP(0.005)

        await asyncio.wait_for(shown(), 10)
    gate.open()
    reply = await sending
    writes = [(w, t) for w, t in zip(storage.writes, times, strict=True) if w[0] == reply.seq]
    assert writes[0][0] == (1, "streaming", 0)
    mids = [(w, t) for w, t in writes[1:-1] if w[1] == "streaming"]
    assert 1 <= len(mids) <= 4  # 12 chunks over 0.6 s
    assert [w[2] for w, _ in mids] == sorted(w[2] for w, _ in mids)
    gaps = [b - a for (_, a), (_, b) in itertools.pairwise(mids)]
    assert all(g >= AUTOSAVE_SECONDS for g in gaps), gaps
    assert writes[-1][0] == (1, "complete", 60)


async def test_save_now_writes_what_the_autosave_holds_back(sim, transport):
    """The page calls save_now when it goes away: the latest text is written at once."""
    storage = SpyStorage()
    chat = await new_chat(transport, storage=storage, autosave_seconds=60)
    reply = ChatRecord(seq=0, role="assistant", content="", status="streaming")
    chat.records.append(reply)
    for part in ("one ", "two ", "three"):
        reply.content += part
        chat._autosave(reply)
        await asyncio.sleep(0)
    assert [w[2] for w in storage.writes] == [4]  # the first at once, then held back
    await chat.save_now()
    assert storage.writes[-1] == (0, "streaming", len("one two three"))
    stored = (await stored_rows(chat))[-1]
    assert stored["content"] == "one two three"
    await chat._flush()  # the held-back writer ends without writing again
    assert len(storage.writes) == 2


async def test_a_slow_write_folds_later_chunks_into_the_next_one(sim, transport):
    class SlowStorage(SpyStorage):
        async def put_message(self, project_id, agent, seq, record):
            if record.get("status") == "streaming" and record.get("content"):
                await asyncio.sleep(0.12)
            await super().put_message(project_id, agent, seq, record)

    sim.script([Turn("x" * 50, chunks=10, delay=0.02)])
    storage = SlowStorage()
    chat = await new_chat(transport, storage=storage)
    reply = await chat.send("go", provider(sim))
    writes = [w for w in storage.writes if w[0] == reply.seq]
    mids = [w[2] for w in writes if w[1] == "streaming"][1:]
    assert 1 <= len(mids) < 10 and mids == sorted(mids)
    assert writes[-1] == (1, "complete", 50)


async def test_reload_marks_an_interrupted_reply(transport):
    storage = MemoryAppStorage()
    project = await storage.create_project("p")
    await storage.put_message(project["id"], "chief", 0, {"seq": 0, "role": "user", "content": "q"})
    await storage.put_message(
        project["id"],
        "chief",
        1,
        {"seq": 1, "role": "assistant", "content": "hal", "status": "streaming"},
    )
    chat = ChiefChat(storage, project["id"], transport=transport)
    records = await chat.load()
    assert records[1].status == "interrupted"
    assert (await storage.load_messages(project["id"], "chief"))[1]["status"] == "interrupted"


async def test_a_paused_tab_reads_a_streaming_reply_as_it_is_and_again_later(transport):
    # Another tab owns the project and streams that reply: this tab neither marks
    # it interrupted nor writes anything, and reads it again when told.
    storage = MemoryAppStorage()
    project = await storage.create_project("p")
    pid = project["id"]
    await storage.put_message(pid, "chief", 0, {"seq": 0, "role": "user", "content": "q"})
    streaming = {"seq": 1, "role": "assistant", "content": "hal", "status": "streaming"}
    await storage.put_message(pid, "chief", 1, streaming)
    writes: list[int] = []
    put = storage.put_message

    async def counted(*args):
        writes.append(args[2])
        await put(*args)

    storage.put_message = counted  # type: ignore[method-assign]
    chat = ChiefChat(storage, pid, transport=transport)
    events: list[str] = []
    chat.subscribe(lambda event, _record: events.append(event))
    records = await chat.load(recover=False)
    assert [r.status for r in records] == ["complete", "streaming"]
    await put(pid, "chief", 1, {**streaming, "content": "hallo", "status": "complete"})
    assert await chat.reread() is True
    assert (chat.records[1].content, chat.records[1].status) == ("hallo", "complete")
    assert events == ["reread"] and writes == []


async def test_context_overflow_from_the_preflight(sim, transport):
    chat = await new_chat(transport, system_prompt="")
    p = provider(sim, context_window=50, max_output_tokens=10)
    reply = await chat.send("word " * 500, p)
    assert reply.status == "error" and reply.error.name == "ContextOverflowError"
    assert sim.chat_requests == []


async def test_cannot_send_twice_at_once(sim, transport):
    sim.script([Turn("slow", chunks=4, delay=0.1)])
    chat = await new_chat(transport)
    task = asyncio.create_task(chat.send("a", provider(sim)))
    await asyncio.sleep(0.05)
    with pytest.raises(RuntimeError):
        await chat.send("b", provider(sim))
    await task


# ------------------------------------------------------------- records <-> messages


def test_records_round_trip_messages_with_tools():
    call = ParsedToolCall(
        id="call_1", name="read_file", args={"path": "index.html"}, raw_args='{"path":"index.html"}'
    )
    history = [
        Message.user("Look at the page"),
        Message(
            role="assistant",
            content="Reading it.",
            tool_calls=[call],
            reasoning="I should read",
            thinking=[ThinkingBlock(text="I should read", signature="sig==")],
        ),
        Message.tool("call_1", "<h1>Hi</h1>", name="read_file"),
        Message.tool("call_x", "oops", name="list_files", is_error=True),
        Message.assistant("It says Hi."),
    ]
    records = [ChatRecord.from_message(m, i) for i, m in enumerate(history)]
    stored = [json.loads(json.dumps(r.to_storage())) for r in records]
    back = [ChatRecord.from_storage(d) for d in stored]
    assert [r.to_message() for r in back] == history
    # The history sent fences the tool's result as data; the record keeps it bare.
    sent = records_to_messages(back)
    assert sent[2].content == '<tool_output tool="read_file">\n<h1>Hi</h1>\n</tool_output>'
    assert sent[:2] + sent[3:] == history[:2] + history[3:]


def test_unanswered_tool_calls_and_empty_replies_are_left_out():
    call = ParsedToolCall(id="c9", name="list_files", args={})
    records = [
        ChatRecord(seq=0, role="user", content="q"),
        ChatRecord(seq=1, role="assistant", content="", status="error"),
        ChatRecord(seq=2, role="user", content="again"),
        ChatRecord(
            seq=3, role="assistant", content="Let me look", tool_calls=[call], status="stopped"
        ),
    ]
    msgs = records_to_messages(records)
    # "q" got no answer and "again" follows: the model never saw it (issue 14).
    assert [m.text for m in msgs] == ["again", "Let me look"]
    assert msgs[-1].tool_calls == [] and msgs[-1].content == "Let me look"


def test_record_repr_hides_text():
    r = ChatRecord(seq=0, role="user", content="my secret plan", usage=UsageData(total_tokens=3))
    assert "secret" not in repr(r)


async def test_replay_transport_works_too():
    body = (
        b'data: {"choices":[{"index":0,"delta":{"content":"Hi"}}]}\n\n'
        b'data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n'
    )
    t = ReplayTransport(ReplayResponse([body], headers={"content-type": "text/event-stream"}))
    chat = await new_chat(t)
    p = ProviderConfig(id="r", kind="openai", base_url="https://api.example/v1", model="gpt-4o")
    reply = await chat.send("hello", p)
    assert reply.content == "Hi" and reply.status == "complete"
    assert reply.usage is None


# --------------------------------------------------------------------------- forgiving turns


def user_texts(body: dict) -> list[str]:
    return [m["content"] for m in body["messages"] if m["role"] == "user"]


async def test_retry_sends_the_failed_message_exactly_once(sim, transport):
    sim.script([http_error(500, "boom"), http_error(500), http_error(500), http_error(500)])
    sim.script([Turn("Second time lucky.")])
    chat = await new_chat(transport)
    p = provider(sim)
    failed = await chat.send("plan a bakery site", p, options=RequestOptions(max_retries=3))
    assert failed.status == "error" and chat.can_retry()
    reply = await chat.retry(p)
    assert reply.status == "complete" and reply.content == "Second time lucky."
    assert user_texts(sim.chat_requests[-1].json) == ["plan a bakery site"]
    assert failed.superseded and not chat.can_retry()
    stored = await stored_rows(chat)
    assert [r.get("superseded", False) for r in stored] == [False, True, False]
    # The next turn does not carry the superseded reply either.
    sim.script([Turn("ok")])
    await chat.send("thanks", p)
    body = sim.chat_requests[-1].json
    assert user_texts(body) == ["plan a bakery site", "thanks"]
    assert [m["role"] for m in body["messages"]] == [
        "system",
        "user",
        "assistant",
        "user",
    ]


async def test_a_new_message_after_a_failed_turn_does_not_resend_it(sim, transport):
    sim.script([http_error(401, "bad key")])
    chat = await new_chat(transport)
    p = provider(sim)
    await chat.send("first try", p)
    sim.script([Turn("Hello.")])
    await chat.send("second", p)
    body = sim.chat_requests[-1].json
    assert [m["role"] for m in body["messages"]] == ["system", "user"]
    assert user_texts(body) == ["second"]


def test_a_note_and_the_persons_words_stay_one_turn():
    recs = [
        ChatRecord(seq=0, role="user", content="Ralph finished", note=True),
        ChatRecord(seq=1, role="user", content="looks good?"),
        ChatRecord(seq=2, role="assistant", content="Yes."),
        ChatRecord(seq=3, role="user", content="lost", status="complete"),
        ChatRecord(seq=4, role="assistant", content="", status="error"),
        ChatRecord(seq=5, role="user", content="again"),
    ]
    assert [m.text for m in records_to_messages(recs)] == [
        "Ralph finished",
        "looks good?",
        "Yes.",
        "again",
    ]


async def test_retry_wait_is_told_then_cleared(sim, transport):
    sim.script([rate_limited(3), Turn("after the wait")])
    chat = await new_chat(transport)
    seen: list[tuple[float, str] | None] = []
    chat.subscribe(lambda ev, r: seen.append(chat.retry_wait) if ev == "retry-wait" else None)
    reply = await chat.send("hi", provider(sim))
    assert reply.content == "after the wait"
    assert seen == [(3.0, "RateLimitError"), None]


async def test_idle_stream_ends_the_turn_and_keeps_the_partial(sim, transport):
    sim.script([Turn("Half an answer and then", chunks=4, fault=Stall(after=3))])
    chat = await new_chat(transport)
    reply = await chat.send("hi", provider(sim), options=RequestOptions(idle_timeout=0.3))
    assert reply.status == "error" and reply.error.name == "StreamIdleError"
    assert reply.content and "Half an answer and then".startswith(reply.content)
    assert chat.can_retry()


async def test_regenerate_keeps_the_previous_answer_as_an_alternative(sim, transport):
    sim.script([Turn("First answer."), Turn("Second answer.")])
    chat = await new_chat(transport)
    p = provider(sim)
    first = await chat.send("name my bakery", p)
    second = await chat.regenerate(p)
    assert second.content == "Second answer." and first.superseded
    assert user_texts(sim.chat_requests[-1].json) == ["name my bakery"]
    assert [m["role"] for m in sim.chat_requests[-1].json["messages"]] == ["system", "user"]
    assert chat.alternatives(second.seq) == [first.seq, second.seq]
    await chat.switch(first.seq)
    assert [r.content for r in chat.records if not r.superseded] == [
        "name my bakery",
        "First answer.",
    ]
    # Kept across a reload.
    again = ChiefChat(chat.saver.storage, chat.saver.project_id, transport=transport)
    await again.load()
    assert [r.content for r in again.records if not r.superseded] == [
        "name my bakery",
        "First answer.",
    ]
    assert again.alternatives(first.seq) == [first.seq, second.seq]


async def test_edit_resends_from_there_and_keeps_the_earlier_branch(sim, transport):
    sim.script([Turn("A."), Turn("B."), Turn("B edited.")])
    chat = await new_chat(transport)
    p = provider(sim)
    await chat.send("one", p)
    await chat.send("two", p)
    old = next(r for r in chat.records if r.content == "two")
    reply = await chat.edit(old.seq, "two, but better", p)
    assert reply.content == "B edited."
    assert user_texts(sim.chat_requests[-1].json) == ["one", "two, but better"]
    shown = [r.content for r in chat.records if not r.superseded]
    assert shown == ["one", "A.", "two, but better", "B edited."]
    new = next(r for r in chat.records if r.content == "two, but better")
    assert chat.alternatives(new.seq) == [old.seq, new.seq]
    await chat.switch(old.seq)
    assert [r.content for r in chat.records if not r.superseded] == ["one", "A.", "two", "B."]


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    return "".join(b.get("text", "") for b in content if isinstance(b, dict))


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
async def test_continue_appends_to_the_cut_off_reply(sim, transport, kind):
    from wiggum.chief.continuation import CONTINUE_NOTE

    sim.script([Turn("word " * 40, chunks=40, delay=0.05)])
    chat = await new_chat(transport)
    p = provider(sim, kind)
    seen = asyncio.Event()
    chat.subscribe(lambda ev, r: ev == "delta" and len(r.content) >= 10 and seen.set())
    task = asyncio.create_task(chat.send("write words", p))
    await asyncio.wait_for(seen.wait(), 5)
    chat.stop()
    cut = await asyncio.wait_for(task, 5)
    assert cut.status == "stopped" and chat.can_continue()
    partial = cut.content
    sim.script([Turn(" and the rest.")])
    reply = await chat.continue_reply(p)
    assert reply is cut and reply.status == "complete"
    sent = sim.chat_requests[-1].json["messages"]
    if kind == "anthropic":  # a prefill: the partial is the last message, the model writes on
        assert sent[-1]["role"] == "assistant"
        assert _text_of(sent[-1]["content"]) == partial.rstrip()
        assert reply.content == partial.rstrip() + " and the rest."
    else:  # the partial, then an instruction to go on
        assert [m["role"] for m in sent[-2:]] == ["assistant", "user"]
        assert _text_of(sent[-2]["content"]) == partial
        assert _text_of(sent[-1]["content"]) == CONTINUE_NOTE
        assert reply.content == partial + " and the rest."
    assert not chat.can_continue()
    stored = (await stored_rows(chat))[-1]
    assert stored["status"] == "complete" and stored["content"] == reply.content


async def test_nothing_to_continue_after_a_complete_or_empty_reply(sim, transport):
    sim.script([Turn("All done.")])
    chat = await new_chat(transport)
    await chat.send("hi", provider(sim))
    assert not chat.can_continue()
    with pytest.raises(RuntimeError):
        await chat.continue_reply(provider(sim))
