"""Loop behaviours: stalls, empty and malformed replies, budgets, cancel, resume."""

from __future__ import annotations

import asyncio
import json
import logging

import pytest

from tests.ralph.script import PROVIDER, Recorder, Script, completion, sent_messages, transport
from wiggum.fs import MemoryFileStore
from wiggum.llm import AbortController
from wiggum.llm.transport import ReplayResponse
from wiggum.ralph import (
    RalphConfig,
    RalphLoop,
    RalphStalledError,
    RalphStatus,
    RunRequest,
    parse_status,
)
from wiggum.ralph.gates import EntryPageGate

SITE = "<!doctype html><title>x</title><p>hi</p>"


async def no_sleep(_seconds):
    return None


def make(fs, t, rec=None, **config):
    config.setdefault("sleep", no_sleep)
    return RalphLoop(
        PROVIDER,
        fs,
        config=RalphConfig(**config),
        callbacks=rec.callbacks() if rec else None,
        transport=t,
        gates=[EntryPageGate()],
    )


async def status(fs):
    return parse_status(await fs.read_text(".ralph/status.txt"))


# ------------------------------------------------------------------ stalls


async def test_stall_thresholds_exactly(caplog):
    s = Script()
    same = ("shell", {"command": "ls"})
    # 1, 2 (warning), 3 (feedback, iteration ends), 4 (new iteration: still the same), 5 stop.
    t = transport(*(s.reply("", same) for _ in range(5)))
    fs = MemoryFileStore()
    rec = Recorder()
    caplog.set_level(logging.WARNING, "wiggum.ralph")
    result = await make(fs, t, rec, max_iterations=10).run(RunRequest("Build."))

    assert result.status is RalphStatus.STALLED
    assert "same tool calls 5 times" in result.error
    stall_logs = [r for r in caplog.records if r.getMessage() == "llm:stall-detected"]
    assert [r.llm["consecutive"] for r in stall_logs] == [2, 3, 4, 5]
    assert [c for c, _ in rec.of("on_stall")] == [3, 4, 5]
    # Calls 1 and 2 ran; from 3 on the identical calls are not run again.
    assert len(rec.of("on_tool_call")) == 2
    # The third identical reply ended iteration 1 with stall feedback in the file, the
    # fourth ended iteration 2, the fifth (first call of iteration 3) stopped the run...
    assert result.iterations == 3
    sent = sent_messages(t, 3)[1]["content"]
    assert "Stall detected" in sent and "Iteration 2" in sent
    # ... and counted as a gate failure; the second one got the auto-patch wording.
    st = await status(fs)
    assert st.status is RalphStatus.STALLED and st.gate_failures["stall"] == 2
    assert "AUTO-PATCH" in await fs.read_text(".ralph/feedback.md")
    errors = rec.of("on_error")
    assert len(errors) == 1 and isinstance(errors[0][0], RalphStalledError)


async def test_warning_only_at_two():
    s = Script()
    same = ("shell", {"command": "ls"})
    t = transport(
        s.reply("", same),
        s.reply("", same),
        s.reply("", ("shell", {"command": "pwd"})),
        s.reply("", ("write_file", {"path": "index.html", "content": SITE})),
        s.reply(completion()),
    )
    rec = Recorder()
    result = await make(MemoryFileStore(), t, rec).run(RunRequest("Build."))
    assert result.status is RalphStatus.COMPLETE
    assert rec.of("on_stall") == []


async def test_differing_calls_never_stall():
    s = Script()
    replies = [s.reply("", ("shell", {"command": f"echo {i}"})) for i in range(12)]
    replies += [
        s.reply("", ("write_file", {"path": "index.html", "content": SITE})),
        s.reply(completion()),
    ]
    rec = Recorder()
    result = await make(MemoryFileStore(), transport(*replies), rec).run(RunRequest("Build."))
    assert result.status is RalphStatus.COMPLETE
    assert rec.of("on_stall") == []
    assert len(rec.of("on_tool_call")) == 13


# ------------------------------------------------------------------ empty / malformed


async def test_empty_reply_gets_feedback_and_one_retry():
    s = Script()
    t = transport(
        s.reply(""),  # empty with finish_reason stop: returned, not raised
        s.reply("", ("write_file", {"path": "index.html", "content": SITE})),
        s.reply(completion()),
    )
    fs = MemoryFileStore()
    result = await make(fs, t).run(RunRequest("Build."))
    assert result.status is RalphStatus.COMPLETE and result.iterations == 1
    # The retry's context shows the empty-reply feedback.
    assert "Empty reply" in sent_messages(t, 1)[1]["content"]


