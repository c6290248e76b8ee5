"""Plan -> Build and the approval pause, as the app drives them: the real project
session, Coordinator, Chief and Ralph against the provider simulator."""

from __future__ import annotations

import asyncio
import json

from fakes import ProjectRig, sim_settings

from tests.sim import ToolCall, Turn
from wiggum.ralph.approval import ApprovalRequest
from wiggum.session import events as ev
from wiggum.session.approval import ApprovalDesk, approval_view
from wiggum.session.build import chief_mode
from wiggum.session.chief import Activity

PLAN = "# Bakery page\n\nOne page: the breads, opening hours, a map link.\n"
DONE = json.dumps({"status": "complete", "summary": "Built it."})
PAGE = '<!doctype html><html lang="en"><head><title>Bakery</title></head><body></body></html>'
#: Ralph builds a page that passes his gates, then Chief hears of it.
RALPH_BUILDS = [
    Turn(ToolCall("write_file", {"path": "index.html", "content": PAGE})),
    Turn(DONE),
    Turn("Ralph built the page."),
]


def who(request) -> str:
    """Chief or Ralph, by the system prompt of a chat request."""
    system = request.json["messages"][0]["content"]
    return "ralph" if system.startswith("You are Ralph") else "chief"


async def _until(check, timeout: float = 5.0) -> None:
    for _ in range(int(timeout / 0.01)):
        if check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("timed out")


async def test_build_this_hands_the_cards_plan_to_ralph_without_a_model_call(sim, transport):
    rig = ProjectRig(sim_settings(sim), transport=transport)
    await rig.open()
    # Chief writes the plan card, and says "Say go" instead of handing off (as a small model may).
    sim.script(
        [
            Turn(ToolCall("write_plan", {"content": PLAN})),
            Turn("Here is the plan. Say go when it looks right."),
        ]
    )
    rig.chief.send("A page for my bakery")
    await rig.host.settle()
    chat = rig.session.chat
    card = next(r.seq for r in chat.records if r.tool_calls)
    assert [who(r) for r in sim.chat_requests] == ["chief", "chief"]
    # A later plan was saved since: the card's Build builds the card's plan, saved again.
    await rig.session.coordinator.write_plan("# A later plan\n")
    sim.script(RALPH_BUILDS)
    assert rig.chief.build_plan(card)
    await rig.host.settle()
    await rig.session.coordinator.wait()
    await rig.host.settle()
    # The click went straight to Ralph: no call of Chief's between the card and his run.
    assert [who(r) for r in sim.chat_requests][:4] == ["chief", "chief", "ralph", "ralph"]
    assert rig.of(ev.HandedToRalph) == [ev.HandedToRalph()]
    task = await rig.session.fs.read_text(".ralph/task.md")
    assert "One page: the breads, opening hours, a map link." in task
    assert "A later plan" not in task
    assert await rig.session.coordinator.saved_plan() == PLAN.strip()
    # The plan reached Ralph's first context, whole.
    assert "the breads, opening hours" in sim.chat_requests[2].json["messages"][1]["content"]
    assert str(rig.session.coordinator.state.status) == "complete"


async def test_build_without_a_saved_plan_says_what_to_do_and_starts_nothing(sim, transport):
    rig = ProjectRig(sim_settings(sim), transport=transport)
    await rig.open()
    assert rig.chief.build_plan(None)
    await rig.host.settle()
    [said] = rig.of(ev.MessageShown)
    assert said.title == "Nothing to build yet" and "Build" in said.message
    assert sim.chat_requests == [] and not rig.session.coordinator.is_running


async def test_the_switch_shows_plan_then_build_and_plan_stops_the_build(sim, transport):
    rig = ProjectRig(sim_settings(sim), transport=transport)
    await rig.open()
    await rig.session.coordinator.write_plan(PLAN)
    sim.script([Turn(ToolCall("list_files", {"path": "."}), delay=0.05, chunks=3), Turn(DONE)])
    assert chief_mode(rig.session.coordinator.state).mode == "plan"
    rig.chief.build_plan(None)  # the Build side of the switch: the saved plan
    await _until(lambda: rig.session.coordinator.state.running)
    assert chief_mode(rig.session.coordinator.state).mode == "build"
    assert rig.chief.plan_again()
    await rig.host.settle()
    await rig.session.coordinator.wait()
    state = rig.session.coordinator.state
    assert chief_mode(state).mode == "plan" and state.resumable


