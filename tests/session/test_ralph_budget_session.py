"""Ralph's session and his cap: the settings' limit and cap reach his runs, a learned
provider limit is kept with the settings and sizes the next run, Continue and Start fresh."""

from __future__ import annotations

import json

from fakes import FakeHost, sim_settings

from tests.coordinator.helpers import FakeRunner
from tests.sim import HttpError, Turn
from wiggum.coordinator import Coordinator, ProviderLocks
from wiggum.coordinator.contract import RalphCallbacks
from wiggum.fs import MemoryFileStore
from wiggum.llm.limits import LearnedLimits, limits_key
from wiggum.ralph.types import RalphResult, RalphStatus, RunBudget, RunRequest
from wiggum.session import events as ev
from wiggum.session.ralph import RalphSession, default_budget
from wiggum.ui.ralph_budget import ContinueRequest
from wiggum.ui.settings import Settings

DONE = json.dumps({"status": "complete", "summary": "Done."})
SITE = (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" '
    'content="width=device-width"><title>x</title></head><body><p>hi</p></body></html>'
)


class Rig:
    def __init__(self, settings: Settings, transport=None) -> None:
        self.host = FakeHost()
        self.settings = settings
        self.events: list = []
        self.kept: list[Settings] = []
        self.session = RalphSession(
            host=self.host,
            settings=lambda: self.settings,
            locks=ProviderLocks(),
            paused=lambda: None,
            note_turn=lambda: True,
            emit=self.events.append,
            transport=transport,
            keep_settings=self.keep,
        )
        self.session.project_id = "p1"

    async def keep(self, settings: Settings) -> bool:
        self.settings = settings
        self.kept.append(settings)
        return True


def test_the_default_cap_is_the_settings():
    assert default_budget(Settings()) == RunBudget(2.0, None)
    none = Settings(ralph_cap_usd=None, ralph_cap_tokens=None)
    assert default_budget(none) is None
    assert default_budget(Settings(ralph_cap_tokens=9000)) == RunBudget(2.0, 9000)


async def test_a_learned_limit_is_kept_with_the_settings_and_sizes_the_next_run(sim, transport):
    refusal = HttpError(400, message="max_tokens: 8192 > 4096, which is the maximum allowed")
    sim.script([Turn(fault=refusal)])
    rig = Rig(sim_settings(sim, ralph_max_iterations=3), transport)
    fs = MemoryFileStore({"index.html": SITE})  # the checks pass when he says he is done
    first = await rig.session.runner(fs, None)(RunRequest("Build a page."), RalphCallbacks())
    await rig.host.settle()
    assert str(first.status) == "error"
    key = limits_key(sim.base_url + "/v1", "gpt-4o-mini")
    assert rig.settings.learned_limits == {key: LearnedLimits(max_output_tokens=4096)}
    sim.script([Turn(DONE), Turn(json.dumps({"worked": ["x"]}))])
    second = await rig.session.runner(fs, None)(RunRequest("Build a page."), RalphCallbacks())
    assert str(second.status) == "complete", second.error
    his = [r.json for r in sim.chat_requests if "# Iteration" in json.dumps(r.json)]
    body = his[-1]  # the second run's call (the reflection calls carry no iteration)
    assert (body.get("max_completion_tokens") or body.get("max_tokens")) <= 4096
    # The settings' limit is the run's: the forecast says so before the first call.
    assert "# Iteration 1 of 3" in json.dumps(body)


async def test_continue_and_start_fresh_go_through_the_coordinator():
    fs = MemoryFileStore()
    await fs.write_text(".ralph/plan.md", "- [ ] home")
    await fs.write_text("index.html", "site")
    runner = FakeRunner(result=RalphResult(status=RalphStatus.MAX_ITERATIONS, iterations=5))
    rig = Rig(Settings())
    rig.session.coordinator = coordinator = Coordinator(fs, ralph_runner=runner)
    await coordinator.send_to_ralph("Build it")
    runner.release.set()
    await coordinator.wait()
    assert rig.session.iterations() == 20
    runner.release.clear()
    runner.started.clear()
    request = ContinueRequest(4, RunBudget(max_cost=3.0), "Blue links.")
    await rig.session.continue_run(request)
    await runner.started.wait()
    sent = runner.requests[-1]
    assert (sent.resume, sent.more_iterations, sent.note) == (True, 4, "Blue links.")
    assert sent.budget == RunBudget(max_cost=3.0)
    # Start fresh waits for no run: while one goes, his memory is kept and it is said.
    await rig.session.start_fresh()
    assert await fs.exists(".ralph/plan.md")
    assert [e.title for e in rig.events if isinstance(e, ev.MessageShown)] == [
        "Ralph's memory was kept"
    ]
    runner.release.set()
    await coordinator.wait()
    await rig.session.start_fresh()
    assert not await fs.exists(".ralph/plan.md") and await fs.read_text("index.html") == "site"


def test_chiefs_provider_carries_the_learned_limits_of_its_endpoint_and_model(sim):
    from wiggum.session.providers import provider_for

    settings = sim_settings(sim)
    assert provider_for(settings, "p1", "chief").context_window is None
    key = limits_key(sim.base_url + "/v1", "gpt-4o-mini")
    taught = settings.model_copy(
        update={"learned_limits": {key: LearnedLimits(context_window=7000)}}
    )
    assert provider_for(taught, "p1", "chief").context_window == 7000
    other = taught.model_copy(
        update={
            "learned_limits": {
                limits_key("https://elsewhere/v1", "gpt-4o-mini"): LearnedLimits(
                    context_window=7000
                )
            }
        }
    )
    assert provider_for(other, "p1", "chief").context_window is None
