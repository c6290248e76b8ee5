""".ralph/ state files and the budgeted context builder."""

from __future__ import annotations

import json

import pytest

from tests.ralph.script import PROVIDER
from wiggum.fs import MemoryFileStore
from wiggum.llm import ContextOverflowError, Message, ParsedToolCall, ProviderConfig, UsageData
from wiggum.ralph import RalphStatus
from wiggum.ralph.context import ContextBuilder, StateSnapshot, head_tail
from wiggum.ralph.prompt import build_system_prompt
from wiggum.ralph.state import (
    PLAN,
    PROGRESS,
    STATUS,
    TASK,
    RalphState,
    StatusRecord,
    UsageLedger,
    format_status,
    parse_status,
)
from wiggum.tools import default_tools

# ------------------------------------------------------------------ state


def test_status_round_trip():
    record = StatusRecord(
        status=RalphStatus.RUNNING,
        iteration=3,
        run_id="abc",
        max_iterations=20,
        started=1.5,
        updated=2.25,
        gate_failures={"local_refs": 2},
        error="multi\nline  error",
    )
    text = format_status(record)
    assert text.splitlines()[:2] == ["status: running", "iteration: 3"]
    back = parse_status(text)
    assert back.in_progress and back.iteration == 3 and back.run_id == "abc"
    assert back.gate_failures == {"local_refs": 2} and back.error == "multi line error"
    assert back.started == 1.5 and back.updated == 2.25


def test_parse_status_rejects_garbage():
    assert parse_status("") is None
    assert parse_status("running\n") is None
    assert parse_status("status: bogus\niteration: 1") is None
    lenient = parse_status("status: complete\niteration: 2\ngate_failures: {bad")
    assert lenient.status is RalphStatus.COMPLETE and lenient.gate_failures == {}


async def test_a_fresh_start_clears_his_memory_but_not_the_project():
    fs = MemoryFileStore()
    await fs.write_text("index.html", "site")
    await fs.write_text(PLAN, "old plan")
    await fs.write_text(".ralph/reflections.md", "## Run a (complete)\n")
    await fs.write_text(".ralph/tmp/shell-1.txt", "old output")
    state = RalphState(fs, now=lambda: 100.0)
    record = await state.start_run("New task", 7, fresh=True)
    assert await fs.read_text(TASK) == "New task"
    assert not await fs.exists(PLAN) and not await fs.exists(".ralph/tmp")
    assert not await fs.exists(".ralph/reflections.md")
    assert await fs.read_text("index.html") == "site"
    on_disk = await state.status()
    assert on_disk.run_id == record.run_id and on_disk.iteration == 0
    assert on_disk.max_iterations == 7 and on_disk.updated == 100.0


async def test_a_follow_up_keeps_his_memory_and_appends_the_task_to_his_plan():
    fs = MemoryFileStore()
    await fs.write_text(TASK, "Build the home page.")
    await fs.write_text(PLAN, "- [x] home page")
    await fs.write_text(PROGRESS, "- iteration 1: home page done")
    await fs.write_text(".ralph/tmp/shell-1.txt", "old output")
    state = RalphState(fs, now=lambda: 100.0)
    await state.start_run("Add a contact page.", 7)
    assert await fs.read_text(TASK) == "Add a contact page."
    plan = await fs.read_text(PLAN)
    assert plan.startswith("- [x] home page") and plan.rstrip().endswith("Add a contact page.")
    assert await fs.read_text(PROGRESS) == "- iteration 1: home page done"
    assert await fs.read_text(".ralph/tasks.md") == "Build the home page.\n"
    assert await fs.read_text(".ralph/tmp/shell-1.txt") == "old output"


async def test_state_reads_missing_files_as_empty():
    state = RalphState(MemoryFileStore())
    assert await state.plan() == "" and await state.status() is None
    assert (await state.usage()).iterations == []


