"""The app shell, mounted by ``wiggum.web.boot`` right after app-ready.

Header: project switcher, the provider in use, the settings button.  Below:
the Chief | Ralph tabs; Chief's tab is the conversation (``views.chat``).
Storage is ``wiggum.web.storage.open_storage()`` (IndexedDB, memory as the
fallback); the fetch transport is installed before anything talks to a
provider.  Nothing here reads or logs an API key; it only hands the
settings model to the views and the chat.
"""

from __future__ import annotations

import logging
from typing import Any

import js  # type: ignore[import-not-found]

from wiggum.chief.chat import ChiefChat
from wiggum.llm import ProviderConfig
from wiggum.persist import AppStorage, MemoryAppStorage
from wiggum.ui.settings import Settings

from .dom import Listeners, h, is_null, spawn
from .views.chat import ChatView
from .views.projects import ProjectSwitcher
from .views.settings import SettingsDialog

__all__ = ["ACTIVE_PROJECT", "App", "mount"]

log = logging.getLogger("wiggum.web")

#: The meta key holding the active project's id.
ACTIVE_PROJECT = "active_project"
FIRST_PROJECT = "My first project"

APP: App | None = None


async def _open_storage() -> AppStorage:
    try:
        from .storage import open_storage
    except ImportError:  # storage module not there (yet): keep working, in memory
        log.warning("wiggum.web.storage unavailable; using memory storage")
        return MemoryAppStorage()
    return await open_storage()


