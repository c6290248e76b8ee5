"""One round of Chief's tool calls: the typed outcome a dispatch returns, the record
it becomes, the page's event, and a toolbox that raises."""

from __future__ import annotations

from tests.chief.test_chat import new_chat, provider
from tests.coordinator.helpers import Clock, FakeRunner
from tests.sim import ToolCall, Turn
from wiggum.chief.tool_round import (
    ToolOutcome,
    activity_for,
    hands_off,
    run_call,
    tool_record,
)
from wiggum.chief.tools import ChiefToolbox
from wiggum.coordinator import Coordinator
from wiggum.coordinator.files import PLAN_PATH
from wiggum.fs import MemoryFileStore
from wiggum.llm import ParsedToolCall, ToolDefinition
from wiggum.skills import SkillLibrary


def call(name: str, **args) -> ParsedToolCall:
    return ParsedToolCall(id=f"call_{name}", name=name, args=args)


class Toolbox:
    """Answers every call with ``outcome``, or raises ``error``."""

    def __init__(self, outcome: ToolOutcome | None = None, error: Exception | None = None):
        self.outcome, self.error = outcome, error
        self.calls: list[str] = []

    def definitions(self) -> list[ToolDefinition]:
        return [ToolDefinition(name="look", description="Look.", parameters={"type": "object"})]

    async def dispatch(self, call: ParsedToolCall) -> ToolOutcome:
        self.calls.append(call.name)
        if self.error is not None:
            raise self.error
        return self.outcome


async def test_chief_s_toolbox_answers_with_a_typed_outcome():
    fs = MemoryFileStore(clock=Clock())
    toolbox = ChiefToolbox(
        Coordinator(fs, ralph_runner=FakeRunner(), clock=Clock()), SkillLibrary.load()
    )
    outcome = await toolbox.dispatch(call("write_plan", content="# Plan\n"))
    assert isinstance(outcome, ToolOutcome)
    assert outcome.text == "Saved the plan to .chief/plan.md (1 line)."
    assert outcome.is_error is False
    assert outcome.ui_event == {"type": "plan_saved", "path": PLAN_PATH}
    refused = await toolbox.dispatch(call("read_file", path="missing.html"))
    assert refused.is_error and refused.ui_event is None and refused.text


async def test_a_toolbox_that_raises_still_answers_the_call():
    outcome = await run_call(Toolbox(error=KeyError("boom")), call("look"))
    assert outcome == ToolOutcome("Error: KeyError", is_error=True, ui_event=None)


def test_an_outcome_becomes_the_tool_record_that_answers_the_call():
    record = tool_record(7, call("look"), ToolOutcome("not there", is_error=True))
    assert (record.seq, record.role, record.name, record.tool_call_id) == (
        7,
        "tool",
        "look",
        "call_look",
    )
    assert record.content == "not there" and record.is_error


def test_what_the_page_says_while_a_tool_runs_and_which_calls_hand_off():
    assert activity_for("read_file") == "Chief is reading files…"
    assert activity_for("send_to_ralph") == "Chief is handing the plan to Ralph…"
    assert activity_for("frobnicate") == "Chief is using frobnicate…"
    assert hands_off([call("write_plan"), call("send_to_ralph")])
    assert not hands_off([call("write_plan"), call("read_file")])


async def test_the_chat_records_the_outcome_and_tells_the_page_its_event(sim, transport):
    sim.script([Turn(ToolCall("look", {})), Turn("Seen.")])
    toolbox = Toolbox(ToolOutcome("a cat", ui_event={"type": "looked"}))
    events: list[dict] = []
    chat = await new_chat(transport, toolbox=toolbox, on_ui_event=events.append)
    reply = await chat.send("look", provider(sim))
    assert reply.content == "Seen."
    tool = next(r for r in chat.records if r.role == "tool")
    assert (tool.content, tool.is_error, tool.name) == ("a cat", False, "look")
    assert events == [{"type": "looked"}]
    assert toolbox.calls == ["look"]
