"""The app behind the first screen, attached by ``wiggum.web.boot`` right after
app-ready (once pydantic & co. are installed).

``wiggum.web.shell`` has already built the header, the Chief | Ralph tabs and
Chief's conversation, and opened storage.  This adds what needs the agents:
Chief's chat and tools, the Coordinator and Ralph's view, the workspace,
settings, the debug log.  The fetch transport is installed before anything
talks to a provider.  Nothing here reads or logs an API key; it only hands the
settings model to the views and the chat.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import js  # type: ignore[import-not-found]

from wiggum.chief.chat import ChiefChat
from wiggum.chief.prompt import chief_system_prompt
from wiggum.chief.tools import ChiefToolbox
from wiggum.coordinator import Coordinator, CoordinatorEvent, ProviderLocks
from wiggum.llm import ProviderConfig
from wiggum.llm.observability import FingersCrossedHandler
from wiggum.ui.conversations import (
    add_chat,
    meta_key,
    read_chats,
    remove_chat,
    rename_chat,
    slot,
    title_from,
)
from wiggum.ui.debuglog import DebugEntry, DebugSink, ProjectLog, format_entry
from wiggum.ui.settings import ProviderSettings, Settings
from wiggum.ui.tab_lock import (
    BUTTON_TEXT,
    UNSUPPORTED_TEXT,
    Effect,
    GuardedAppStorage,
    LockState,
    ProjectPaused,
)

from .dom import Listeners, h, spawn
from .settings_sync import SettingsSync
from .shell import ACTIVE_PROJECT, Shell
from .tab_lock import TabLockHost
from .throttle import Throttle
from .views.debug import DebugPanel
from .views.model_bar import ModelBar
from .views.onboarding import Onboarding
from .views.publish import PublishPanel
from .views.ralph import AGENT as RALPH_AGENT
from .views.ralph import RalphView
from .views.settings import SettingsDialog

__all__ = ["ACTIVE_PROJECT", "App", "mount"]

log = logging.getLogger("wiggum.web")

APP: App | None = None
#: How often a paused tab reads again what the owner of its project wrote.
FOLLOW_EVERY = 0.3
_leaving: set[asyncio.Task] = set()  # the writes started by pagehide, kept until done


class App:
    def __init__(self, shell: Shell) -> None:
        self.shell = shell
        self.root = shell.root
        #: Issue 17.3: one tab owns a project at a time (``wiggum.web.tab_lock``);
        #: every write to the open project goes through its guard.
        self.tab_lock = TabLockHost(self._on_tab_lock)
        #: Settings are one record for every tab: a save here is read again there.
        self.settings_sync = SettingsSync(self._settings_saved_elsewhere)
        self.storage = GuardedAppStorage(shell.storage, self.tab_lock.machine)
        shell.storage = self.storage
        # What this tab writes is told to the others; what another tab wrote is
        # shown here while this tab is paused on the same project.
        self.storage.on_write = self.tab_lock.announce
        self.tab_lock.on_changed = self._changed_elsewhere
        if hasattr(self.storage.inner, "take_fence"):  # IndexedDB (not memory)
            self.tab_lock.take_fence = self.storage.inner.take_fence
            self.storage.inner.fence = self.tab_lock.fence
        #: What another tab changed of the open project, still to be read.
        self._elsewhere: set[str] = set()
        self._following = False
        self.settings = Settings()
        self.project_id: str | None = None
        self.chat: ChiefChat | None = None
        #: The project's conversations with Chief (``wiggum.ui.conversations``).
        self.chats: dict = read_chats(None)
        self._toolbox: ChiefToolbox | None = None
        self.switcher = shell.switcher
        self.chat_view = shell.chat_view
        # A message queued on the first screen is sent through this app.
        self.chat_view.app = self
        self.listeners = Listeners()
        #: One per page: Chief and Ralph take a provider's lock around each call.
        self.locks = ProviderLocks()
        self.coordinator: Coordinator | None = None
        self._coord_unsub: Any = None
        self._skills: Any = None
        self._resuming = False
        self._workspace: dict[str, Any] = {}
        #: Ralph's words for each iteration of the run going on (his checkpoints' messages).
        self._ralph_intents: dict[int, str] = {}
        #: The open project's history (checkpoints); see wiggum.project.service.
        self.history: Any = None
        self._layout: Any = None
        self._refresh_due = False
        self._preview_due = False
        self.debug_panel = DebugPanel(on_clear=self._clear_debug, on_drain=self._drain_debug)
        self.debug_log: ProjectLog | None = None
        #: Entries logged before a project's log was open; written when it opens.
        self._debug_pending: list[DebugEntry] = []
        self._log_handlers: list[logging.Handler] = []
        self._fingers: FingersCrossedHandler | None = None

    # ------------------------------------------------------------ start

    async def start(self) -> None:
        from .fetch_transport import install

        self._install_logging()
        install()
        self.settings = Settings.from_storage(self.shell.settings_record)
        self._build()
        if not self.tab_lock.supported:
            log.warning("tab lock: %s", UNSUPPORTED_TEXT)
            self._say_in_log(UNSUPPORTED_TEXT)
        assert self.shell.project_id is not None, "the shell opens a project"
        await self._open_project(self.shell.project_id)
        self._render_provider()
        self.root.setAttribute("data-mounted", "true")
        self.shell.attach(self)
        from .project_ops import ProjectOps  # issue 12: projects dialog, zip, import

        ops = ProjectOps(self)
        self.switcher.attach(self, ops)
        spawn(ops.ask_persistence(), what="request persistence")

    def _build(self) -> None:
        """Add the views that need the app to the shell's frame."""
        shell = self.shell
        shell.debug_slot.replaceWith(self.debug_panel.button)
        self.ralph_view = RalphView(
            self,
            on_resume=self.resume_ralph,
            on_stop=self.stop_ralph,
            on_start=self.start_ralph_task,
        )
        shell.tab_ralph.appendChild(self.ralph_view.badge)
        shell.panel_ralph.replaceChildren(self.ralph_view.el)
        origin = str(js.location.origin)
        self.settings_dialog = SettingsDialog(self.save_settings, origin)
        self.onboarding = Onboarding(
            self._onboarded, origin=origin, open_settings=self.open_settings
        )
        shell.chat_view.setup.replaceChildren(self.onboarding.el)
        self.model_bars = {
            "chief": ModelBar("chief", "Chief", self._pick_model),
            "ralph": ModelBar("ralph", "Ralph", self._pick_model),
        }
        self.model_bars["ralph"].clear_meter()
        shell.panel_chief.prepend(self.model_bars["chief"].el)
        shell.panel_ralph.prepend(self.model_bars["ralph"].el)
        self._model_lists: dict[str, list[Any]] = {}
        self._meter_unsub: Any = None
        self._meter_soon = Throttle(self._update_meter, 1.0, what="update the context meter")
        # A streaming reply is written at most every 0.25 s; what is not yet written
        # when the page goes away (reload, closed tab, switched app) is written now.
        self.listeners.on(js.window, "pagehide", self._on_leave)
        self.listeners.on(js.document, "visibilitychange", self._on_leave)
        self.listeners.on(js.document, "visibilitychange", self._follow_when_shown)
        self.root.append(self.settings_dialog.el, self.debug_panel.el)
        self.publish_panel = PublishPanel(self)
        self.debug_panel.button.before(self.publish_panel.button)
        self.root.append(self.publish_panel.el)
        shell.on_tab_shown = self._on_tab_shown
        self.lock_text = h("span", {"class": "tab-lock-text", "data-testid": "tab-lock-text"})
        self.lock_button = h(
            "button",
            {
                "type": "button",
                "class": "btn btn-small btn-primary",
                "data-testid": "tab-lock-use-here",
            },
            BUTTON_TEXT,
        )
        self.lock_banner = h(
            "div",
            {
                "class": "tab-lock-banner",
                "data-testid": "tab-lock-banner",
                "role": "status",
                "hidden": True,
            },
            self.lock_text,
            self.lock_button,
        )
        shell.el.prepend(self.lock_banner)
        self.listeners.on(self.lock_button, "click", lambda e: self.use_here())

    def select_tab(self, name: str, *, focus: bool = False) -> None:
        self.shell.select_tab(name, focus=focus)

    def _on_tab_shown(self, name: str) -> None:
        if name == "chief":
            self.chat_view.scroll_to_latest()
        else:
            self.ralph_view._scroll_to_end()

    # ------------------------------------------------------------ projects

    async def _open_project(self, project_id: str) -> None:
        if self.chat is not None:
            self.chat.stop("switched project")
        await self._close_coordinator()
        # The old project's lock goes, the new one's is asked for: loaded after
        # the answer, so a paused tab writes nothing while it loads.
        await self.tab_lock.open(project_id)
        await self._load_project(project_id)

    async def _load_project(self, project_id: str, *, reload: bool = False) -> None:
        """Read ``project_id`` into the views; ``reload``: the same project again,
        re-read from storage (the tab took it over from another tab)."""
        self.project_id = project_id
        self.model_bars["ralph"].clear_meter()
        fs = self._open_history(self.storage.files(project_id))
        coordinator = Coordinator(
            fs,
            ralph_runner=self._ralph_runner(fs),
            locks=self.locks,
            callbacks=self.ralph_view.callbacks(),
            after_run=self._checkpoint_after_run(self.history),
        )
        self.coordinator = coordinator
        self._coord_unsub = coordinator.subscribe(self._on_coordinator)
        self._toolbox = ChiefToolbox(coordinator, self._skill_library(), fs)
        self.chats = read_chats(await self.storage.get_meta(meta_key(project_id)))
        chat = await self._make_chat(self.chats["current"])
        await self._open_debug_log(project_id)
        self._bind_chat(chat)
        self._show_model_bars()
        self.chat_view.show_chats(self.chats)
        await self.ralph_view.bind(project_id)
        self._mount_workspace(fs, reload=reload)
        recovery = None
        here = self.tab_lock.machine.may_write(project_id)
        self.ralph_view.set_elsewhere(not here)
        try:
            if here:
                recovery = await coordinator.recover_state()
            else:  # another tab runs the project: read its state, write nothing
                await coordinator.watch_state()
        except Exception:
            log.exception("could not recover Ralph's state")
        self.ralph_view.show_state(coordinator.state)
        await self._show_ralph_meter(fs)
        if recovery is not None and coordinator.pending_notice is not None:
            self.chat_view.show_notice(_notice_text(coordinator))
        await self.storage.put_meta(ACTIVE_PROJECT, project_id)
        self._show_tab_lock()

    # ------------------------------------------------------------ two tabs (17.3)

    def _on_tab_lock(self, effects: list[Effect]) -> None:
        """What the tab lock decided: stop writing, re-read, show the banner."""
        if Effect.STOP_WORK in effects:
            self._stop_work()
        if Effect.HAND_OVER in effects and self.project_id is not None:
            spawn(self._hand_over(self.project_id), what="hand the project over")
        if Effect.SHOW in effects:
            self._show_tab_lock()
        if Effect.RELOAD in effects:
            spawn(self._reload_project(), what="re-read the project taken over")

    def _show_tab_lock(self) -> None:
        machine = self.tab_lock.machine
        banner = machine.banner()
        self.root.setAttribute("data-tab-lock", str(machine.state))
        project_id = self.project_id
        self.ralph_view.set_elsewhere(project_id is not None and not machine.may_write(project_id))
        self.lock_banner.hidden = banner is None
        if banner is None:  # shown again later, it should not flash by itself
            self.lock_banner.classList.remove("is-flash")
        if banner is not None:
            self.lock_text.textContent = banner[0]
            self.lock_button.textContent = banner[1]
        self.lock_button.disabled = machine.state == LockState.TAKING_OVER

    def use_here(self) -> None:
        """ "Use here": this tab takes the project over from the other one."""
        self.tab_lock.take_over()

    def _stop_work(self) -> None:
        """Another tab took the project: stop what writes.  Chief's partial reply
        stays on screen (stored up to its last write); Ralph's files are stored
        as he wrote them, and his run is offered for resumption there."""
        if self.chat is not None and self.chat.busy:
            self.chat.stop("another tab took this project over")
        coordinator = self.coordinator
        if coordinator is not None and coordinator.state.running:
            spawn(coordinator.stop_ralph(), what="stop Ralph: project taken over")

    async def _hand_over(self, project_id: str) -> None:
        """Another tab pressed "Use here": stop Chief and Ralph, let their last
        writes land (the partial reply, Ralph's stop and last checkpoint), then
        let the lock go.  The other tab steals it if this takes too long."""
        import asyncio

        try:
            self._stop_work()
            chat, coordinator = self.chat, self.coordinator
            for _ in range(150):  # the stopped reply's final write, ~3 s at most
                if chat is None or not chat.busy:
                    break
                await asyncio.sleep(0.02)
            if coordinator is not None:
                await asyncio.wait_for(coordinator.wait(), 3.0)
        except Exception:
            log.warning("tab lock: handing over before the work had stopped", exc_info=True)
        finally:
            self.tab_lock.handed_over(project_id)

    async def _reload_project(self) -> None:
        """This tab owns the project again: what it shows may be older than what
        the other tab wrote, so read it all again (typed drafts stay)."""
        project_id = self.project_id
        if project_id is None or self.tab_lock.machine.project_id != project_id:
            return
        try:
            # Read once the fence is made: a write the other tab still makes
            # lands before it, or is refused.
            await self.tab_lock.fence(project_id)
            if self.chat is not None:
                self.chat.stop("re-reading the project")
            await self._close_coordinator()
            await self._load_project(project_id, reload=True)
            log.info("tab lock: re-read project %s after taking it over", project_id)
        finally:
            self.tab_lock.reloaded(project_id)

    # ------------------------------------------------------------ another tab's writes

    def _changed_elsewhere(self, project_id: str, what: str) -> None:
        """The tab that owns ``project_id`` wrote ``what`` of it (``changed``):
        if this tab shows it, paused, read it again soon, once it is seen."""
        if project_id != self.project_id or self.tab_lock.machine.may_write(project_id):
            return
        self._elsewhere.add(what)
        self._follow_when_shown()

    def _follow_when_shown(self, *_: Any) -> None:
        if self._elsewhere and not self._following and js.document.visibilityState != "hidden":
            self._following = True
            spawn(self._follow(), what="show another tab's changes")

    async def _follow(self) -> None:
        """Read again what the other tab changed: the conversation (the end
        stays in view), the list of conversations, the files and the preview.
        At most a few times a second; a hidden tab reads when shown again."""
        try:
            await asyncio.sleep(FOLLOW_EVERY)
            project_id = self.project_id
            what, self._elsewhere = self._elsewhere, set()
            if project_id is None or self.tab_lock.machine.may_write(project_id):
                return  # this tab took it over meanwhile, and read it all again
            if "meta" in what:
                # The conversations' list; the one shown here stays, unless it
                # was deleted there.
                shown = self.chats.get("current")
                chats = read_chats(await self.storage.get_meta(meta_key(project_id)))
                if any(c["id"] == shown for c in chats["chats"]):
                    chats["current"] = shown
                await self._show_chats(chats)
            if self.chat is not None and f"messages:{self.chat.agent}" in what:
                await self.chat.reread()
            if f"messages:{RALPH_AGENT}" in what:
                await self.ralph_view.bind(project_id)  # his transcript
            if "files" in what:
                self.refresh_workspace(preview=True)
                await self._follow_ralph()
        except Exception:
            log.exception("could not show another tab's changes")
        finally:
            self._following = False
        self._follow_when_shown()  # what came in meanwhile

    async def _follow_ralph(self) -> None:
        """Ralph's state and meter as the other tab's run leaves them in his files."""
        coordinator = self.coordinator
        if coordinator is None:
            return
        await coordinator.watch_state()  # its subscribers show it (_on_coordinator)
        await self._show_ralph_meter(coordinator.fs)

    async def _show_ralph_meter(self, fs: Any) -> None:
        from .ralph_meter import restore_ralph_meter

        active = self.settings.active()
        await restore_ralph_meter(fs, self.model_bars["ralph"], active.kind if active else "")

    def refuse_write(self, where: str = "chat") -> bool:
        """True (after saying why, where the person acted) when this tab may not
        write the open project now; the views keep what was typed."""
        text = self.tab_lock.machine.refusal()
        if text is None:
            return False
        if where == "chat":
            self.chat_view.show_message("Not sent.", text)
            self.chat_view.banner.setAttribute("data-kind", "paused")
        elif where == "ralph":
            self.ralph_view.refused(f"Not started. {text}")
        else:
            self.chat_view.show_message("Not changed.", text)
        # The banner with "Use here" draws the eye once more.
        self.lock_banner.classList.remove("is-flash")
        _ = self.lock_banner.offsetWidth  # restart the animation
        self.lock_banner.classList.add("is-flash")
        return True

    def _say_in_log(self, text: str) -> None:
        """A line in the Log (the debug panel) itself, not only in the quiet buffer."""
        import time

        self._on_debug_entry(
            DebugEntry(time=time.time(), level="WARNING", logger="wiggum.web", message=text)
        )

    # ------------------------------------------------------------ conversations

    async def _make_chat(self, chat_id: str) -> ChiefChat:
        chat = ChiefChat(
            self.storage,
            self.project_id,
            system_prompt=chief_system_prompt(),
            toolbox=self._toolbox,
            coordinator=self.coordinator,
            on_ui_event=self._on_ui_event,
            agent=slot(chat_id),
        )
        # A paused tab reads it as it is: the reply "streaming" there may be
        # streaming in the tab that owns the project.
        await chat.load(recover=self.tab_lock.machine.may_write(self.project_id))
        return chat

    def _bind_chat(self, chat: ChiefChat) -> None:
        """Show ``chat`` and keep the context meter following it."""
        self.chat = chat
        self.chat_view.bind(chat)
        if self._meter_unsub is not None:
            self._meter_unsub()
        self._meter_unsub = chat.subscribe(self._on_chat_event)

    def _on_leave(self, event: Any) -> None:
        if event.type == "visibilitychange" and js.document.visibilityState != "hidden":
            return
        if self.chat is not None:
            # Started eagerly: its write is requested before this handler returns
            # (a task scheduled for later would never run in a page being unloaded),
            # and unfenced, so it is committed at once.
            loop = asyncio.get_event_loop()
            with self.tab_lock.unfenced():
                task = asyncio.Task(self.chat.save_now(), loop=loop, eager_start=True)
            _leaving.add(task)
            task.add_done_callback(_leaving.discard)

    def _on_chat_event(self, event: str, record: Any) -> None:
        # A streaming reply's deltas move the meter only a little, and recounting the
        # whole conversation per delta (~20 ms) held back each chunk's text on screen.
        if event == "delta":
            self._meter_soon.soon()
        else:
            self._meter_soon.now()

    async def _set_chats(self, data: dict) -> None:
        """Keep the list, and open its current conversation if it changed."""
        self.chats = data
        await self.storage.put_meta(meta_key(self.project_id), data)
        await self._show_chats(data)

    async def _show_chats(self, data: dict) -> None:
        """Show the list, and open its current conversation if it changed."""
        self.chats = data
        if self.chat is None or self.chat.agent != slot(data["current"]):
            if self.chat is not None:
                self.chat.stop("switched conversation")
            self._bind_chat(await self._make_chat(data["current"]))
            self._update_meter()
        self.chat_view.show_chats(data)

    async def new_chat(self) -> None:
        if self.refuse_write("other"):
            return
        await self._set_chats(add_chat(self.chats))
        self.chat_view.focus()

    async def switch_chat(self, chat_id: str) -> None:
        if self.refuse_write("other"):
            self.chat_view.show_chats(self.chats)  # the list shows the open one again
            return
        await self._set_chats(read_chats({**self.chats, "current": chat_id}))

    async def rename_chat(self, chat_id: str, title: str) -> None:
        if self.refuse_write("other"):
            return
        await self._set_chats(rename_chat(self.chats, chat_id, title))

    async def delete_chat(self, chat_id: str) -> None:
        if self.refuse_write("other"):
            return
        if self.chat is not None and self.chat.agent == slot(chat_id):
            self.chat.stop("deleted conversation")
        await self.storage.delete_messages(self.project_id, slot(chat_id))
        await self._set_chats(remove_chat(self.chats, chat_id))

    async def title_chat(self, text: str) -> None:
        """A conversation's first message names it (until the person renames it)."""
        current = self.chats["current"]
        entry = next((c for c in self.chats["chats"] if c["id"] == current), None)
        if entry is not None and entry["title"] in ("New chat", "Conversation"):
            await self._set_chats(rename_chat(self.chats, current, title_from(text)))

    async def _close_coordinator(self) -> None:
        coordinator = self.coordinator
        if coordinator is None:
            return
        if self._coord_unsub is not None:
            self._coord_unsub()
            self._coord_unsub = None
        self.coordinator = None
        if coordinator.state.running:
            # Ralph works for the open project only; his run stays resumable.
            await coordinator.stop_ralph()

    def _skill_library(self) -> Any:
        if self._skills is None:
            from wiggum.skills import SkillLibrary

            try:
                self._skills = SkillLibrary.load()
            except Exception:
                log.exception("skills could not be loaded")
                self._skills = SkillLibrary([])
        return self._skills

    # ------------------------------------------------------------ Ralph

    def _gates(self) -> Any:
        from wiggum.ralph.gates import default_gates

        try:
            from .checkers import browser_js_checker, browser_preview_checker
        except ImportError:
            return default_gates()
        try:
            return default_gates(
                js_checker=browser_js_checker, preview_checker=browser_preview_checker
            )
        except Exception:
            log.exception("browser checkers unavailable")
            return default_gates()

    def _ralph_runner(self, fs: Any) -> Any:
        async def runner(request: Any, callbacks: Any) -> Any:
            from wiggum.ralph.config import RalphConfig
            from wiggum.ralph.loop import make_runner

            provider = self._provider_config("ralph")
            if provider is None:
                raise RuntimeError("No model provider is set up; open Settings first.")
            run = make_runner(
                provider,
                fs,
                config=RalphConfig(proxy_template=self.settings.proxy_template),
                gates=self._gates(),
                llm_lock=self.locks.hold(provider.id, "ralph"),
            )
            from .ralph_meter import with_ralph_meter

            bar = self.model_bars["ralph"]
            callbacks = with_ralph_meter(callbacks, bar, provider.model, provider.kind)
            return await self._run_with_checkpoints(run, request, callbacks)

        return runner

    # ------------------------------------------------------------ history

    def _open_history(self, raw: Any) -> Any:
        """The project's history over its raw store; returns the view without
        ``.git/`` that Chief, Ralph, the gates and the workspace get."""
        from wiggum.fs.hiding import HidingFileStore
        from wiggum.project.service import HistoryService

        from .packages import load_packages

        self.history = HistoryService(raw, load=lambda: load_packages("dulwich"))
        self.history.subscribe(lambda _cp: self.refresh_workspace(preview=True))
        return HidingFileStore(raw)

    def _person_changed(self, paths: list[str]) -> None:
        """The person created, renamed, deleted or uploaded ``paths``: show it, and
        keep it as a checkpoint of theirs in the project's history."""
        self.refresh_workspace(preview=True)
        spawn(self.checkpoint_after_save(list(paths)), what="checkpoint")

    async def checkpoint_after_save(self, paths: list[str]) -> Any:
        """The editor's hook: call after the person's save wrote ``paths``."""
        if self.history is None:
            return None
        try:
            return await self.history.saved(list(paths))
        except ProjectPaused:
            log.info("history: no checkpoint; another tab has the project now")
            return None
        except Exception as exc:
            log.exception("history: checkpoint after save failed")
            self._checkpoint_refused(exc, person=True)
            return None

    def _checkpoint_refused(self, exc: BaseException, *, person: bool) -> None:
        """Issue 12: a checkpoint refused for a full quota is said where the
        person looks (the open editor, else Ralph's transcript); the files
        themselves were saved before it."""
        from wiggum.fs import StorageFull

        if not isinstance(exc, StorageFull):
            return
        text = f"Saved, but no checkpoint was kept in History. {exc}"
        files = self._workspace.get("files")
        if not (person and files is not None and files.say(text, error=True)):
            self.ralph_view.storage_refused(text)

    async def _run_with_checkpoints(self, run: Any, request: Any, callbacks: Any) -> Any:
        """A checkpoint after every iteration of Ralph that changed files: the
        previous iteration's when the next starts (his memory for it is written
        by then); the last one is :meth:`_checkpoint_after_run`'s."""
        import dataclasses

        history, last = self.history, [0]
        inner, inner_intent = callbacks.on_iteration_start, callbacks.on_intent
        # What he said he would do in each iteration: his checkpoints' messages.
        intents = self._ralph_intents = {}

        def on_intent(i: int, text: str) -> None:
            if text.strip() and i not in intents:
                intents[i] = text
            inner_intent(i, text)

        async def checkpoint(i: int) -> None:
            try:
                await history.ralph_iteration(i, intents.get(i, ""))
            except ProjectPaused:
                log.info("history: no checkpoint; another tab has the project now")
            except Exception as exc:
                log.exception("history: checkpoint after Ralph's iteration failed")
                self._checkpoint_refused(exc, person=False)

        def on_iteration_start(i: int, m: int) -> None:
            if last[0] and history is not None:
                spawn(checkpoint(last[0]), what="checkpoint")
            last[0] = i
            inner(i, m)

        wrapped = dataclasses.replace(
            callbacks, on_iteration_start=on_iteration_start, on_intent=on_intent
        )
        return await run(request, wrapped)

    def _checkpoint_after_run(self, history: Any) -> Any:
        """The Coordinator's ``after_run``: Ralph's last checkpoint, taken once the
        run's end is written to ``.ralph/`` and ``.chief/``, so it holds all the
        memory of his run and none of it is left for the person's next checkpoint."""

        async def after_run(state: Any) -> None:
            if history is not None and state.iteration:
                try:
                    intent = self._ralph_intents.get(state.iteration, "")
                    await history.ralph_iteration(state.iteration, intent)
                except ProjectPaused:
                    log.info("history: no checkpoint; another tab has the project now")
                except Exception as exc:
                    log.exception("history: checkpoint after Ralph's run failed")
                    self._checkpoint_refused(exc, person=False)

        return after_run

    def _mount_workspace(self, fs: Any, *, reload: bool = False) -> None:
        """The file tree + viewer and the live preview (views.files, views.preview)
        in Ralph's tab: mounted once, pointed at the open project's files.
        ``reload``: the same project re-read; the open file keeps its unsaved
        edits (its store is the same project's, so the tree only re-lists)."""
        if self._workspace:
            for name, view in self._workspace.items():
                try:
                    if reload and name == "files":
                        view.refresh()
                        continue
                    view.set_fs(fs)
                except Exception:
                    log.exception("workspace: could not switch project")
            if self._layout is not None:
                self._layout.set_project(self.project_id)
            return
        slot = self.ralph_view.workspace
        try:
            from .views.files import mount_files
            from .views.preview import mount_preview
        except ImportError:  # not packaged: the transcript alone still works
            log.warning("file tree / preview unavailable")
            return
        from .views.workspace.history import mount_history

        def history_panel(box: Any, _fs: Any) -> Any:
            return mount_history(box, lambda: self.history)

        mounts = (("files", mount_files), ("preview", mount_preview), ("history", history_panel))
        for name, mount in mounts:
            box = h("div", {"class": f"workspace-{name}"})
            slot.appendChild(box)
            try:
                self._workspace[name] = mount(box, fs)
            except Exception:
                log.exception("workspace: could not mount %s", name)
        try:
            from .views.workspace.layout import mount_layout

            self._layout = mount_layout(self.ralph_view, self._workspace, self.project_id)
        except Exception:  # the views still work, stacked as before
            log.exception("workspace: could not lay out the panes")
        if "files" in self._workspace:
            # The editor's saves: a "you" checkpoint in History, the preview refreshed.
            self._workspace["files"].on_saved = self._person_changed
            try:
                from .views.workspace.fileops import mount_file_ops

                # The person's changes: the history hook joins the preview refresh here.
                self._file_ops = mount_file_ops(
                    self._workspace["files"],
                    on_changed=self._person_changed,
                )
            except Exception:  # the tree still lists and opens files
                log.exception("workspace: could not mount the file operations")
        if "preview" in self._workspace:
            try:
                from .views.workspace.preview_tools import mount_preview_tools

                self._preview_tools = mount_preview_tools(self._workspace["preview"])
            except Exception:  # the preview still shows the site
                log.exception("workspace: could not mount the preview toolbar")

    def refresh_workspace(self, *, preview: bool = False) -> None:
        """Re-list the files soon (calls in a burst make one refresh)."""
        if preview:
            self._preview_due = True
        if self._refresh_due:
            return
        self._refresh_due = True
        spawn(self._refresh_workspace(), what="refresh workspace")

    async def _refresh_workspace(self) -> None:
        import asyncio

        await asyncio.sleep(0.3)
        self._refresh_due = False
        preview, self._preview_due = self._preview_due, False
        files = self._workspace.get("files")
        if files is not None:
            files.refresh()
        view = self._workspace.get("preview")
        if preview and view is not None:
            view.refresh(None, if_changed=True)

    def _on_coordinator(self, event: CoordinatorEvent) -> None:
        state = event.state
        self.ralph_view.show_state(state)
        if event.kind == "started":
            self.ralph_view.run_started(self._resuming)
            self._resuming = False
        elif event.kind == "gates":
            self.refresh_workspace(preview=True)
        elif event.kind == "notice":  # Chief took it: .chief/notice.json is gone
            self.refresh_workspace()
        elif event.kind == "finished":
            self.ralph_view.run_finished(state.last_result, state.status, state.last_error)
            self.refresh_workspace(preview=True)
            if str(state.status) != "cancelled":
                spawn(self._after_run(self.coordinator), what="post-build notice")

    async def _after_run(self, coordinator: Coordinator | None) -> None:
        if coordinator is None:
            return
        await coordinator.wait()
        if coordinator is not self.coordinator or coordinator.pending_notice is None:
            return
        if self.tab_lock.machine.refusal() is not None:
            return  # another tab has the project: Chief there hears of it
        self.chat_view.show_notice(_notice_text(coordinator))
        # Tell Chief now, if the provider is free; otherwise on the next turn.
        provider = self._provider_config()
        chat = self.chat
        if provider is None or chat is None or chat.busy or self.locks.is_busy(provider.id):
            return
        self.chat_view.start_note_turn(provider)

    def _on_ui_event(self, event: dict[str, Any]) -> None:
        if event.get("type") == "handoff":
            self.select_tab("ralph")

    async def resume_ralph(self) -> None:
        coordinator = self.coordinator
        if coordinator is None or self.refuse_write("ralph"):
            return
        self._resuming = True
        try:
            await coordinator.resume_ralph()
        except Exception as err:
            self._resuming = False
            self.ralph_view.show_state(coordinator.state)
            self.chat_view.show_message("Ralph could not resume", str(err))

    async def start_ralph_task(self, task: str) -> None:
        """A task typed on Ralph's tab: a run without Chief's hand-off."""
        coordinator = self.coordinator
        if coordinator is None or self.refuse_write("ralph"):
            return
        try:
            await coordinator.send_to_ralph(task)
        except Exception as err:
            self.chat_view.show_message("Ralph could not start", str(err))

    async def stop_ralph(self) -> None:
        if self.coordinator is not None:
            await self.coordinator.stop_ralph()

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
        if project_id == self.project_id and self.refuse_write("other"):
            await self._refresh_projects()  # the old name back in the switcher
            return
        await self.storage.rename_project(project_id, name)
        await self._refresh_projects()

    # ------------------------------------------------------------ debug log

    def _install_logging(self) -> None:
        """DESIGN §3: every ``wiggum`` logger feeds a fingers-crossed buffer that
        flushes into the debug panel (and the project's stored log) when an
        error is logged; warnings and errors also reach the browser console."""
        root = logging.getLogger("wiggum")
        root.setLevel(logging.DEBUG)
        self._fingers = FingersCrossedHandler(
            DebugSink(self._on_debug_entry, secrets=self._secrets)
        )
        console = DebugSink(_to_console, secrets=self._secrets, level=logging.WARNING)
        self._log_handlers = [self._fingers, console]
        for handler in self._log_handlers:
            root.addHandler(handler)

    def _secrets(self) -> list[str]:
        return [p.key for p in self.settings.providers if p.key]

    def _on_debug_entry(self, entry: DebugEntry) -> None:
        # The client logs the provider's internal id; a person reads its name.
        known = self.settings.provider(str(entry.fields.get("provider", "")))
        if known is not None:
            entry.fields["provider"] = known.label
        self.debug_panel.add(entry)
        if self.debug_log is None:
            self._debug_pending.append(entry)
        else:
            spawn(_keep_entry(self.debug_log, entry), what="store debug entry")

    async def _open_debug_log(self, project_id: str) -> None:
        log_ = ProjectLog(self.storage, project_id)
        self.debug_log = None
        try:
            entries = await log_.load()
        except Exception as exc:
            js.console.error(f"wiggum: debug log could not be read: {type(exc).__name__}")
            entries = []
        pending, self._debug_pending = self._debug_pending, []
        self.debug_log = log_
        self.debug_panel.show(entries + pending)
        for entry in pending:
            await _keep_entry(log_, entry)

    def _drain_debug(self) -> int:
        return 0 if self._fingers is None else self._fingers.drain()

    async def _clear_debug(self) -> None:
        if self.debug_log is not None:
            await self.debug_log.clear()

    # ------------------------------------------------------------ settings

    def open_settings(self) -> None:
        self.settings_dialog.open(self.settings)

    async def save_settings(self, settings: Settings) -> None:
        self.settings = settings
        self._render_provider()
        self.chat_view.hide_error()
        try:
            await self.storage.put_settings(settings.to_storage())
            self.settings_sync.announce()
        except Exception as exc:  # never include the record: it holds the keys
            log.warning("settings could not be saved: %s", type(exc).__name__)
            self.chat_view.show_message(
                "Settings not saved",
                "Your settings apply for now but could not be stored in this browser; "
                "they will be lost when the page closes.",
            )

    def _settings_saved_elsewhere(self) -> None:
        spawn(self._reload_settings(), what="read the settings another tab saved")

    async def _reload_settings(self) -> None:
        """Another tab saved the settings: take them, so nothing saved here later
        writes this tab's older copy over them."""
        record = await self.storage.get_settings()
        self.settings = Settings.from_storage(record)
        self._render_provider()
        self.settings_dialog.saved_elsewhere(self.settings)
        log.info("settings: read again (saved in another tab)")

    async def _onboarded(self, provider: ProviderSettings, proxy_template: str) -> None:
        """The onboarding's tested provider becomes the active one."""
        settings = self.settings.model_copy(deep=True)
        active = settings.active()
        if active is not None and active.problems(settings.proxy_template):
            settings.providers = [q for q in settings.providers if q.id != active.id]
        settings.providers.append(provider)
        settings.active_provider = provider.id
        if provider.proxy and proxy_template:
            settings.proxy_template = proxy_template
        await self.save_settings(settings)
        self.chat_view.focus()

    def local_fix(self) -> str | None:
        """For a server on this machine: how to make it accept this page (for errors)."""
        from wiggum.ui.presets import preset

        p = self.settings.active()
        if p is None:
            return None
        pr = preset(p.preset)
        if pr.browser != "local" and not (pr.id == "custom" and p.is_local):
            return None
        fix = pr.origin_fix or preset("local").origin_fix
        return fix.format(origin=str(js.location.origin))

    # ------------------------------------------------------------ model choice

    def _model(self, role: str) -> str:
        p = self.settings.active()
        endpoint = p.endpoint if p is not None else None
        chosen = self.settings.model_for(self.shell.project_id, role, endpoint)
        return chosen or (p.model if p is not None else "")

    def _pick_model(self, role: str, model: str) -> None:
        p = self.settings.active()
        if p is None or not model:
            return
        if self.refuse_write("other"):  # the project's own choice: a write of the project
            self._show_model_bars()
            return
        settings = self.settings.model_copy(deep=True)
        key = f"{self.shell.project_id}:{role}"
        if model == p.model:
            settings.project_models.pop(key, None)
            settings.project_model_endpoints.pop(key, None)
        else:
            settings.project_models[key] = model
            settings.project_model_endpoints[key] = p.endpoint
        spawn(self.save_settings(settings), what="choose model")

    def _show_model_bars(self) -> None:
        p = self.settings.active()
        if p is None or p.problems(self.settings.proxy_template):
            for bar in self.model_bars.values():
                bar.el.hidden = True
            return
        key = f"{p.id}|{p.base_url}|{p.proxy}|{self.settings.proxy_template}"
        models = self._model_lists.get(key)
        for role, bar in self.model_bars.items():
            bar.show(models or [], self._model(role), p.kind)
        self._update_meter()
        if models is None:
            self._model_lists[key] = []
            spawn(self._load_model_list(p, key), what="list models")

    async def _load_model_list(self, p: ProviderSettings, key: str) -> None:
        from wiggum.llm import LLMError
        from wiggum.ui.models import list_models

        try:
            # The chat's own route: through the proxy when it is on, never around it.
            models = await list_models(
                p, proxy_template=self.settings.proxy_template if p.proxy else None
            )
        except LLMError:
            return  # the configured model alone; the chat names any real problem
        self._model_lists[key] = models
        if self.settings.active() is p:
            self._show_model_bars()

    def _update_meter(self) -> None:
        from wiggum.ui.model_choice import meter

        p = self.settings.active()
        chat = self.chat
        if p is None or chat is None:
            return
        # What the next request would carry: system prompt, history and tools.
        tools = chat.toolbox.definitions() if chat.toolbox is not None else None
        m = meter(list(chat.records), chat.history(), self._model("chief"), p.kind, tools)
        self.model_bars["chief"].set_meter(m)

    def _render_provider(self) -> None:
        p = self.settings.active()
        needed = p is None or bool(p.problems(self.settings.proxy_template))
        if needed:
            self.onboarding.prefill(p, self.settings.proxy_template)
        self.chat_view.set_setup_needed(needed)
        if hasattr(self, "model_bars"):
            self._show_model_bars()
        if p is None or needed:
            # A preset with no key yet is not a provider the person has: say what is missing
            # rather than naming a model no request can reach.
            what = "Set up a provider" if p is None else f"{p.label}: finish setup"
            self.shell.provider_chip.textContent = what
            self.shell.provider_chip.setAttribute("title", f"{what} (open settings)")
            return
        model = self._model("chief") or "no model"
        self.shell.provider_chip.replaceChildren(
            h("span", {"class": "chip-name", "text": p.label}),
            h("span", {"class": "chip-model", "text": model}),
        )
        self.shell.provider_chip.setAttribute("title", f"{p.label} · {model} (open settings)")

    def _provider_config(self, role: str = "chief") -> ProviderConfig | None:
        """The active provider as a config for ``role``, quietly ``None`` when not set up."""
        p = self.settings.active()
        if p is None or p.problems(self.settings.proxy_template):
            return None
        return p.to_config().model_copy(update={"model": self._model(role)})

    def current_provider(self) -> ProviderConfig | None:
        """The active provider as a config, or ``None`` after telling the person why not.

        Every turn of Chief's asks this first: in a paused tab (another tab owns the
        project) it says so and nothing is sent; the draft stays in the box."""
        if self.refuse_write("chat"):
            return None
        p = self.settings.active()
        if p is None:
            self.chat_view.show_message(
                "No provider", "Choose a model provider in Settings first.", settings=True
            )
            return None
        problems = p.problems(self.settings.proxy_template)
        if problems:
            self.chat_view.show_message(
                "Provider not set up",
                f"{p.label}: " + " ".join(problems) + " Open Settings to finish.",
                settings=True,
            )
            return None
        return p.to_config().model_copy(update={"model": self._model("chief")})

    def close(self) -> None:
        self.tab_lock.close()
        self.settings_sync.close()
        self.listeners.close()
        self.ralph_view.close()
        for view in self._workspace.values():
            view.close()
        self.shell.close()
        self.settings_dialog.listeners.close()
        self.onboarding.close()
        for bar in self.model_bars.values():
            bar.close()
        if self._meter_unsub is not None:
            self._meter_unsub()
        self.debug_panel.close_listeners()
        root = logging.getLogger("wiggum")
        for handler in self._log_handlers:
            root.removeHandler(handler)
        self._log_handlers = []


