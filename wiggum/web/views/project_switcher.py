"""The project switcher in the header, and the small dialog that names a new or renamed project.

On the first screen: the select lists the projects ("+ New project…" last),
✎ renames the open one, ⤓ downloads it, ☰ opens the projects dialog
(``projects_dialog``), which acts once the app has attached.  Switching,
creating and renaming are the callables it is given (the shell's, which wait
for the app).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from wiggum.session.projects import clean_name

from ..dom import Listeners, button, el, spawn
from .forms import dispatch, modal, submit, text_input
from .projects_dialog import ProjectsActions, ProjectsDialog

if TYPE_CHECKING:
    from ..project_ops import ProjectOps

__all__ = ["ProjectSwitcher"]

#: The select's value for "+ New project…".
NEW = "__new__"


def _icon(text: str, action: str, testid: str, label: str, **attrs: Any) -> Any:
    return button(
        text, action=action, testid=testid, cls="icon-btn", aria_label=label, title=label, **attrs
    )


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
        self._renaming = False
        self.listeners = Listeners()
        self.select = el(
            "select", "project-select", testid="project-switcher", aria_label="Project"
        )
        self.manager = ProjectsDialog(rename_open=self.open_rename)
        manage = "Projects: download, import, duplicate, delete"
        self.el = el(
            "div",
            "project-switcher",
            self.select,
            _icon("✎", "rename-project", "project-rename", "Rename project"),
            _icon("⤓", "download-project", "project-download", "Download this project as a .zip"),
            _icon("☰", "manage-projects", "project-manage", manage, aria_haspopup="dialog"),
            self.manager.dialog,
        )
        self.title = el("h2", None, "New project", id="project-dialog-title")
        self.name = text_input(
            "project-name", "project-name", spellcheck=None, required=True, maxlength="80"
        )
        self.ok = submit("Create", "project-save")
        form = el(
            "form",
            "project-form",
            self.title,
            el("label", None, "Name", for_="project-name"),
            self.name,
            el("footer", "dialog-foot", button("Cancel", action="cancel"), self.ok),
            method="dialog",
        )
        self.dialog = modal("project-dialog", "project-dialog", "project-dialog-title", form)
        #: What each ``data-action`` in the switcher and its dialog does.
        self._actions: dict[str, Callable[[], Any]] = {
            "rename-project": self.open_rename,
            "manage-projects": self.manager.open,
            "download-project": self._download,
            "cancel": self._cancel,
        }
        self.listeners.on(self.select, "change", self._on_change)
        for clicked in (self.el, self.dialog):
            self.listeners.on(clicked, "click", lambda e: dispatch(e, self._actions))
        self.listeners.on(form, "submit", self._on_submit)

    def render(self, projects: list[dict[str, Any]], active: str | None) -> None:
        self.projects, self.active = projects, active
        self.select.replaceChildren(
            *[
                el("option", None, value=p["id"], text=p["name"], selected=p["id"] == active)
                for p in projects
            ],
            el("option", None, value=NEW, text="+ New project…"),
        )
        self.select.value = active or ""

    def attach(self, actions: ProjectsActions, ops: ProjectOps) -> None:
        """Once the app has arrived: the projects dialog can act."""
        self.manager.attach(actions, ops)

    def _active_name(self) -> str | None:
        return next((p["name"] for p in self.projects if p["id"] == self.active), None)

    def open_rename(self) -> None:
        """Ask for the open project's new name."""
        self._open(rename=True)

    def _open(self, *, rename: bool) -> None:
        current = self._active_name() if rename else None
        self._renaming = current is not None
        self.title.textContent = "Rename project" if self._renaming else "New project"
        self.ok.textContent = "Rename" if self._renaming else "Create"
        self.name.value = current or ""
        self.dialog.showModal()
        self.name.focus()
        self.name.select()

    def _on_change(self, event: Any) -> None:
        value = str(self.select.value)
        if value == NEW:
            self.select.value = self.active or ""
            self._open(rename=False)
        elif value and value != self.active:
            spawn(self.on_switch(value), what="switch project")

    def _download(self) -> None:
        if self.manager.ops is not None and self.active:
            name = self._active_name() or "project"
            spawn(
                self.manager.download(self.active, name, include_internal=True),
                what="download project",
            )

    def _cancel(self) -> None:
        self.dialog.close()
        self.select.focus()

    def _on_submit(self, event: Any) -> None:
        event.preventDefault()
        name = clean_name(str(self.name.value))
        if not name:
            self.name.focus()
            return
        self.dialog.close()
        if self._renaming and self.active:
            spawn(self.on_rename(self.active, name), what="rename project")
        else:
            spawn(self.on_create(name), what="create project")
        self.select.focus()
