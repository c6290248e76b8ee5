"""``AppStorage`` on IndexedDB: one database per origin, ``wiggum``.

Its stores, keys and records are :mod:`wiggum.persist.schema`'s (version
``len(MIGRATIONS)``; migration ``i`` upgrades ``i`` -> ``i + 1``).  Deleting a
project removes its record, files and conversations in one transaction.

Values go through ``to_js(..., dict_converter=Object.fromEntries)`` and back
with ``.to_py()``: a float with an integral value (``1.0``) reads back as
``int`` (``1``), as JSON in JavaScript would.

``open_storage()`` falls back to :class:`~wiggum.persist.MemoryAppStorage`
(with a warning on the ``wiggum.web`` logger) when IndexedDB cannot be
opened, e.g. in some private modes; nothing is kept across visits then.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from pyodide.ffi import JsException  # type: ignore[import-not-found]

from wiggum.fs.store import FileStore
from wiggum.persist import AppStorage, MemoryAppStorage, new_project_record
from wiggum.persist.guarded import ProjectPaused
from wiggum.persist.schema import (
    DIRS_INDEX,
    FILES,
    MESSAGES,
    META,
    PROJECTS,
    SETTINGS,
    SETTINGS_KEY,
    Fence,
    fence_key,
    message_row,
    renamed_project,
)

from .idb import Database, IDBError, Migration, open_database, prefix_range, to_record
from .idb_store import IndexedDBFileStore
from .storage_manager import request_persistence

__all__ = [
    "DB_NAME",
    "MIGRATIONS",
    "IndexedDBAppStorage",
    "fence_key",
    "open_storage",
    "request_persistence",
]

log = logging.getLogger("wiggum.web")

DB_NAME = "wiggum"


def _v1_schema(db: Any, tx: Any) -> None:
    """Version 0 -> 1: the initial schema."""
    db.createObjectStore(SETTINGS)
    db.createObjectStore(META)
    db.createObjectStore(PROJECTS, to_record({"keyPath": "id"}))
    db.createObjectStore(MESSAGES, to_record({"keyPath": ["project", "agent", "seq"]}))
    files = db.createObjectStore(FILES, to_record({"keyPath": ["project", "path"]}))
    files.createIndex(DIRS_INDEX, "dirkey", to_record({"unique": True}))


#: Append only: never edit a migration that has shipped.
MIGRATIONS: list[Migration] = [_v1_schema]

#: How long ``open_storage`` waits for another tab to let an upgrade through.
OPEN_TIMEOUT = 15.0


class IndexedDBAppStorage:
    """:class:`~wiggum.persist.AppStorage` on an open :class:`~wiggum.web.idb.Database`."""

    #: Whether what is written survives a reload (``MemoryAppStorage`` has no such flag).
    durable = True

    def __init__(self, db: Database) -> None:
        self.db = db
        self._files: dict[str, IndexedDBFileStore] = {}
        #: The value of a project's fence record this tab writes on (``None``:
        #: it writes unfenced), given by the tab lock; see :meth:`take_fence`.
        self.fence: Callable[[str], Awaitable[int | None]] | None = None

    async def _fence(self, project_id: str) -> Fence | None:
        value = None if self.fence is None else await self.fence(project_id)
        if value is None:
            return None
        return Fence(META, fence_key(project_id), value, lambda: ProjectPaused(project_id))

    async def take_fence(self, project_id: str) -> int:
        """A new value of ``project_id``'s fence record (in ``meta``), for the tab
        that now owns it: writes another tab still makes with the old value
        are refused from then on (:class:`~wiggum.web.idb.Fence`)."""
        name = fence_key(project_id)

        def body(tx: Any) -> Any:
            store = tx.objectStore(META)
            found = yield store.get(name)
            value = int(found or 0) + 1
            store.put(value, name)
            return value

        return await self.db.run(META, "readwrite", body)

    def __repr__(self) -> str:
        return f"IndexedDBAppStorage({self.db!r})"

    def close(self) -> None:
        self.db.close()

    # -- settings and meta -------------------------------------------------------

    async def get_settings(self) -> dict[str, Any] | None:
        return await self.db.get(SETTINGS, SETTINGS_KEY)

    async def put_settings(self, data: dict[str, Any]) -> None:
        await self.db.put(SETTINGS, data, SETTINGS_KEY)

    async def get_meta(self, key: str) -> Any:
        return await self.db.get(META, key)

    async def put_meta(self, key: str, value: Any) -> None:
        await self.db.put(META, value, key)

    # -- projects ----------------------------------------------------------------

    async def list_projects(self) -> list[dict[str, Any]]:
        return sorted(await self.db.get_all(PROJECTS), key=lambda p: p["created"])

    async def create_project(self, name: str) -> dict[str, Any]:
        record = new_project_record(name, existing=await self.db.get_all(PROJECTS))
        await self.db.put(PROJECTS, record)
        return dict(record)

    async def rename_project(self, project_id: str, name: str) -> None:
        def body(tx: Any) -> Any:
            store = tx.objectStore(PROJECTS)
            found = yield store.get(project_id)
            if found is None:
                raise KeyError(project_id)
            store.put(to_record(renamed_project(found.to_py(), name, time.time())))

        await self.db.run(PROJECTS, "readwrite", body)

    async def delete_project(self, project_id: str) -> None:
        def body(tx: Any) -> None:
            tx.objectStore(PROJECTS).delete(project_id)
            tx.objectStore(MESSAGES).delete(prefix_range(project_id))
            tx.objectStore(FILES).delete(prefix_range(project_id))

        await self.db.run([PROJECTS, MESSAGES, FILES], "readwrite", body)
        self._files.pop(project_id, None)

    # -- conversations -----------------------------------------------------------

    async def load_messages(self, project_id: str, agent: str) -> list[dict[str, Any]]:
        rows = await self.db.get_all(MESSAGES, prefix_range(project_id, agent))
        return [row["record"] for row in rows]

    async def put_message(
        self, project_id: str, agent: str, seq: int, record: dict[str, Any]
    ) -> None:
        row = message_row(project_id, agent, seq, record)
        await self.db.put(MESSAGES, row, fence=await self._fence(project_id))

    async def delete_messages(self, project_id: str, agent: str) -> None:
        fence = await self._fence(project_id)
        await self.db.delete(MESSAGES, prefix_range(project_id, agent), fence=fence)

    # -- files -------------------------------------------------------------------

    def files(self, project_id: str) -> FileStore:
        if project_id not in self._files:
            self._files[project_id] = IndexedDBFileStore(
                self.db, project_id, fence=lambda: self._fence(project_id)
            )
        return self._files[project_id]


async def open_storage(
    name: str = DB_NAME, *, migrations: list[Migration] | None = None
) -> AppStorage:
    """The app's storage: IndexedDB, or memory (logged) when it cannot open."""
    try:
        db = await open_database(
            name, MIGRATIONS if migrations is None else migrations, timeout=OPEN_TIMEOUT
        )
    except (IDBError, JsException) as exc:
        log.warning(
            "IndexedDB %r cannot be opened (%s); using memory storage: "
            "nothing will be kept after this tab closes",
            name,
            exc,
        )
        return MemoryAppStorage()
    return IndexedDBAppStorage(db)
