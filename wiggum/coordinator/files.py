"""The Coordinator's files: ``.chief/`` written as things happen, ``.ralph/`` read.

``prompt.md``      the task Ralph was given (Chief's hand-off), verbatim
``plan.md``        the agreed plan
``status.txt``     ``key: value`` lines: state, run_id, iteration, timestamps
``last_result.json`` the last ``RalphResult`` (summary, gates, usage)
``notice.json``    a finished run Chief has not been told about yet

Storage trouble is recorded (:attr:`StatusFiles.write_error`) and logged, never
allowed to break Ralph's run.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable, Coroutine
from typing import Any

from pydantic import ValidationError

from wiggum.fs import FileNotFound, FileStore, FileStoreError, PathError

from .contract import RalphStatus
from .state import CoordinatorState

__all__ = [
    "FEEDBACK_PATH",
    "NOTICE_PATH",
    "PLAN_PATH",
    "PROMPT_PATH",
    "RALPH_STATUS_PATH",
    "RALPH_SUMMARY_PATH",
    "RESULT_PATH",
    "STATUS_PATH",
    "StatusFiles",
    "one_line",
    "parse_status_text",
    "render_status",
]

logger = logging.getLogger("wiggum.coordinator")

PROMPT_PATH = ".chief/prompt.md"
PLAN_PATH = ".chief/plan.md"
STATUS_PATH = ".chief/status.txt"
RESULT_PATH = ".chief/last_result.json"
NOTICE_PATH = ".chief/notice.json"
RALPH_STATUS_PATH = ".ralph/status.txt"
FEEDBACK_PATH = ".ralph/feedback.md"
RALPH_SUMMARY_PATH = ".ralph/summary.md"


def parse_status_text(text: str | None) -> dict[str, str]:
    """``key: value`` lines -> dict.  A bare first word (``running``) is the state.

    Tolerant on purpose: ``.ralph/status.txt`` is written by the loop, whose
    format may be a single word; ``status`` is taken as a synonym of ``state``.
    """
    out: dict[str, str] = {}
    for n, raw in enumerate((text or "").splitlines()):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = line.partition(":")
        if sep and key.strip().replace("_", "").isalnum():
            out[key.strip().lower()] = value.strip()
        elif n == 0 or "state" not in out:
            out.setdefault("state", line.split()[0].lower())
    if "state" not in out and "status" in out:
        out["state"] = out["status"].lower()
    return out


def status_or_none(value: str | None) -> RalphStatus | None:
    try:
        return RalphStatus(value) if value else None
    except ValueError:
        return None


def float_or_none(value: str | None) -> float | None:
    try:
        return float(value) if value else None
    except ValueError:
        return None


def int_or_zero(value: str | None) -> int:
    try:
        return int(value) if value else 0
    except ValueError:
        return 0


def one_line(text: str, limit: int = 200) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def render_status(s: CoordinatorState) -> str:
    """``.chief/status.txt`` for the state ``s`` (read back by :func:`parse_status_text`)."""
    fields: list[tuple[str, object]] = [
        ("state", s.label),
        ("run_id", s.run_id),
        ("iteration", s.iteration),
        ("max_iterations", s.max_iterations or None),
        ("resumable", "yes" if s.resumable else None),
        ("started_at", s.started_at),
        ("updated_at", s.updated_at),
        ("finished_at", s.finished_at),
        ("summary", one_line(s.handoff_summary) if s.handoff_summary else None),
        ("error", one_line(s.last_error) if s.last_error else None),
    ]
    lines = []
    for key, value in fields:
        if value is None:
            continue
        if isinstance(value, float):
            value = f"{value:.3f}"
        lines.append(f"{key}: {value}")
    return "\n".join(lines) + "\n"


class StatusFiles:
    """Reads and writes through the FileStore; keeps ``status.txt`` current.

    ``status`` renders the text of ``status.txt`` when a write runs, so a
    coalesced write always writes the latest state.
    """

    def __init__(self, fs: FileStore, status: Callable[[], str]) -> None:
        self.fs = fs
        self._status = status
        self._write_lock = asyncio.Lock()
        self._write_queued = False
        self._background: set[asyncio.Task[Any]] = set()
        #: The last storage failure (the run goes on; the page may show it).
        self.write_error: BaseException | None = None

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.ensure_future(coro)
        # Held until done: the loop keeps only weak references to tasks.
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def flush(self) -> None:
        """Wait for status writes scheduled from (synchronous) loop callbacks."""
        while self._background:
            await asyncio.gather(*list(self._background), return_exceptions=True)

    def persist_soon(self) -> None:
        # Coalesced: one queued write renders whatever the state is when it runs.
        if self._write_queued:
            return
        self._write_queued = True
        self.spawn(self.persist(queued=True))

    async def persist(self, *, queued: bool = False) -> None:
        async with self._write_lock:
            if queued:
                self._write_queued = False
            await self.write(STATUS_PATH, self._status())

    async def write(self, path: str, text: str) -> bool:
        try:
            await self.fs.write_text(path, text)
        except (FileStoreError, PathError, OSError) as err:
            # Storage trouble is reported, never allowed to break Ralph's run.
            self.write_error = err
            logger.warning("coordinator: could not write %s: %s", path, err)
            return False
        return True

    async def read(self, path: str) -> str | None:
        try:
            return await self.fs.read_text(path)
        except (FileStoreError, PathError):
            return None

    async def remove(self, path: str) -> None:
        try:
            await self.fs.remove(path)
        except FileNotFound:
            pass
        except (FileStoreError, PathError) as err:
            self.write_error = err
            logger.warning("coordinator: could not remove %s: %s", path, err)

    async def read_model(self, model: Any, path: str) -> Any:
        """The pydantic ``model`` stored at ``path``; ``None`` if absent or unreadable."""
        text = await self.read(path)
        if not text:
            return None
        try:
            return model.model_validate_json(text)
        except (ValidationError, json.JSONDecodeError, ValueError):
            logger.warning("coordinator: ignored an unreadable %s file", model.__name__)
            return None
