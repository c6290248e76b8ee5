"""Storage that refuses writes to a project this tab may not write now.

Every tab of the page shares one IndexedDB, and one tab owns a project at a
time (the decisions are :class:`wiggum.ui.tab_lock.TabLock`'s).  A tab that
does not own the open project must not write it, however the write was
reached: a view, an agent, a late autosave.  :class:`GuardedAppStorage` is
that backstop under every write path: it refuses, with
:class:`ProjectPaused`, any write to that project (its conversations, files,
history and meta records), and lets reads, settings and other projects pass.
It asks a :class:`WriteGate` (the tab lock) before each write, and tells
``on_write`` after each one that landed, so the other tabs can follow.

Here, below the page's logic, so the storage layer needs nothing above it:
the gate is a protocol, which the tab lock satisfies.  Nothing here imports
pydantic (the first screen stores through it before pydantic is installed).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Protocol

from wiggum.fs.errors import FileStoreError
from wiggum.fs.read_through import ReadThrough
from wiggum.fs.store import FileStore

__all__ = [
    "PAUSED_TEXT",
    "GuardedAppStorage",
    "GuardedFileStore",
    "ProjectPaused",
    "WriteGate",
]

#: What the paused tab says at its top, and when it refuses a write.
PAUSED_TEXT = (
    "This project is open in another tab. Changes here are paused so nothing is overwritten."
)


class ProjectPaused(FileStoreError):
    """A write refused because another tab owns the project.

    A :class:`~wiggum.fs.errors.FileStoreError`, so the views that already
    catch storage errors (the editor, file operations) say it and keep what
    the person typed."""

    def __init__(self, project_id: str = "") -> None:
        super().__init__("", PAUSED_TEXT)
        self.project_id = project_id

    def __str__(self) -> str:
        return PAUSED_TEXT


class WriteGate(Protocol):
    """Whether this tab may write a project now (:class:`wiggum.ui.tab_lock.TabLock`)."""

    #: The project open in this tab (the one a refusal can concern).
    project_id: str | None

    def may_write(self, project_id: str | None = None) -> bool: ...


class GuardedFileStore(ReadThrough):
    """A project's :class:`FileStore` whose writes ask ``allowed()`` first, and
    are told to ``wrote(project_id, "files")`` once done."""

    def __init__(
        self,
        inner: FileStore,
        project_id: str,
        allowed: Callable[[str], bool],
        wrote: Callable[[str, str], None] | None = None,
    ) -> None:
        self.inner = inner
        self.project_id = project_id
        self._allowed = allowed
        self._wrote = wrote

    def __repr__(self) -> str:
        return f"GuardedFileStore({self.inner!r})"

    @contextlib.contextmanager
    def _writing(self) -> Iterator[None]:
        """One write: refused unless this tab may write the project, told once done."""
        if not self._allowed(self.project_id):
            raise ProjectPaused(self.project_id)
        yield
        if self._wrote is not None:
            self._wrote(self.project_id, "files")

    async def write_bytes(self, path: str, data: bytes) -> None:
        with self._writing():
            await self.inner.write_bytes(path, data)

    async def write_text(self, path: str, text: str) -> None:
        with self._writing():
            await self.inner.write_text(path, text)

    async def write_many(self, items: dict[str, bytes], *, remove: Iterable[str] = ()) -> None:
        with self._writing():
            await self.inner.write_many(items, remove=remove)

    async def mkdir(self, path: str, parents: bool = True) -> None:
        with self._writing():
            await self.inner.mkdir(path, parents)

    async def remove(self, path: str, recursive: bool = False) -> None:
        with self._writing():
            await self.inner.remove(path, recursive)

    async def rename(self, src: str, dst: str) -> None:
        with self._writing():
            await self.inner.rename(src, dst)


class GuardedAppStorage:
    """An :class:`~wiggum.persist.AppStorage` that refuses writes to the project
    ``lock`` says this tab may not write now (reads, settings and other
    projects pass)."""

    def __init__(self, inner: Any, lock: WriteGate) -> None:
        self.inner = inner
        self.lock = lock
        self._files: dict[str, GuardedFileStore] = {}
        #: Told ``(project_id, what)`` after each write to a project:
        #: ``"messages:<agent>"`` (a conversation, Ralph's transcript, the debug
        #: log), ``"meta"`` (the conversations' list, its other records) or
        #: ``"files"``, so the other tabs can show it (``wiggum.web.tab_lock``).
        self.on_write: Callable[[str, str], None] | None = None

    def _wrote(self, project_id: str, what: str) -> None:
        if self.on_write is not None:
            try:
                self.on_write(project_id, what)
            except Exception:  # telling the other tabs must never fail a write
                logging.getLogger(__name__).exception("guarded storage: on_write failed")

    def __repr__(self) -> str:
        return f"GuardedAppStorage({self.inner!r})"

    def __getattr__(self, name: str) -> Any:  # durable, close, db, ...
        return getattr(self.inner, name)

    def _check(self, project_id: str) -> None:
        if not self.lock.may_write(project_id):
            raise ProjectPaused(project_id)

    def _project_of(self, key: str) -> str | None:
        """The open project, if the meta record ``key`` is one of its own."""
        # A project's meta records carry its id in their key (its conversations'
        # list, its publishing state); ids are 12 random hex digits.
        project_id = self.lock.project_id
        return project_id if project_id and project_id in str(key) else None

    def _check_key(self, key: str) -> None:
        project_id = self._project_of(key)
        if project_id and not self.lock.may_write(project_id):
            raise ProjectPaused(project_id)

    async def get_settings(self) -> dict[str, Any] | None:
        return await self.inner.get_settings()

    async def put_settings(self, data: dict[str, Any]) -> None:
        await self.inner.put_settings(data)

    async def get_meta(self, key: str) -> Any:
        return await self.inner.get_meta(key)

    async def put_meta(self, key: str, value: Any) -> None:
        self._check_key(key)
        await self.inner.put_meta(key, value)
        project_id = self._project_of(key)
        if project_id:
            self._wrote(project_id, "meta")

    async def list_projects(self) -> list[dict[str, Any]]:
        return await self.inner.list_projects()

    async def create_project(self, name: str) -> dict[str, Any]:
        return await self.inner.create_project(name)

    async def rename_project(self, project_id: str, name: str) -> None:
        self._check(project_id)
        await self.inner.rename_project(project_id, name)

    async def delete_project(self, project_id: str) -> None:
        self._check(project_id)
        await self.inner.delete_project(project_id)
        self._files.pop(project_id, None)

    async def load_messages(self, project_id: str, agent: str) -> list[dict[str, Any]]:
        return await self.inner.load_messages(project_id, agent)

    async def put_message(
        self, project_id: str, agent: str, seq: int, record: dict[str, Any]
    ) -> None:
        self._check(project_id)
        await self.inner.put_message(project_id, agent, seq, record)
        self._wrote(project_id, f"messages:{agent}")

    async def delete_messages(self, project_id: str, agent: str) -> None:
        self._check(project_id)
        await self.inner.delete_messages(project_id, agent)
        self._wrote(project_id, f"messages:{agent}")

    def files(self, project_id: str) -> GuardedFileStore:
        if project_id not in self._files:
            self._files[project_id] = GuardedFileStore(
                self.inner.files(project_id), project_id, self.lock.may_write, self._wrote
            )
        return self._files[project_id]
