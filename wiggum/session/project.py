"""The open project as the app drives it: opening and reading it again, its
conversations, Ralph's runs, and the two-tab reactions.

One :class:`ProjectSession` per page.  :meth:`~ProjectSession.open` makes the
project's parts (its History over the raw files, the Coordinator with Ralph's
runner, Chief's tools and conversation) and reads what the page shows; the
page hears of everything through typed messages (``session.events``) and
draws them.  Two tabs: the tab lock decides (``wiggum.ui.tab_lock``); this
carries its effects out (stop the work, hand the project over, read it again)
and, while paused, follows what the owner writes.

It is Chief's :class:`~wiggum.session.chief.ChiefContext` too: the provider
for his role, his request options, whether the tab may write, the first
message's title, the conversations.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol

from wiggum.chief.chat import ChiefChat
from wiggum.chief.prompt import chief_system_prompt
from wiggum.chief.tools import ChiefToolbox
from wiggum.coordinator import Coordinator, ProviderLocks
from wiggum.llm import ProviderConfig, RequestOptions
from wiggum.persist import ACTIVE_PROJECT
from wiggum.persist.guarded import ProjectPaused
from wiggum.ralph.transcript import AGENT as RALPH_AGENT
from wiggum.ralph.transcript import Appended, RalphTranscript, ToolEvent, TranscriptChange
from wiggum.ui.conversations import (
    add_chat,
    meta_key,
    read_chats,
    remove_chat,
    rename_chat,
    slot,
    title_from,
)
from wiggum.ui.settings import Settings
from wiggum.ui.tab_lock import Effect, TabLock
from wiggum.ui.update import Busy

from . import providers
from .build import build_plan
from .chief import ChiefSession
from .events import (
    ActionRefused,
    ChatsShown,
    Emitter,
    HandedToRalph,
    NoticeShown,
    ProjectOpened,
    ProjectsListed,
    RalphElsewhere,
    RalphMeterShown,
    RalphStateShown,
    TabLockShown,
    WorkspaceChanged,
)
from .ralph import RalphSession, notice_text
from .refusals import NOT_CHANGED, Refusal, paused

__all__ = ["FOLLOW_EVERY", "ProjectSession", "TabLockPort"]

log = logging.getLogger("wiggum.session")

#: How often a paused tab reads again what the owner of its project wrote.
FOLLOW_EVERY = 0.3
#: Titles a conversation has until its first message names it.
UNNAMED = ("New chat", "Conversation")
#: How long handing a project over waits for the stopped reply's last write.
HAND_OVER_WAIT = 3.0


class TabLockPort(Protocol):
    """The tab lock as the session asks it (``wiggum.web.tab_lock.TabLockHost``)."""

    machine: TabLock

    async def open(self, project_id: str) -> None: ...

    async def fence(self, project_id: str) -> int | None: ...

    def unfenced(self) -> AbstractContextManager[None]: ...

    def reloaded(self, project_id: str) -> None: ...

    def handed_over(self, project_id: str) -> None: ...

    async def open_elsewhere(self, project_id: str) -> bool: ...


class ProjectSession:
    def __init__(
        self,
        *,
        host: Any,
        storage: Any,
        tab_lock: TabLockPort,
        chief: ChiefSession,
        settings: Callable[[], Settings],
        locks: ProviderLocks | None = None,
        models_listed: Callable[[], list[str]] = list,
        openers: Sequence[Callable[[str], Awaitable[None]]] = (),
        transport: Any = None,
        keep_settings: Callable[[Settings], Awaitable[Any]] | None = None,
    ) -> None:
        """``storage`` is the guarded ``AppStorage``; ``models_listed()`` the
        models the person can switch to (for the images warning); ``openers``
        read what else is kept per project (its debug log) when it opens, before
        its state shows; ``transport`` the HTTP transport (``None``: the
        environment's, fetch in the page); ``keep_settings`` stores changed
        settings (a provider limit Ralph's run learned)."""
        self.host = host
        self.storage = storage
        self.tab_lock = tab_lock
        self.chief = chief
        self._settings = settings
        self._skills: Any = None
        self.models_listed = models_listed
        self._openers = tuple(openers)
        #: One per page: Chief and Ralph take a provider's lock around each call.
        self.locks = locks or ProviderLocks()
        self.events = Emitter(log)
        self.project_id: str | None = None
        self.coordinator: Coordinator | None = None
        self.chat: ChiefChat | None = None
        self.chats: dict[str, Any] = read_chats(None)
        self.history: Any = None
        self.fs: Any = None
        #: Ralph's transcript in the open project (the view draws it).
        self.transcript: RalphTranscript | None = None
        self._toolbox: ChiefToolbox | None = None
        self._coord_unsub: Callable[[], None] | None = None
        #: What another tab changed of the open project, still to be read.
        self._elsewhere: set[str] = set()
        self._following = False
        self.ralph = RalphSession(
            host=host,
            settings=settings,
            locks=self.locks,
            paused=self.paused,
            note_turn=chief.note_turn,
            emit=self.events.emit,
            transport=transport,
            keep_settings=keep_settings,
        )
        self.transport = transport
        chief.attach(self)

    def subscribe(self, listener: Callable[[Any], None]) -> Callable[[], None]:
        return self.events.subscribe(listener)

    @property
    def settings(self) -> Settings:
        return self._settings()

    @property
    def busy(self) -> Busy:
        """What a reload now would cut short (a new version waits for it)."""
        running = self.coordinator is not None and self.coordinator.is_running
        return Busy(ralph_running=running, chief_busy=self.chief.busy)

    def may_write(self) -> bool:
        return self.project_id is not None and self.tab_lock.machine.may_write(self.project_id)

    # ------------------------------------------------------------ opening

    async def open(self, project_id: str) -> None:
        """Open ``project_id``: the old one's work stops, its lock goes, the new
        one's is asked for; read after the answer, so a paused tab writes nothing."""
        if self.chat is not None:
            self.chat.stop("switched project")
        await self._close_coordinator()
        await self.tab_lock.open(project_id)
        await self.load(project_id)

    async def load(self, project_id: str, *, reload: bool = False) -> None:
        """Read ``project_id`` (``reload``: the same project again, from storage)."""
        from wiggum.fs.hiding import HidingFileStore
        from wiggum.project.service import HistoryService

        self.project_id = project_id
        self.ralph.project_id = project_id
        self.events.emit(RalphMeterShown(None))
        raw = self.storage.files(project_id)
        self.history = HistoryService(raw, load=lambda: self.host.load_packages("dulwich"))
        self.history.subscribe(lambda _cp: self.events.emit(WorkspaceChanged(preview=True)))
        fs = self.fs = HidingFileStore(raw)
        transcript = self.transcript = self.ralph.transcript = RalphTranscript(
            self.storage, project_id
        )
        transcript.subscribe(self._on_transcript)
        coordinator = Coordinator(
            fs,
            ralph_runner=self.ralph.runner(fs, self.history),
            locks=self.locks,
            callbacks=transcript.callbacks(),
            after_run=self.ralph.after_run(self.history),
        )
        self.coordinator = self.ralph.coordinator = coordinator
        self._coord_unsub = coordinator.subscribe(self.ralph.on_coordinator)
        self._toolbox = ChiefToolbox(coordinator, self._skill_library(), fs)
        self.chats = read_chats(await self.storage.get_meta(meta_key(project_id)))
        chat = await self._make_chat(self.chats["current"])
        for opener in self._openers:
            await opener(project_id)
        self._bind_chat(chat)
        await transcript.load()
        self.events.emit(ProjectOpened(project_id, fs, transcript, reload))
        self.events.emit(ChatsShown(self.chats))
        here = self.may_write()
        self.events.emit(RalphElsewhere(not here))
        recovery = None
        try:
            if here:
                recovery = await coordinator.recover_state()
            else:  # another tab runs the project: read its state, write nothing
                await coordinator.watch_state()
        except Exception:
            log.exception("could not recover Ralph's state")
        self.events.emit(RalphStateShown(coordinator.state))
        await self.ralph.restore_meter(fs)
        if recovery is not None and coordinator.pending_notice is not None:
            self.events.emit(NoticeShown(notice_text(coordinator)))
        await self.storage.put_meta(ACTIVE_PROJECT, project_id)
        self.events.emit(TabLockShown())

    async def _close_coordinator(self) -> None:
        coordinator = self.coordinator
        if coordinator is None:
            return
        if self._coord_unsub is not None:
            self._coord_unsub()
            self._coord_unsub = None
        self.coordinator = self.ralph.coordinator = None
        if coordinator.state.running:
            # Ralph works for the open project only; his run stays resumable.
            await coordinator.stop_ralph()

    async def _make_chat(self, chat_id: str) -> ChiefChat:
        chat = ChiefChat(
            self.storage,
            self.project_id or "",
            system_prompt=chief_system_prompt(),
            toolbox=self._toolbox,
            coordinator=self.coordinator,
            on_ui_event=self._on_ui_event,
            agent=slot(chat_id),
            transport=self.transport,
        )
        # A paused tab reads it as it is: the reply "streaming" there may be
        # streaming in the tab that owns the project.
        await chat.load(recover=self.may_write())
        return chat

    def _bind_chat(self, chat: ChiefChat) -> None:
        self.chat = chat
        self.chief.bind(chat)

    def _skill_library(self) -> Any:
        """Chief's design notes, loaded once per page (a broken library: none)."""
        if self._skills is None:
            from wiggum.skills import SkillLibrary

            try:
                self._skills = SkillLibrary.load()
            except Exception:
                log.exception("skills could not be loaded")
                self._skills = SkillLibrary([])
        return self._skills

    def _on_transcript(self, change: TranscriptChange) -> None:
        """A tool call of Ralph's may have changed files: list them again soon."""
        if isinstance(change, Appended) and isinstance(change.event, ToolEvent):
            self.events.emit(WorkspaceChanged())

    def _on_ui_event(self, event: dict[str, Any]) -> None:
        if event.get("type") == "handoff":
            self.events.emit(HandedToRalph())

    async def build_plan(self, plan: str | None) -> None:
        """Build: ``plan`` (``None``: the saved one) to Ralph, no model call (``session.build``)."""
        if not self.ralph.refuse():
            await build_plan(self.coordinator, plan, self.events.emit)

    async def plan_again(self) -> None:
        """Plan: Ralph stops; his run stays resumable."""
        await self.ralph.stop()

    def save_now(self) -> Coroutine[Any, Any, None] | None:
        """What the open conversation still holds back, to write at once (the page
        goes away): the caller starts it eagerly, unfenced."""
        return None if self.chat is None else self.chat.save_now()

    # ------------------------------------------------------------ the projects

    async def refresh_projects(self) -> None:
        """Show the stored projects again (the switcher's list)."""
        self.events.emit(ProjectsListed(await self.storage.list_projects(), self.project_id))

    async def switch_project(self, project_id: str) -> None:
        await self.open(project_id)
        await self.refresh_projects()

    async def create_project(self, name: str) -> None:
        project = await self.storage.create_project(name)
        await self.switch_project(project["id"])

    async def rename_project(self, project_id: str, name: str) -> None:
        """A rename of the open project is a write of it: a paused tab refuses it
        (and the switcher shows the old name again)."""
        if project_id != self.project_id or not self.refuse("other"):
            await self.storage.rename_project(project_id, name)
        await self.refresh_projects()

    async def open_elsewhere(self, project_id: str) -> bool:
        """Whether another tab has ``project_id`` open (it is not deleted then)."""
        return await self.tab_lock.open_elsewhere(project_id)

    async def history_of(self, project_id: str) -> tuple[Any, bool]:
        """``project_id``'s history and whether this tab may write it: the open
        project's own service (its checkpoints one at a time with Ralph's), or one
        made for another project, writable when no tab has it open."""
        if project_id == self.project_id and self.history is not None:
            return self.history, self.may_write()
        from wiggum.project.service import HistoryService

        service = HistoryService(
            self.storage.files(project_id), load=lambda: self.host.load_packages("dulwich")
        )
        return service, not await self.open_elsewhere(project_id)

    def project_files(self) -> Any:
        """The open project's files (``None`` while none is open)."""
        return self.fs

    # ------------------------------------------------------------ conversations

    async def _set_chats(self, data: dict[str, Any]) -> None:
        """Keep the list, and open its current conversation if it changed."""
        self.chats = data
        await self.storage.put_meta(meta_key(self.project_id or ""), data)
        await self._show_chats(data)

    async def _show_chats(self, data: dict[str, Any]) -> None:
        self.chats = data
        if self.chat is None or self.chat.agent != slot(data["current"]):
            if self.chat is not None:
                self.chat.stop("switched conversation")
            self._bind_chat(await self._make_chat(data["current"]))
        self.events.emit(ChatsShown(data))

    async def new_chat(self) -> None:
        if not self.refuse("other"):
            await self._set_chats(add_chat(self.chats))

    async def switch_chat(self, chat_id: str) -> None:
        if self.refuse("other"):
            self.events.emit(ChatsShown(self.chats))  # the list shows the open one again
            return
        await self._set_chats(read_chats({**self.chats, "current": chat_id}))

    async def rename_chat(self, chat_id: str, title: str) -> None:
        if not self.refuse("other"):
            await self._set_chats(rename_chat(self.chats, chat_id, title))

    async def delete_chat(self, chat_id: str) -> None:
        if self.refuse("other"):
            return
        if self.chat is not None and self.chat.agent == slot(chat_id):
            self.chat.stop("deleted conversation")
        await self.storage.delete_messages(self.project_id, slot(chat_id))
        await self._set_chats(remove_chat(self.chats, chat_id))

    async def title_chat(self, text: str) -> None:
        """A conversation's first message names it (until the person renames it)."""
        current = self.chats["current"]
        entry = next((c for c in self.chats["chats"] if c["id"] == current), None)
        if entry is not None and entry["title"] in UNNAMED:
            await self._set_chats(rename_chat(self.chats, current, title_from(text)))

    # ------------------------------------------------------------ Chief's context

    @property
    def proxy_template(self) -> str:
        return self.settings.proxy_template

    def paused(self) -> str | None:
        return self.tab_lock.machine.refusal()

    def provider(self) -> ProviderConfig | Refusal:
        return providers.provider_for(self.settings, self.project_id, "chief")

    def request_options(self, provider: ProviderConfig) -> RequestOptions:
        return providers.request_options(self.settings, provider)

    def local_fix(self) -> str | None:
        return providers.local_fix(self.settings, self.host.origin)

    def images_warning(self, count: int) -> str | None:
        return providers.images_warning(self.settings, self.project_id, count, self.models_listed())

    def refuse(self, where: str = "other") -> bool:
        """True (after saying why, where the person acted) when this tab may not
        write the open project now; what was typed stays."""
        text = self.paused()
        if text is None:
            return False
        self.events.emit(ActionRefused(paused(NOT_CHANGED, text), where))  # type: ignore[arg-type]
        return True

    # ------------------------------------------------------------ two tabs

    def on_tab_lock(self, effects: list[Effect]) -> None:
        """What the tab lock decided: stop writing, hand over, re-read, show the banner."""
        if Effect.STOP_WORK in effects:
            self.stop_work()
        if Effect.HAND_OVER in effects and self.project_id is not None:
            self.host.spawn(self.hand_over(self.project_id), what="hand the project over")
        if Effect.SHOW in effects:
            self.events.emit(RalphElsewhere(self.project_id is not None and not self.may_write()))
            self.events.emit(TabLockShown())
        if Effect.RELOAD in effects:
            self.host.spawn(self.reload(), what="re-read the project taken over")

    def stop_work(self) -> None:
        """Another tab took the project: stop what writes.  Chief's partial reply
        stays (stored up to its last write); Ralph's run is offered for
        resumption there."""
        if self.chat is not None and self.chat.busy:
            self.chat.stop("another tab took this project over")
        coordinator = self.coordinator
        if coordinator is not None and coordinator.state.running:
            self.host.spawn(coordinator.stop_ralph(), what="stop Ralph: project taken over")

    async def hand_over(self, project_id: str) -> None:
        """Another tab pressed "Use here": stop Chief and Ralph, let their last
        writes land, then let the lock go (the other tab steals it if this
        takes too long)."""
        try:
            self.stop_work()
            chat, coordinator = self.chat, self.coordinator
            waited = 0.0
            while chat is not None and chat.busy and waited < HAND_OVER_WAIT:
                await self.host.sleep(0.02)
                waited += 0.02
            if coordinator is not None:
                await asyncio.wait_for(coordinator.wait(), HAND_OVER_WAIT)
        except Exception:
            log.warning("tab lock: handing over before the work had stopped", exc_info=True)
        finally:
            self.tab_lock.handed_over(project_id)

    async def reload(self) -> None:
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
            await self.load(project_id, reload=True)
            log.info("tab lock: re-read project %s after taking it over", project_id)
        finally:
            self.tab_lock.reloaded(project_id)

    def changed_elsewhere(self, project_id: str, what: str) -> None:
        """The tab that owns ``project_id`` wrote ``what`` of it: if this tab shows
        it, paused, read it again soon, once it is seen."""
        if project_id != self.project_id or self.may_write():
            return
        self._elsewhere.add(what)
        self.follow_when_shown()

    def follow_when_shown(self) -> None:
        if self._elsewhere and not self._following and self.host.visible():
            self._following = True
            self.host.spawn(self._follow(), what="show another tab's changes")

    async def _follow(self) -> None:
        """Read again what the other tab changed: the list of conversations, the
        open one, Ralph's transcript, the files and his state.  At most a few
        times a second; a hidden tab reads when shown again."""
        try:
            await self.host.sleep(FOLLOW_EVERY)
            project_id = self.project_id
            what, self._elsewhere = self._elsewhere, set()
            if project_id is None or self.may_write():
                return  # this tab took it over meanwhile, and read it all again
            if "meta" in what:
                # The conversations' list; the one shown here stays, unless deleted there.
                shown = self.chats.get("current")
                chats = read_chats(await self.storage.get_meta(meta_key(project_id)))
                if any(c["id"] == shown for c in chats["chats"]):
                    chats["current"] = shown
                await self._show_chats(chats)
            if self.chat is not None and f"messages:{self.chat.agent}" in what:
                await self.chat.reread()
            if f"messages:{RALPH_AGENT}" in what and self.transcript is not None:
                await self.transcript.load()  # the view draws it again
            if "files" in what:
                self.events.emit(WorkspaceChanged(preview=True))
                await self._follow_ralph()
        except Exception:
            log.exception("could not show another tab's changes")
        finally:
            self._following = False
        self.follow_when_shown()  # what came in meanwhile

    async def _follow_ralph(self) -> None:
        """Ralph's state and meter as the other tab's run leaves them in his files."""
        coordinator = self.coordinator
        if coordinator is None:
            return
        await coordinator.watch_state()  # its subscribers show it
        await self.ralph.restore_meter(coordinator.fs)

    # ------------------------------------------------------------ the person's files

    def person_changed(self, paths: list[str]) -> None:
        """The person created, renamed, deleted or uploaded ``paths``: show it, and
        keep it as a checkpoint of theirs in the project's history."""
        self.events.emit(WorkspaceChanged(preview=True))
        self.host.spawn(self.checkpoint_after_save(list(paths)), what="checkpoint")

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
            self.ralph.checkpoint_refused(exc, person=True)
            return None

    def close(self) -> None:
        if self._coord_unsub is not None:
            self._coord_unsub()
