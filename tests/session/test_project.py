"""The open project as the app drives it: opening, conversations, two tabs,
following another tab, the person's checkpoints.  Real storage semantics
(memory, guarded by the real tab lock), the real Coordinator and Chief."""

from __future__ import annotations

import asyncio
import json

import pytest
from fakes import ProjectRig, sim_settings

from tests.sim import Stall, Turn
from wiggum.fs import StorageFull
from wiggum.persist import ACTIVE_PROJECT
from wiggum.project.history_errors import unreadable
from wiggum.session import events as ev
from wiggum.session.chief import ChatBound
from wiggum.session.project import FOLLOW_EVERY
from wiggum.session.refusals import Refusal
from wiggum.ui.conversations import meta_key, slot
from wiggum.ui.tab_lock import PAUSED_TEXT, Effect, LockState


@pytest.fixture
def rig() -> ProjectRig:
    return ProjectRig()


async def test_opening_a_project_reads_it_and_says_what_to_show(rig):
    pid = await rig.open()
    kinds = [type(e) for e in rig.events]
    assert kinds.index(ev.ProjectOpened) < kinds.index(ev.ChatsShown)
    assert kinds[-1] is ev.TabLockShown
    opened = rig.of(ev.ProjectOpened)[0]
    assert opened.project_id == pid and not opened.reload
    assert opened.transcript is rig.session.transcript and opened.transcript.events == []
    assert rig.of(ev.RalphElsewhere) == [ev.RalphElsewhere(False)]
    assert rig.of(ev.ChatsShown)[0].chats["current"] == "main"
    assert rig.session.chat is rig.chief.chat and rig.chief.chat.agent == "chief"
    assert await rig.raw.get_meta(ACTIVE_PROJECT) == pid
    assert rig.opened == [pid]
    assert rig.lock.calls == [("open", pid)]


async def test_a_reply_cut_off_by_a_reload_reads_as_interrupted_where_the_tab_owns_it(rig):
    pid = await rig.project()
    await rig.raw.put_message(pid, "chief", 0, {"seq": 0, "role": "user", "content": "hi"})
    await rig.raw.put_message(
        pid, "chief", 1, {"seq": 1, "role": "assistant", "content": "par", "status": "streaming"}
    )
    await rig.session.open(pid)
    assert rig.session.chat.records[1].status == "interrupted"
    assert (await rig.raw.load_messages(pid, "chief"))[1]["status"] == "interrupted"


async def test_a_paused_tab_reads_the_project_as_it_is_and_writes_nothing():
    rig = ProjectRig(owner=False)
    pid = await rig.project()
    await rig.raw.put_message(
        pid, "chief", 0, {"seq": 0, "role": "assistant", "content": "p", "status": "streaming"}
    )
    await rig.session.open(pid)
    assert rig.session.chat.records[0].status == "streaming"  # streaming in the other tab
    assert (await rig.raw.load_messages(pid, "chief"))[0]["status"] == "streaming"
    assert rig.of(ev.RalphElsewhere) == [ev.RalphElsewhere(True)]
    assert rig.session.paused() == PAUSED_TEXT


async def test_opening_another_project_stops_the_reply_of_the_first(sim, transport):
    rig = ProjectRig(sim_settings(sim), transport=transport)
    sim.script([Turn("a long reply", chunks=3, fault=Stall(after=1))])
    await rig.open("One")
    rig.chief.send("hi")
    await _until(lambda: rig.session.chat.busy)
    first = rig.session.chat
    second = await rig.open("Two")
    await rig.host.settle()
    assert first.records[-1].status == "stopped"
    assert rig.session.project_id == second and rig.chief.chat is not first


# ------------------------------------------------------------------ conversations


async def test_a_new_conversation_is_opened_and_kept_in_the_list(rig):
    pid = await rig.open()
    await rig.session.new_chat()
    chats = await rig.raw.get_meta(meta_key(pid))
    assert len(chats["chats"]) == 2 and chats["current"] != "main"
    assert rig.chief.chat.agent == slot(chats["current"])
    assert rig.of(ev.ChatsShown)[-1].chats == chats


