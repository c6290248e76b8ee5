"""Ralph's runs as the app drives them: the runner over real HTTP, checkpoints
per iteration, his meter, what the page is told, the note to Chief."""

from __future__ import annotations

import asyncio
import json

import pytest
from fakes import FakeHost, ProjectRig, sim_settings

from tests.coordinator.helpers import FakeRunner
from tests.sim import ToolCall, Turn
from wiggum.coordinator import Coordinator, CoordinatorEvent, ProviderLocks
from wiggum.coordinator.contract import RalphCallbacks
from wiggum.fs import MemoryFileStore, StorageFull
from wiggum.llm import UsageData
from wiggum.session import events as ev
from wiggum.session.host import Checkers
from wiggum.session.ralph import RalphSession, checkpoint_refused_text, notice_text
from wiggum.ui.model_choice import Meter
from wiggum.ui.settings import Settings
from wiggum.ui.tab_lock import PAUSED_TEXT

SITE = "<!doctype html><html><head><title>x</title></head><body><p>hi</p></body></html>"


class Rig:
    def __init__(
        self, settings: Settings | None = None, *, paused: str | None = None, transport=None
    ):
        self.host = FakeHost()
        self.settings = settings or Settings()
        self.paused = paused
        self.events: list = []
        self.notes = 0
        self.locks = ProviderLocks()
        self.session = RalphSession(
            host=self.host,
            settings=lambda: self.settings,
            locks=self.locks,
            paused=lambda: self.paused,
            note_turn=self._note,
            emit=self.events.append,
            transport=transport,
        )
        self.session.project_id = "p1"

    def _note(self) -> bool:
        self.notes += 1
        return True

    def of(self, kind):
        return [e for e in self.events if isinstance(e, kind)]


class History:
    """A history that records what it was asked to keep."""

    def __init__(self, error: BaseException | None = None):
        self.kept: list[tuple[int, str]] = []
        self.error = error

    async def ralph_iteration(self, iteration: int, intent: str = ""):
        if self.error is not None:
            raise self.error
        self.kept.append((iteration, intent))


def usage(prompt: int, completion: int, cost: float | None = None) -> UsageData:
    return UsageData(
        prompt_tokens=prompt,
        completion_tokens=completion,
        total_tokens=prompt + completion,
        cost=cost,
    )


# ------------------------------------------------------------------ texts


def test_a_build_that_finished_asks_to_talk_about_the_results():
    fs = MemoryFileStore()
    c = Coordinator(fs, ralph_runner=FakeRunner())
    assert notice_text(c) == "Ralph stopped — ask me about it"


def test_a_refused_checkpoint_is_said_in_the_persons_words():
    full = StorageFull("index.html")
    assert checkpoint_refused_text(full) == f"Saved, but no checkpoint was kept in History. {full}"
    # Never an exception's class name or its words: the Log has them.
    said = checkpoint_refused_text(KeyError("secret detail"))
    assert "KeyError" not in said and "secret" not in said and "Log" in said


# ------------------------------------------------------------------ the runner


async def test_without_a_provider_the_run_says_to_open_settings():
    rig = Rig()
    run = rig.session.runner(MemoryFileStore(), None)
    with pytest.raises(RuntimeError, match="open Settings"):
        await run(object(), RalphCallbacks())


async def test_the_runner_builds_the_site_over_http_with_a_checkpoint_per_iteration(sim, transport):
    from wiggum.ralph.types import RunRequest

    rig = Rig(sim_settings(sim), transport=transport)
    sim.script(
        [
            Turn(
                "Writing the page.", ToolCall("write_file", {"path": "index.html", "content": SITE})
            ),
            Turn("Checking it.", ToolCall("read_file", {"path": "index.html"})),
            Turn(json.dumps({"status": "complete", "summary": "Done."})),
        ]
    )
    fs, history = MemoryFileStore(), History()
    run = rig.session.runner(fs, history)
    result = await run(RunRequest("Build a page."), RalphCallbacks())
    await rig.host.settle()
    assert str(result.status) == "complete", result.error
    assert await fs.read_text("index.html") == SITE
    # Every iteration but the last is kept when the next starts; the last by after_run.
    kept = [i for i, _ in history.kept]
    assert kept == list(range(1, result.iterations))
    await rig.session.after_run(history)(type("S", (), {"iteration": result.iterations})())
    assert history.kept[-1][0] == result.iterations
    assert history.kept[0][1] == "Writing the page."


