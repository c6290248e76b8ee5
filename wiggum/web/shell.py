"""The first screen: what the page shows before pydantic and the agents load.

``wiggum.web.boot`` mounts this first, marks app-ready, and only then installs
pydantic & co. and hands the shell to ``wiggum.web.app`` (the rest of the app).
So this module, and everything it imports, must not import pydantic or the
LLM client stack (``tests/test_imports.py`` holds it to that): every module
here is paid for before the person sees anything.

What the first screen has: the header (project switcher, provider chip,
settings button), the Chief | Ralph tabs, and Chief's conversation read back
from IndexedDB with the composer under it.  The person can read, type and
switch tabs at once.  What needs the rest of the app waits for it, briefly and
visibly: Send queues the message (``ChatView``), Settings and the project
switcher act once the app has arrived.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import js  # type: ignore[import-not-found]

from wiggum.persist import ACTIVE_PROJECT, AppStorage, MemoryAppStorage
from wiggum.session.chief import ChiefSession
from wiggum.ui.conversations import meta_key, read_chats, slot

from .dom import Listeners, h, is_null, spawn
from .host import WebHost
from .views.chat import ChatView
from .views.project_switcher import ProjectSwitcher
from .web_lock import exclusively


class App(Protocol):
    """The app behind the first screen as the shell sees it (``wiggum.web.app.App``,
    which builds on this module, so the shell names only what it calls)."""

    def open_settings(self) -> None: ...

    async def switch_project(self, project_id: str) -> None: ...

    async def create_project(self, name: str) -> None: ...

    async def rename_project(self, project_id: str, name: str) -> None: ...


__all__ = ["FIRST_PROJECT", "Shell", "open_shell"]

log = logging.getLogger("wiggum.web")

FIRST_PROJECT = "My first project"


async def _open_storage() -> AppStorage:
    try:
        from .storage import open_storage
    except ImportError:  # storage module not there (yet): keep working, in memory
        log.warning("wiggum.web.storage unavailable; using memory storage")
        return MemoryAppStorage()
    return await open_storage()


async def first_projects(storage: AppStorage) -> list[dict[str, Any]]:
    """The projects, with "My first project" made if there are none: under a
    Web Lock, so that two tabs opened at once on a first visit make one."""

    async def list_or_create() -> list[dict[str, Any]]:
        projects = await storage.list_projects()  # again: another tab may have made it
        return projects or [await storage.create_project(FIRST_PROJECT)]

    return await exclusively("wiggum:first-project", list_or_create)


class Shell:
    """The page's frame and Chief's conversation, before the app behind them."""

    def __init__(self, root: Any) -> None:
        self.root = root
        self.storage: AppStorage = MemoryAppStorage()
        self.settings_record: dict[str, Any] | None = None
        self.project_id: str | None = None
        self.listeners = Listeners()
        self.host = WebHost()
        #: Chief's session: a message sent before the app has loaded waits in it.
        self.chief = ChiefSession(self.host)
        #: The rest of the app, once it has loaded (``attach``).
        self.app: App | None = None
        self._attached = asyncio.Event()
        self._settings_wanted = False
        self._build()

    async def open(self) -> None:
        """Read what the first screen shows: projects, the active one's conversation."""
        self.storage = await _open_storage()
        self.settings_record = await self.storage.get_settings()
        projects = await self.storage.list_projects() or await first_projects(self.storage)
        active = await self.storage.get_meta(ACTIVE_PROJECT)
        if active not in {p["id"] for p in projects}:
            active = projects[0]["id"]
        self.project_id = active
        self.switcher.render(projects, active)
        # The conversation that was open (a project may have several).
        chats = read_chats(await self.storage.get_meta(meta_key(active)))
        self.chat_view.show_stored(await self.storage.load_messages(active, slot(chats["current"])))

    # ------------------------------------------------------------ building

    def _build(self) -> None:
        doc = js.document
        self.switcher = ProjectSwitcher(
            on_switch=lambda pid: self._later(lambda app: app.switch_project(pid)),
            on_create=lambda name: self._later(lambda app: app.create_project(name)),
            on_rename=lambda pid, name: self._later(lambda app: app.rename_project(pid, name)),
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
        #: Where the debug log's button goes once the app has loaded.
        self.debug_slot = h("span", {"class": "debug-slot"})
        controls = h(
            "div",
            {"class": "header-controls"},
            self.switcher.el,
            h("div", {"class": "header-spacer"}),
            self.provider_chip,
            self.debug_slot,
            self.settings_btn,
        )
        header = doc.querySelector(".app-header")
        header.insertBefore(controls, doc.getElementById("app-status"))

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
        self.chat_view = ChatView(self.chief, self.open_settings)
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
                "aria-busy": "true",
                "hidden": True,
                "tabindex": "0",
            },
            h("p", {"class": "panel-loading", "text": "Ralph's tab is loading…"}),
        )
        self.el = h(
            "div",
            {"class": "shell", "data-testid": "app-shell"},
            tabs,
            self.panel_chief,
            self.panel_ralph,
        )
        self.root.replaceChildren(self.el, self.switcher.dialog)
        self.listeners.on(self.settings_btn, "click", lambda e: self.open_settings())
        self.listeners.on(self.provider_chip, "click", lambda e: self.open_settings())
        self.listeners.on(tabs, "click", self._on_tab_click)
        self.listeners.on(tabs, "keydown", self._on_tab_key)

    # ------------------------------------------------------------ the app behind

    def attach(self, app: App) -> None:
        """The rest of the app has loaded: what waited for it runs now."""
        self.app = app
        self.panel_ralph.removeAttribute("aria-busy")
        self._attached.set()

    async def _later(self, act: Callable[[App], Awaitable[Any]]) -> None:
        """Run ``act`` on the app, once it is there (at once after that)."""
        await self._attached.wait()
        assert self.app is not None
        await act(self.app)

    def open_settings(self) -> None:
        if self.app is not None:
            self.app.open_settings()
            return
        if self._settings_wanted:  # clicked again while loading: open it once
            return
        self._settings_wanted = True

        async def when_loaded(app: App) -> None:
            app.open_settings()

        spawn(self._later(when_loaded), what="open settings")

    def show_provider(self, name: str, model: str | None, title: str) -> None:
        """The provider chip: its name and Chief's model (``None``: what setup lacks)."""
        chip = self.provider_chip
        if model is None:
            chip.textContent = name
        else:
            chip.replaceChildren(
                h("span", {"class": "chip-name", "text": name}),
                h("span", {"class": "chip-model", "text": model}),
            )
        chip.setAttribute("title", title)

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
        # A hidden panel cannot scroll: the app brings the shown one to its latest.
        shown = getattr(self, "on_tab_shown", None)
        if shown is not None:
            shown(name)

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

    def close(self) -> None:
        self.listeners.close()
        self.switcher.listeners.close()
        self.chat_view.close()


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


async def open_shell(root: Any) -> Shell:
    """Build the first screen into ``root`` (``#app-root``) and read its content."""
    shell = Shell(root)
    await shell.open()
    return shell