async def test_switching_back_opens_the_first_conversation_again(rig):
    await rig.open()
    await rig.session.new_chat()
    await rig.session.switch_chat("main")
    assert rig.chief.chat.agent == "chief"


async def test_a_conversation_renamed_keeps_its_new_name(rig):
    pid = await rig.open()
    await rig.session.rename_chat("main", "  The   menu  ")
    assert (await rig.raw.get_meta(meta_key(pid)))["chats"][0]["title"] == "The menu"


async def test_deleting_the_open_conversation_clears_its_records_and_opens_a_neighbour(rig):
    pid = await rig.open()
    await rig.session.new_chat()
    second = rig.session.chats["current"]
    await rig.raw.put_message(pid, slot(second), 0, {"seq": 0, "role": "user", "content": "x"})
    await rig.session.delete_chat(second)
    assert await rig.raw.load_messages(pid, slot(second)) == []
    assert rig.session.chats["current"] == "main" and rig.chief.chat.agent == "chief"


async def test_the_first_message_names_only_an_unnamed_conversation(rig):
    pid = await rig.open()
    await rig.session.title_chat("A bakery site with a menu and opening hours, please")
    title = (await rig.raw.get_meta(meta_key(pid)))["chats"][0]["title"]
    assert title.startswith("A bakery site") and title.endswith("…") and len(title) <= 40
    await rig.session.title_chat("Something else")
    assert (await rig.raw.get_meta(meta_key(pid)))["chats"][0]["title"] == title


@pytest.mark.parametrize(
    "act",
    [
        lambda s: s.new_chat(),
        lambda s: s.rename_chat("main", "x"),
        lambda s: s.delete_chat("main"),
    ],
)
async def test_in_a_paused_tab_conversations_do_not_change(act):
    rig = ProjectRig(owner=False)
    pid = await rig.open()
    await act(rig.session)
    refused = rig.of(ev.ActionRefused)
    assert refused and refused[0].refusal.title == "Not changed." and refused[0].where == "other"
    assert refused[0].refusal.fix == "use-here"
    assert await rig.raw.get_meta(meta_key(pid)) is None


async def test_switching_conversation_in_a_paused_tab_shows_the_open_one_again():
    rig = ProjectRig(owner=False)
    await rig.open()
    shown = len(rig.of(ev.ChatsShown))
    await rig.session.switch_chat("other")
    assert len(rig.of(ev.ChatsShown)) == shown + 1
    assert rig.of(ev.ChatsShown)[-1].chats["current"] == "main"
    assert rig.chief.chat.agent == "chief"


# ------------------------------------------------------------------ Chief's context


async def test_chief_asks_the_project_for_his_provider_and_why_not(rig):
    await rig.open()
    assert isinstance(rig.session.provider(), Refusal)


async def test_chief_gets_the_model_this_project_chose(sim, transport):
    from wiggum.session.providers import choose_model

    rig = ProjectRig(sim_settings(sim), transport=transport)
    pid = await rig.open()
    rig.settings = choose_model(rig.settings, pid, "chief", "gpt-4.1")
    assert rig.session.provider().model == "gpt-4.1"
    assert rig.session.request_options(rig.session.provider()).idle_timeout == 90.0


async def test_the_local_fix_names_the_page_origin(sim, transport):
    rig = ProjectRig(sim_settings(sim), transport=transport)
    await rig.open()
    assert "http://127.0.0.1:8000" in rig.session.local_fix()


async def test_the_images_warning_names_the_models_the_person_can_switch_to(sim, transport):
    rig = ProjectRig(sim_settings(sim), transport=transport)
    rig.settings.providers[0].model = "gpt-3.5-turbo"
    rig.listed = ["gpt-4o"]
    await rig.open()
    assert "gpt-4o" in rig.session.images_warning(1)


async def test_refuse_lets_an_owner_act(rig):
    await rig.open()
    assert not rig.session.refuse("chat") and not rig.of(ev.ActionRefused)


# ------------------------------------------------------------------ two tabs