async def test_the_runner_takes_ralphs_own_model_for_the_project(sim, transport):
    from wiggum.ralph.types import RunRequest
    from wiggum.session.providers import choose_model

    rig = Rig(sim_settings(sim), transport=transport)
    rig.settings = choose_model(rig.settings, "p1", "ralph", "cheap-model")
    sim.script([Turn(json.dumps({"status": "complete", "summary": "Done."}))])
    await rig.session.runner(MemoryFileStore(), None)(RunRequest("x"), RalphCallbacks())
    assert sim.chat_requests[0].json["model"] == "cheap-model"


async def test_ralphs_calls_wait_for_an_answer_as_long_as_settings_say(sim, transport):
    from wiggum.ralph.types import RunRequest

    timeouts: list[float | None] = []

    class Recording:
        async def send(self, request):
            timeouts.append(request.timeout)
            return await transport.send(request)

    rig = Rig(sim_settings(sim, request_timeout_seconds=42.0), transport=Recording())
    sim.script([Turn(json.dumps({"status": "complete", "summary": "Done."}))])
    await rig.session.runner(MemoryFileStore(), None)(RunRequest("x"), RalphCallbacks())
    assert timeouts and set(timeouts) == {42.0}


async def test_a_failed_call_of_his_is_said_in_the_words_chiefs_failures_are_shown_in(
    sim, transport
):
    from tests.sim import http_error
    from wiggum.ralph.types import RunRequest

    rig = Rig(sim_settings(sim), transport=transport)
    sim.script([http_error(401, "invalid api key")])
    result = await rig.session.runner(MemoryFileStore(), None)(RunRequest("x"), RalphCallbacks())
    assert str(result.status) == "error"
    assert result.error.startswith("API key rejected: The provider rejected the API key (Sim")
    assert "sk-sim" not in result.error


def test_the_gates_get_the_browsers_checks_when_there_are_some():
    async def js(path, source):
        return None

    async def preview(fs):
        return []

    rig = Rig()
    plain = {type(g).__name__ for g in rig.session.gates()}
    rig.session.host = FakeHost(checkers=Checkers(js=js, preview=preview))
    checked = rig.session.gates()
    assert {type(g).__name__ for g in checked} >= plain
    assert len(checked) > len(plain)


async def test_each_iterations_first_words_name_its_checkpoint():
    rig = Rig()
    history = History()
    cb = rig.session._with_checkpoints(RalphCallbacks(), history)
    cb.on_iteration_start(1, 5)
    cb.on_intent(1, "   ")
    cb.on_intent(1, "Write the menu.")
    cb.on_intent(1, "Then something else.")
    cb.on_iteration_start(2, 5)
    await rig.host.settle()
    assert rig.session.intents == {1: "Write the menu."}
    assert history.kept == [(1, "Write the menu.")]


async def test_a_checkpoint_refused_for_space_is_said_in_ralphs_tab():
    rig = Rig()
    history = History(StorageFull())
    cb = rig.session._with_checkpoints(RalphCallbacks(), history)
    cb.on_iteration_start(1, 5)
    cb.on_iteration_start(2, 5)
    await rig.host.settle()
    (refused,) = rig.of(ev.CheckpointRefused)
    assert not refused.person and refused.text.endswith(str(StorageFull()))


async def test_a_checkpoint_refused_by_another_tab_is_not_an_error():
    from wiggum.persist.guarded import ProjectPaused

    rig = Rig()
    await rig.session._checkpoint(History(ProjectPaused("p1")), 1)
    assert rig.events == []


async def test_the_meter_shows_what_the_latest_call_filled_and_the_run_cost():
    rig = Rig()
    cb = rig.session._with_meter(RalphCallbacks(), "gpt-4o", "openai")
    cb.on_usage(1, usage(1000, 200), usage(5000, 900, cost=0.02))
    (shown,) = rig.of(ev.RalphMeterShown)
    assert shown.meter == Meter(1200, shown.meter.window, 0.02)
    assert shown.meter.window  # gpt-4o's window from the registry


