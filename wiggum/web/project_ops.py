"""The browser side of moving projects: download, import, storage.

What is done to stored projects (list, duplicate, delete, import into a new
one, asking once to keep the storage) is ``wiggum.session.stored_projects``,
the archive rules ``wiggum.project.archive`` and the names and outcomes
``wiggum.session.projects`` (pure, CPython-tested); this module only reaches
the browser: a ``Blob`` and an ``<a download>`` for the zip, ``File`` objects
(an input, a folder input, a drop) for import, and ``navigator.storage`` for
persistence and quota.
"""

from __future__ import annotations

from typing import Any

from ..persist import AppStorage
from ..project.importing import ImportResult, read_entries, read_zip
from ..session.projects import Imported, import_name, import_project, zip_name
from ..session.stored_projects import StoredProjects
from ..ui.projects import StorageEstimate
from .dom import download, file_bytes, file_list, is_null
from .fetch_transport import FetchTransport
from .packages import load_packages
from .storage_manager import estimate, request_persistence

__all__ = ["ProjectOps", "dropped", "file_names"]


class ProjectOps(StoredProjects):
    """What the projects dialog does to stored projects and with the browser."""

    def __init__(self, storage: AppStorage, settings: Any = None) -> None:
        github = lambda: (FetchTransport(), settings())  # noqa: E731 (GitHub's, when opening)
        super().__init__(storage, request_persistence, lambda: load_packages("dulwich"), github)

    async def estimate(self) -> StorageEstimate | None:
        return await estimate()

    async def download(
        self, project_id: str, name: str, *, include_internal: bool, app: Any = None
    ) -> int:
        data = await self.zip_of(project_id, include_internal=include_internal, app=app)
        download(data, zip_name(name), "application/zip")
        return len(data)

    # -- import ------------------------------------------------------------------

    async def import_files(self, items: list[Any], *, with_history: bool = True) -> Imported:
        """A new project of ``items`` (a ``.zip``, a folder's files, loose files)."""
        name = import_name(file_names(items))
        reading = self.read_files(items, with_history=with_history)
        return await import_project(reading, name, self.create_from)

    async def read_files(self, items: list[Any], *, with_history: bool = True) -> ImportResult:
        """Files from an input or a drop: one ``.zip``, or a set of files."""
        if len(items) == 1 and str(items[0].name).lower().endswith(".zip"):
            return read_zip(await file_bytes(items[0]), with_history=with_history)
        entries = []
        for (name, rel), f in zip(file_names(items), items, strict=True):
            entries.append((rel or name, await file_bytes(f)))
        return read_entries(entries, with_history=with_history)


def file_names(files: list[Any]) -> list[tuple[str, str]]:
    """Each file's name and its path in a chosen folder (``""`` when not from one)."""
    return [(str(f.name), str(getattr(f, "webkitRelativePath", "") or "")) for f in files]


def dropped(dt: Any) -> tuple[list[Any], set[str]]:
    """A drop's files, and the names of the folders in it, which are not among
    the files: a dropped folder arrives as one unreadable ``File``."""
    folders: set[str] = set()
    items = None if is_null(dt) else getattr(dt, "items", None)
    for i in range(0 if items is None or is_null(items) else int(items.length)):
        item = items[i]
        entry = item.webkitGetAsEntry() if hasattr(item, "webkitGetAsEntry") else None
        if not is_null(entry) and bool(entry.isDirectory):
            folders.add(str(entry.name))
    files = file_list(None if is_null(dt) else dt.files)
    return [f for f in files if str(f.name) not in folders], folders