async def test_when_another_tab_takes_over_the_reply_stops_and_is_kept(sim, transport):
    rig = ProjectRig(sim_settings(sim), transport=transport)
    sim.script([Turn("half of it and more", chunks=4, fault=Stall(after=2))])
    await rig.open()
    rig.chief.send("hi")
    await _until(lambda: rig.session.chat.records and rig.session.chat.records[-1].content)
    rig.session.on_tab_lock(rig.lock.machine.lost(rig.session.project_id))
    await rig.host.settle()
    reply = rig.session.chat.records[-1]
    assert reply.status == "stopped" and reply.content


async def test_show_tells_the_banner_and_ralph_tab(rig):
    await rig.open()
    rig.events.clear()
    rig.session.on_tab_lock([Effect.SHOW])
    assert rig.events == [ev.RalphElsewhere(False), ev.TabLockShown()]


async def test_handing_over_waits_for_the_work_then_lets_the_lock_go(rig):
    pid = await rig.open()
    rig.session.on_tab_lock(rig.lock.machine.release_asked(pid))
    await rig.host.settle()
    assert ("handed_over", pid) in rig.lock.calls
    assert rig.lock.machine.state == LockState.PAUSED


async def test_taking_over_reads_the_project_again_after_its_fence():
    rig = ProjectRig(owner=False)
    pid = await rig.open()
    await rig.raw.put_message(pid, "chief", 0, {"seq": 0, "role": "user", "content": "there"})
    rig.session.on_tab_lock(rig.lock.machine.granted(pid))
    await rig.host.settle()
    calls = [c for c, _ in rig.lock.calls]
    assert calls.index("fence") < calls.index("reloaded")
    assert rig.of(ev.ProjectOpened)[-1].reload
    assert [r.content for r in rig.session.chat.records] == ["there"]
    assert rig.lock.machine.refusal() is None


async def test_a_reload_for_a_project_no_longer_open_reads_nothing(rig):
    await rig.open("One")
    await rig.open("Two")
    rig.session.project_id = "gone"
    opened = len(rig.of(ev.ProjectOpened))
    await rig.session.reload()
    assert len(rig.of(ev.ProjectOpened)) == opened


async def test_an_owner_ignores_changes_announced_for_its_project(rig):
    pid = await rig.open()
    rig.session.changed_elsewhere(pid, "files")
    assert rig.host.tasks == []


async def test_a_paused_tab_ignores_changes_of_another_project():
    rig = ProjectRig(owner=False)
    await rig.open()
    rig.session.changed_elsewhere("another", "files")
    assert rig.host.tasks == []


async def test_a_hidden_paused_tab_follows_once_shown():
    rig = ProjectRig(owner=False)
    pid = await rig.open()
    rig.host.shown = False
    rig.session.changed_elsewhere(pid, "files")
    assert rig.host.spawned() == []
    rig.host.shown = True
    rig.session.follow_when_shown()
    await rig.host.settle()
    assert rig.host.spawned() == ["show another tab's changes"]
    assert rig.of(ev.WorkspaceChanged)[-1] == ev.WorkspaceChanged(preview=True)
    assert FOLLOW_EVERY in rig.host.slept


async def test_a_burst_of_changes_is_read_once():
    rig = ProjectRig(owner=False)
    pid = await rig.open()
    for what in ("files", "messages:ralph", "files"):
        rig.session.changed_elsewhere(pid, what)
    await rig.host.settle()
    assert rig.host.spawned() == ["show another tab's changes"]


async def test_following_reads_ralphs_transcript_as_the_owner_writes_it():
    rig = ProjectRig(owner=False)
    pid = await rig.open()
    record = {"kind": "iteration", "i": 1, "max": 20}
    await rig.raw.put_message(pid, "ralph", 0, record)
    rig.session.changed_elsewhere(pid, "messages:ralph")
    await rig.host.settle()
    assert [e.to_record() for e in rig.session.transcript.events] == [record]


async def test_a_tool_call_of_ralphs_lists_the_files_again(rig):
    await rig.open()
    rig.events.clear()
    rig.session.transcript.callbacks().on_tool_call(1, "write_file", {"path": "a"}, "ok", False)
    await rig.session.transcript.flush()
    assert rig.of(ev.WorkspaceChanged) == [ev.WorkspaceChanged(False)]


