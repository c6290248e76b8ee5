"""Ralph's memory: the ``.ralph/`` files, read and written through the FileStore.

Every write replaces a whole file (the store's write is atomic per file), so a
cancellation between two awaits can leave the files *behind* but never
half-written.  The loop relies on that and writes ``status.txt`` last when an
iteration ends: a reload that finds ``status: running`` and ``iteration: 3``
knows iterations 1-3 finished and the fourth was interrupted.

Formats:

- ``task.md``, ``plan.md``, ``progress.md``, ``feedback.md``, ``summary.md``:
  Markdown (plan and progress are written by Ralph himself through his tools).
- ``status.txt``: ``key: value`` lines (``status``, ``iteration``, ``max_iterations``,
  ``run_id``, ``started``, ``updated``, ``gate_failures`` as JSON, ``error``).
- ``usage.json``: ``{"iterations": [IterationUsage...], "total": UsageData, "last": UsageData}``
  (``last``: the latest call alone, what his context meter shows again after a reload).
- ``tmp/``: full copies of tool outputs the model only saw in part.
- ``reflections.md``: what each run learned (what worked, what failed, what to
  try), one section per run, newest last; read by the next run.
- ``tasks.md``: the earlier tasks, each kept when a follow-up hand-off replaced it.

Nothing here is deleted when a new run starts: a follow-up hand-off keeps his
plan (the new task is appended to it), his progress, his reflections and
``tmp/``.  Only :meth:`RalphState.clear` deletes, and only when the person asked
for a fresh start.
"""

from __future__ import annotations

import contextlib
import json
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from wiggum.fs import FileNotFound, FileStore, FileStoreError, NotText
from wiggum.llm import UsageData, accumulate_usage

from .types import IterationUsage, RalphStatus

__all__ = [
    "FEEDBACK",
    "PLAN",
    "PROGRESS",
    "RALPH_DIR",
    "REFLECTIONS",
    "STATUS",
    "SUMMARY",
    "TASK",
    "TASKS",
    "TMP_DIR",
    "USAGE",
    "RalphState",
    "StatusRecord",
    "UsageLedger",
    "format_status",
    "parse_status",
]

RALPH_DIR = ".ralph"
TASK = f"{RALPH_DIR}/task.md"
PLAN = f"{RALPH_DIR}/plan.md"
PROGRESS = f"{RALPH_DIR}/progress.md"
FEEDBACK = f"{RALPH_DIR}/feedback.md"
SUMMARY = f"{RALPH_DIR}/summary.md"
STATUS = f"{RALPH_DIR}/status.txt"
USAGE = f"{RALPH_DIR}/usage.json"
TMP_DIR = f"{RALPH_DIR}/tmp"
REFLECTIONS = f"{RALPH_DIR}/reflections.md"
TASKS = f"{RALPH_DIR}/tasks.md"

#: What "Start fresh" clears (the person asked): his memory and :data:`TMP_DIR`, never the project.
_RUN_FILES = (TASK, PLAN, PROGRESS, FEEDBACK, SUMMARY, STATUS, USAGE, REFLECTIONS, TASKS)


@dataclass(slots=True)
class StatusRecord:
    status: RalphStatus
    #: The last iteration that *finished* (0 before the first one).
    iteration: int
    run_id: str
    max_iterations: int = 0
    started: float = 0.0
    updated: float = 0.0
    #: How many times each gate has failed in this run (for the auto-patch step).
    gate_failures: dict[str, int] = field(default_factory=dict)
    error: str | None = None
    #: The run's cap (US dollars, tokens); ``None``: none of that kind.
    max_cost: float | None = None
    max_tokens: int | None = None

    @property
    def in_progress(self) -> bool:
        """A run was going when this was written (a reload interrupted it)."""
        return self.status == RalphStatus.RUNNING


def format_status(record: StatusRecord) -> str:
    lines = [
        f"status: {record.status.value}",
        f"iteration: {record.iteration}",
        f"max_iterations: {record.max_iterations}",
        f"run_id: {record.run_id}",
        f"started: {record.started:.3f}",
        f"updated: {record.updated:.3f}",
        f"gate_failures: {json.dumps(record.gate_failures, sort_keys=True)}",
    ]
    if record.max_cost is not None:
        lines.append(f"max_cost: {record.max_cost}")
    if record.max_tokens is not None:
        lines.append(f"max_tokens: {record.max_tokens}")
    if record.error:
        # One line: the format is line-based.
        lines.append(f"error: {' '.join(record.error.split())}")
    return "\n".join(lines) + "\n"


def parse_status(text: str) -> StatusRecord | None:
    """The record in ``text``, or ``None`` when it is not a status file."""
    values: dict[str, str] = {}
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if sep:
            values[key.strip()] = value.strip()
    try:
        status = RalphStatus(values["status"])
        iteration = int(values["iteration"])
    except (KeyError, ValueError):
        return None
    try:
        failures = json.loads(values.get("gate_failures") or "{}")
        gate_failures = {str(k): int(v) for k, v in failures.items()}
    except (ValueError, TypeError, AttributeError):
        gate_failures = {}

    def number(key: str, kind=float):
        try:
            return kind(values.get(key, 0))
        except ValueError:
            return kind(0)

    return StatusRecord(
        status=status,
        iteration=iteration,
        run_id=values.get("run_id", ""),
        max_iterations=number("max_iterations", int),
        started=number("started"),
        updated=number("updated"),
        gate_failures=gate_failures,
        error=values.get("error") or None,
        max_cost=_optional(values.get("max_cost"), float),
        max_tokens=_optional(values.get("max_tokens"), int),
    )