async def test_two_empty_replies_end_the_run():
    s = Script()
    t = transport(s.reply(""), s.reply(""))
    result = await make(MemoryFileStore(), t).run(RunRequest("Build."))
    assert result.status is RalphStatus.ERROR
    assert "empty reply twice" in result.error


async def test_malformed_call_answered_with_error_and_valid_ones_run():
    s = Script()
    t = transport(
        s.reply(
            "",
            ("write_file", '{"path": "index.html", "content": '),  # unparseable
            ("write_file", {"path": "index.html", "content": SITE}),
        ),
        s.reply(completion()),
    )
    fs = MemoryFileStore()
    rec = Recorder()
    result = await make(fs, t, rec).run(RunRequest("Build."))
    assert result.status is RalphStatus.COMPLETE
    calls = rec.of("on_tool_call")
    assert calls[0][4] is True and "Error:" in calls[0][3]
    assert calls[1][4] is False
    tool_msgs = [m for m in sent_messages(t, 1) if m["role"] == "tool"]
    assert len(tool_msgs) == 2
    assert tool_msgs[0]["content"].startswith("Error:")


async def test_nameless_tool_calls_are_answered_not_raised():
    s = Script()
    t = transport(
        s.reply("", ("", {"path": "x"})),  # the client raises MalformedToolCallError
        s.reply("", ("write_file", {"path": "index.html", "content": SITE})),
        s.reply(completion()),
    )
    rec = Recorder()
    # max_retries=0: otherwise the client retries the malformed reply itself.
    result = await make(MemoryFileStore(), t, rec, max_retries=0).run(RunRequest("Build."))
    assert result.status is RalphStatus.COMPLETE
    assert "missing function name" in rec.of("on_tool_call")[0][3]


async def test_all_malformed_replies_end_the_iteration_with_feedback():
    s = Script()
    bad = [s.reply("", ("write_file", f'{{"path": "a{i}.html", "content": ')) for i in range(3)]
    t = transport(
        *bad,
        s.reply("", ("write_file", {"path": "index.html", "content": SITE})),
        s.reply(completion()),
    )
    fs = MemoryFileStore()
    result = await make(fs, t, max_malformed_replies=3).run(RunRequest("Build."))
    assert result.status is RalphStatus.COMPLETE and result.iterations == 2
    assert "Broken tool calls" in sent_messages(t, 3)[1]["content"]


async def test_truncated_tool_call_is_refused():
    s = Script()
    t = transport(
        s.reply(
            "",
            ("write_file", '{"path": "index.html", "content": "<html><bo'),
            finish="length",
        ),
        s.reply("", ("write_file", {"path": "index.html", "content": SITE})),
        s.reply(completion()),
    )
    fs = MemoryFileStore()
    rec = Recorder()
    result = await make(fs, t, rec).run(RunRequest("Build."))
    assert result.status is RalphStatus.COMPLETE
    first = rec.of("on_tool_call")[0]
    assert first[4] is True and "cut off" in first[3]
    # Nothing half-written was ever stored: the only write is the complete one.
    assert await fs.read_text("index.html") == SITE


# ------------------------------------------------------------------ limits


async def test_max_iterations():
    s = Script()
    # Claims completion each time without ever creating index.html.
    t = transport(*(s.reply(completion()) for _ in range(3)))
    fs = MemoryFileStore()
    rec = Recorder()
    result = await make(fs, t, rec, max_iterations=3).run(RunRequest("Build."))
    assert result.status is RalphStatus.MAX_ITERATIONS
    assert result.iterations == 3 and "3 iterations" in result.error
    st = await status(fs)
    assert st.status is RalphStatus.MAX_ITERATIONS and st.iteration == 3
    # entry_page failed 3 times: from the second time on the feedback is the auto-patch.
    assert st.gate_failures == {"entry_page": 3}
    assert (
        "AUTO-PATCH: the entry_page check has failed 2 times" in sent_messages(t, 2)[1]["content"]
    )
    assert rec.of("on_complete") == []


async def test_max_tool_calls_per_iteration():
    s = Script()
    t = transport(
        s.reply("", ("shell", {"command": "echo 1"}), ("shell", {"command": "echo 2"})),
        s.reply("", ("shell", {"command": "echo 3"}), ("shell", {"command": "echo 4"})),
        s.reply("", ("write_file", {"path": "index.html", "content": SITE})),
        s.reply(completion()),
    )
    rec = Recorder()
    result = await make(MemoryFileStore(), t, rec, max_tool_calls_per_iteration=3).run(
        RunRequest("Build.")
    )
    assert result.status is RalphStatus.COMPLETE and result.iterations == 2
    # echo 4 was over budget: not run, and iteration 2 was told why.
    assert [c[2]["command"] for c in rec.of("on_tool_call")[:3]] == ["echo 1", "echo 2", "echo 3"]
    assert len(rec.of("on_tool_call")) == 4
    assert "Tool-call budget spent" in sent_messages(t, 2)[1]["content"]