async def test_following_reads_the_conversation_the_owner_writes():
    rig = ProjectRig(owner=False)
    pid = await rig.open()
    await rig.raw.put_message(pid, "chief", 0, {"seq": 0, "role": "user", "content": "from there"})
    rig.session.changed_elsewhere(pid, "messages:chief")
    await rig.host.settle()
    assert [r.content for r in rig.session.chat.records] == ["from there"]


async def test_following_the_list_keeps_the_open_conversation_unless_deleted_there():
    rig = ProjectRig(owner=False)
    pid = await rig.open()
    lists = [
        {"current": "b", "chats": [{"id": "main", "title": "A"}, {"id": "b", "title": "B"}]},
        {"current": "b", "chats": [{"id": "b", "title": "B"}]},
    ]
    await rig.raw.put_meta(meta_key(pid), lists[0])
    rig.session.changed_elsewhere(pid, "meta")
    await rig.host.settle()
    assert rig.session.chats["current"] == "main" and len(rig.session.chats["chats"]) == 2
    await rig.raw.put_meta(meta_key(pid), lists[1])
    rig.session.changed_elsewhere(pid, "meta")
    await rig.host.settle()
    assert rig.session.chats["current"] == "b" and rig.chief.chat.agent == slot("b")


async def test_a_tab_that_took_over_meanwhile_follows_nothing():
    rig = ProjectRig(owner=False)
    pid = await rig.open()
    rig.session.changed_elsewhere(pid, "files")
    rig.lock.machine.granted(pid)
    await rig.host.settle()
    assert not rig.of(ev.WorkspaceChanged)


# ------------------------------------------------------------------ the person's files


async def test_a_save_of_the_person_is_a_checkpoint_of_theirs(rig):
    pid = await rig.open()
    await rig.session.fs.write_text("index.html", "<h1>mine</h1>")
    rig.session.person_changed(["index.html"])
    await rig.host.settle()
    assert rig.of(ev.WorkspaceChanged)[0] == ev.WorkspaceChanged(preview=True)
    assert "dulwich" in rig.host.loaded
    checkpoints = await (await rig.session.history.history()).list()
    assert checkpoints[0].author.startswith("you") and "index.html" in checkpoints[0].message
    assert pid


async def test_a_checkpoint_refused_for_space_is_said_where_the_person_saved(rig):
    await rig.open()

    class Full:
        async def saved(self, paths):
            raise StorageFull("The browser's storage for this page is full.")

    rig.session.history = Full()
    assert await rig.session.checkpoint_after_save(["a.html"]) is None
    (refused,) = rig.of(ev.CheckpointRefused)
    assert refused.person
    assert refused.text.startswith("Saved, but no checkpoint was kept in History. ")
    assert "storage for this page is full" in refused.text


async def test_other_checkpoint_failures_are_said_and_logged(rig, caplog):
    await rig.open()

    class Broken:
        def __init__(self, error):
            self.error = error

        async def saved(self, paths):
            raise self.error

    rig.session.history = Broken(RuntimeError("bug"))
    assert await rig.session.checkpoint_after_save(["a.html"]) is None
    (said,) = rig.of(ev.CheckpointRefused)
    assert said.person and "checkpoint after save failed" in caplog.text
    assert said.text == (
        "Saved, but no checkpoint was kept in History: something went wrong (the details "
        "are in the Log)."
    )
    # A history that cannot be read says why in its own words.
    rig.session.history = Broken(unreadable(".git/HEAD is neither a branch nor a commit id"))
    await rig.session.checkpoint_after_save(["a.html"])
    assert rig.of(ev.CheckpointRefused)[-1].text.startswith(
        "Saved, but no checkpoint was kept in History. History could not be read: .git/HEAD"
    )


async def test_chief_handing_to_ralph_brings_his_tab_forward(rig):
    await rig.open()
    rig.session._on_ui_event({"type": "handoff"})
    assert rig.of(ev.HandedToRalph)


async def test_what_the_chat_holds_back_can_be_written_at_once(rig):
    assert rig.session.save_now() is None
    await rig.open()
    save = rig.session.save_now()
    assert asyncio.iscoroutine(save)
    await save


