"""Chief's tools: definitions, dispatch (bad arguments, read-only files), effects, UI events."""

from __future__ import annotations

import pytest

from tests.coordinator.helpers import Clock, FakeRunner
from wiggum.chief.tools import ChiefToolbox, chief_registry
from wiggum.coordinator import Coordinator
from wiggum.coordinator.files import PLAN_PATH, PROMPT_PATH
from wiggum.fs import MemoryFileStore
from wiggum.llm import ParsedToolCall
from wiggum.ralph.types import RalphStatus
from wiggum.skills import SkillLibrary

PROJECT = {
    "index.html": "<!doctype html>\n<title>Shop</title>\n<h1>Shop</h1>\n",
    "css/style.css": "body { margin: 0; }\n",
    ".ralph/summary.md": "Built the shop front page.\n",
}


@pytest.fixture(scope="module")
def skills() -> SkillLibrary:
    return SkillLibrary.load()


@pytest.fixture
def runner() -> FakeRunner:
    return FakeRunner()


@pytest.fixture
def fs() -> MemoryFileStore:
    return MemoryFileStore(dict(PROJECT), clock=Clock())


@pytest.fixture
def coordinator(fs, runner) -> Coordinator:
    return Coordinator(fs, ralph_runner=runner, clock=Clock())


@pytest.fixture
def toolbox(coordinator, skills) -> ChiefToolbox:
    return ChiefToolbox(coordinator, skills)


def call(name: str, **args) -> ParsedToolCall:
    return ParsedToolCall(id=f"call_{name}", name=name, args=args)


def test_definitions_are_chiefs_six_tools(toolbox, coordinator, skills):
    names = [d.name for d in toolbox.definitions()]
    assert names == [
        "read_file",
        "list_files",
        "search_skills",
        "write_plan",
        "send_to_ralph",
        "check_ralph_status",
    ]
    assert chief_registry(coordinator, skills).names == names
    defs = {d.name: d for d in toolbox.definitions()}
    assert defs["send_to_ralph"].parameters["required"] == ["prompt"]
    assert "ONLY when the person" in defs["send_to_ralph"].description
    assert defs["search_skills"].parameters["properties"]["limit"]["default"] == 3
    assert defs["check_ralph_status"].parameters == {
        "additionalProperties": False,
        "properties": {},
        "type": "object",
    }
    assert ".ralph/feedback.md" in defs["read_file"].description


async def test_read_and_list_project_files(toolbox):
    text, is_error, event = await toolbox.dispatch(call("read_file", path="index.html"))
    assert not is_error and event is None
    assert "<h1>Shop</h1>" in text
    text, is_error, _ = await toolbox.dispatch(call("read_file", path=".ralph/summary.md"))
    assert not is_error and "shop front page" in text
    text, is_error, _ = await toolbox.dispatch(call("list_files", path="."))
    assert not is_error
    assert "css/style.css" in text and "index.html" in text


async def test_missing_file_is_a_clear_error(toolbox):
    text, is_error, event = await toolbox.dispatch(call("read_file", path="nope.html"))
    assert is_error and event is None
    assert text.startswith("Error:") and "nope.html" in text


@pytest.mark.parametrize(
    ("tool_call", "expected"),
    [
        (call("read_file"), "missing required field 'path'"),
        (call("search_skills", query="x", limit=9), "field 'limit'"),
        (call("search_skills", query=""), "field 'query'"),
        (call("write_plan", text="plan"), "unexpected field 'text'"),
        (call("send_to_ralph", prompt=42), "field 'prompt'"),
        (call("check_ralph_status", verbose=True), "unexpected field 'verbose'"),
        (call("write_file", path="a", content="b"), "unknown tool 'write_file'"),
    ],
)
async def test_bad_arguments_give_clear_error_strings(toolbox, tool_call, expected):
    text, is_error, event = await toolbox.dispatch(tool_call)
    assert is_error and event is None
    assert text.startswith("Error:")
    assert expected in text


async def test_unparseable_arguments(toolbox):
    bad = ParsedToolCall(
        id="c1", name="write_plan", args={}, raw_args="{cont", parse_error="Expecting value"
    )
    text, is_error, _ = await toolbox.dispatch(bad)
    assert is_error and "not valid JSON" in text


async def test_search_skills_returns_ranked_snippets(toolbox):
    text, is_error, event = await toolbox.dispatch(
        call("search_skills", query="contrast for text on colored buttons", limit=2)
    )
    assert not is_error and event is None
    assert text.startswith("2 skills for")
    first = text.index("### 1.")
    assert "Colour contrast for text and buttons" in text[first : first + 80]
    assert "4.5:1" in text
    assert "### 3." not in text


async def test_search_skills_no_match_is_not_an_error(toolbox):
    text, is_error, _ = await toolbox.dispatch(call("search_skills", query="zzyzx qwv"))
    assert not is_error and text.startswith("No skills matched")