async def test_usage_ledger_accumulates_per_iteration_and_round_trips():
    ledger = UsageLedger()
    u = UsageData(prompt_tokens=10, completion_tokens=5, total_tokens=15, cost=0.5)
    ledger.add(1, u, "m", 1.0)
    ledger.add(1, u, "m", 2.0)
    ledger.add(2, u.model_copy(update={"prompt_tokens": 7}), "m", 3.0)
    assert ledger.last.prompt_tokens == 7  # the latest call alone
    assert [e.usage.total_tokens for e in ledger.iterations] == [30, 15]
    assert ledger.total.total_tokens == 45 and ledger.total.cost == 1.5
    fs = MemoryFileStore()
    state = RalphState(fs)
    await state.write_usage(ledger)
    back = await state.usage()
    assert back.total == ledger.total and back.iterations == ledger.iterations
    assert back.last == ledger.last
    # usage.json written before "last" existed still reads
    await fs.write_text(".ralph/usage.json", '{"iterations": [], "total": null}')
    assert (await state.usage()).last is None
    await fs.write_text(".ralph/usage.json", "{not json")
    assert (await state.usage()).total is None
    assert await fs.exists(".ralph/usage.json")
    assert STATUS.startswith(".ralph/")


# ------------------------------------------------------------------ context


def small(window: int) -> ProviderConfig:
    return PROVIDER.model_copy(update={"context_window": window, "max_output_tokens": 1000})


def builder(fs, window, **kw):
    tools = [t.definition() for t in default_tools()]
    return ContextBuilder(small(window), build_system_prompt(tools), tools, fs, **kw)


def tool_turn(n: int, size: int) -> list[Message]:
    call = ParsedToolCall(id=f"c{n}", name="shell", args={"command": f"cat big{n}"})
    return [
        Message.assistant("", [call]),
        Message.tool(f"c{n}", f"output {n} " + "x" * size, "shell"),
    ]


async def test_context_layout():
    fs = MemoryFileStore()
    b = builder(fs, 128_000)
    snap = StateSnapshot(
        task="Build it", plan="- [ ] a", progress="did b", feedback="fix c", files=["index.html"]
    )
    built = await b.build(2, 9, snap, tool_turn(1, 10))
    system, user, assistant, tool = built.messages
    assert system.role == "system"
    assert ".ralph/progress.md" in system.text and "index.html" in system.text
    for needle in (
        "Iteration 2 of 9",
        "Build it",
        "NOW -> step 1 of 1: a",
        "did b",
        "fix c",
        "index.html",
    ):
        assert needle in user.text
    assert assistant.tool_calls[0].id == "c1" and tool.tool_call_id == "c1"
    assert built.elided == 0 and built.shrunk == []


async def test_oldest_tool_results_are_elided_first_with_a_saved_copy():
    fs = MemoryFileStore()
    pressure = []
    b = builder(fs, 8_000, on_pressure=lambda *a: pressure.append(a))
    transcript = tool_turn(1, 24_000) + tool_turn(2, 24_000) + tool_turn(3, 2_000)
    built = await b.build(1, 5, StateSnapshot(task="t"), transcript)
    assert built.preflight.ok
    tools = [m for m in built.messages if m.role == "tool"]
    assert tools[0].text.startswith("[Output of shell") and "elided" in tools[0].text
    assert tools[1].text.startswith("[Output of shell")
    assert tools[2].text.startswith("output 3")  # the newest survived
    saved = tools[0].text.split("full copy in ")[1].split(".txt")[0] + ".txt"
    assert (await fs.read_text(saved)).startswith("output 1 ")
    # The elision is kept in the transcript: the next call does not redo it.
    assert transcript[1].text == tools[0].text
    again = await b.build(1, 5, StateSnapshot(task="t"), transcript)
    assert again.elided == 2 and len(await fs.list(".ralph/tmp")) == 2


async def test_elided_output_already_saved_points_at_its_copy():
    fs = MemoryFileStore()
    b = builder(fs, 8_000)
    text = "head\n" + "y" * 40_000 + "\nFull output saved to: .ralph/tmp/shell-1.txt\nUse grep"
    call = ParsedToolCall(id="c1", name="shell", args={"command": "cat x"})
    transcript = [Message.assistant("", [call]), Message.tool("c1", text, "shell")]
    built = await b.build(1, 5, StateSnapshot(task="t"), transcript)
    assert "full copy in .ralph/tmp/shell-1.txt" in built.messages[-1].text
    assert not await fs.exists(".ralph/tmp")  # nothing saved twice


