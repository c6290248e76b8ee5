"""The app behind the first screen: the composition root.

``wiggum.web.boot`` attaches it once pydantic & co. are installed; the shell
(``wiggum.web.shell``) has built the header, the tabs, Chief's conversation
and his session, and opened storage.  This builds the rest and wires it:
the browser's services (tab lock, settings sync, logging, the fetch
transport), the sessions that decide (``wiggum.session``: settings, the open
project with Ralph's runs, the model choice, the debug log) and the views
that draw (Ralph's tab, the workspace, Settings, Publish, the banners).  The
sessions tell the page what to show as typed messages; each has its handler
in one table here.  Nothing here reads or logs an API key.
"""

from __future__ import annotations

from typing import Any

import js  # type: ignore[import-not-found]

from wiggum.session import events as ev
from wiggum.session.chief import Refused
from wiggum.session.debug_log import DebugLog
from wiggum.session.demo import END_TEXT, END_TITLE, PLAYING, DemoRun, DemoTransport
from wiggum.session.model_facts import ModelFacts
from wiggum.session.models import ChiefMeterShown, ModelBarsShown, ModelChoice
from wiggum.session.point import PointSession
from wiggum.session.project import ProjectSession
from wiggum.session.providers import chip
from wiggum.session.settings_store import SettingsChanged, SettingsStore
from wiggum.session.site_panels import site_panels
from wiggum.ui.settings import Settings
from wiggum.ui.tab_lock import UNSUPPORTED_TEXT

from .dom import Listeners, spawn
from .first_visit import FirstVisit, begin, returned
from .leaving import write_on_leave
from .logging_setup import PageLogging
from .settings_sync import SettingsSync
from .shell import Shell
from .tab_lock import TabLockHost
from .views.debug import DebugPanel
from .views.lock_banner import LockBanner, UpdateBanner
from .views.model_bar import ModelBars
from .views.onboarding import Onboarding
from .views.publish import PublishPanel
from .views.ralph import RalphView
from .views.settings import SettingsDialog
from .workspace_mount import Workspace

__all__ = ["App", "mount"]

APP: App | None = None


