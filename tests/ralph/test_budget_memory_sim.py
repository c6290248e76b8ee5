"""Ralph's cap, runs that continue, and his memory, over real HTTP against the provider simulator.

The spend the tests add up is what the simulator reported (its scripted usage);
the loop only ever sees it through the stream, as with a real provider.
"""

from __future__ import annotations

import json

from tests.ralph.script import Recorder
from tests.sim import HttpError, Simulator, ToolCall, Turn
from wiggum.coordinator.notice import BuildReport, post_build_notice_text
from wiggum.fs import MemoryFileStore
from wiggum.llm import ProviderConfig
from wiggum.llm.httpx_transport import HttpxTransport
from wiggum.llm.limits import LearnedLimits
from wiggum.ralph import RalphConfig, RalphLoop, RalphStatus, RunRequest
from wiggum.ralph.budget import prices_for
from wiggum.ralph.state import RalphState
from wiggum.ralph.types import RunBudget

SITE = "<!doctype html><title>t</title><p>hi</p>"
DONE = json.dumps({"status": "complete", "summary": "Done."})
#: A model the registry prices, so money can be checked (the simulator answers any name).
PRICED = "gpt-4o-mini"


def provider(sim: Simulator, model: str = "test-model") -> ProviderConfig:
    return ProviderConfig(
        id="sim", kind="openai", base_url=sim.base_url + "/v1", model=model, api_key="k"
    )


def loop(sim: Simulator, fs, *, model: str = "test-model", rec: Recorder | None = None, **config):
    config.setdefault("max_iterations", 20)
    return RalphLoop(
        provider(sim, model),
        fs,
        config=RalphConfig(**config),
        callbacks=(rec or Recorder()).callbacks(),
        transport=HttpxTransport(),
        gates=[],
    )


def write(n: int, usage=(4000, 200)) -> Turn:
    return Turn(ToolCall("write_file", {"path": f"p{n}.html", "content": SITE}), usage=usage)


def sent(sim: Simulator, index: int = -1) -> str:
    return json.dumps(sim.chat_requests[index].json)


def reported_tokens(sim_turns: list[tuple[int, int]]) -> int:
    return sum(p + c for p, c in sim_turns)


# ------------------------------------------------------------------ the cap


async def test_a_run_stops_at_its_token_cap_before_the_reported_usage_passes_it():
    cap = 15_000
    async with Simulator() as sim:
        sim.script([write(n) for n in range(10)])
        fs = MemoryFileStore()
        rec = Recorder()
        result = await loop(sim, fs, rec=rec, budget=RunBudget(max_tokens=cap)).run(
            RunRequest("Build pages.")
        )
        calls = len(sim.chat_requests)
    assert result.status is RalphStatus.BUDGET_SPENT
    assert "cap of 15,000 tokens" in result.error and "raised cap" in result.error
    # What the provider reported for the calls made stays under the cap, and one more
    # call of the same size would have passed it.
    spent = reported_tokens([(4000, 200)] * calls)
    assert spent == result.usage.prompt_tokens + result.usage.completion_tokens
    assert spent <= cap < spent + 4200
    # The forecast was given before the first call, as an estimate, with the cap.
    ((budget, forecast),) = rec.of("on_budget")
    assert budget == RunBudget(max_tokens=cap)
    assert forecast.startswith("Estimate: ~") and "cap 15,000 tokens" in forecast
    assert "prices are unknown" in forecast  # the simulator's model has no price
    status = await RalphState(fs).status()
    assert status.status is RalphStatus.BUDGET_SPENT and status.max_tokens == cap


async def test_a_money_cap_is_kept_from_the_models_prices():
    assert prices_for(PRICED, "openai") is not None
    async with Simulator() as sim:
        sim.script([write(n) for n in range(10)])
        result = await loop(sim, MemoryFileStore(), model=PRICED, budget=RunBudget(0.002)).run(
            RunRequest("Build pages.")
        )
        calls = len(sim.chat_requests)
    assert result.status is RalphStatus.BUDGET_SPENT and "cap of $0.0020" in result.error
    assert 0 < result.usage.cost <= 0.002
    assert result.usage.cost + result.usage.cost / calls > 0.002  # one more call would pass it


