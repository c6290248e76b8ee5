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
from wiggum.ui.markup import shell as markup
from wiggum.ui.tabs import tab_attrs

from .dom import Listeners, mount, mount_all, set_attrs, spawn, tab_list
from .host import WebHost
from .storage import open_storage
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
        #: Told which tab is shown (a hidden panel cannot scroll: the app brings
        #: the shown one to its latest).
        self.on_tab_shown: Callable[[str], None] | None = None
        self._attached = asyncio.Event()
        self._settings_wanted = False
        self._build()

    async def open(self) -> None:
        """Read what the first screen shows: projects, the active one's conversation."""
        self.storage = await open_storage()
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
        controls = mount(markup.header_controls())
        controls.el.prepend(self.switcher.el)
        self.provider_chip, self.settings_btn = controls.provider_chip, controls.settings
        #: Where the debug log's button goes once the app has loaded.
        self.debug_slot = controls.debug_slot
        header = doc.querySelector(".app-header")
        header.insertBefore(controls.el, doc.getElementById("app-status"))

        frame = mount(markup.frame())
        self.el, tabs = frame.el, frame.tabs
        self.tab_chief, self.tab_ralph = frame.tab_chief, frame.tab_ralph
        self.panel_chief, self.panel_ralph = frame.panel_chief, frame.panel_ralph
        self._tabs = {
            "chief": (self.tab_chief, self.panel_chief),
            "ralph": (self.tab_ralph, self.panel_ralph),
        }
        self.selected = "chief"
        self.chat_view = ChatView(self.chief, self.open_settings)
        self.panel_chief.append(self.chat_view.el)
        self.root.replaceChildren(self.el, self.switcher.dialog)
        self.listeners.on(self.settings_btn, "click", lambda e: self.open_settings())
        self.listeners.on(self.provider_chip, "click", lambda e: self.open_settings())
        tab_list(self.listeners, tabs, list(self._tabs), lambda: self.selected, self.select_tab)

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
            chip.replaceChildren(*mount_all(markup.chip(name, model)))
        chip.setAttribute("title", title)

    # ------------------------------------------------------------ tabs

    def select_tab(self, name: str, focus: bool = False) -> None:
        self.selected = name
        for key, (tab, panel) in self._tabs.items():
            set_attrs(tab, tab_attrs(key, name))
            panel.hidden = key != name
        if focus:
            self._tabs[name][0].focus()
        if self.on_tab_shown is not None:
            self.on_tab_shown(name)

    def close(self) -> None:
        self.listeners.close()
        self.switcher.listeners.close()
        self.chat_view.close()


async def open_shell(root: Any) -> Shell:
    """Build the first screen into ``root`` (``#app-root``) and read its content."""
    shell = Shell(root)
    await shell.open()
    return shell