# ------------------------------------------------------------------ errors


async def test_provider_error_is_an_error_status_with_a_human_message():
    body = json.dumps({"error": {"message": "Invalid API key", "type": "invalid_request_error"}})
    t = transport(ReplayResponse(body.encode(), 401, {"content-type": "application/json"}))
    rec = Recorder()
    fs = MemoryFileStore()
    result = await make(fs, t, rec).run(RunRequest("Build."))
    assert result.status is RalphStatus.ERROR
    assert "API key" in result.error
    assert len(t.requests) == 1  # not retried by the loop
    assert len(rec.of("on_error")) == 1
    assert (await status(fs)).status is RalphStatus.ERROR


async def test_no_task_and_nothing_to_resume():
    result = await make(MemoryFileStore(), transport()).run(RunRequest(None, resume=True))
    assert result.status is RalphStatus.ERROR and "resume" in result.error


# ------------------------------------------------------------------ cancellation


class GatedTransport:
    """Replays replies but blocks on one request until released (or cancelled)."""

    def __init__(self, replies, block_at: int) -> None:
        self.inner = transport(*replies)
        self.block_at = block_at
        self.reached = asyncio.Event()
        self.requests = self.inner.requests

    async def send(self, request):
        if len(self.inner.requests) == self.block_at:
            self.reached.set()
            await asyncio.Event().wait()  # forever: only a cancel ends it
        return await self.inner.send(request)


async def test_abort_mid_iteration_leaves_consistent_files():
    s = Script()
    t = GatedTransport(
        [
            s.reply("", ("write_file", {"path": "index.html", "content": SITE})),
            s.reply("", ("write_file", {"path": "notes.txt", "content": "x"})),
            s.reply(completion()),  # never reached in iteration 1 ...
        ],
        block_at=1,
    )
    fs = MemoryFileStore()
    ctl = AbortController()
    rec = Recorder()
    loop = make(fs, t, rec, signal=ctl.signal)
    task = asyncio.create_task(loop.run(RunRequest("Build.")))
    await t.reached.wait()
    ctl.abort("stop pressed")
    result = await task
    assert result.status is RalphStatus.CANCELLED
    st = await status(fs)
    assert st.status is RalphStatus.CANCELLED
    assert st.iteration == 0  # iteration 1 never finished
    assert await fs.read_text("index.html") == SITE  # the completed call's file is whole
    assert rec.of("on_status")[-1] == (RalphStatus.CANCELLED, 0)


async def test_task_cancel_records_cancelled_and_reraises():
    s = Script()
    t = GatedTransport([s.reply("", ("shell", {"command": "ls"}))], block_at=1)
    fs = MemoryFileStore()
    task = asyncio.create_task(make(fs, t).run(RunRequest("Build.")))
    await t.reached.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    st = await status(fs)
    assert st.status is RalphStatus.CANCELLED and st.iteration == 0


async def test_cancel_at_every_await_point_leaves_parseable_state():
    """Cancel after k event-loop steps for many k: status always parses, never half-written."""
    for k in range(0, 60, 3):
        s = Script()
        t = transport(
            s.reply("", ("write_file", {"path": "index.html", "content": SITE})),
            s.reply(completion()),
        )
        fs = MemoryFileStore()
        task = asyncio.create_task(make(fs, t).run(RunRequest("Build.")))
        for _ in range(k):
            await asyncio.sleep(0)
        task.cancel()
        try:
            result = await task
        except asyncio.CancelledError:
            result = None
        if await fs.exists(".ralph/status.txt"):
            st = await status(fs)
            assert st is not None
            if result is None:
                assert st.status in (RalphStatus.CANCELLED, RalphStatus.RUNNING)
            if st.status is RalphStatus.COMPLETE:
                assert await fs.read_text("index.html") == SITE


# ------------------------------------------------------------------ resume