async def _keep_entry(log_: ProjectLog, entry: DebugEntry) -> None:
    """Store one entry; a failure goes to the console, never back into the log
    (a logged storage error would be flushed here and stored again, forever)."""
    try:
        await log_.append(entry)
    except ProjectPaused:
        pass  # another tab keeps the project's log now; the entry stays in the panel
    except Exception as exc:
        js.console.error(f"wiggum: debug entry not stored: {type(exc).__name__}")


def _to_console(entry: DebugEntry) -> None:
    line = format_entry(entry)
    if entry.level in ("ERROR", "CRITICAL"):
        js.console.error(line)
    else:
        js.console.warn(line)


def _notice_text(coordinator: Coordinator) -> str:
    report = coordinator.pending_notice
    if report is not None and str(report.status) == "complete":
        return "Ralph finished — ask me about the results"
    banner = coordinator.notice_banner() or "Ralph stopped"
    # Most banners already end in their own "— ask me …"; say it once.
    return banner if "— ask me" in banner else banner + " — ask me about it"


async def mount(shell: Shell) -> App:
    """Attach the app to the first screen (``wiggum.web.shell``); called by
    ``wiggum.web.boot`` once pydantic & co. are installed."""
    global APP
    app = App(shell)
    APP = app
    await app.start()
    return app