async def with_a_ledger() -> MemoryFileStore:
    """A project whose ``.ralph/usage.json`` holds one call of 900 tokens, $0.01."""
    from wiggum.ralph.state import RalphState

    fs = MemoryFileStore()
    state = RalphState(fs)
    ledger = await state.usage()
    ledger.add(1, usage(800, 100, cost=0.01), "gpt-4o", 1.0)
    await state.write_usage(ledger)
    return fs


async def test_the_meter_comes_back_from_the_last_runs_ledger():
    rig = Rig()
    await rig.session.restore_meter(await with_a_ledger())
    (shown,) = rig.of(ev.RalphMeterShown)
    assert shown.meter.tokens == 900 and shown.meter.cost == pytest.approx(0.01)


async def test_no_meter_from_notes_that_came_with_the_project():
    from types import SimpleNamespace

    from wiggum.ralph.transcript import RunEvent

    rig = Rig()
    fs = await with_a_ledger()
    # imported: .ralph/usage.json is there, but no run in his transcript here
    rig.session.transcript = SimpleNamespace(events=[])
    await rig.session.restore_meter(fs)
    assert rig.of(ev.RalphMeterShown) == []
    rig.session.transcript = SimpleNamespace(events=[RunEvent()])  # a run of this page's
    await rig.session.restore_meter(fs)
    assert len(rig.of(ev.RalphMeterShown)) == 1


async def test_no_ledger_no_meter():
    rig = Rig()
    await rig.session.restore_meter(MemoryFileStore())
    assert rig.events == []


# ------------------------------------------------------------------ what the page is told


def _event(kind: str, status: str = "running") -> CoordinatorEvent:
    from wiggum.coordinator.state import CoordinatorState

    return CoordinatorEvent(kind, CoordinatorState(status=status))


async def test_a_run_started_is_written_in_his_transcript_resumed_or_not():
    from wiggum.persist import MemoryAppStorage
    from wiggum.ralph.transcript import RalphTranscript, RunEvent

    rig = Rig()
    rig.session.transcript = RalphTranscript(MemoryAppStorage(), "p1")
    rig.session._resuming = True
    rig.session.on_coordinator(_event("started"))
    rig.session.on_coordinator(_event("started"))
    runs = [e for e in rig.session.transcript.events if isinstance(e, RunEvent)]
    assert [r.resumed for r in runs] == [True, False]


def test_gates_and_a_taken_notice_refresh_the_workspace():
    rig = Rig()
    rig.session.on_coordinator(_event("gates"))
    rig.session.on_coordinator(_event("notice"))
    assert rig.of(ev.WorkspaceChanged) == [ev.WorkspaceChanged(True), ev.WorkspaceChanged(False)]
    assert len(rig.of(ev.RalphStateShown)) == 2


def test_a_saved_plan_refreshes_the_workspace_so_the_tree_lists_it():
    rig = Rig()
    rig.session.on_coordinator(_event("plan"))
    assert rig.of(ev.WorkspaceChanged) == [ev.WorkspaceChanged(False)]


@pytest.mark.parametrize(("status", "notes"), [("complete", 1), ("cancelled", 0)])
async def test_a_finished_run_is_written_shown_and_told_unless_cancelled(status, notes):
    from wiggum.persist import MemoryAppStorage
    from wiggum.ralph.transcript import RalphTranscript, ResultEvent

    rig = Rig()
    rig.session.transcript = RalphTranscript(MemoryAppStorage(), "p1")
    rig.session.on_coordinator(_event("finished", status))
    await rig.host.settle()
    (result,) = [e for e in rig.session.transcript.events if isinstance(e, ResultEvent)]
    assert result.status == status
    assert rig.of(ev.RalphStateShown)[0].state.status == status
    assert rig.of(ev.WorkspaceChanged) == [ev.WorkspaceChanged(True)]
    assert rig.host.spawned() == ["post-build notice"] * notes


