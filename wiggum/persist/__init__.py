"""What the app keeps between visits: settings, projects, conversations, files.

:class:`AppStorage` is the seam.  The browser implements it on IndexedDB
(``wiggum.web.storage``); :class:`MemoryAppStorage` is the reference
semantics and what CPython tests use.  Records are plain JSON-able dicts:
the models that give them meaning (settings, chat messages) live with
their owners and convert at the edge.

Every awaited write is durable when it returns (write-through), so a reload
at any moment loses nothing that was acknowledged.
"""

from __future__ import annotations

import copy
import os
import time
from collections.abc import Iterable
from typing import Any, Protocol

from wiggum.fs.memory import MemoryFileStore
from wiggum.fs.store import FileStore

#: The agents that have a conversation per project.  Other slots use the
#: same records (``wiggum.ui.debuglog`` keeps the debug log in ``"debug"``);
#: deleting a project deletes every slot.
CHIEF = "chief"
AGENTS = (CHIEF, "ralph")
#: The meta record holding the id of the project the page opens.
ACTIVE_PROJECT = "active_project"


class AppStorage(Protocol):
    async def get_settings(self) -> dict[str, Any] | None: ...

    async def put_settings(self, data: dict[str, Any]) -> None: ...

    async def get_meta(self, key: str) -> Any: ...

    async def put_meta(self, key: str, value: Any) -> None: ...

    async def list_projects(self) -> list[dict[str, Any]]:
        """``[{id, name, created, updated}]``, oldest first."""
        ...

    async def create_project(self, name: str) -> dict[str, Any]: ...

    async def rename_project(self, project_id: str, name: str) -> None: ...

    async def delete_project(self, project_id: str) -> None:
        """Removes the project with its files and conversations."""
        ...

    async def load_messages(self, project_id: str, agent: str) -> list[dict[str, Any]]:
        """The conversation's records in ``seq`` order."""
        ...

    async def put_message(
        self, project_id: str, agent: str, seq: int, record: dict[str, Any]
    ) -> None:
        """Insert or replace message ``seq`` (a streaming reply is rewritten in place)."""
        ...

    async def delete_messages(self, project_id: str, agent: str) -> None: ...

    def files(self, project_id: str) -> FileStore:
        """The project's files; ``.chief/`` and ``.ralph/`` live here too."""
        ...


def new_project_record(
    name: str, now: float | None = None, *, existing: Iterable[dict[str, Any]] = ()
) -> dict[str, Any]:
    """A new project, created after every one in ``existing``: projects are listed
    by ``created``, and two made within one clock tick (the browser's clock has
    millisecond steps) would otherwise list in random order."""
    stamp = time.time() if now is None else now
    latest = max((p.get("created", 0) for p in existing), default=0)
    if stamp <= latest:
        stamp = latest + 0.001
    # 48 random bits, like uuid4().hex[:12]; `uuid` costs the first screen ~15 ms
    project_id = os.urandom(6).hex()
    return {"id": project_id, "name": name, "created": stamp, "updated": stamp}


class MemoryAppStorage:
    """In-memory :class:`AppStorage` (tests, and the fallback when IndexedDB is unavailable)."""

    def __init__(self) -> None:
        self._settings: dict[str, Any] | None = None
        self._meta: dict[str, Any] = {}
        self._projects: dict[str, dict[str, Any]] = {}
        self._messages: dict[tuple[str, str], dict[int, dict[str, Any]]] = {}
        self._files: dict[str, MemoryFileStore] = {}

    async def get_settings(self) -> dict[str, Any] | None:
        return copy.deepcopy(self._settings)

    async def put_settings(self, data: dict[str, Any]) -> None:
        self._settings = copy.deepcopy(data)

    async def get_meta(self, key: str) -> Any:
        return copy.deepcopy(self._meta.get(key))

    async def put_meta(self, key: str, value: Any) -> None:
        self._meta[key] = copy.deepcopy(value)

    async def list_projects(self) -> list[dict[str, Any]]:
        return sorted((dict(p) for p in self._projects.values()), key=lambda p: p["created"])

    async def create_project(self, name: str) -> dict[str, Any]:
        record = new_project_record(name, existing=self._projects.values())
        self._projects[record["id"]] = record
        return dict(record)

    async def rename_project(self, project_id: str, name: str) -> None:
        project = self._projects[project_id]
        project["name"], project["updated"] = name, time.time()

    async def delete_project(self, project_id: str) -> None:
        self._projects.pop(project_id, None)
        self._files.pop(project_id, None)
        for key in [key for key in self._messages if key[0] == project_id]:
            del self._messages[key]

    async def load_messages(self, project_id: str, agent: str) -> list[dict[str, Any]]:
        records = self._messages.get((project_id, agent), {})
        return [copy.deepcopy(records[seq]) for seq in sorted(records)]

    async def put_message(
        self, project_id: str, agent: str, seq: int, record: dict[str, Any]
    ) -> None:
        self._messages.setdefault((project_id, agent), {})[seq] = copy.deepcopy(record)

    async def delete_messages(self, project_id: str, agent: str) -> None:
        self._messages.pop((project_id, agent), None)

    def files(self, project_id: str) -> FileStore:
        if project_id not in self._files:
            self._files[project_id] = MemoryFileStore()
        return self._files[project_id]