async def test_write_plan_saves_and_signals(toolbox, fs):
    text, is_error, event = await toolbox.dispatch(
        call("write_plan", content="# Shop\n\n- hero\n- products grid\n")
    )
    assert not is_error
    assert text == "Saved the plan to .chief/plan.md (4 lines)."
    assert event == {"type": "plan_saved", "path": PLAN_PATH}
    assert await fs.read_text(PLAN_PATH) == "# Shop\n\n- hero\n- products grid\n"


async def test_write_plan_blank_is_refused(toolbox, fs):
    text, is_error, event = await toolbox.dispatch(call("write_plan", content="   \n"))
    assert is_error and event is None and "empty" in text
    assert not await fs.exists(PLAN_PATH)


async def test_send_to_ralph_starts_run_and_asks_for_tab_switch(toolbox, coordinator, runner, fs):
    text, is_error, event = await toolbox.dispatch(
        call("send_to_ralph", prompt="Build the shop page.", plan_summary=" Shop page ")
    )
    assert not is_error
    assert "Ralph has started" in text and "Ralph's tab" in text
    assert event == {
        "type": "handoff",
        "run_id": coordinator.state.run_id,
        "plan_summary": "Shop page",
    }
    assert coordinator.is_running
    assert await fs.read_text(PROMPT_PATH) == "Build the shop page.\n"
    await runner.started.wait()
    assert runner.requests[0].task == "Build the shop page."
    assert runner.requests[0].budget is None  # no cap named: the settings' default applies

    # A second hand-off while he runs is refused, politely, with no tab switch.
    text, is_error, event = await toolbox.dispatch(call("send_to_ralph", prompt="Again"))
    assert is_error and event is None
    assert text.startswith("Not sent: Ralph is already working")
    runner.release.set()
    await coordinator.wait()
    assert coordinator.state.status == RalphStatus.COMPLETE


async def test_send_to_ralph_carries_the_acceptance_criteria_into_the_run(toolbox, runner):
    criteria = ["An added to-do stays after a reload", "  ", " It has a title "]
    _, is_error, _ = await toolbox.dispatch(
        call("send_to_ralph", prompt="Build a to-do list.", acceptance=criteria)
    )
    assert not is_error
    await runner.started.wait()
    assert runner.requests[0].acceptance == [
        "An added to-do stays after a reload",
        "It has a title",
    ]
    runner.release.set()


async def test_the_hand_off_carries_the_saved_plan_and_the_acceptance_criteria(
    toolbox, coordinator, runner
):
    await toolbox.dispatch(call("write_plan", content="# Shop\n\nThree products and a cart."))
    criteria = [
        "The cart shows the total",
        " The cart  shows the total ",
        "Each product has a photo",
    ]
    _, is_error, _ = await toolbox.dispatch(
        call("send_to_ralph", prompt="Build the shop page.", acceptance=criteria)
    )
    assert not is_error
    await runner.started.wait()
    request = runner.requests[0]
    assert request.plan == "# Shop\n\nThree products and a cart."
    assert request.acceptance == ["The cart shows the total", "Each product has a photo"]
    assert request.task == (
        "Build the shop page.\n\n## The agreed plan (from .chief/plan.md)\n# Shop\n\n"
        "Three products and a cart."
    )
    runner.release.set()
    await coordinator.wait()


async def test_check_ralph_status(toolbox, coordinator, runner):
    text, is_error, _ = await toolbox.dispatch(call("check_ralph_status"))
    assert not is_error and "idle" in text
    await coordinator.send_to_ralph("Build it")
    await runner.started.wait()
    text, _, _ = await toolbox.dispatch(call("check_ralph_status"))
    assert "running" in text and "iteration 2 of 5" in text
    runner.release.set()
    await coordinator.wait()
    text, _, _ = await toolbox.dispatch(call("check_ralph_status"))
    assert "ended: complete" in text and "links: about.html is linked but missing" in text


async def test_chiefs_file_context_is_read_only(toolbox):
    # Chief's file tools share a context whose policy refuses every write.
    policy = toolbox.ctx.policy
    for path in ("index.html", ".chief/plan.md", "new.txt"):
        with pytest.raises(ValueError):
            policy.check_write(path)
    assert toolbox.ctx.tmp_dir == ".chief/tmp"


async def test_long_output_is_truncated_for_the_model(toolbox, fs):
    await fs.write_text("big.txt", "".join(f"line {i}\n" for i in range(5000)))
    text, is_error, _ = await toolbox.dispatch(call("read_file", path="big.txt"))
    assert not is_error
    assert "[Output truncated" in text and ".chief/tmp/read_file-1.txt" in text


async def test_a_cap_the_person_named_goes_with_the_hand_off(toolbox, coordinator, runner):
    from wiggum.ralph.types import RunBudget

    _, is_error, _ = await toolbox.dispatch(
        call("send_to_ralph", prompt="Build the shop page.", cap_usd=0.5)
    )
    assert not is_error
    await runner.started.wait()
    assert runner.requests[0].budget == RunBudget(max_cost=0.5)
    runner.release.set()
    await coordinator.wait()
