"""The project switcher in the header, and the small dialog that names a new or renamed project.

On the first screen: the select lists the projects ("+ New project…" last),
✎ renames the open one, ⤓ downloads it, ☰ opens the projects dialog
(``projects_dialog``), which acts once the app has attached.  Switching,
creating and renaming are the callables it is given (the shell's, which wait
for the app).  Their markup is ``wiggum.ui.markup.projects``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from wiggum.session.projects import clean_name
from wiggum.ui.markup import projects as markup

from ..dom import Listeners, dispatch, mount, mount_all, spawn
from .projects_dialog import ProjectsDialog

if TYPE_CHECKING:
    from wiggum.session.stored_projects import ProjectsActions

    from ..project_ops import ProjectOps

__all__ = ["ProjectSwitcher"]


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
        self.manager = ProjectsDialog(rename_open=self.open_rename)
        bar = mount(markup.switcher())
        self.el, self.select = bar.el, bar.select
        self.el.append(self.manager.dialog)
        named = mount(markup.name_dialog())
        self.dialog, self.title, self.name, self.ok = named.el, named.title, named.name, named.ok
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
        self.listeners.on(named.form, "submit", self._on_submit)

    def render(self, projects: list[dict[str, Any]], active: str | None) -> None:
        self.projects, self.active = projects, active
        options = markup.project_options((p["id"], p["name"]) for p in projects)
        self.select.replaceChildren(*mount_all(options))
        self.select.value = active or ""
        # A name longer than a phone's header has room for is whole in the tooltip.
        self.select.setAttribute("title", self._active_name() or "")
        if self.manager.dialog.open:  # opened during a switch: it marks the old project
            spawn(self.manager.refresh(), what="list projects")

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
        self.title.textContent, self.ok.textContent = markup.name_words(self._renaming)
        self.name.value = current or ""
        self.dialog.showModal()
        self.name.focus()
        self.name.select()

    def _on_change(self, event: Any) -> None:
        value = str(self.select.value)
        if value == markup.NEW:
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