async def test_resume_with_a_raised_cap_goes_on_from_the_spend_so_far():
    async with Simulator() as sim:
        sim.script([write(1), write(2), write(3), write(4), Turn(DONE, usage=(4000, 50))])
        fs = MemoryFileStore()
        first = await loop(sim, fs, budget=RunBudget(max_tokens=9_000)).run(
            RunRequest("Build pages.")
        )
        assert first.status is RalphStatus.BUDGET_SPENT
        before = len(sim.chat_requests)
        rec = Recorder()
        again = await loop(sim, fs, rec=rec, budget=RunBudget(max_tokens=9_000)).run(
            RunRequest(None, resume=True, budget=RunBudget(max_tokens=40_000))
        )
        after = len(sim.chat_requests)
    assert again.status is RalphStatus.COMPLETE, again.error
    assert after > before
    # The ledger carried over: the run's total counts the calls before the stop.
    assert again.usage.prompt_tokens == 4000 * after
    assert rec.of("on_budget")[0][0] == RunBudget(max_tokens=40_000)
    assert (await RalphState(fs).status()).max_tokens == 40_000


# ------------------------------------------------------------------ continuing


async def test_continue_after_the_iteration_limit_with_a_note_in_his_context():
    async with Simulator() as sim:
        # One tool call per iteration: each iteration ends after its call.
        sim.script([write(1), write(2)])
        fs = MemoryFileStore()
        limited = await loop(sim, fs, max_iterations=2, max_tool_calls_per_iteration=1).run(
            RunRequest("Build pages.")
        )
        assert limited.status is RalphStatus.MAX_ITERATIONS
        assert "after 2 iterations" in limited.error
        sim.script([Turn(DONE)])
        result = await loop(sim, fs, max_iterations=2).run(
            RunRequest(None, resume=True, more_iterations=3, note="Use blue for the links.")
        )
        last = sent(sim)
    assert result.status is RalphStatus.COMPLETE, result.error
    assert "A note from the person" in last and "Use blue for the links." in last
    assert "Iteration 3 of 5" in last  # the limit moved three past the last finished one
    assert "Use blue for the links." in await fs.read_text(".ralph/task.md")


async def test_continue_after_a_stall():
    same = ("shell", {"command": "ls"})
    async with Simulator() as sim:
        sim.script([Turn(ToolCall(*same)) for _ in range(5)])
        fs = MemoryFileStore()
        stalled = await loop(sim, fs).run(RunRequest("Build a page."))
        assert stalled.status is RalphStatus.STALLED
        sim.script([write(1), Turn(DONE)])
        result = await loop(sim, fs).run(
            RunRequest(None, resume=True, more_iterations=2, note="Write index.html first.")
        )
        last = sent(sim)
    assert result.status is RalphStatus.COMPLETE, result.error
    assert "Write index.html first." in last


async def test_a_follow_up_hand_off_keeps_his_plan_and_progress():
    async with Simulator() as sim:
        sim.script(
            [
                Turn(
                    ToolCall("write_file", {"path": ".ralph/plan.md", "content": "- [x] home\n"}),
                    ToolCall("write_file", {"path": ".ralph/progress.md", "content": "- home\n"}),
                ),
                Turn(DONE),
                Turn(DONE),
            ]
        )
        fs = MemoryFileStore()
        assert (await loop(sim, fs).run(RunRequest("Build the home page."))).status == "complete"
        await loop(sim, fs).run(RunRequest("Add a contact page."))
        first_of_follow_up = sent(sim)
    plan = await fs.read_text(".ralph/plan.md")
    assert plan.startswith("- [x] home") and "Add a contact page." in plan
    assert await fs.read_text(".ralph/progress.md") == "- home\n"
    # his context shows the plan folded: the done step on its line, numbered
    assert "- [x] 1. home" in first_of_follow_up and "- home" in first_of_follow_up


# ------------------------------------------------------------------ memory


REFLECTION = json.dumps(
    {
        "worked": ["Writing index.html whole with write_file."],
        "failed": ["npm install: there is no npm."],
        "try_next": ["Write the CSS by hand."],
    }
)