async def test_resume_after_reload_continues_at_next_iteration():
    s = Script()
    fs = MemoryFileStore()
    # First page life: iteration 1 fails the entry gate, then the page reloads mid-iteration 2.
    t1 = GatedTransport(
        [
            s.reply(
                "",
                ("shell", {"command": "echo '- iteration 1: wrote notes' >> .ralph/progress.md"}),
            ),
            s.reply(completion()),
        ],
        block_at=2,
    )
    first = asyncio.create_task(make(fs, t1, max_iterations=5).run(RunRequest("Build a page.")))
    await t1.reached.wait()
    first.cancel()
    with pytest.raises(asyncio.CancelledError):
        await first
    st = await status(fs)
    assert st.iteration == 1 and st.gate_failures == {"entry_page": 1}
    run_id = st.run_id

    # Second page life: resume.
    t2 = transport(
        s.reply("", ("write_file", {"path": "index.html", "content": SITE})),
        s.reply(completion()),
    )
    rec = Recorder()
    result = await make(fs, t2, rec, max_iterations=5).run(RunRequest(None, resume=True))
    assert result.status is RalphStatus.COMPLETE
    assert result.iterations == 2
    assert rec.of("on_iteration_start") == [(2, 5)]
    context = sent_messages(t2, 0)[1]["content"]
    assert "Iteration 2 of 5" in context
    assert "Build a page." in context and "iteration 1: wrote notes" in context
    assert "entry_page" in context  # the feedback of iteration 1 survived the reload
    st = await status(fs)
    assert st.run_id == run_id and st.status is RalphStatus.COMPLETE
    # Usage of both page lives is in usage.json.
    usage = json.loads(await fs.read_text(".ralph/usage.json"))
    assert [e["iteration"] for e in usage["iterations"]] == [1, 2]
    assert usage["total"]["total_tokens"] == 4 * 120


async def test_llm_lock_is_held_around_each_call():
    s = Script()
    t = transport(
        s.reply("", ("write_file", {"path": "index.html", "content": SITE})),
        s.reply(completion()),
    )
    entered = []

    class Lock:
        async def __aenter__(self):
            entered.append(len(t.requests))

        async def __aexit__(self, *exc):
            return False

    loop = RalphLoop(
        PROVIDER, MemoryFileStore(), transport=t, gates=[EntryPageGate()], llm_lock=Lock()
    )
    result = await loop.run(RunRequest("Build."))
    assert result.status is RalphStatus.COMPLETE
    assert entered == [0, 1]


# ------------------------------------------------------------------ .ralph/tmp between runs

BIG = "".join(f"line {n}\n" for n in range(3000))  # over the 2000-line cut: saved in full


async def test_a_new_run_keeps_the_tmp_folder_and_numbers_past_it():
    s = Script()
    fs = MemoryFileStore({"big.txt": BIG, ".ralph/tmp/shell-1.txt": "previous run's output\n"})
    await fs.write_text(".ralph/tmp/shell-7.txt", "older still\n")
    await fs.write_text(
        ".ralph/status.txt",
        "status: complete\niteration: 3\nmax_iterations: 5\nrun_id: old\n",
    )
    t = transport(
        s.reply("", ("shell", {"command": "cat big.txt"})),
        s.reply("", ("write_file", {"path": "index.html", "content": SITE})),
        s.reply(completion()),
    )
    result = await make(fs, t, max_iterations=3).run(RunRequest("Build a page."))
    assert result.status is RalphStatus.COMPLETE, result.error
    # Nothing of .ralph/ is deleted unasked: the earlier outputs stay, this one goes past them.
    assert await fs.read_text(".ralph/tmp/shell-1.txt") == "previous run's output\n"
    assert await fs.read_text(".ralph/tmp/shell-7.txt") == "older still\n"
    assert await fs.read_text(".ralph/tmp/shell-8.txt") == BIG
    assert "Full output saved to: .ralph/tmp/shell-8.txt" in json.dumps(sent_messages(t, 1))


async def test_resume_keeps_the_tmp_folder():
    s = Script()
    fs = MemoryFileStore({"big.txt": BIG})
    await fs.write_text(".ralph/task.md", "Build a page.")
    await fs.write_text(".ralph/tmp/shell-1.txt", "output the progress notes point at\n")
    await fs.write_text(
        ".ralph/status.txt",
        "status: running\niteration: 1\nmax_iterations: 5\nrun_id: r1\n",
    )
    t = transport(
        s.reply("", ("shell", {"command": "cat big.txt"})),
        s.reply("", ("write_file", {"path": "index.html", "content": SITE})),
        s.reply(completion()),
    )
    result = await make(fs, t, max_iterations=5).run(RunRequest(None, resume=True))
    assert result.status is RalphStatus.COMPLETE, result.error
    assert await fs.read_text(".ralph/tmp/shell-1.txt") == "output the progress notes point at\n"
    assert await fs.read_text(".ralph/tmp/shell-2.txt") == BIG
