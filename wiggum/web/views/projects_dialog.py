"""The projects dialog: every project with its size and last change, and what to do with it.

Open, download, rename, duplicate, delete; import a zip, a folder or dropped
files; the browser's storage use, quota and persistence.  It asks the app
through :class:`~wiggum.session.stored_projects.ProjectsActions` and stored
projects through ``ProjectOps`` (``wiggum.web.project_ops`` on
``wiggum.session.stored_projects``); what it decides (names, what opens when
the open project is deleted, an import's outcome) is ``wiggum.session``, what
it says ``wiggum.ui.projects`` and its markup ``wiggum.ui.markup.projects``.
Built with the first screen, it acts once the app has attached.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import js

from wiggum.session.projects import copy_name, left_out_folders
from wiggum.ui.markup import projects as markup
from wiggum.ui.projects import import_hint, not_done, row_meta, storage_view

from ..dom import Listeners, file_list, is_null, mount, mount_all, on_action, say, spawn

if TYPE_CHECKING:
    from wiggum.project.importing import ImportResult
    from wiggum.session.projects import Imported
    from wiggum.session.stored_projects import ProjectsActions

    from ..project_ops import ProjectOps

__all__ = ["ProjectsDialog"]


def _date(stamp: float) -> str:
    return str(js.Date.new(stamp * 1000).toLocaleString())


class ProjectsDialog:
    def __init__(self, *, rename_open: Callable[[], None]) -> None:
        #: Opens the rename dialog for the open project (the switcher's).
        self.rename_open = rename_open
        self.actions: ProjectsActions | None = None
        self.ops: ProjectOps | None = None
        self._names: dict[str, str] = {}
        self.listeners = Listeners()
        self.parts = p = mount(markup.projects_dialog())
        self.dialog = p.el
        self.parts.include.checked = True
        #: What each ``data-action`` outside a project's row does.
        self._actions: dict[str, Callable[[Any], Any]] = {
            "close": lambda target: self.dialog.close(),
            "import-files": lambda target: self.parts.file_input.click(),
            "import-folder": lambda target: self.parts.dir_input.click(),
            "confirm-delete": lambda target: spawn(
                self._delete(str(target.getAttribute("data-id"))), what="delete project"
            ),
            "cancel-delete": lambda target: setattr(self.parts.confirm, "hidden", True),
            markup.WITHOUT_HISTORY: lambda target: spawn(
                self._import(self._offered, with_history=False), what="import"
            ),
        }
        #: The files of an import whose history was too large (offered without it).
        self._offered: list[Any] = []
        #: The project the import or open shown under the list made: the line
        #: goes when that project does.
        self._made: str | None = None
        #: What each button of a project's row does to that project.
        self._row_actions = {
            "open": self._open,
            "download": self._download,
            "rename": self._rename,
            "duplicate": self._duplicate,
            "delete": self._ask_delete,
        }
        self._actions.update(dict.fromkeys(self._row_actions, self._on_row))
        self.listeners.on(self.dialog, "click", lambda event: on_action(event, self._actions))
        self.listeners.on(self.parts.file_input, "change", self._on_files)
        self.listeners.on(self.parts.dir_input, "change", self._on_files)
        self.listeners.on(self.dialog, "dragover", lambda e: e.preventDefault())
        self.listeners.on(self.dialog, "drop", self._on_drop)
        self.listeners.on(p.github_form, "submit", self._on_github)

    def attach(self, actions: ProjectsActions, ops: ProjectOps) -> None:
        self.actions, self.ops = actions, ops

    # -- showing -----------------------------------------------------------------

    def open(self) -> None:
        # The archive module (zipfile) is loaded when the dialog first opens,
        # not with the first screen.
        from wiggum.project.importing import MAX_FILE_BYTES, MAX_FILES, MAX_TOTAL_BYTES

        self.parts.hint.textContent = import_hint(MAX_FILES, MAX_FILE_BYTES, MAX_TOTAL_BYTES)
        self.parts.error.hidden = True
        if not self.dialog.open:
            self.dialog.showModal()
        spawn(self.refresh(), what="list projects")

    async def refresh(self) -> None:
        if self.actions is None or self.ops is None:
            return
        projects = await self.ops.list()
        self._names = {p.id: p.name for p in projects}
        if self._made is not None and self._made not in self._names:
            self.parts.result.hidden = True
            self._made = None
        open_id = self.actions.project_id
        rows = (
            markup.project_row(
                p.id,
                p.name,
                row_meta(p.size, p.files, p.changed, _date, p.stored),
                current=p.id == open_id,
            )
            for p in projects
        )
        self.parts.rows.replaceChildren(*mount_all(rows))
        await self.show_storage()

    async def show_storage(self) -> None:
        assert self.ops is not None
        # The answer to navigator.storage.persist(), asked when the first
        # project was created (ProjectOps.ask_persistence), as it stands now.
        shown = markup.storage(storage_view(await self.ops.estimate()))
        self.parts.storage.replaceChildren(*mount_all(shown))

    # -- a project's row ---------------------------------------------------------

    def _on_row(self, target: Any) -> None:
        action, row = str(target.getAttribute("data-action")), target.closest("[data-project-id]")
        if not is_null(row):
            pid = str(row.getAttribute("data-project-id"))
            spawn(self._row_action(action, pid), what=f"project {action}")

    async def _row_action(self, action: str, pid: str) -> None:
        try:
            await self._row_actions[action](pid)
        except Exception as exc:
            say(self.parts.error, not_done(f"Not done: {action}.", exc))
        else:
            if action in ("rename", "delete"):  # the dialog closed, or asks first
                return
        await self.refresh()

    def _name(self, pid: str) -> str:
        return self._names.get(pid, "project")

    async def _open(self, pid: str) -> None:
        assert self.actions is not None
        await self.actions.switch_project(pid)

    async def _download(self, pid: str) -> None:
        await self.download(pid, self._name(pid), include_internal=bool(self.parts.include.checked))

    async def download(self, pid: str, name: str, *, include_internal: bool) -> None:
        if self.ops is not None:
            await self.ops.download(pid, name, include_internal=include_internal, app=self.actions)

    async def _rename(self, pid: str) -> None:
        assert self.actions is not None
        self.dialog.close()
        await self.actions.switch_project(pid)
        self.rename_open()

    async def _duplicate(self, pid: str) -> None:
        assert self.ops is not None and self.actions is not None
        await self.ops.duplicate(pid, copy_name(self._name(pid)))
        await self.actions.refresh_projects()

    async def _ask_delete(self, pid: str) -> None:
        self.parts.confirm.replaceChildren(*mount_all(markup.delete_confirm(pid, self._name(pid))))
        self.parts.confirm.hidden = False

    async def _delete(self, pid: str) -> None:
        assert self.actions is not None and self.ops is not None
        self.parts.confirm.hidden = True
        refused = await self.ops.delete(pid, self.actions)
        if refused is not None:
            say(self.parts.error, refused)
            return
        await self.refresh()

    # -- import ------------------------------------------------------------------

    def _on_files(self, event: Any) -> None:
        # Taken out of the FileList now: clearing the input (so the same file
        # can be chosen again) empties it.
        items = file_list(event.target.files)
        event.target.value = ""
        if items:
            spawn(self._import(items), what="import")

    def _on_drop(self, event: Any) -> None:
        from ..project_ops import dropped

        event.preventDefault()
        # A dropped folder's entries would need the callback-based FileSystemEntry
        # API: it is refused with the way that works (the folder input) instead.
        items, folders = dropped(event.dataTransfer)
        if not self.dialog.open and (items or folders):
            self.dialog.showModal()
        spawn(self._drop_import(items, left_out_folders(folders)), what="import")

    async def _drop_import(self, items: list[Any], note: str) -> None:
        if items:
            await self._import(items)
        if note:  # after the import, which clears what the last one said
            said = "" if self.parts.error.hidden else f"{self.parts.error.textContent} "
            say(self.parts.error, said + note)

    def _on_github(self, event: Any) -> None:
        event.preventDefault()
        assert self.ops is not None
        p = self.parts
        fields = (p.github_address, p.github_depth, p.github_token)
        got = self.ops.open_github(*fields, progress=lambda text: say(p.result, text))
        spawn(self._import([], done=got), what="open from GitHub")

    async def _import(
        self,
        items: list[Any],
        *,
        with_history: bool = True,
        done: Awaitable[Imported] | None = None,
    ) -> None:
        assert self.ops is not None and self.actions is not None
        # A new import replaces what the last one said.
        self.parts.error.hidden = self.parts.result.hidden = True
        done = await (done or self.ops.import_files(items, with_history=with_history))
        self._offered = items if done.offer_without_history else []
        if done.error is not None:
            say(self.parts.error, done.error)
        if done.offer_without_history:
            self.parts.error.append(*mount_all([markup.without_history_offer()]))
        self._made = None if done.project is None else str(done.project["id"])
        if done.project is not None:
            await self.actions.switch_project(done.project["id"])
        if done.text:
            say(self.parts.result, done.text)
        elif done.result is not None:
            self._show_result(None if done.project is None else done.project["name"], done.result)
        if done.project is not None:
            await self.refresh()

    def _show_result(self, name: str | None, result: ImportResult) -> None:
        self.parts.result.replaceChildren(*mount_all(markup.import_result(name, result)))
        self.parts.result.hidden = False
