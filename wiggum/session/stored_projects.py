"""What the projects dialog does to stored projects: list them with their sizes,
duplicate, delete, make a new one of imported files; and ask once to keep the
browser's storage.

The browser's side (a zip downloaded through a ``Blob``, ``File`` objects
read, ``navigator.storage``) is ``wiggum.web.project_ops``, which builds on
:class:`StoredProjects`; names and what opens after a delete are
``wiggum.session.projects``.  Decided here:

- a copy or an import that fails half-way (a full quota among others) is
  removed again, so the quota is freed and nothing half-made is listed; the
  source project is never touched;
- an imported ``.git/`` is read before the import says it came "with its
  history": one that cannot be read is removed again, and the import says
  why (the files stay, a new history starts);
- a download first checkpoints what is not yet in History (when this tab may
  write the project), so git finds the unzipped folder clean;
- a project another tab has open is not deleted (the dialog says why);
  deleting the open project first opens the newest other one, or a new one;
- persistent storage is asked for once, when the first project is created
  (the first visit): Firefox asks the person, so asking at every start would
  ask them again and again; the answer is kept in meta.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from wiggum.fs.errors import FileStoreError
from wiggum.project.archive import copy_project, export_project, project_summary, write_into
from wiggum.project.history_errors import HistoryUnreadable
from wiggum.ui.tab_lock import DELETE_REFUSED_TEXT

from .projects import Imported, after_delete

if TYPE_CHECKING:
    from wiggum.persist import AppStorage
    from wiggum.project.importing import ImportResult

__all__ = ["PERSIST_META", "ProjectsActions", "StoredProject", "StoredProjects"]

log = logging.getLogger("wiggum.session")

#: The meta key recording that persistence was asked for, and the answer.
PERSIST_META = "storage-persist"


class ProjectsActions(Protocol):
    """What the projects dialog asks of the app (``ProjectSession``)."""

    @property
    def project_id(self) -> str | None:
        """The open project."""
        ...

    async def switch_project(self, project_id: str) -> None: ...

    async def create_project(self, name: str) -> None: ...

    async def refresh_projects(self) -> None:
        """Show the stored projects again (the switcher's list)."""
        ...

    async def open_elsewhere(self, project_id: str) -> bool:
        """Whether another tab has ``project_id`` open (it is not deleted then)."""
        ...

    async def history_of(self, project_id: str) -> tuple[Any, bool]:
        """``project_id``'s history service and whether this tab may write it."""
        ...


@dataclass(frozen=True, slots=True)
class StoredProject:
    """A project as the dialog lists it: its files' bytes and count (history
    included) and its last change (seconds; 0: never)."""

    id: str
    name: str
    size: int
    files: int
    changed: float


class StoredProjects:
    """``storage``'s projects as wholes; ``ask_browser()`` asks the browser to
    keep the storage and says whether it will."""

    def __init__(
        self,
        storage: AppStorage,
        ask_browser: Callable[[], Awaitable[bool]],
        load_history: Callable[[], Awaitable[None]] | None = None,
        github: Callable[[], tuple[Any, Any]] | None = None,
    ) -> None:
        self.storage = storage
        self._ask_browser = ask_browser
        #: Loads dulwich (the page's vendored wheel) before a history is read.
        self._load_history = load_history
        #: A transport to GitHub and the settings (the API's address, the saved token).
        self._github = github

    async def open_github(
        self, *fields: Any, progress: Callable[[str], Any] = lambda text: None
    ) -> Imported:
        """A new project of a GitHub repository (``wiggum.session.github_open``) from the
        form's fields (address, depth, token: anything with a ``value``, or strings); the
        token typed, else the one saved for publishing (none: public repositories only)."""
        assert self._github is not None
        address, depth, token = (str(getattr(f, "value", f)) for f in fields)
        await (self._load_history or _nothing)()
        from .github_open import DEFAULT_DEPTH, open_from_github

        transport, settings = self._github()
        return await open_from_github(
            address,
            token=token.strip() or settings.github_token.get_secret_value(),
            api=settings.github_api,
            transport=transport,
            storage=self.storage,
            create=self.create_from,
            depth=int(depth) if depth.strip().isdigit() else DEFAULT_DEPTH,
            progress=progress,
        )

    async def list(self) -> list[StoredProject]:
        out = []
        for p in await self.storage.list_projects():
            size, count, newest = await project_summary(self.storage.files(p["id"]))
            changed = max(newest, p.get("updated", 0))
            out.append(StoredProject(p["id"], p["name"], size, count, changed))
        return out

    async def ask_persistence(self) -> bool:
        """Ask the browser to keep this origin's storage, once (see the module)."""
        asked = await self.storage.get_meta(PERSIST_META)
        if isinstance(asked, dict):
            return bool(asked.get("granted"))
        granted = await self._ask_browser()
        await self.storage.put_meta(PERSIST_META, {"granted": granted, "at": time.time()})
        return granted

    async def delete(self, project_id: str, app: ProjectsActions) -> str | None:
        """Delete ``project_id`` (another one opens first if it was the open one);
        or what to say instead, when another tab has it open."""
        if await app.open_elsewhere(project_id):
            return DELETE_REFUSED_TEXT
        then = after_delete(project_id, app.project_id, await self.storage.list_projects())
        if then is not None and then.open_id is not None:
            await app.switch_project(then.open_id)
        elif then is not None and then.create is not None:
            await app.create_project(then.create)
        await self.storage.delete_project(project_id)
        await app.refresh_projects()
        return None

    async def create_from(self, name: str, result: ImportResult) -> dict[str, Any]:
        """A new project holding ``result``'s files; its ``.git/`` becomes the history
        when it can be read (else it is removed and ``result`` says why)."""
        project = await self.storage.create_project(name)
        files = self.storage.files(project["id"])
        try:
            await write_into(files, result.files, result.folders)
            if result.has_history:
                await self._adopt(files, result)
        except BaseException:
            await self._drop(project["id"])
            raise
        return project

    async def _adopt(self, files: Any, result: ImportResult) -> None:
        from wiggum.project.service import HistoryService

        try:
            await HistoryService(files, load=self._load_history or _nothing).adopt()
        except FileStoreError:  # the browser's storage refused: the import fails as a whole
            raise
        except Exception as exc:
            if isinstance(exc, HistoryUnreadable):
                reason = exc.reason
            else:
                log.exception("import: the archive's history could not be read")
                reason = "it is damaged, or of a kind Wiggum does not read"
            await files.remove(".git", recursive=True)
            for path in [p for p in result.files if p == ".git" or p.startswith(".git/")]:
                del result.files[path]
            result.history_left_out = (
                f"Its history (.git/) could not be read ({reason}), so it was left out "
                "and a new one starts."
            )

    async def zip_of(self, project_id: str, *, include_internal: bool, app: Any) -> bytes:
        """The project as a zip; with its history, one git finds clean once unzipped."""
        layout = None
        if include_internal and app is not None:
            history, writable = await app.history_of(project_id)
            layout = await history.before_export(writable=writable)
        return await export_project(
            self.storage.files(project_id), include_internal=include_internal, layout=layout
        )

    async def duplicate(self, project_id: str, name: str) -> dict[str, Any]:
        """A copy of ``project_id``, history included, named ``name``."""
        project = await self.storage.create_project(name)
        try:
            await copy_project(self.storage.files(project_id), self.storage.files(project["id"]))
        except BaseException:
            await self._drop(project["id"])
            raise
        return project

    async def _drop(self, project_id: str) -> None:
        try:
            await self.storage.delete_project(project_id)
        except Exception:
            log.exception("could not remove the half-made project %s", project_id)


async def _nothing() -> None:
    return None