def _optional(value: str | None, kind: type) -> Any:
    try:
        return None if value is None else kind(value)
    except ValueError:
        return None


@dataclass(slots=True)
class UsageLedger:
    iterations: list[IterationUsage] = field(default_factory=list)
    total: UsageData | None = None
    #: The latest call alone: how full his context was (each iteration starts afresh).
    last: UsageData | None = None

    def add(self, iteration: int, usage: UsageData, model: str, now: float) -> IterationUsage:
        """Fold one call's usage into its iteration's entry (a resumed iteration adds up)."""
        self.total = accumulate_usage(self.total, usage)
        self.last = usage.model_copy()
        for i, entry in enumerate(self.iterations):
            if entry.iteration == iteration:
                merged = IterationUsage(
                    iteration=iteration,
                    usage=accumulate_usage(entry.usage, usage),
                    model=model,
                    timestamp=now,
                )
                self.iterations[i] = merged
                return merged
        entry = IterationUsage(
            iteration=iteration, usage=usage.model_copy(), model=model, timestamp=now
        )
        self.iterations.append(entry)
        return entry

    def to_json(self) -> str:
        data = {
            "iterations": [e.model_dump(mode="json") for e in self.iterations],
            "total": self.total.model_dump(mode="json") if self.total else None,
            "last": self.last.model_dump(mode="json") if self.last else None,
        }
        return json.dumps(data, indent=1) + "\n"

    @classmethod
    def from_json(cls, text: str) -> UsageLedger:
        try:
            data = json.loads(text)
            entries = [IterationUsage.model_validate(e) for e in data.get("iterations", [])]
            total = UsageData.model_validate(data["total"]) if data.get("total") else None
            last = UsageData.model_validate(data["last"]) if data.get("last") else None
        except (ValueError, TypeError, AttributeError, KeyError, ValidationError):
            return cls()
        return cls(entries, total, last)


class RalphState:
    """Read/write helpers for ``.ralph/``; holds nothing but the store and a clock."""

    def __init__(self, fs: FileStore, *, now: Callable[[], float] = time.time) -> None:
        self.fs = fs
        self.now = now

    async def read(self, path: str) -> str:
        """The file's text, ``""`` when it is missing or unreadable."""
        try:
            return await self.fs.read_text(path)
        except (FileNotFound, NotText, FileStoreError):
            return ""

    async def write(self, path: str, text: str) -> None:
        await self.fs.write_text(path, text)

    async def task(self) -> str:
        return await self.read(TASK)

    async def plan(self) -> str:
        return await self.read(PLAN)

    async def progress(self) -> str:
        return await self.read(PROGRESS)

    async def feedback(self) -> str:
        return await self.read(FEEDBACK)

    async def summary(self) -> str:
        return await self.read(SUMMARY)

    async def write_feedback(self, text: str) -> None:
        await self.write(FEEDBACK, text)

    async def write_summary(self, text: str) -> None:
        await self.write(SUMMARY, text)

    async def status(self) -> StatusRecord | None:
        text = await self.read(STATUS)
        return parse_status(text) if text else None

    async def write_status(self, record: StatusRecord) -> None:
        record.updated = self.now()
        await self.write(STATUS, format_status(record))

    async def usage(self) -> UsageLedger:
        text = await self.read(USAGE)
        return UsageLedger.from_json(text) if text else UsageLedger()

    async def write_usage(self, ledger: UsageLedger) -> None:
        await self.write(USAGE, ledger.to_json())

    async def reflections(self) -> str:
        return await self.read(REFLECTIONS)

    async def clear(self) -> None:
        """Delete his memory and ``tmp/`` (the person asked for a fresh start)."""
        for path in _RUN_FILES:
            with contextlib.suppress(FileNotFound):
                await self.fs.remove(path)
        with contextlib.suppress(FileNotFound):
            await self.fs.remove(TMP_DIR, recursive=True)

    async def start_run(
        self, task: str, max_iterations: int, *, fresh: bool = False
    ) -> StatusRecord:
        """Write the task, then the status; ``fresh`` clears his memory first.

        Without ``fresh`` (a follow-up hand-off) his plan, progress and
        reflections stay: the earlier task goes to ``tasks.md`` and the new
        one is appended to his plan, so he plans the follow-up on top of what
        he did.  Status goes last: until it is written, a reload still sees
        the old run.
        """
        if fresh:
            await self.clear()
        earlier = (await self.task()).strip()
        if earlier and earlier != task.strip():
            tasks = (await self.read(TASKS)).rstrip()
            await self.write(TASKS, f"{tasks}\n\n---\n\n{earlier}\n" if tasks else earlier + "\n")
            plan = (await self.plan()).rstrip()
            if plan:
                await self.write(PLAN, f"{plan}\n\n## Follow-up hand-off\n\n{task.strip()}\n")
        await self.write(TASK, task)
        now = self.now()
        record = StatusRecord(
            status=RalphStatus.RUNNING,
            iteration=0,
            run_id=uuid.uuid4().hex[:12],
            max_iterations=max_iterations,
            started=now,
        )
        await self.write_status(record)
        return record
