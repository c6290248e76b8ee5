"""Ralph's transcript: what he did in a project, as typed events, and where it is kept.

Everything the loop reports (:class:`~wiggum.ralph.types.RalphCallbacks`), and
each run's start and end, becomes an event: a pydantic model, one per ``kind``,
in the discriminated union :data:`RalphEvent`.  :class:`RalphTranscript` owns
one project's events: it reads them from storage, appends what the loop reports,
writes each one as it comes, and tells its subscribers (Ralph's tab, the app).

Decided here:

- **The stored form is the one people already have.**  Each event is stored as
  the plain dict it always was (``AppStorage.put_message(project, "ralph", seq,
  record)``: ``kind`` and the same keys, ``i`` for the iteration, ``t`` for a
  run's start, ``error`` for a failed call), so the models carry those keys as
  aliases and :meth:`to_record` writes them back unchanged.  A record that does
  not read as any event is skipped (logged), never fatal to the rest.
- **Pydantic, not dataclasses**: records come back from storage written by
  older versions, and what they hold (usage, check results) is already
  pydantic (``UsageData``, ``GateResult``); one ``TypeAdapter`` over the union
  reads a record of any kind and checks it on the way in.  Ralph's tab is not
  part of the first screen, so pydantic costs nothing there.
- **A refused write is not lost**: the writes go one at a time, in order,
  through :class:`~wiggum.persist.retry.RetryingWriter` (the policy Chief's
  conversation shares): the event stays in the transcript and on screen, and is
  written again after the next write that lands.  A full quota is told to the
  subscribers once, until a write lands again (every event would otherwise say
  it again); other refusals (another tab has the project) are only logged, the
  tab-lock banner says those.
- The context-pressure note is kept once per iteration (the loop reports every
  call it builds under pressure), and a tool's output is kept up to
  :data:`KEEP_OUTPUT` characters (the rest is in the files).

Pure: storage is injected (:class:`wiggum.persist.AppStorage`), and writes run
as an asyncio task, so CPython tests drive it with ``MemoryAppStorage``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator

from wiggum._listeners import Listeners
from wiggum.fs import StorageFull
from wiggum.llm.types import UsageData
from wiggum.persist import AppStorage
from wiggum.persist.retry import RetryingWriter, WriteOutcome

from .types import GateResult, RalphCallbacks, RalphResult

__all__ = [
    "AGENT",
    "KEEP_OUTPUT",
    "Appended",
    "CheckpointEvent",
    "GatesEvent",
    "IntentEvent",
    "IterationEvent",
    "PressureEvent",
    "RalphEvent",
    "RalphTranscript",
    "ReasoningEvent",
    "Reloaded",
    "ResultEvent",
    "RunEvent",
    "StallEvent",
    "ToolEvent",
    "TranscriptChange",
    "UsageEvent",
    "WriteRefused",
    "clip_output",
    "parse_event",
]

log = logging.getLogger("wiggum.ralph.transcript")

#: The conversation slot of a project that holds Ralph's transcript.
AGENT = "ralph"
#: The most of a tool's output a transcript keeps (the rest is in the files).
KEEP_OUTPUT = 4000


class _Event(BaseModel):
    # Populated by the Python names, stored under the short keys of the records.
    model_config = ConfigDict(
        frozen=True, validate_by_name=True, validate_by_alias=True, extra="ignore"
    )

    #: Keys that records of this kind hold only when they have a value.
    _OMITTED_WHEN_NONE: ClassVar[frozenset[str]] = frozenset()

    def to_record(self) -> dict[str, Any]:
        """The dict stored for this event: ``kind`` and the keys it always had."""
        record = self.model_dump(mode="json", by_alias=True)
        for key in self._OMITTED_WHEN_NONE:
            if record.get(key) is None:
                record.pop(key, None)
        return record


class RunEvent(_Event):
    """A run began (``resumed``: it continues the run before it)."""

    #: The first runs of Ralph's tab were stored without their start.
    _OMITTED_WHEN_NONE: ClassVar[frozenset[str]] = frozenset({"t"})

    kind: Literal["run"] = "run"
    resumed: bool = False
    #: When it began, seconds since the epoch.
    started: float | None = Field(None, alias="t")


class IterationEvent(_Event):
    kind: Literal["iteration"] = "iteration"
    iteration: int = Field(alias="i")
    max_iterations: int = Field(0, alias="max")


class IntentEvent(_Event):
    """What he said he would do, before his calls."""

    kind: Literal["intent"] = "intent"
    iteration: int = Field(alias="i")
    text: str


class ReasoningEvent(_Event):
    kind: Literal["reasoning"] = "reasoning"
    iteration: int = Field(alias="i")
    text: str


class ToolEvent(_Event):
    kind: Literal["tool"] = "tool"
    iteration: int = Field(alias="i")
    name: str
    args: dict[str, Any] = Field(default_factory=dict)
    #: What the call returned, clipped to :data:`KEEP_OUTPUT`.
    output: str = ""
    is_error: bool = Field(False, alias="error")

    @field_validator("args", mode="before")
    @classmethod
    def _args_as_dict(cls, value: Any) -> Any:
        if value is None:
            return {}
        return value if isinstance(value, Mapping) else {"args": str(value)}


class UsageEvent(_Event):
    """One call's usage (``call``) and the run's total after it."""

    kind: Literal["usage"] = "usage"
    iteration: int = Field(alias="i")
    call: UsageData
    total: UsageData


class StallEvent(_Event):
    """The same tool calls ``count`` times in a row."""

    kind: Literal["stall"] = "stall"
    count: int = 0


class PressureEvent(_Event):
    """The context was nearly full: token counts only."""

    kind: Literal["pressure"] = "pressure"
    #: The iteration it happened in; 0 before the first.
    iteration: int = Field(0, alias="i")
    estimated: int = 0
    window: int = 0
    #: The share of the window left, 0..1.
    headroom: float = 0.0


class GatesEvent(_Event):
    """The checks after an iteration."""

    kind: Literal["gates"] = "gates"
    iteration: int = Field(alias="i")
    results: list[GateResult] = Field(default_factory=list)


class ResultEvent(_Event):
    """A run's end.  Without a result (the run failed before one), only
    ``status`` and ``error`` are stored."""

    _OMITTED_WHEN_NONE: ClassVar[frozenset[str]] = frozenset(
        {"summary", "iterations", "usage", "files"}
    )

    kind: Literal["result"] = "result"
    status: str
    error: str | None = None
    summary: str | None = None
    iterations: int | None = None
    usage: UsageData | None = None
    #: The files his completion report says he created or changed.
    files: list[str] | None = None


class CheckpointEvent(_Event):
    """The History checkpoint taken after an iteration (only one that changed
    files makes one): its id and the files it added, changed and removed, so
    the run list pairs each iteration with it without reading the history."""

    kind: Literal["checkpoint"] = "checkpoint"
    iteration: int = Field(alias="i")
    checkpoint: str = Field(alias="id")
    added: list[str] = Field(default_factory=list)
    changed: list[str] = Field(default_factory=list)
    removed: list[str] = Field(default_factory=list)


RalphEvent = Annotated[
    RunEvent
    | IterationEvent
    | IntentEvent
    | ReasoningEvent
    | ToolEvent
    | UsageEvent
    | StallEvent
    | PressureEvent
    | GatesEvent
    | ResultEvent
    | CheckpointEvent,
    Field(discriminator="kind"),
]
_EVENT: TypeAdapter[RalphEvent] = TypeAdapter(RalphEvent)


def parse_event(record: Any) -> RalphEvent | None:
    """The event a stored record holds; ``None`` when it holds none (logged)."""
    try:
        return _EVENT.validate_python(record)
    except ValidationError as exc:
        kind = record.get("kind") if isinstance(record, Mapping) else type(record).__name__
        log.warning("ralph: skipped an unreadable transcript record (%s): %s", kind, exc)
        return None


def clip_output(output: Any) -> str:
    """A tool's output as the transcript keeps it."""
    out = str(output)
    if len(out) > KEEP_OUTPUT:
        return out[:KEEP_OUTPUT] + f"\n… ({len(out) - KEEP_OUTPUT} more characters)"
    return out