async def test_binding_the_chat_tells_chiefs_listeners(rig):
    seen = []
    rig.chief.subscribe(lambda e: seen.append(type(e)))
    await rig.open()
    assert ChatBound in seen


async def _until(check, timeout: float = 5.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not check():
        if loop.time() > end:
            raise AssertionError("timed out")
        await asyncio.sleep(0.01)


async def test_the_projects_list_is_shown_with_the_open_one(rig):
    pid = await rig.open()
    await rig.session.refresh_projects()
    listed = rig.of(ev.ProjectsListed)[-1]
    assert [p["id"] for p in listed.projects] == [pid] and listed.current == pid


async def test_a_new_project_opens_and_is_listed(rig):
    await rig.open("One")
    await rig.session.create_project("Two")
    listed = rig.of(ev.ProjectsListed)[-1]
    assert [p["name"] for p in listed.projects] == ["One", "Two"]
    assert listed.current == rig.session.project_id == listed.projects[1]["id"]


async def test_renaming_the_open_project_in_a_paused_tab_keeps_its_name():
    rig = ProjectRig(owner=False)
    pid = await rig.open("Old")
    await rig.session.rename_project(pid, "New")
    assert (await rig.raw.list_projects())[0]["name"] == "Old"
    assert rig.of(ev.ActionRefused) and rig.of(ev.ProjectsListed)  # the old name shown again


async def test_another_project_can_be_renamed_from_a_paused_tab():
    rig = ProjectRig(owner=False)
    other = await rig.project("Other")
    await rig.open("Open")
    await rig.session.rename_project(other, "Renamed")
    names = {p["id"]: p["name"] for p in await rig.raw.list_projects()}
    assert names[other] == "Renamed" and not rig.of(ev.ActionRefused)


async def test_whether_another_tab_has_a_project_is_the_tab_locks_answer(rig):
    pid = await rig.open()
    assert not await rig.session.open_elsewhere(pid)
    rig.lock.elsewhere.add(pid)
    assert await rig.session.open_elsewhere(pid)
    assert rig.session.project_files() is rig.session.fs


# ------------------------------------------------------------------ Ralph's run and the project


SITE = "<!doctype html><html><head><title>x</title></head><body><p>hi</p></body></html>"


async def _run_ralph(rig, sim, *, stall: bool = False) -> None:
    from tests.sim import ToolCall

    write = ToolCall("write_file", {"path": "index.html", "content": SITE})
    if stall:
        sim.script([Turn("Writing.", write), Turn("More", chunks=3, fault=Stall(after=1))])
    else:
        done = Turn(json.dumps({"status": "complete", "summary": "Done."}))
        sim.script([Turn("Writing.", write), done, Turn("Chief reads the news.")])
    await rig.session.coordinator.send_to_ralph("Build a page.")
    if stall:  # the second request of his first iteration hangs mid-reply
        await sim.wait_for_requests_async(2)
        await _until(lambda: rig.session.coordinator.state.running)
    else:
        await rig.session.coordinator.wait()
        await rig.host.settle()


async def test_a_build_chief_was_not_told_of_is_noticed_when_the_project_opens(sim, transport):
    first = ProjectRig(sim_settings(sim), transport=transport)
    pid = await first.open()

    async def closed(coordinator):  # the tab closed as Ralph finished, before Chief was told
        return None

    first.session.ralph.after_build = closed
    await _run_ralph(first, sim)
    again = ProjectRig(sim_settings(sim), transport=transport, raw=first.raw)
    await again.session.open(pid)
    assert again.of(ev.NoticeShown)[0].text == "Ralph finished — ask me about the results"


async def test_a_run_cut_by_a_reload_reads_as_interrupted_where_the_tab_owns_it(sim, transport):
    first = ProjectRig(sim_settings(sim), transport=transport)
    pid = await first.open()
    await _run_ralph(first, sim, stall=True)
    owner = ProjectRig(sim_settings(sim), transport=transport, raw=first.raw)
    await owner.session.open(pid)
    state = owner.of(ev.RalphStateShown)[-1].state
    assert state.interrupted and not state.running
    await first.session.coordinator.stop_ralph()


async def test_a_run_going_in_the_owner_tab_reads_as_running_in_a_paused_one(sim, transport):
    first = ProjectRig(sim_settings(sim), transport=transport)
    pid = await first.open()
    await _run_ralph(first, sim, stall=True)
    paused = ProjectRig(sim_settings(sim), transport=transport, raw=first.raw, owner=False)
    await paused.session.open(pid)
    state = paused.of(ev.RalphStateShown)[-1].state
    assert state.running and not state.interrupted
    assert not paused.of(ev.NoticeShown)
    await first.session.coordinator.stop_ralph()


async def test_opening_another_project_stops_ralph_and_leaves_his_run_resumable(sim, transport):
    rig = ProjectRig(sim_settings(sim), transport=transport)
    await rig.open("One")
    await _run_ralph(rig, sim, stall=True)
    coordinator = rig.session.coordinator
    await rig.open("Two")
    assert not coordinator.state.running and rig.session.coordinator is not coordinator
    assert str(coordinator.state.status) == "cancelled"


async def test_when_another_tab_takes_over_ralph_stops_too(sim, transport):
    rig = ProjectRig(sim_settings(sim), transport=transport)
    pid = await rig.open()
    await _run_ralph(rig, sim, stall=True)
    rig.session.on_tab_lock(rig.lock.machine.lost(pid))
    await rig.session.coordinator.wait()
    await rig.host.settle()
    assert str(rig.session.coordinator.state.status) == "cancelled"
    assert "stop Ralph: project taken over" in rig.host.spawned()


async def test_following_the_files_shows_ralphs_state_as_the_owner_left_it(sim, transport):
    first = ProjectRig(sim_settings(sim), transport=transport)
    pid = await first.open()
    paused = ProjectRig(sim_settings(sim), transport=transport, raw=first.raw, owner=False)
    await paused.session.open(pid)
    await _run_ralph(first, sim)
    paused.session.changed_elsewhere(pid, "files")
    await paused.host.settle()
    assert str(paused.of(ev.RalphStateShown)[-1].state.status) == "complete"


async def _a_reply_streaming(sim, transport) -> ProjectRig:
    """A project open with Chief's reply hanging mid-stream."""
    rig = ProjectRig(sim_settings(sim), transport=transport)
    sim.script([Turn("a long reply", chunks=3, fault=Stall(after=1))])
    await rig.open()
    rig.chief.send("hi")
    await _until(lambda: rig.session.chat.busy)
    return rig


async def test_switching_conversation_stops_the_reply_of_the_one_left(sim, transport):
    rig = await _a_reply_streaming(sim, transport)
    left = rig.session.chat
    await rig.session.new_chat()
    await rig.host.settle()
    assert left.records[-1].status == "stopped" and rig.session.chat is not left


async def test_deleting_the_conversation_whose_reply_streams_stops_it_first(sim, transport):
    rig = await _a_reply_streaming(sim, transport)
    streaming = rig.session.chat
    await rig.session.delete_chat("main")
    await rig.host.settle()
    assert not streaming.busy and streaming.records[-1].status == "stopped"


async def test_the_design_notes_load_once_per_page(rig, monkeypatch):
    from wiggum.skills import SkillLibrary

    loads = []
    real = SkillLibrary.load
    monkeypatch.setattr(SkillLibrary, "load", classmethod(lambda cls: loads.append(1) or real()))
    await rig.open("One")
    await rig.open("Two")
    assert loads == [1]


# ------------------------------------------------------------------ a new version waits


async def test_busy_says_what_a_reload_would_cut_short(sim, transport):
    from wiggum.ui.update import Busy

    rig = ProjectRig(sim_settings(sim), transport=transport)
    await rig.open()
    assert rig.session.busy == Busy()
    await _run_ralph(rig, sim, stall=True)
    assert rig.session.busy == Busy(ralph_running=True)
    await rig.session.coordinator.stop_ralph()
    await rig.host.settle()
    assert rig.session.busy == Busy()
    sim.script([Turn("a long reply", chunks=3, fault=Stall(after=1))])
    rig.chief.send("hi")
    await _until(lambda: rig.session.chat.busy)
    assert rig.session.busy == Busy(chief_busy=True)
    rig.chief.stop()
    await rig.host.settle()