def write_turn(n: int, size: int, *, answered: bool = True) -> list[Message]:
    body = f"<!-- page {n} -->" + "w" * size
    call = ParsedToolCall(
        id=f"w{n}",
        name="write_file",
        args={"path": f"page{n}.html", "content": body},
        raw_args=json.dumps({"path": f"page{n}.html", "content": body}),
    )
    turn = [Message.assistant("", [call])]
    if answered:
        turn.append(Message.tool(f"w{n}", f"wrote page{n}.html", "write_file"))
    return turn


async def test_bulky_arguments_of_calls_that_ran_are_slimmed_oldest_first():
    fs = MemoryFileStore()
    b = builder(fs, 8_000)
    transcript = write_turn(1, 20_000) + write_turn(2, 20_000) + write_turn(3, 4_000)
    built = await b.build(1, 5, StateSnapshot(task="t"), transcript)
    assert built.preflight.ok and built.slimmed == 2 and built.shrunk == []
    calls = [m.tool_calls[0] for m in built.messages if m.role == "assistant"]
    first = calls[0]
    assert first.args["path"] == "page1.html"
    assert first.args["content"].startswith("[elided to fit the context window: 20")
    assert "read page1.html" in first.args["content"]
    assert json.loads(first.raw_args) == first.args  # what the OpenAI dialect sends back
    assert calls[2].args["content"].startswith("<!-- page 3 -->")  # the newest fitted
    # Kept in the transcript, counted again on the next build, never redone.
    again = await b.build(1, 5, StateSnapshot(task="t"), transcript)
    assert again.slimmed == 2 and again.messages == built.messages


async def test_tool_results_go_before_arguments_and_unanswered_calls_are_kept():
    fs = MemoryFileStore()
    b = builder(fs, 8_000)
    # The tool output alone is enough to elide: the call's argument stays whole.
    transcript = write_turn(1, 3_000) + tool_turn(2, 30_000)
    built = await b.build(1, 5, StateSnapshot(task="t"), transcript)
    assert built.elided == 1 and built.slimmed == 0
    # A call without a result has not run: its arguments are the only copy.
    pending = write_turn(1, 60_000, answered=False)
    with pytest.raises(ContextOverflowError):
        await b.build(1, 5, StateSnapshot(task="t"), pending)
    assert pending[0].tool_calls[0].args["content"].startswith("<!-- page 1 -->")


async def test_long_progress_is_cut_to_head_and_tail_after_tool_results():
    fs = MemoryFileStore()
    b = builder(fs, 10_000)
    progress = "\n".join(f"- step {i}: " + "z" * 60 for i in range(800))
    built = await b.build(1, 5, StateSnapshot(task="t", progress=progress), tool_turn(1, 1_000))
    assert built.shrunk[0] == "progress" and built.elided == 1
    user = built.messages[1].text
    assert "- step 0:" in user and "- step 799:" in user and "- step 400:" not in user
    assert "left out here to fit the context window" in user


async def test_overflow_when_nothing_more_can_be_shrunk():
    fs = MemoryFileStore()
    b = builder(fs, 3_000)
    with pytest.raises(ContextOverflowError):
        await b.build(1, 5, StateSnapshot(task="t" * 40_000), [])


async def test_context_pressure_is_reported_under_ten_percent_headroom():
    fs = MemoryFileStore()
    pressure = []
    b = builder(fs, 8_000, on_pressure=lambda *a: pressure.append(a))
    await b.build(1, 5, StateSnapshot(task="t"), [])
    assert pressure == []
    base = (await b.build(1, 5, StateSnapshot(), [])).preflight
    room = base.budget_remaining * 4  # characters that still fit
    await b.build(1, 5, StateSnapshot(task="a" * int(room * 0.95)), [])
    estimated, window, headroom = pressure[-1]
    assert window == 8_000 and 0 <= headroom < 0.1 and estimated > 0


def test_head_tail():
    text = "\n".join(f"line {i}" for i in range(1000))
    cut = head_tail(text, 500, ".ralph/progress.md", 0.3)
    assert len(cut) < 700 and cut.startswith("line 0") and cut.endswith("line 999")
    assert head_tail("short", 500, "x") == "short"
