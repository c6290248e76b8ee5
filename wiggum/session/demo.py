"""See it build a site: a recorded session replayed, with no provider at all.

The recording (``wiggum/session/data/demo.json``, made by
``scripts/record_demo.py`` from the provider simulator) holds the person's
messages and every answer the provider gave, each marked with who asked
(Chief or Ralph).  The demo runs the real app on it: Chief's turns, the
hand-off, Ralph's loop with its tools, checkpoints and preview all happen as
they would, and only the answers come from the recording, through the replay
transport (:class:`DemoTransport` answers the demo's own address, which no
network knows, and hands every other request to the page's transport).

Answers are taken per asker, in order, so Chief's turn on Ralph's news and
Ralph's iterations cannot take each other's.  Once the recording is used up,
any further request is answered with what to do next, in words: the replay
has ended; connect a provider to build your own.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from importlib import resources
from typing import Any, Literal, Protocol

from pydantic import BaseModel, SecretStr

from wiggum.llm.http_types import HttpRequest
from wiggum.llm.transport import HttpResponse, ReplayResponse, Transport
from wiggum.ui.settings import ProviderSettings, Settings

__all__ = [
    "DEMO_BASE",
    "ENDED",
    "END_TEXT",
    "END_TITLE",
    "LABEL",
    "PLAYING",
    "DemoRun",
    "DemoTransport",
    "Recorded",
    "Recording",
    "asker",
    "demo_settings",
    "load_recording",
]

#: The demo provider's address: a reserved name no request can reach.
DEMO_BASE = "https://replay.wiggum.invalid/v1"
#: What the demo is called wherever it shows (the project, the provider).
LABEL = "Replay of a recorded session"
#: Said (as the provider's error) when the recording has no more answers.
ENDED = "The replay has ended. Connect a provider to build your own."

#: Said as the demo starts, where the person watches.
PLAYING = (
    "This is a replay of a recorded session: Chief and Ralph run as they would, "
    "with answers recorded from a model beforehand. No provider is called."
)
#: Said once the replay has played to its end.
END_TITLE = "The replay has ended"
END_TEXT = "Connect a provider to build your own: Settings, or the first screen of a new project."
#: Seconds between two looks at whether the session is at rest.
POLL = 0.25
#: Seconds of rest after which the replay is over even with answers left.
GIVE_UP = 10.0

Asker = Literal["chief", "ralph"]


class Recorded(BaseModel):
    """One answer of the provider: who asked, its status and its body as sent."""

    asker: Asker
    status: int = 200
    content_type: str = "text/event-stream"
    body: str


class Recording(BaseModel):
    """A whole session: the model named, the person's messages, the answers."""

    model: str
    project: str
    person: list[str]
    answers: list[Recorded]


def load_recording() -> Recording:
    """The committed recording."""
    text = resources.files("wiggum.session").joinpath("data/demo.json").read_text("utf-8")
    return Recording.model_validate_json(text)


def asker(body: bytes | None) -> Asker:
    """Who sent a request to the model: Chief's requests carry his hand-off tool."""
    return "chief" if body is not None and b'"send_to_ralph"' in body else "ralph"


def _chunks(body: str) -> list[bytes]:
    """A stream's events one chunk each, as the network delivers them."""
    parts = body.encode().split(b"\n\n")
    return [p + b"\n\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


class DemoTransport:
    """The page's transport, with the demo's address answered from a recording."""

    def __init__(self, inner: Transport | None = None) -> None:
        #: The page's own transport (set once it is installed).
        self.inner = inner
        self.queues: dict[str, list[Recorded]] = {"chief": [], "ralph": []}

    def play(self, recording: Recording) -> None:
        """Answer the demo's requests from ``recording`` from now on."""
        for who in self.queues:
            self.queues[who] = [a for a in recording.answers if a.asker == who]

    @property
    def ended(self) -> bool:
        return not any(self.queues.values())

    async def send(self, request: HttpRequest) -> HttpResponse:
        if not request.url.startswith(DEMO_BASE):
            assert self.inner is not None, "the page's transport is installed first"
            return await self.inner.send(request)
        queue = self.queues[asker(request.body)]
        if not queue:
            error = {"error": {"message": ENDED, "type": "replay_ended"}}
            body = json.dumps(error).encode()
            return ReplayResponse(body, 400, {"Content-Type": "application/json"})
        answer = queue.pop(0)
        return ReplayResponse(
            _chunks(answer.body), answer.status, {"Content-Type": answer.content_type}
        )


def demo_settings(recording: Recording, base: Settings) -> Settings:
    """The settings the demo's project runs on: the person's own, with the
    replay as the one provider (nothing of it is saved)."""
    replay = ProviderSettings(
        id="replay",
        name=LABEL,
        preset="custom",
        kind="openai",
        base_url=DEMO_BASE,
        model=recording.model,
        api_key=SecretStr("replay"),
    )
    return base.model_copy(update={"providers": [replay], "active_provider": "replay"})


class DemoProject(Protocol):
    """What the demo drives: the app's open project (``ProjectSession``)."""

    project_id: str | None
    chief: Any

    @property
    def busy(self) -> Any: ...

    def create_project(self, name: str) -> Awaitable[None]: ...


class DemoRun:
    """The demo as the app runs it: a project of its own, on the replay only
    while that project is open, the person's messages sent as recorded."""

    def __init__(self, transport: DemoTransport) -> None:
        self.transport = transport
        self.recording: Recording | None = None
        self.project_id: str | None = None
        self.playing = False

    def settings(self, project_id: str | None, base: Settings) -> Settings:
        """The settings ``project_id`` runs on: the replay in the demo's project."""
        if self.recording is None or project_id is None or project_id != self.project_id:
            return base
        return demo_settings(self.recording, base)

    async def play(
        self,
        project: DemoProject,
        sleep: Callable[[float], Awaitable[None]],
        opened: Callable[[], None] = lambda: None,
    ) -> bool:
        """Play the recording to its end (``False``: it is playing already);
        ``opened()`` once its project is open and on the replay."""
        if self.playing:
            return False
        self.playing = True
        try:
            recording = self.recording = load_recording()
            self.transport.play(recording)
            await project.create_project(recording.project)
            self.project_id = project.project_id
            opened()
            for n, text in enumerate(recording.person, 1):
                project.chief.send(text)
                if n < len(recording.person):
                    await _at_rest(project, sleep, lambda: True)
            await _at_rest(project, sleep, lambda: self.transport.ended)
        finally:
            self.playing = False
        return True


async def _at_rest(
    project: DemoProject, sleep: Callable[[float], Awaitable[None]], done: Callable[[], bool]
) -> None:
    """Until Chief and Ralph are both idle twice in a row and ``done()`` (Chief's
    turn on Ralph's news starts a moment after the run ends), or idle for
    :data:`GIVE_UP` seconds (a run that failed never uses up its answers)."""
    quiet = idle = 0
    while quiet < 2 and idle * POLL < GIVE_UP:
        await sleep(POLL)
        busy = project.busy
        at_rest = not (busy.ralph_running or busy.chief_busy)
        idle = idle + 1 if at_rest else 0
        quiet = quiet + 1 if at_rest and done() else 0