async def test_reflections_are_written_at_the_end_and_read_by_the_next_run():
    async with Simulator() as sim:
        sim.script(
            [
                Turn(ToolCall("shell", {"command": "npm install"})),
                write(1),
                Turn(DONE),
                Turn(REFLECTION),
            ]
        )
        fs = MemoryFileStore()
        result = await loop(sim, fs, reflect=True).run(RunRequest("Build a page."))
        npm_answer = sent(sim, 1)
        sim.script([Turn(DONE), Turn(REFLECTION)])
        await loop(sim, fs, reflect=True).run(RunRequest("Add a footer."))
        next_run = sent(sim, 4)
    assert result.status is RalphStatus.COMPLETE, result.error
    # The missing command was answered with what to do instead, and recorded.
    assert "npm: command not found" in npm_answer and "write the files yourself" in npm_answer
    assert result.unknown_commands == ["npm"]
    assert result.reflection.try_next == ["Write the CSS by hand."]
    text = await fs.read_text(".ralph/reflections.md")
    assert "Write the CSS by hand." in text and "Commands the shell does not have" in text
    assert text.count("## Run ") == 2  # one section per run, the first kept
    assert "What earlier runs learned" in next_run and "Write the CSS by hand." in next_run
    # Chief's notice after the run summarises it.
    report = BuildReport.from_result(
        result, run_id="r", max_iterations=20, feedback="", finished_at=0
    )
    notice = post_build_notice_text(report)
    assert "What Ralph learned" in notice and "Write the CSS by hand." in notice
    assert "npm" in notice


async def test_at_the_cap_the_reflection_is_written_without_a_call():
    async with Simulator() as sim:
        sim.script([write(n) for n in range(5)])
        fs = MemoryFileStore()
        result = await loop(sim, fs, reflect=True, budget=RunBudget(max_tokens=9_000)).run(
            RunRequest("Build pages.")
        )
        calls = len(sim.chat_requests)
    assert result.status is RalphStatus.BUDGET_SPENT
    assert result.usage.prompt_tokens + result.usage.completion_tokens == 4200 * calls
    assert "budget_spent" in await fs.read_text(".ralph/reflections.md")


# ------------------------------------------------------------------ learned limits


OVERFLOW = HttpError(
    400,
    message="This model's maximum context length is 7000 tokens. However, you requested "
    "12000 tokens. Please reduce the length of the messages.",
    code="context_length_exceeded",
)


async def test_a_context_length_refusal_is_learned_and_used_by_the_next_call():
    learned: list[LearnedLimits] = []
    async with Simulator() as sim:
        sim.script([Turn(fault=OVERFLOW), Turn(DONE)])
        fs = MemoryFileStore()
        run = loop(sim, fs, max_tokens=1000, on_limits_learned=learned.append)
        result = await run.run(RunRequest("Build a page."))
        assert len(sim.chat_requests) == 2
    assert result.status is RalphStatus.COMPLETE, result.error
    assert learned == [LearnedLimits(context_window=7000)]
    # Kept with the settings, it is the next run's preflight: a window too small
    # for his context fails before any request is sent.
    async with Simulator() as sim:
        tiny = LearnedLimits(context_window=1500)
        result = await loop(sim, fs, max_tokens=1000, learned_limits=tiny).run(
            RunRequest("Build a page.")
        )
        assert sim.chat_requests == []
    assert result.status is RalphStatus.ERROR and "1500" in result.error


async def test_a_max_tokens_refusal_is_learned_and_the_next_run_asks_for_less():
    refusal = HttpError(
        400, message="max_tokens: 8192 > 4096, which is the maximum allowed for this model"
    )
    learned: list[LearnedLimits] = []
    async with Simulator() as sim:
        sim.script([Turn(fault=refusal)])
        fs = MemoryFileStore()
        result = await loop(sim, fs, on_limits_learned=learned.append).run(
            RunRequest("Build a page.")
        )
        assert result.status is RalphStatus.ERROR
        assert learned == [LearnedLimits(max_output_tokens=4096)]
        sim.script([Turn(DONE)])
        result = await loop(sim, fs, learned_limits=learned[-1]).run(RunRequest("Build a page."))
        body = sim.chat_requests[-1].json
    assert result.status is RalphStatus.COMPLETE, result.error
    asked = body.get("max_completion_tokens") or body.get("max_tokens")
    assert asked is not None and asked <= 4096