LONG_PLAN = "# Bakery\n\n" + "\n".join(f"- Section {n}: breads of the day" for n in range(30))


async def test_chief_is_writing_the_plan_from_the_calls_first_bytes(sim, transport):
    rig = ProjectRig(sim_settings(sim), transport=transport)
    await rig.open()
    activity: list[str | None] = []
    rig.chief.subscribe(lambda e: activity.append(e.text) if isinstance(e, Activity) else None)
    drafts: list[str] = []
    chat = rig.session.chat
    chat.subscribe(
        lambda kind, r: (
            drafts.append(chat.draft.text) if kind == "drafting" and chat.draft else None
        )
    )
    sim.script(
        [
            Turn(ToolCall("write_plan", {"content": LONG_PLAN}, chunks=12), delay=0.01),
            Turn("Saved."),
        ]
    )
    rig.chief.send("Plan my bakery page")
    await rig.host.settle()
    # Said at once, before the call had arrived (then the tool's own line, then nothing).
    assert activity[0] == "Chief is writing the plan…"
    assert "Chief is saving the plan…" in activity and activity[-1] is None
    # The plan grew as it streamed, each draft a beginning of the plan written.
    shown = [d for d in drafts if d]
    assert len(set(shown)) >= 5
    assert all(LONG_PLAN.startswith(d) for d in shown)
    assert shown[-1] == LONG_PLAN and chat.draft is None


async def ralph_asks(sim, transport, path: str, text: str) -> ProjectRig:
    """A run of Ralph's that deletes ``path`` (holding ``text``), paused on the question."""
    rig = ProjectRig(sim_settings(sim, ask_before_changing=0), transport=transport)
    await rig.open()
    await rig.session.fs.write_text(path, text)
    sim.script([Turn(ToolCall("delete_file", {"path": path})), Turn(DONE)])
    await rig.session.coordinator.send_to_ralph("Tidy the project.")
    await _until(lambda: rig.of(ev.ApprovalShown))
    return rig


async def test_the_run_pauses_for_approval_and_refuse_keeps_the_file(sim, transport):
    rig = await ralph_asks(sim, transport, "index.html", "<p>mine</p>")
    shown = rig.of(ev.ApprovalShown)[0].view
    assert shown.files == ("index.html",) and "Ralph wants to delete index.html" in shown.text
    assert rig.session.coordinator.state.running and len(sim.chat_requests) == 1  # waiting
    rig.session.ralph.answer_approval(False)
    await rig.session.coordinator.wait()
    assert await rig.session.fs.read_text("index.html") == "<p>mine</p>"
    assert rig.of(ev.ApprovalShown)[-1] == ev.ApprovalShown(None)
    told = [m["content"] for m in sim.chat_requests[1].json["messages"] if m["role"] == "tool"]
    assert "the person refused" in told[-1]


async def test_approve_lets_the_deletion_go_ahead(sim, transport):
    rig = await ralph_asks(sim, transport, "old.html", "<p>old</p>")
    rig.session.ralph.answer_approval(True)
    await rig.session.coordinator.wait()
    assert not await rig.session.fs.exists("old.html")


async def test_the_desk_answers_once_and_takes_the_question_down_when_stopped():
    shown: list = []
    desk = ApprovalDesk(shown.append)
    assert not desk.answer(True)  # nothing asked
    request = ApprovalRequest("overwrite", "a.css", tuple(f"f{i}.html" for i in range(10)), 10)
    asking = asyncio.ensure_future(desk.ask(request))
    await asyncio.sleep(0)
    view = shown[-1].view
    assert view.files[0] == "… and 3 more" and view.files[-1] == "a.css"
    assert "deleted or overwritten 10 of your files" in view.text
    asking.cancel()  # Stop while he waits
    await asyncio.gather(asking, return_exceptions=True)
    assert shown[-1] == ev.ApprovalShown(None) and not desk.waiting
    assert approval_view(ApprovalRequest("delete", "x", (), 0)).files == ("x",)


def test_the_settings_field_reads_a_number_of_files_or_never():
    from wiggum.session.settings import ask_limit
    from wiggum.ui.settings import Settings

    assert [ask_limit(t) for t in ("", "  ", "abc", "3", " 0 ", "-2", "99999")] == [
        None,
        None,
        None,
        3,
        0,
        0,
        10_000,
    ]
    stored = Settings(ask_before_changing=5).to_storage()
    assert Settings.model_validate(stored).ask_before_changing == 5
    assert Settings().ask_before_changing is None  # settings stored before it: never ask