async def _finished_run(rig: Rig) -> Coordinator:
    runner = FakeRunner(iterations=1)
    coordinator = Coordinator(MemoryFileStore(), ralph_runner=runner)
    rig.session.coordinator = coordinator
    await coordinator.send_to_ralph("Build it.")
    runner.release.set()
    await coordinator.wait()
    return coordinator


async def test_after_a_build_chief_hears_of_it_at_once_when_his_provider_is_free(sim, transport):
    rig = Rig(sim_settings(sim), transport=transport)
    coordinator = await _finished_run(rig)
    await rig.session.after_build(coordinator)
    assert rig.of(ev.NoticeShown)[0].text == "Ralph finished — ask me about the results"
    assert rig.notes == 1


async def test_after_a_build_chief_waits_while_his_provider_is_busy(sim, transport):
    rig = Rig(sim_settings(sim), transport=transport)
    coordinator = await _finished_run(rig)
    async with rig.locks.hold("sim", "ralph"):
        await rig.session.after_build(coordinator)
    assert rig.of(ev.NoticeShown) and rig.notes == 0


async def test_after_a_build_a_paused_tab_says_nothing(sim, transport):
    rig = Rig(sim_settings(sim), paused=PAUSED_TEXT, transport=transport)
    await rig.session.after_build(await _finished_run(rig))
    assert rig.events == [] and rig.notes == 0


async def test_a_build_of_a_project_left_meanwhile_is_not_told(sim, transport):
    rig = Rig(sim_settings(sim), transport=transport)
    coordinator = await _finished_run(rig)
    rig.session.coordinator = None
    await rig.session.after_build(coordinator)
    assert rig.events == []


# ------------------------------------------------------------------ the person's buttons


@pytest.mark.parametrize("act", [lambda s: s.resume(), lambda s: s.start_task("Build")])
async def test_in_a_paused_tab_ralph_does_not_start_and_his_tab_says_why(act):
    rig = Rig(paused=PAUSED_TEXT)
    rig.session.coordinator = Coordinator(MemoryFileStore(), ralph_runner=FakeRunner())
    await act(rig.session)
    (refused,) = rig.of(ev.ActionRefused)
    assert refused.where == "ralph" and refused.refusal.text == f"Not started. {PAUSED_TEXT}"


async def test_a_resume_that_cannot_run_is_said_in_the_chat():
    rig = Rig()
    rig.session.coordinator = Coordinator(MemoryFileStore(), ralph_runner=FakeRunner())
    await rig.session.resume()
    (message,) = rig.of(ev.MessageShown)
    assert message.title == "Ralph could not resume" and not rig.session._resuming
    assert rig.of(ev.RalphStateShown)


async def test_a_task_that_cannot_start_is_said_in_the_chat():
    rig = Rig()
    runner = FakeRunner()
    rig.session.coordinator = Coordinator(MemoryFileStore(), ralph_runner=runner)
    await rig.session.start_task("First")
    await rig.session.start_task("Second, while the first runs")
    assert rig.of(ev.MessageShown)[0].title == "Ralph could not start"
    runner.release.set()
    await rig.session.stop()


async def test_stop_without_a_project_does_nothing():
    await Rig().session.stop()


async def test_a_project_session_runs_ralph_and_keeps_his_iterations_in_history(sim, transport):
    """The whole path: hand-off, the real loop over HTTP, checkpoints in git."""
    rig = ProjectRig(sim_settings(sim), transport=transport)
    await rig.open()
    sim.script(
        [
            Turn(
                "Writing the page.", ToolCall("write_file", {"path": "index.html", "content": SITE})
            ),
            Turn(json.dumps({"status": "complete", "summary": "Done."})),
        ]
    )
    await rig.session.coordinator.send_to_ralph("Build a page.")
    await rig.session.coordinator.wait()
    await rig.host.settle()
    checkpoints = await (await rig.session.history.history()).list()
    assert checkpoints and checkpoints[0].author.startswith("Ralph iteration")
    assert str(rig.session.coordinator.state.status) == "complete"
    kinds = [e.kind for e in rig.session.transcript.events]
    assert kinds[0] == "run" and "tool" in kinds
    # The run's end, then the last iteration's checkpoint (taken once the end is written).
    assert kinds[-2:] == ["result", "checkpoint"]
    await asyncio.sleep(0)