class App:
    def __init__(self, root: Any) -> None:
        self.root = root
        self.storage: AppStorage = MemoryAppStorage()
        self.settings = Settings()
        self.project_id: str | None = None
        self.chat: ChiefChat | None = None
        self.listeners = Listeners()

    # ------------------------------------------------------------ start

    async def start(self) -> None:
        from .fetch_transport import install

        install()
        self.storage = await _open_storage()
        self.settings = Settings.from_storage(await self.storage.get_settings())
        projects = await self.storage.list_projects()
        if not projects:
            projects = [await self.storage.create_project(FIRST_PROJECT)]
        active = await self.storage.get_meta(ACTIVE_PROJECT)
        if active not in {p["id"] for p in projects}:
            active = projects[0]["id"]
        self._build()
        self.switcher.render(projects, active)
        await self._open_project(active)
        self._render_provider()
        self.root.setAttribute("data-mounted", "true")
        spawn(self._persist(), what="request persistence")

    async def _persist(self) -> None:
        try:
            from .storage import request_persistence
        except ImportError:
            return
        await request_persistence()

    def _build(self) -> None:
        doc = js.document
        self.switcher = ProjectSwitcher(
            on_switch=self.switch_project,
            on_create=self.create_project,
            on_rename=self.rename_project,
        )
        self.provider_chip = h(
            "button",
            {
                "type": "button",
                "class": "provider-chip",
                "data-testid": "active-provider",
                "aria-label": "Model provider (open settings)",
            },
        )
        self.settings_btn = h(
            "button",
            {
                "type": "button",
                "class": "icon-btn settings-btn",
                "data-testid": "settings-button",
                "aria-label": "Settings",
                "title": "Settings",
                "aria-haspopup": "dialog",
            },
            _gear(),
        )
        controls = h(
            "div",
            {"class": "header-controls"},
            self.switcher.el,
            h("div", {"class": "header-spacer"}),
            self.provider_chip,
            self.settings_btn,
        )
        header = doc.querySelector(".app-header")
        status = doc.getElementById("app-status")
        header.insertBefore(controls, status)

        self.tab_chief = h(
            "button",
            {
                "type": "button",
                "role": "tab",
                "id": "tab-chief",
                "class": "tab",
                "data-testid": "tab-chief",
                "aria-controls": "panel-chief",
                "aria-selected": "true",
            },
            "Chief",
        )
        self.tab_ralph = h(
            "button",
            {
                "type": "button",
                "role": "tab",
                "id": "tab-ralph",
                "class": "tab",
                "data-testid": "tab-ralph",
                "aria-controls": "panel-ralph",
                "aria-selected": "false",
                "tabindex": "-1",
            },
            "Ralph",
        )
        tabs = h(
            "div",
            {"class": "tabs", "role": "tablist", "aria-label": "Agents"},
            self.tab_chief,
            self.tab_ralph,
        )
        self.chat_view = ChatView(self)
        self.panel_chief = h(
            "section",
            {
                "class": "panel",
                "role": "tabpanel",
                "id": "panel-chief",
                "aria-labelledby": "tab-chief",
            },
            self.chat_view.el,
        )
        self.panel_ralph = h(
            "section",
            {
                "class": "panel panel-ralph",
                "role": "tabpanel",
                "id": "panel-ralph",
                "aria-labelledby": "tab-ralph",
                "hidden": True,
                "tabindex": "0",
            },
            h(
                "div",
                {"class": "chat-empty"},
                h("h2", {"text": "Ralph arrives soon"}),
                h(
                    "p",
                    {
                        "text": "Ralph is the builder: once you and Chief agree on a plan, "
                        "Ralph will write the project's files here, step by step."
                    },
                ),
            ),
        )
        self.settings_dialog = SettingsDialog(self.save_settings)
        shell = h(
            "div",
            {"class": "shell", "data-testid": "app-shell"},
            tabs,
            self.panel_chief,
            self.panel_ralph,
        )
        self.root.replaceChildren(shell, self.settings_dialog.el, self.switcher.dialog)
        self.listeners.on(self.settings_btn, "click", lambda e: self.open_settings())
        self.listeners.on(self.provider_chip, "click", lambda e: self.open_settings())
        self.listeners.on(tabs, "click", self._on_tab_click)
        self.listeners.on(tabs, "keydown", self._on_tab_key)

    # ------------------------------------------------------------ tabs

    def select_tab(self, name: str, *, focus: bool = False) -> None:
        for tab, panel, key in (
            (self.tab_chief, self.panel_chief, "chief"),
            (self.tab_ralph, self.panel_ralph, "ralph"),
        ):
            on = key == name
            tab.setAttribute("aria-selected", "true" if on else "false")
            tab.setAttribute("tabindex", "0" if on else "-1")
            panel.hidden = not on
            if on and focus:
                tab.focus()

    def _on_tab_click(self, event: Any) -> None:
        tab = event.target.closest('[role="tab"]')
        if not is_null(tab):
            self.select_tab("ralph" if tab == self.tab_ralph else "chief")

    def _on_tab_key(self, event: Any) -> None:
        if event.key in ("ArrowLeft", "ArrowRight", "Home", "End"):
            event.preventDefault()
            current = "ralph" if self.tab_ralph.getAttribute("aria-selected") == "true" else "chief"
            if event.key == "Home":
                target = "chief"
            elif event.key == "End":
                target = "ralph"
            else:
                target = "ralph" if current == "chief" else "chief"
            self.select_tab(target, focus=True)

    # ------------------------------------------------------------ projects

    async def _open_project(self, project_id: str) -> None:
        if self.chat is not None:
            self.chat.stop("switched project")
        self.project_id = project_id
        chat = ChiefChat(self.storage, project_id)
        await chat.load()
        self.chat = chat
        self.chat_view.bind(chat)
        await self.storage.put_meta(ACTIVE_PROJECT, project_id)

    async def _refresh_projects(self) -> None:
        self.switcher.render(await self.storage.list_projects(), self.project_id)

    async def switch_project(self, project_id: str) -> None:
        await self._open_project(project_id)
        await self._refresh_projects()

    async def create_project(self, name: str) -> None:
        project = await self.storage.create_project(name)
        await self._open_project(project["id"])
        await self._refresh_projects()
        self.chat_view.focus()

    async def rename_project(self, project_id: str, name: str) -> None:
        await self.storage.rename_project(project_id, name)
        await self._refresh_projects()

    # ------------------------------------------------------------ settings

    def open_settings(self) -> None:
        self.settings_dialog.open(self.settings)

    async def save_settings(self, settings: Settings) -> None:
        self.settings = settings
        self._render_provider()
        self.chat_view.hide_error()
        try:
            await self.storage.put_settings(settings.to_storage())
        except Exception as exc:  # never include the record: it holds the keys
            log.warning("settings could not be saved: %s", type(exc).__name__)
            self.chat_view.show_message(
                "Settings not saved",
                "Your settings apply for now but could not be stored in this browser; "
                "they will be lost when the page closes.",
            )

    def _render_provider(self) -> None:
        p = self.settings.active()
        self.chat_view.set_setup_needed(p is None or bool(p.problems()))
        if p is None:
            self.provider_chip.textContent = "No provider"
            return
        model = p.model or "no model"
        self.provider_chip.replaceChildren(
            h("span", {"class": "chip-name", "text": p.label}),
            h("span", {"class": "chip-model", "text": model}),
        )
        self.provider_chip.setAttribute("title", f"{p.label} · {model} (open settings)")

    def current_provider(self) -> ProviderConfig | None:
        """The active provider as a config, or ``None`` after telling the person why not."""
        p = self.settings.active()
        if p is None:
            self.chat_view.show_message(
                "No provider", "Choose a model provider in Settings first.", settings=True
            )
            return None
        problems = p.problems()
        if problems:
            self.chat_view.show_message(
                "Provider not set up",
                f"{p.label}: " + " ".join(problems) + " Open Settings to finish.",
                settings=True,
            )
            return None
        return p.to_config()

    def close(self) -> None:
        self.listeners.close()
        self.chat_view.close()
        self.settings_dialog.listeners.close()
        self.switcher.listeners.close()