class App:
    def __init__(self, shell: Shell) -> None:
        self.shell, self.root, self.host = shell, shell.root, shell.host
        # One tab owns a project at a time (wiggum.web.tab_lock); every write
        # to the open project goes through its guard, and is told to the others.
        self.tab_lock = TabLockHost(lambda effects: self.project.on_tab_lock(effects))
        self.storage = shell.storage = self.tab_lock.guard(shell.storage)
        self.settings_sync = SettingsSync(
            lambda: spawn(self.settings_store.reload(), what="read the settings another tab saved")
        )
        self.settings_store = SettingsStore(
            self.storage, self.settings_sync.announce, shell.settings_record
        )
        #: See it build a site: its project runs on a recording (wiggum.session.demo).
        self.demo = DemoRun(DemoTransport())
        self.project = ProjectSession(
            host=self.host,
            storage=self.storage,
            tab_lock=self.tab_lock,
            chief=shell.chief,
            settings=lambda: self.demo.settings(self.project_id, self.settings_store()),
            models_listed=lambda: self.models.listed(),
            openers=(lambda pid: self.debug.open(pid),),  # its log, read with it
            keep_settings=self.settings_store.save,
        )
        self.ralph_view = RalphView(self.project.ralph, lambda: self.project.history)
        self.tab_lock.on_changed = self.project.changed_elsewhere
        self.models = ModelChoice(self.host, self.settings_store, self.project)
        self.chat_view, self.switcher = shell.chat_view, shell.switcher
        panel = self.debug_panel = DebugPanel(
            on_clear=lambda: self.debug.clear(), on_drain=lambda: self.logging.drain()
        )
        self.debug = DebugLog(
            self.host, self.storage, self.settings_store, show=panel.show, add=panel.add,
            console=lambda text: js.console.error(text),
        )  # fmt: skip
        self.listeners = Listeners()

    # ------------------------------------------------------------ facade (tests, dialogs)

    settings = property(lambda self: self.settings_store.settings)
    project_id = property(lambda self: self.project.project_id)
    coordinator = property(lambda self: self.project.coordinator)
    chat = property(lambda self: self.project.chat)
    debug_log = property(lambda self: self.debug.log)
    ralph_transcript = property(lambda self: self.project.transcript)
    history = property(lambda self: self.project.history)

    switch_project = property(lambda self: self.project.switch_project)
    rename_project = property(lambda self: self.project.rename_project)

    async def save_settings(self, settings: Settings) -> None:
        await self.settings_store.save(settings)

    def refresh_workspace(self, *, preview: bool = False) -> None:
        self.workspace.refresh(preview=preview)

    async def checkpoint_after_save(self, paths: list[str]) -> Any:
        return await self.project.checkpoint_after_save(paths)

    def open_file(self, path: str) -> None:
        self.workspace.views["files"].open(path)

    def open_settings(self) -> None:
        self.settings_dialog.open(self.settings)

    # ------------------------------------------------------------ start

    async def start(self) -> None:
        from wiggum.llm.transport import set_default_transport

        from .fetch_transport import install

        self.logging = PageLogging(self.debug.entry, self._secrets)
        self.demo.transport.inner = install()
        set_default_transport(self.demo.transport)
        self._build()
        self._wire()
        if not self.tab_lock.supported:
            self.debug.say(UNSUPPORTED_TEXT)
        assert self.shell.project_id is not None, "the shell opens a project"
        await self.project.open(self.shell.project_id)
        self._render_provider()
        self.root.setAttribute("data-mounted", "true")
        self.shell.attach(self)
        from .project_ops import ProjectOps

        ops = ProjectOps(self.storage, lambda: self.settings)
        self.switcher.attach(self.project, ops)
        spawn(ops.ask_persistence(), what="request persistence")
        spawn(
            returned(self._onboarded, self.chat_view.show_message), what="connect with OpenRouter"
        )

    def _build(self) -> None:
        """Add the views that need the app to the shell's frame."""
        shell = self.shell
        shell.debug_slot.replaceWith(self.debug_panel.button)
        shell.tab_ralph.appendChild(self.ralph_view.badge)
        shell.panel_ralph.replaceChildren(self.ralph_view.el)
        origin = self.host.origin
        self.model_facts = ModelFacts(self.storage, self.project.transport)
        spawn(self.model_facts.load(), what="read the model facts fetched before")
        self.settings_dialog = SettingsDialog(
            self.save_settings,
            origin,
            self.model_facts,
            lambda: self.models.show(),
            connect_openrouter=begin,
        )
        self.onboarding = Onboarding(
            self._onboarded,
            origin=origin,
            open_settings=self.open_settings,
            quick=FirstVisit(origin, self.start_demo),
            on_tested=self._onboarding_tested,
        )
        self.chat_view.use_setup_card(self.onboarding.el, self.onboarding.show_notice)
        self.model_bars = ModelBars(self.models.pick)
        shell.panel_chief.prepend(self.model_bars.bars["chief"].el)
        shell.panel_ralph.prepend(self.model_bars.bars["ralph"].el)
        self.root.append(self.settings_dialog.el, self.debug_panel.el)
        self.publish_panel = PublishPanel(self)
        self.debug_panel.button.before(self.publish_panel.button)
        self.root.append(self.publish_panel.el)
        self.lock_banner = LockBanner(self.tab_lock.take_over)
        shell.el.prepend(self.lock_banner.el)
        self.update_banner = UpdateBanner(lambda: self.project.busy)
        shell.el.prepend(self.update_banner.el)
        self.site = site_panels(self.storage, self.project, self._ask_chief, spawn)
        self.point = PointSession(lambda: self.project.fs, lambda: self.project.history)
        self.workspace = Workspace(
            self.ralph_view.workspace,
            self.ralph_view,
            lambda: self.project.history,
            self.project.person_changed,
            self.site,
            point=self._mount_point,
        )

    def _ralph_state(self, e: Any) -> None:
        from wiggum.session.build import chief_mode

        self.ralph_view.show_state(e.state)
        self.chat_view.show_mode(chief_mode(e.state))

    def _wire(self) -> None:
        """Each message of the sessions to the view that shows it."""
        p, rv, cv = self.project, self.ralph_view, self.chat_view
        handlers: dict[type, Any] = {
            ev.ProjectOpened: self._opened,
            ev.ProjectsListed: lambda e: self.switcher.render(e.projects, e.current),
            ev.ChatsShown: lambda e: cv.show_chats(e.chats),
            ev.NoticeShown: lambda e: cv.show_notice(e.text),
            ev.MessageShown: lambda e: cv.show_message(e.title, e.message),
            ev.ActionRefused: self._refused,
            ev.TabLockShown: lambda e: self.lock_banner.show(self.tab_lock.machine, self.root),
            ev.RalphStateShown: self._ralph_state,
            ev.RalphElsewhere: lambda e: rv.set_elsewhere(e.elsewhere),
            ev.RalphMeterShown: lambda e: self.model_bars.set_meter("ralph", e.meter),
            ev.WorkspaceChanged: lambda e: self.workspace.refresh(preview=e.preview),
            ev.SiteChecked: lambda e: self.site.show_report(e.report),
            ev.CriteriaWaived: lambda e: self.site.show_waived(e.unprobed),
            ev.CheckpointRefused: self._checkpoint_refused,
            ev.HandedToRalph: lambda e: self.shell.select_tab("ralph"),
            ev.ApprovalShown: lambda e: rv.show_approval(e.view),
            SettingsChanged: self._settings_changed,
            ModelBarsShown: lambda e: self.model_bars.show(e.chosen, e.models, e.kind),
            ChiefMeterShown: lambda e: self.model_bars.set_meter("chief", e.meter),
            Refused: lambda e: self.lock_banner.flash() if e.refusal.fix == "use-here" else None,
        }

        def handle(event: Any) -> None:
            handler = handlers.get(type(event))
            if handler is not None:
                handler(event)

        for source in (p, self.settings_store, self.models, self.shell.chief):
            source.subscribe(handle)
        self.shell.on_tab_shown = self._on_tab_shown
        write_on_leave(self.listeners, p.save_now, self.tab_lock.unfenced)
        self.listeners.on(js.document, "visibilitychange", lambda e: p.follow_when_shown())

    # ------------------------------------------------------------ handlers

    def _opened(self, e: ev.ProjectOpened) -> None:
        self.ralph_view.bind(e.transcript)
        self.model_bars.set_meter("ralph", None)
        self._render_provider()
        self.workspace.show(e.fs, e.project_id, reload=e.reload)

    def _refused(self, e: ev.ActionRefused) -> None:
        if e.where == "ralph":
            self.ralph_view.refused(e.refusal.text)
        else:
            self.chat_view.show_refusal(e.refusal)
        self.lock_banner.flash()

    def _checkpoint_refused(self, e: ev.CheckpointRefused) -> None:
        if not (e.person and self.workspace.say_refused(e.text)):
            self.ralph_view.storage_refused(e.text)

    def _settings_changed(self, e: SettingsChanged) -> None:
        self._render_provider()
        if e.elsewhere:
            self.settings_dialog.saved_elsewhere(e.settings)
        else:
            self.chat_view.hide_error()

    def _render_provider(self) -> None:
        settings = self.settings
        c = chip(self.project.settings, self.project_id)
        if not c.ready:
            self.onboarding.prefill(settings.active(), settings.proxy_template)
            self.onboarding.shown()
        self.chat_view.set_setup_needed(not c.ready)
        self.models.show()
        self.shell.show_provider(c.name, c.model, c.title)

    def _onboarding_tested(self, tested: Any) -> None:
        """The first-run form's test passed (``tested``: the chip that says so), or the
        form changed since (``None``: the settings' own chip again; the form keeps
        what the person typed)."""
        c = tested if tested is not None else chip(self.project.settings, self.project_id)
        self.shell.show_provider(c.name, c.model, c.title)

    def start_demo(self) -> None:
        """See it build a site: a recorded session replayed (no provider called)."""
        spawn(self._demo(), what="play the demo")

    async def _demo(self) -> None:
        if await self.demo.play(self.project, self.host.sleep, self._demo_opened):
            self.shell.select_tab("chief")  # the end, and what to do next, where it was told
            self.chat_view.show_message(END_TITLE, END_TEXT, settings=True)

    def _demo_opened(self) -> None:
        self._render_provider()
        self.chat_view.show_notice(PLAYING)

    async def _onboarded(self, provider: Any, proxy_template: str = "") -> None:
        """The onboarding's tested provider becomes the active one."""
        await self.settings_store.onboard(provider, proxy_template)
        self.chat_view.focus()

    def _on_tab_shown(self, name: str) -> None:
        if name == "chief":
            self.chat_view.scroll_to_latest()
        else:
            self.ralph_view.scroll_to_end()

    def _ask_chief(self, text: str) -> None:
        """Ask Chief: the question in his message box, his tab shown, for the person to send."""
        self.shell.select_tab("chief")
        self.chat_view.composer.put(text)

    def _mount_point(self, preview: Any, files: Any, layout: Any) -> Any:
        """Select mode on the preview: the editor opens where the element is written
        (behind the preview the person is pointing at, until they ask for the code)."""
        from .views.point import PointView

        def open_source(path: str, line: int, show: bool) -> None:
            if files is None:
                return
            if layout is not None:
                layout.open_behind(None if show else path)
            files.open(path, line)
            if show and layout is not None:
                layout.show("code")

        return PointView(
            preview,
            self.point,
            open_source,
            self._ask_chief_about,
            self.project.ralph.start_task,
            self.host.load_packages,
        )

    def _ask_chief_about(self, label: str, where: str, context: str) -> None:
        """Ask Chief about an element of the preview: it goes with the next message."""
        from wiggum.ui.markup.point import chip

        from .dom import mount

        self.shell.select_tab("chief")
        self.chat_view.composer.put_context(mount(chip(label, where, context)).el, context)

    def _secrets(self) -> list[str]:
        return [p.key for p in self.settings.providers if p.key]

    # ------------------------------------------------------------ projects

    async def create_project(self, name: str) -> None:
        await self.project.create_project(name)
        self.chat_view.focus()

    def project_files(self) -> Any:
        return self.project.fs

    def close(self) -> None:
        for closable in (
            self.tab_lock,
            self.settings_sync,
            self.listeners,
            self.ralph_view,
            self.workspace,
            self.shell,
            self.onboarding,
            self.lock_banner,
            self.update_banner.listeners,
            self.logging,
            self.project,
            self.model_bars,
        ):
            closable.close()
        self.settings_dialog.listeners.close()
        self.debug_panel.close_listeners()


async def mount(shell: Shell) -> App:
    """Attach the app to the first screen (``wiggum.web.shell``); called by
    ``wiggum.web.boot`` once pydantic & co. are installed."""
    global APP
    app = App(shell)
    APP = app
    await app.start()
    return app
