"""The project switcher in the header, and the small dialog that names projects."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from ..dom import Listeners, closest_action, h, spawn

__all__ = ["ProjectSwitcher"]

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
        self.el = h("div", {"class": "project-switcher"}, self.select, self.rename_btn)

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
