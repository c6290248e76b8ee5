"""What the open project's session tells the page, as typed messages.

The session decides; these say what to show.  ``wiggum.web.app`` keeps one
handler per message type (a table), the way Textual's widgets post
``Button.Pressed`` and their parent handles it: no session calls a view.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from wiggum._listeners import Listeners

from .refusals import Refusal

__all__ = [
    "ActionRefused",
    "ApprovalShown",
    "ChatsShown",
    "CheckpointRefused",
    "CriteriaWaived",
    "Emitter",
    "HandedToRalph",
    "MessageShown",
    "NoticeShown",
    "ProjectEvent",
    "ProjectOpened",
    "ProjectsListed",
    "RalphElsewhere",
    "RalphMeterShown",
    "RalphStateShown",
    "SiteChecked",
    "TabLockShown",
    "WorkspaceChanged",
]

#: Where the person acted: the chat, Ralph's tab, anywhere else (a rename, a file).
Where = Literal["chat", "ralph", "other"]


@dataclass(frozen=True, slots=True)
class ProjectOpened:
    """A project is open (``reload``: the same one, read again after a take-over).
    ``fs`` is its files as the agents see them (without ``.git/``), ``transcript``
    Ralph's (``wiggum.ralph.transcript.RalphTranscript``), read."""

    project_id: str
    fs: Any
    transcript: Any
    reload: bool = False


@dataclass(frozen=True, slots=True)
class ProjectsListed:
    """The stored projects (``AppStorage.list_projects``), the open one named."""

    projects: list[dict[str, Any]]
    current: str | None


@dataclass(frozen=True, slots=True)
class ChatsShown:
    """The project's conversations (``wiggum.ui.conversations``'s list), the open one marked."""

    chats: dict[str, Any]


@dataclass(frozen=True, slots=True)
class NoticeShown:
    text: str


@dataclass(frozen=True, slots=True)
class MessageShown:
    """Something the person should read in the chat's banner (a failure of theirs to fix)."""

    title: str
    message: str


@dataclass(frozen=True, slots=True)
class ActionRefused:
    """What the person did was not done, and why; said ``where`` they did it."""

    refusal: Refusal
    where: Where


@dataclass(frozen=True, slots=True)
class TabLockShown:
    """The tab lock's state changed: its banner shows again (or goes)."""


@dataclass(frozen=True, slots=True)
class RalphStateShown:
    state: Any  # wiggum.coordinator.CoordinatorState


@dataclass(frozen=True, slots=True)
class RalphElsewhere:
    """Ralph's run belongs to another tab (no Stop here), or to this one again."""

    elsewhere: bool


@dataclass(frozen=True, slots=True)
class RalphMeterShown:
    """Ralph's context meter (``wiggum.ui.model_choice.Meter``), ``None``: cleared."""

    meter: Any


@dataclass(frozen=True, slots=True)
class WorkspaceChanged:
    """The project's files changed: list them again (``preview``: show the site again)."""

    preview: bool = False


@dataclass(frozen=True, slots=True)
class SiteChecked:
    """The site checks ran (after one of Ralph's iterations, or asked for):
    ``report`` is their ``wiggum.ralph.site_checks.SiteReport``."""

    report: Any


@dataclass(frozen=True, slots=True)
class CriteriaWaived:
    """Ralph ended his run saying these acceptance criteria cannot be probed:
    ``unprobed`` holds each criterion and his reason (``Unprobed``)."""

    unprobed: list[Any]


@dataclass(frozen=True, slots=True)
class CheckpointRefused:
    """A checkpoint could not be kept in History (a full quota, a history that
    cannot be read); the files were saved.  ``person``: it was the person's own
    save (the editor says it)."""

    text: str
    person: bool


@dataclass(frozen=True, slots=True)
class HandedToRalph:
    """Chief handed the plan to Ralph: his tab comes forward."""


ProjectEvent = (
    ProjectOpened
    | ProjectsListed
    | ChatsShown
    | NoticeShown
    | MessageShown
    | ActionRefused
    | TabLockShown
    | RalphStateShown
    | RalphElsewhere
    | RalphMeterShown
    | WorkspaceChanged
    | SiteChecked
    | CriteriaWaived
    | CheckpointRefused
    | HandedToRalph
)


class Emitter(Listeners[[Any]]):
    """Listeners of a session's typed messages (``emit(event)``); a listener's
    failure is logged, never raised into the session that emitted."""


@dataclass(frozen=True, slots=True)
class ApprovalShown:
    """Ralph waits for Approve / Refuse (``wiggum.session.approval.ApprovalView``),
    or ``None``: the question is answered or gone."""

    view: Any