def _storable_args(args: Any) -> dict[str, Any]:
    """``args`` if it can be stored as JSON, else its text."""
    try:
        json.dumps(args)
    except (TypeError, ValueError):
        return {"args": str(args)}
    return args if isinstance(args, dict) else {"args": str(args)}


# ---------------------------------------------------------------- what subscribers hear


@dataclass(frozen=True, slots=True)
class Appended:
    """An event was added (and is being written)."""

    event: RalphEvent


@dataclass(frozen=True, slots=True)
class Reloaded:
    """The transcript was read again from storage: draw it whole."""


@dataclass(frozen=True, slots=True)
class WriteRefused:
    """Storage refused an event for a full quota (said once until a write lands)."""

    error: BaseException


TranscriptChange = Appended | Reloaded | WriteRefused
Subscriber = Callable[[TranscriptChange], Any]


class RalphTranscript:
    """One project's transcript: its events, in order, and their storage."""

    def __init__(
        self,
        storage: AppStorage,
        project_id: str,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.storage = storage
        self.project_id = project_id
        self._clock = clock
        self._events: list[RalphEvent] = []
        #: The storage key of the next event: every record read counts, even
        #: one that did not parse, so a new event never overwrites it.
        self._next_seq = 0
        self._writer: RetryingWriter[int] = RetryingWriter(self._put)
        self._queue: deque[tuple[int, dict[str, Any]]] = deque()
        self._drainer: asyncio.Future[None] | None = None
        #: A full quota was told to the subscribers (once until a write lands).
        self._said_full = False
        self._subscribers: Listeners[[TranscriptChange]] = Listeners(
            log, "ralph: a transcript subscriber"
        )

    @property
    def events(self) -> Sequence[RalphEvent]:
        return self._events

    @property
    def behind(self) -> bool:
        """Some events are held: storage refused them and they wait for a retry."""
        return self._writer.behind

    # ------------------------------------------------------------ subscribers

    def subscribe(self, callback: Subscriber) -> Callable[[], None]:
        """Call ``callback(change)`` on every change; returns the unsubscribe function."""
        return self._subscribers.subscribe(callback)

    # ------------------------------------------------------------ reading

    async def load(self) -> None:
        """Read the transcript from storage (again), replacing what is held here.

        Events storage refused earlier are not written later: what storage
        holds now is the transcript (another tab may have written it since)."""
        try:
            rows = await self.storage.load_messages(self.project_id, AGENT)
        except Exception:
            log.exception("ralph: could not read the transcript")
            rows = []
        events = [e for e in map(parse_event, rows) if e is not None]
        self._events = events
        self._next_seq = len(rows)
        self._queue.clear()
        self._writer.forget(lambda _seq: False)
        self._said_full = False
        self._subscribers.emit(Reloaded())

    # ------------------------------------------------------------ appending

    def callbacks(self) -> RalphCallbacks:
        """The loop's callbacks, for the Coordinator to chain after its own."""
        return RalphCallbacks(
            on_iteration_start=lambda i, m: self.append(
                IterationEvent(iteration=i, max_iterations=m)
            ),
            on_intent=lambda i, text: self.append(IntentEvent(iteration=i, text=text)),
            on_tool_call=self._on_tool_call,
            on_reasoning=lambda i, text: self.append(ReasoningEvent(iteration=i, text=text)),
            # Copies: the loop goes on adding to its running total.
            on_usage=lambda i, call, total: self.append(
                UsageEvent(iteration=i, call=call.model_copy(), total=total.model_copy())
            ),
            on_stall=lambda n, _signature: self.append(StallEvent(count=n)),
            on_context_pressure=self._on_context_pressure,
            on_gates=lambda i, results: self.append(GatesEvent(iteration=i, results=list(results))),
        )

    def _on_tool_call(self, i: int, name: str, args: Any, output: Any, is_error: bool) -> None:
        self.append(
            ToolEvent(
                iteration=i,
                name=str(name),
                args=_storable_args(args),
                output=clip_output(output),
                is_error=bool(is_error),
            )
        )

    def _on_context_pressure(self, estimated: int, window: int, headroom: float) -> None:
        """One note per iteration: the loop reports every call built under pressure."""
        iteration = 0
        for event in reversed(self._events):
            if isinstance(event, PressureEvent):
                return  # already noted in this iteration
            if isinstance(event, IterationEvent):
                iteration = event.iteration
                break
            if isinstance(event, RunEvent):
                break
        self.append(
            PressureEvent(
                iteration=iteration,
                estimated=int(estimated),
                window=int(window),
                headroom=round(float(headroom), 4),
            )
        )

    def run_started(self, resumed: bool) -> None:
        self.append(RunEvent(resumed=resumed, started=self._clock()))

    def run_finished(self, result: RalphResult | None, status: str, error: str | None) -> None:
        if result is None:
            self.append(ResultEvent(status=str(status), error=error))
            return
        completion = result.completion
        files = (
            sorted(set(completion.files_created + completion.files_modified))
            if completion is not None
            else None
        )
        self.append(
            ResultEvent(
                status=str(status),
                error=error,
                summary=result.summary,
                iterations=result.iterations,
                usage=result.usage,
                files=files,
            )
        )

    def checkpointed(
        self, iteration: int, checkpoint: str, files: Iterable[tuple[str, str]]
    ) -> None:
        """The History checkpoint ``checkpoint`` was taken after ``iteration``;
        ``files`` are its ``(path, kind)`` with kind ``added``/``modified``/``deleted``."""
        by_kind: dict[str, list[str]] = {"added": [], "modified": [], "deleted": []}
        for path, kind in files:
            by_kind.setdefault(kind, []).append(path)
        self.append(
            CheckpointEvent(
                iteration=iteration,
                checkpoint=checkpoint,
                added=by_kind["added"],
                changed=by_kind["modified"],
                removed=by_kind["deleted"],
            )
        )

    def append(self, event: RalphEvent) -> None:
        """Add ``event``, tell the subscribers, and write it (in the background)."""
        seq = self._next_seq
        self._next_seq += 1
        self._events.append(event)
        self._subscribers.emit(Appended(event))
        self._queue.append((seq, event.to_record()))
        if self._drainer is None or self._drainer.done():
            self._drainer = asyncio.ensure_future(self._drain())

    # ------------------------------------------------------------ writing

    async def flush(self) -> None:
        """Wait until every event appended so far was written or refused."""
        while self._drainer is not None and not self._drainer.done():
            await asyncio.shield(self._drainer)

    async def _put(self, seq: int, record: dict[str, Any]) -> None:
        await self.storage.put_message(self.project_id, AGENT, seq, record)

    async def _drain(self) -> None:
        # One write at a time, in order: a retried record never races a new one.
        while self._queue:
            seq, record = self._queue.popleft()
            outcome = await self._writer.write(seq, record)
            if outcome is WriteOutcome.REFUSED:
                self._refused(seq, self._writer.error)
            elif outcome is not WriteOutcome.BEHIND:
                self._said_full = False

    def _refused(self, seq: int, error: BaseException | None) -> None:
        log.warning("ralph: could not save event %d: %s", seq, type(error).__name__)
        if isinstance(error, StorageFull) and not self._said_full:
            self._said_full = True
            self._subscribers.emit(WriteRefused(error))
