"""The demo (wiggum.session.demo): the committed recording replayed through the
real session layer with no provider at all: Chief's answers, the hand-off,
Ralph's iterations writing the site, checkpoints; then what a request past
the recording's end says.  Anything that would leave for a real provider
fails the test."""

from __future__ import annotations

import pytest
from fakes import ProjectRig

from wiggum.llm.http_types import HttpRequest
from wiggum.session.demo import (
    DEMO_BASE,
    ENDED,
    LABEL,
    DemoTransport,
    asker,
    demo_settings,
    load_recording,
)
from wiggum.ui.settings import Settings


class NoNetwork:
    """The page's transport in the test: nothing may reach it."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    async def send(self, request):
        self.asked.append(request.url)
        raise AssertionError(f"left the replay: {request.url}")


async def _play(rig: ProjectRig, person: list[str]) -> None:
    for text in person:
        rig.chief.send(text)
        await rig.host.settle()
        await rig.session.coordinator.wait()
        await rig.host.settle()


async def test_the_recording_replays_the_whole_session_without_a_provider():
    recording = load_recording()
    transport = DemoTransport(NoNetwork())
    transport.play(recording)
    rig = ProjectRig(demo_settings(recording, Settings()), transport=transport)
    await rig.open(recording.project)
    await _play(rig, recording.person)

    assert transport.ended and transport.inner.asked == []
    files = await rig.session.fs.list()
    assert {"index.html", "style.css"} <= set(files)
    assert "Crumb &amp; Co" in (await rig.session.fs.read_text("index.html"))
    replies = [r.content for r in rig.session.chat.records if r.role == "assistant" and r.content]
    assert replies[0].startswith("A warm one-pager") and replies[-1].startswith("Ralph finished")
    checkpoints = await (await rig.session.history.history()).list()
    assert checkpoints  # Ralph's iterations are in History
    assert rig.session.coordinator.state.status == "complete"


async def test_past_the_end_the_replay_says_what_to_do():
    transport = DemoTransport(NoNetwork())
    transport.play(load_recording().model_copy(update={"answers": []}))
    response = await transport.send(HttpRequest("POST", DEMO_BASE + "/chat/completions"))
    assert response.status == 400 and ENDED.encode() in await response.aread()


async def test_only_the_demo_address_is_replayed():
    inner = NoNetwork()
    transport = DemoTransport(inner)
    with pytest.raises(AssertionError, match="left the replay"):
        await transport.send(HttpRequest("GET", "http://127.0.0.1:9/v1/models"))
    assert inner.asked == ["http://127.0.0.1:9/v1/models"]


def test_chief_is_told_from_ralph_by_his_hand_off_tool():
    assert asker(b'{"tools":[{"function":{"name":"send_to_ralph"}}]}') == "chief"
    assert asker(b'{"tools":[{"function":{"name":"write_file"}}]}') == "ralph"


def test_the_demo_runs_on_the_replay_alone_and_keeps_the_persons_other_settings():
    recording = load_recording()
    base = Settings(proxy_template="https://w.example/?url={href}")
    settings = demo_settings(recording, base)
    (only,) = settings.providers
    assert only.base_url == DEMO_BASE and only.name == LABEL and settings.active() is only
    assert settings.proxy_template == base.proxy_template and base.providers == []


async def test_the_run_plays_in_a_project_of_its_own_on_the_replay_only_there():
    import asyncio

    from wiggum.session.demo import DemoRun

    transport = DemoTransport(NoNetwork())
    run = DemoRun(transport)
    person = Settings()
    rig = ProjectRig(lambda: run.settings(rig.session.project_id, person), transport=transport)
    await rig.open("Mine")
    mine = rig.session.project_id
    assert rig.session.settings is person  # no demo yet: the person's own

    async def sleep(seconds: float) -> None:
        await asyncio.sleep(0.01)

    assert await run.play(rig.session, sleep)
    assert transport.ended and rig.session.project_id == run.project_id != mine
    assert rig.session.settings.active().name == LABEL
    assert {"index.html", "style.css"} <= set(await rig.session.fs.list())
    await rig.session.switch_project(mine)
    assert rig.session.settings is person  # the replay stays in its project


async def test_a_replay_whose_answers_are_never_used_up_still_ends():
    from types import SimpleNamespace

    from wiggum.session.demo import GIVE_UP, POLL, _at_rest

    idle = SimpleNamespace(busy=SimpleNamespace(ralph_running=False, chief_busy=False))
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    await _at_rest(idle, sleep, lambda: False)
    assert len(slept) == round(GIVE_UP / POLL)
    slept.clear()
    await _at_rest(idle, sleep, lambda: True)
    assert len(slept) == 2
