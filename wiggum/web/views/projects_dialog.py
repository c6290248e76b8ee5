"""The projects dialog: every project with its size and last change, and what to do with it.

Open, download, rename, duplicate, delete; import a zip, a folder or dropped
files; the browser's storage use, quota and persistence.  It asks the app
through :class:`ProjectsActions` and stored projects through ``ProjectOps``
(``wiggum.web.project_ops``); what it decides (names, what opens when the
open project is deleted, an import's outcome) is ``wiggum.session.projects``
and what it says ``wiggum.ui.projects``.  Built with the first screen, it
acts once the app has attached.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

import js

from wiggum.session.projects import after_delete, copy_name, left_out_folders
from wiggum.ui.projects import (
    delete_question,
    import_hint,
    imported_text,
    not_done,
    row_actions,
    row_meta,
    storage_view,
)
from wiggum.ui.tab_lock import DELETE_REFUSED_TEXT

from ..dom import Listeners, button, closest_action, el, is_null, spawn
from .forms import heading, modal, say

if TYPE_CHECKING:
    from wiggum.project.archive import ImportResult

    from ..project_ops import ProjectOps

__all__ = ["ProjectsActions", "ProjectsDialog"]


class ProjectsActions(Protocol):
    """What the projects dialog asks of the app."""

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
        self.usage = el("p", "storage-usage", testid="storage-usage")
        self.persist = el("p", "storage-persist", testid="storage-persist", hidden=True)
        self.warning = el("p", "quota-warning", testid="quota-warning", role="alert", hidden=True)
        self.include = el("input", None, testid="zip-internal", type="checkbox", id="zip-internal")
        self.include.checked = True
        self.rows = el("ul", "project-rows", testid="project-rows")
        self.file_input = el(
            "input", None, testid="import-files", type="file", multiple=True, hidden=True
        )
        self.dir_input = el("input", None, testid="import-folder-input", type="file", hidden=True)
        self.dir_input.setAttribute("webkitdirectory", "")
        self.result = el("div", "import-result", testid="import-result", role="status", hidden=True)
        self.error = el("p", "projects-error", testid="projects-error", role="alert", hidden=True)
        self.confirm = el("div", "delete-confirm", testid="delete-confirm", hidden=True)
        self.hint = el("span", "import-hint", testid="import-hint")
        self.dialog = modal(
            "projects-dialog",
            "projects-dialog",
            "projects-title",
            el(
                "div",
                "projects-body",
                heading(
                    "projects-head", "Projects", "projects-title", close="close", label="Close"
                ),
                [self.usage, self.persist, self.warning, self.error, self.result, self.confirm],
                self.rows,
                el(
                    "label",
                    "zip-option",
                    self.include,
                    " Downloads include Ralph's and Chief's notes and the history "
                    "(.ralph/, .chief/, .git/)",
                    for_="zip-internal",
                ),
                el(
                    "div",
                    "import-bar",
                    button("Import .zip or files…", action="import-files", testid="import-zip"),
                    button("Import folder…", action="import-folder", testid="import-folder"),
                    self.hint,
                    testid="import-drop",
                ),
                self.file_input,
                self.dir_input,
            ),
        )
        #: What each ``data-action`` outside a project's row does.
        self._actions: dict[str, Callable[[Any], Any]] = {
            "close": lambda target: self.dialog.close(),
            "import-files": lambda target: self.file_input.click(),
            # The webkitdirectory input in every browser (showDirectoryPicker is
            # Chromium-only and gives nothing more for a one-time copy).
            "import-folder": lambda target: self.dir_input.click(),
            "confirm-delete": lambda target: spawn(
                self._delete(str(target.getAttribute("data-id"))), what="delete project"
            ),
            "cancel-delete": lambda target: setattr(self.confirm, "hidden", True),
        }
        #: What each button of a project's row does to that project.
        self._row_actions = {
            "open": self._open,
            "download": self._download,
            "rename": self._rename,
            "duplicate": self._duplicate,
            "delete": self._ask_delete,
        }
        self.listeners.on(self.dialog, "click", self._on_click)
        self.listeners.on(self.file_input, "change", self._on_files)
        self.listeners.on(self.dir_input, "change", self._on_files)
        self.listeners.on(self.dialog, "dragover", lambda e: e.preventDefault())
        self.listeners.on(self.dialog, "drop", self._on_drop)

    def attach(self, actions: ProjectsActions, ops: ProjectOps) -> None:
        self.actions, self.ops = actions, ops

    # -- showing -----------------------------------------------------------------

    def open(self) -> None:
        # The archive module (zipfile) is loaded when the dialog first opens,
        # not with the first screen.
        from wiggum.project.archive import MAX_FILE_BYTES, MAX_FILES, MAX_TOTAL_BYTES

        self.hint.textContent = import_hint(MAX_FILES, MAX_FILE_BYTES, MAX_TOTAL_BYTES)
        self.error.hidden = True
        if not self.dialog.open:
            self.dialog.showModal()
        spawn(self.refresh(), what="list projects")

    async def refresh(self) -> None:
        if self.actions is None or self.ops is None:
            return
        projects = await self.ops.list_projects()
        sums = await self.ops.summaries()
        self._names = {p["id"]: p["name"] for p in projects}
        self.rows.replaceChildren(*[self._row(p, sums.get(p["id"], (0, 0, 0.0))) for p in projects])
        await self.show_storage()

    def _row(self, p: dict[str, Any], summary: tuple[int, int, float]) -> Any:
        size, count, newest = summary
        current = self.actions is not None and p["id"] == self.actions.project_id
        meta = row_meta(size, count, max(newest, p.get("updated", 0)), _date)
        buttons = [
            button(
                a.label,
                action=a.action,
                testid=f"project-{a.action}",
                cls="btn btn-small",
                disabled=a.disabled,
            )
            for a in row_actions(current)
        ]
        return el(
            "li",
            "project-row" + (" current" if current else ""),
            el(
                "div",
                "project-row-text",
                el("strong", "project-row-name", p["name"]),
                el("span", "project-row-meta", meta, testid="project-meta"),
            ),
            el("div", "project-row-actions", *buttons),
            testid="project-row",
            data_project_id=p["id"],
        )

    async def show_storage(self) -> None:
        assert self.ops is not None
        view = storage_view(await self.ops.estimate())
        self.usage.textContent = view.usage
        if not view.known:
            return
        # The answer to navigator.storage.persist(), asked when the first
        # project was created (ProjectOps.ask_persistence), as it stands now.
        self.persist.textContent = view.persist
        self.persist.hidden = view.persisted is None
        self.persist.setAttribute("data-persisted", str(view.persisted).lower())
        self.warning.hidden = view.warning is None
        if view.warning is not None:
            self.warning.textContent = view.warning

    # -- a project's row ---------------------------------------------------------

    def _on_click(self, event: Any) -> None:
        target = closest_action(event)
        if target is None:
            return
        action = str(target.getAttribute("data-action"))
        row = target.closest("[data-project-id]")
        if action in self._actions:
            self._actions[action](target)
        elif action in self._row_actions and not is_null(row):
            pid = str(row.getAttribute("data-project-id"))
            spawn(self._row_action(action, pid), what=f"project {action}")

    async def _row_action(self, action: str, pid: str) -> None:
        try:
            await self._row_actions[action](pid)
        except Exception as exc:
            say(self.error, not_done(f"Not done: {action}.", exc))
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
        await self.download(pid, self._name(pid), include_internal=bool(self.include.checked))

    async def download(self, pid: str, name: str, *, include_internal: bool) -> None:
        if self.ops is not None:
            await self.ops.download(pid, name, include_internal=include_internal)

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
        self.confirm.replaceChildren(
            el("p", None, delete_question(self._name(pid))),
            el(
                "div",
                "dialog-foot",
                button("Keep it", action="cancel-delete"),
                button(
                    "Delete",
                    action="confirm-delete",
                    testid="project-delete-confirm",
                    cls="btn btn-danger",
                    data_id=pid,
                ),
            ),
        )
        self.confirm.hidden = False

    async def _delete(self, pid: str) -> None:
        assert self.actions is not None and self.ops is not None
        self.confirm.hidden = True
        if await self.actions.open_elsewhere(pid):
            say(self.error, DELETE_REFUSED_TEXT)
            return
        then = after_delete(pid, self.actions.project_id, await self.ops.list_projects())
        if then is not None and then.open_id is not None:
            await self.actions.switch_project(then.open_id)
        elif then is not None and then.create is not None:
            await self.actions.create_project(then.create)
        await self.ops.delete(pid)
        await self.actions.refresh_projects()
        await self.refresh()

    # -- import ------------------------------------------------------------------

    def _on_files(self, event: Any) -> None:
        from ..project_ops import file_list

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
            said = "" if self.error.hidden else f"{self.error.textContent} "
            say(self.error, said + note)

    async def _import(self, items: list[Any]) -> None:
        assert self.ops is not None and self.actions is not None
        # A new import replaces what the last one said.
        self.error.hidden = self.result.hidden = True
        done = await self.ops.import_files(items)
        if done.error is not None:
            say(self.error, done.error)
        if done.project is not None:
            await self.actions.switch_project(done.project["id"])
        if done.result is not None:
            self._show_result(None if done.project is None else done.project["name"], done.result)
        if done.project is not None:
            await self.refresh()

    def _show_result(self, name: str | None, result: ImportResult) -> None:
        items = [
            el("li", None, el("code", None, r.name), f" — {r.reason}", testid="refused-entry")
            for r in result.refused
        ]
        parts = []
        if name is not None:
            parts.append(el("p", None, imported_text(name, result)))
        if items:
            parts.append(el("p", None, f"{len(items)} entries were refused and left out:"))
            parts.append(el("ul", "refused-list", *items, testid="refused-list"))
        self.result.replaceChildren(*parts)
        self.result.hidden = False