def _gear() -> Any:
    """The settings icon (inline SVG built node by node; decorative)."""
    ns = "http://www.w3.org/2000/svg"
    doc = js.document
    svg = doc.createElementNS(ns, "svg")
    for k, v in (
        ("viewBox", "0 0 24 24"),
        ("width", "20"),
        ("height", "20"),
        ("aria-hidden", "true"),
        ("focusable", "false"),
        ("fill", "none"),
        ("stroke", "currentColor"),
        ("stroke-width", "1.8"),
        ("stroke-linecap", "round"),
        ("stroke-linejoin", "round"),
    ):
        svg.setAttribute(k, v)
    circle = doc.createElementNS(ns, "circle")
    for k, v in (("cx", "12"), ("cy", "12"), ("r", "3")):
        circle.setAttribute(k, v)
    path = doc.createElementNS(ns, "path")
    path.setAttribute(
        "d",
        "M19.4 15a1.65 1.65 0 0 0 .33 1.82l.06.06a2 2 0 1 1-2.83 2.83l-.06-.06a1.65 1.65 0 0 0-1.82"
        "-.33 1.65 1.65 0 0 0-1 1.51V21a2 2 0 1 1-4 0v-.09A1.65 1.65 0 0 0 9 19.4a1.65 1.65 0 0 0-"
        "1.82.33l-.06.06a2 2 0 1 1-2.83-2.83l.06-.06A1.65 1.65 0 0 0 4.6 15a1.65 1.65 0 0 0-1.51-1"
        "H3a2 2 0 1 1 0-4h.09A1.65 1.65 0 0 0 4.6 9a1.65 1.65 0 0 0-.33-1.82l-.06-.06a2 2 0 1 1 2."
        "83-2.83l.06.06A1.65 1.65 0 0 0 9 4.6a1.65 1.65 0 0 0 1-1.51V3a2 2 0 1 1 4 0v.09a1.65 1.65"
        " 0 0 0 1 1.51 1.65 1.65 0 0 0 1.82-.33l.06-.06a2 2 0 1 1 2.83 2.83l-.06.06A1.65 1.65 0 0 "
        "0 19.4 9c.26.6.85 1 1.51 1H21a2 2 0 1 1 0 4h-.09a1.65 1.65 0 0 0-1.51 1z",
    )
    svg.appendChild(circle)
    svg.appendChild(path)
    return svg


async def mount(root: Any) -> App:
    """Build the app into ``root`` (``#app-root``); called by ``wiggum.web.boot``."""
    global APP
    app = App(root)
    APP = app
    await app.start()
    return app
