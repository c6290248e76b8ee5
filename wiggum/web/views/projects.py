"""The project switcher in the header, and the small dialog that names projects."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import js

from wiggum.fs.sizes import format_size

from ..dom import Listeners, closest_action, h, is_null, spawn

__all__ = ["ProjectSwitcher", "ProjectsDialog"]

NEW = "__new__"


class ProjectSwitcher:
    def __init__(
        self,
        *,
        on_switch: Callable[[str], Awaitable[None]],
        on_create: Callable[[str], Awaitable[None]],
        on_rename: Callable[[str, str], Awaitable[None]],
    ) -> None:
        self.on_switch = on_switch
        self.on_create = on_create
        self.on_rename = on_rename
        self.projects: list[dict[str, Any]] = []
        self.active: str | None = None
        self._mode = "create"
        self.listeners = Listeners()

        self.select = h(
            "select",
            {"class": "project-select", "data-testid": "project-switcher", "aria-label": "Project"},
        )
        self.rename_btn = h(
            "button",
            {
                "type": "button",
                "class": "icon-btn",
                "data-action": "rename-project",
                "data-testid": "project-rename",
                "aria-label": "Rename project",
                "title": "Rename project",
                "text": "✎",
            },
        )
        self.manage_btn = h(
            "button",
            {
                "type": "button",
                "class": "icon-btn",
                "data-action": "manage-projects",
                "data-testid": "project-manage",
                "aria-label": "Projects: download, import, duplicate, delete",
                "title": "Projects: download, import, duplicate, delete",
                "aria-haspopup": "dialog",
                "text": "☰",
            },
        )
        self.download_btn = h(
            "button",
            {
                "type": "button",
                "class": "icon-btn",
                "data-action": "download-project",
                "data-testid": "project-download",
                "aria-label": "Download this project as a .zip",
                "title": "Download this project as a .zip",
                "text": "⤓",
            },
        )
        self.manager = ProjectsDialog()
        self.el = h(
            "div",
            {"class": "project-switcher"},
            self.select,
            self.rename_btn,
            self.download_btn,
            self.manage_btn,
            self.manager.dialog,
        )

        self.title = h("h2", {"id": "project-dialog-title", "text": "New project"})
        self.name = h(
            "input",
            {
                "id": "project-name",
                "type": "text",
                "data-testid": "project-name",
                "required": True,
                "maxlength": "80",
                "autocomplete": "off",
            },
        )
        self.ok = h(
            "button",
            {"type": "submit", "class": "btn btn-primary", "data-testid": "project-save"},
            "Create",
        )
        form = h(
            "form",
            {"method": "dialog", "class": "project-form"},
            self.title,
            h("label", {"for": "project-name", "text": "Name"}),
            self.name,
            h(
                "footer",
                {"class": "dialog-foot"},
                h("button", {"type": "button", "class": "btn", "data-action": "cancel"}, "Cancel"),
                self.ok,
            ),
        )
        self.dialog = h(
            "dialog",
            {
                "class": "project-dialog",
                "data-testid": "project-dialog",
                "aria-labelledby": "project-dialog-title",
            },
            form,
        )
        self.listeners.on(self.select, "change", self._on_change)
        self.listeners.on(self.el, "click", self._on_click)
        self.listeners.on(self.dialog, "click", self._on_click)
        self.listeners.on(form, "submit", self._on_submit)

    def render(self, projects: list[dict[str, Any]], active: str | None) -> None:
        self.projects, self.active = projects, active
        options = [
            h("option", {"value": p["id"], "text": p["name"], "selected": p["id"] == active})
            for p in projects
        ]
        options.append(h("option", {"value": NEW, "text": "+ New project…"}))
        self.select.replaceChildren(*options)
        self.select.value = active or ""

    def attach(self, app: Any, ops: Any) -> None:
        """Once the app has arrived: the projects dialog can act."""
        self.manager.app, self.manager.ops = app, ops

    def _open(self, mode: str) -> None:
        self._mode = mode
        current = next((p for p in self.projects if p["id"] == self.active), None)
        if mode == "rename" and current is not None:
            self.title.textContent = "Rename project"
            self.ok.textContent = "Rename"
            self.name.value = current["name"]
        else:
            self.title.textContent = "New project"
            self.ok.textContent = "Create"
            self.name.value = ""
        self.dialog.showModal()
        self.name.focus()
        self.name.select()

    def _on_change(self, event: Any) -> None:
        value = str(self.select.value)
        if value == NEW:
            self.select.value = self.active or ""
            self._open("create")
        elif value and value != self.active:
            spawn(self.on_switch(value), what="switch project")

    def _on_click(self, event: Any) -> None:
        target = closest_action(event)
        if target is None:
            return
        action = target.getAttribute("data-action")
        if action == "rename-project":
            self._open("rename")
        elif action == "manage-projects":
            self.manager.open()
        elif action == "download-project" and self.manager.app is not None and self.active:
            name = next((p["name"] for p in self.projects if p["id"] == self.active), "project")
            spawn(
                self.manager.ops.download(self.active, name, include_internal=True),
                what="download project",
            )
        elif action == "cancel":
            self.dialog.close()
            self.select.focus()

    def _on_submit(self, event: Any) -> None:
        event.preventDefault()
        name = " ".join(str(self.name.value).split())
        if not name:
            self.name.focus()
            return
        self.dialog.close()
        if self._mode == "rename" and self.active:
            spawn(self.on_rename(self.active, name), what="rename project")
        else:
            spawn(self.on_create(name), what="create project")
        self.select.focus()


# ---------------------------------------------------------------- the projects dialog


def when(stamp: float) -> str:
    if not stamp:
        return "never changed"
    return "changed " + str(js.Date.new(stamp * 1000).toLocaleString())


class ProjectsDialog:
    """Every project with its size and last change: open, download, rename,
    duplicate, delete; import a zip, a folder or dropped files; the browser's
    storage use, quota and persistence."""

    def __init__(self) -> None:
        self.app: Any = None
        self.ops: Any = None
        self.listeners = Listeners()
        self.usage = h("p", {"class": "storage-usage", "data-testid": "storage-usage"})
        self.persist = h("p", {"class": "storage-persist", "data-testid": "storage-persist"})
        self.persist.hidden = True
        self.warning = h(
            "p",
            {"class": "quota-warning", "data-testid": "quota-warning", "role": "alert"},
        )
        self.warning.hidden = True
        self.include = h(
            "input", {"type": "checkbox", "id": "zip-internal", "data-testid": "zip-internal"}
        )
        self.include.checked = True
        self.rows = h("ul", {"class": "project-rows", "data-testid": "project-rows"})
        self.file_input = h(
            "input",
            {"type": "file", "multiple": True, "hidden": True, "data-testid": "import-files"},
        )
        self.dir_input = h(
            "input",
            {"type": "file", "hidden": True, "data-testid": "import-folder-input"},
        )
        self.dir_input.setAttribute("webkitdirectory", "")
        self.result = h(
            "div", {"class": "import-result", "data-testid": "import-result", "role": "status"}
        )
        self.result.hidden = True
        self.error = h(
            "p", {"class": "projects-error", "data-testid": "projects-error", "role": "alert"}
        )
        self.error.hidden = True
        self.confirm = h("div", {"class": "delete-confirm", "data-testid": "delete-confirm"})
        self.confirm.hidden = True
        body = h(
            "div",
            {"class": "projects-body"},
            h(
                "header",
                {"class": "projects-head"},
                h("h2", {"id": "projects-title", "text": "Projects"}),
                h(
                    "button",
                    {
                        "type": "button",
                        "class": "icon-btn",
                        "data-action": "close",
                        "aria-label": "Close",
                        "text": "✕",
                    },
                ),
            ),
            self.usage,
            self.persist,
            self.warning,
            self.error,
            self.result,
            self.confirm,
            self.rows,
            h(
                "label",
                {"class": "zip-option", "for": "zip-internal"},
                self.include,
                " Downloads include Ralph's and Chief's notes and the history "
                "(.ralph/, .chief/, .git/)",
            ),
            h(
                "div",
                {"class": "import-bar", "data-testid": "import-drop"},
                h(
                    "button",
                    {
                        "type": "button",
                        "class": "btn",
                        "data-action": "import-files",
                        "data-testid": "import-zip",
                    },
                    "Import .zip or files…",
                ),
                h(
                    "button",
                    {
                        "type": "button",
                        "class": "btn",
                        "data-action": "import-folder",
                        "data-testid": "import-folder",
                    },
                    "Import folder…",
                ),
                h(
                    "span",
                    {
                        "class": "import-hint",
                        "data-testid": "import-hint",
                    },
                ),
            ),
            self.file_input,
            self.dir_input,
        )
        self.dialog = h(
            "dialog",
            {
                "class": "projects-dialog",
                "data-testid": "projects-dialog",
                "aria-labelledby": "projects-title",
            },
            body,
        )
        self.listeners.on(self.dialog, "click", self._on_click)
        self.listeners.on(self.file_input, "change", self._on_files)
        self.listeners.on(self.dir_input, "change", self._on_files)
        self.listeners.on(self.dialog, "dragover", self._on_dragover)
        self.listeners.on(self.dialog, "drop", self._on_drop)

    # -- showing -----------------------------------------------------------------

    def open(self) -> None:
        # The archive module (zipfile) is loaded when the dialog first opens,
        # not with the first screen.
        from ...project.archive import MAX_FILE_BYTES, MAX_FILES, MAX_TOTAL_BYTES

        hint = self.dialog.querySelector(".import-hint")
        hint.textContent = (
            f"or drop them here · up to {MAX_FILES} files, "
            f"{MAX_FILE_BYTES // 2**20} MB a file, {MAX_TOTAL_BYTES // 2**20} MB in all"
        )
        self.error.hidden = True
        if not self.dialog.open:
            self.dialog.showModal()
        spawn(self.refresh(), what="list projects")

    async def refresh(self) -> None:
        if self.app is None:
            return
        projects = await self.app.storage.list_projects()
        sums = await self.ops.summaries()
        rows = []
        for p in projects:
            size, count, newest = sums.get(p["id"], (0, 0, 0.0))
            current = p["id"] == self.app.project_id
            rows.append(
                h(
                    "li",
                    {
                        "class": "project-row" + (" current" if current else ""),
                        "data-testid": "project-row",
                        "data-project-id": p["id"],
                    },
                    h(
                        "div",
                        {"class": "project-row-text"},
                        h("strong", {"class": "project-row-name", "text": p["name"]}),
                        h(
                            "span",
                            {
                                "class": "project-row-meta",
                                "data-testid": "project-meta",
                                "text": f"{format_size(size)} · {_files(count)} · "
                                f"{when(max(newest, p.get('updated', 0)))}",
                            },
                        ),
                    ),
                    h(
                        "div",
                        {"class": "project-row-actions"},
                        *[
                            h(
                                "button",
                                {
                                    "type": "button",
                                    "class": "btn btn-small",
                                    "data-action": action,
                                    "data-testid": f"project-{action}",
                                    "disabled": action == "open" and current,
                                },
                                label,
                            )
                            for action, label in (
                                ("open", "Open" if not current else "Open (current)"),
                                ("download", "Download"),
                                ("rename", "Rename"),
                                ("duplicate", "Duplicate"),
                                ("delete", "Delete"),
                            )
                        ],
                    ),
                )
            )
        self.rows.replaceChildren(*rows)
        await self.show_storage()

    async def show_storage(self) -> None:
        est = await self.ops.estimate()
        if est is None:
            self.usage.textContent = "This browser does not say how much storage it allows."
            return
        # The answer to navigator.storage.persist(), asked when the first
        # project was created (ProjectOps.ask_persistence), as it stands now.
        self.persist.textContent = {
            True: "Storage is persistent: the browser will not evict your projects.",
            False: "Storage is not persistent: the browser may clear it under storage "
            "pressure. Download projects to keep them.",
            None: "",
        }[est.persisted]
        self.persist.hidden = est.persisted is None
        self.persist.setAttribute("data-persisted", str(est.persisted).lower())
        self.usage.textContent = (
            f"Using {format_size(est.usage)} of {format_size(est.quota)} this browser allows."
        )
        self.warning.hidden = not est.near_quota
        if est.near_quota:
            self.warning.textContent = (
                f"Storage is almost full ({est.usage * 100 // max(est.quota, 1)}% used). "
                "New files may not be saved: download and delete projects you no longer "
                "need, or allow this site more storage in the browser's settings."
            )

    def _say_error(self, text: str) -> None:
        self.error.textContent = text
        self.error.hidden = False

    # -- actions -----------------------------------------------------------------

    def _on_click(self, event: Any) -> None:
        target = closest_action(event)
        if target is None:
            return
        action = str(target.getAttribute("data-action"))
        row = target.closest("[data-project-id]")
        pid = None if is_null(row) else str(row.getAttribute("data-project-id"))
        if action == "close":
            self.dialog.close()
        elif action == "import-files":
            self.file_input.click()
        elif action == "import-folder":
            # The webkitdirectory input in every browser (showDirectoryPicker is
            # Chromium-only and gives nothing more for a one-time copy).
            self.dir_input.click()
        elif action == "confirm-delete":
            spawn(self._delete(str(target.getAttribute("data-id"))), what="delete project")
        elif action == "cancel-delete":
            self.confirm.hidden = True
        elif pid is not None:
            spawn(self._row_action(action, pid), what=f"project {action}")

    def _name(self, pid: str) -> str:
        row = self.rows.querySelector(f'[data-project-id="{pid}"] .project-row-name')
        return "project" if is_null(row) else str(row.textContent)

    async def _row_action(self, action: str, pid: str) -> None:
        try:
            if action == "open":
                await self.app.switch_project(pid)
            elif action == "download":
                await self.ops.download(
                    pid, self._name(pid), include_internal=bool(self.include.checked)
                )
            elif action == "rename":
                self.dialog.close()
                await self.app.switch_project(pid)
                self.app.switcher._open("rename")
                return
            elif action == "duplicate":
                await self.ops.duplicate(pid, f"{self._name(pid)} copy")
                await self.app._refresh_projects()
            elif action == "delete":
                self._ask_delete(pid)
                return
        except Exception as exc:
            self._say_error(f"Not done: {action}. {exc or type(exc).__name__}")
        await self.refresh()

    def _ask_delete(self, pid: str) -> None:
        self.confirm.replaceChildren(
            h(
                "p",
                {
                    "text": f"Delete “{self._name(pid)}” with its files, history and "
                    "conversations? This cannot be undone; download it first to keep a copy."
                },
            ),
            h(
                "div",
                {"class": "dialog-foot"},
                h(
                    "button",
                    {"type": "button", "class": "btn", "data-action": "cancel-delete"},
                    "Keep it",
                ),
                h(
                    "button",
                    {
                        "type": "button",
                        "class": "btn btn-danger",
                        "data-action": "confirm-delete",
                        "data-testid": "project-delete-confirm",
                        "data-id": pid,
                    },
                    "Delete",
                ),
            ),
        )
        self.confirm.hidden = False

    async def _delete(self, pid: str) -> None:
        self.confirm.hidden = True
        app = self.app
        tab_lock = getattr(app, "tab_lock", None)
        if tab_lock is not None and await tab_lock.open_elsewhere(pid):
            from wiggum.ui.tab_lock import DELETE_REFUSED_TEXT

            self._say_error(DELETE_REFUSED_TEXT)
            return
        if pid == app.project_id:
            others = [p for p in await app.storage.list_projects() if p["id"] != pid]
            if others:
                await app.switch_project(others[-1]["id"])
            else:
                await app.create_project("My project")
        await app.storage.delete_project(pid)
        await app._refresh_projects()
        await self.refresh()

    # -- import ------------------------------------------------------------------

    def _on_files(self, event: Any) -> None:
        # Taken out of the FileList now: clearing the input (so the same file
        # can be chosen again) empties it.
        items = _file_list(event.target.files)
        event.target.value = ""
        if items:
            spawn(self._import(self.ops.read_files(items), _first_name(items)), what="import")

    def _on_dragover(self, event: Any) -> None:
        event.preventDefault()

    def _on_drop(self, event: Any) -> None:
        event.preventDefault()
        dt = None if is_null(event.dataTransfer) else event.dataTransfer
        items = _file_list(None if dt is None else dt.files)
        # A dropped folder arrives as one unreadable File; its entries would
        # need the callback-based FileSystemEntry API, so it is refused with the
        # way that works (the folder input) rather than failing to read.
        folders = _dropped_folders(dt)
        items = [f for f in items if str(f.name) not in folders]
        if not self.dialog.open and (items or folders):
            self.dialog.showModal()
        note = (
            f"Folders cannot be dropped here ({', '.join(sorted(folders))}): use "
            "“Import folder…” to bring a whole folder in."
            if folders
            else ""
        )
        spawn(self._drop_import(items, note), what="import")

    async def _drop_import(self, items: list[Any], note: str) -> None:
        if items:
            await self._import(self.ops.read_files(items), _first_name(items))
        if note:  # after the import, which clears what the last one said
            said = "" if self.error.hidden else f"{self.error.textContent} "
            self._say_error(said + note)

    async def _import(self, reading: Any, name: str) -> None:
        from ...project.archive import ArchiveError

        # A new import replaces what the last one said.
        self.error.hidden = True
        self.result.hidden = True
        try:
            result = await reading
        except ArchiveError as exc:
            self._say_error(f"Nothing was imported. {exc}")
            return
        if not result.files:
            self._say_error("Nothing was imported: no file in it could be accepted.")
            self._show_result(None, result)
            return
        try:
            project = await self.ops.create_from(name, result)
        except Exception as exc:
            self._say_error(f"Nothing was imported. {exc or type(exc).__name__}")
            return
        await self.app.switch_project(project["id"])
        self._show_result(project["name"], result)
        await self.refresh()

    def _show_result(self, name: str | None, result: Any) -> None:
        items = [
            h("li", {"data-testid": "refused-entry"}, h("code", {"text": r.name}), f" — {r.reason}")
            for r in result.refused
        ]
        parts = []
        if name is not None:
            history = (
                " with its history" if any(p.startswith(".git/") for p in result.files) else ""
            )
            parts.append(
                h(
                    "p",
                    {
                        "text": f"Imported {_files(len(result.files))} "
                        f"({format_size(result.total_bytes)}){history} as the new project “{name}”."
                    },
                )
            )
        if items:
            parts.append(h("p", {"text": f"{len(items)} entries were refused and left out:"}))
            parts.append(h("ul", {"class": "refused-list", "data-testid": "refused-list"}, *items))
        self.result.replaceChildren(*parts)
        self.result.hidden = False


def _files(n: int) -> str:
    return "1 file" if n == 1 else f"{n} files"


def _file_list(files: Any) -> list[Any]:
    if files is None or is_null(files):
        return []
    return [files.item(i) for i in range(int(files.length))]


def _dropped_folders(dt: Any) -> set[str]:
    names: set[str] = set()
    items = None if dt is None else getattr(dt, "items", None)
    if items is None or is_null(items):
        return names
    for i in range(int(items.length)):
        item = items[i]
        if not hasattr(item, "webkitGetAsEntry"):
            continue
        entry = item.webkitGetAsEntry()
        if not is_null(entry) and bool(entry.isDirectory):
            names.add(str(entry.name))
    return names


def _first_name(files: list[Any]) -> str:
    first = files[0]
    rel = str(getattr(first, "webkitRelativePath", "") or "")
    if rel and "/" in rel:
        return rel.split("/", 1)[0]
    name = str(first.name)
    if len(files) == 1 and name.lower().endswith(".zip"):
        return name[:-4] or "Imported project"
    return "Imported project"
