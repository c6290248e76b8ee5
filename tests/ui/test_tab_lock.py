"""Two tabs on one project: the owner / paused / taking-over decisions and the
storage guard under every write path (issue 17 item 3)."""

from __future__ import annotations

import asyncio

import pytest

from wiggum.fs.errors import FileStoreError
from wiggum.persist import MemoryAppStorage
from wiggum.ui.conversations import meta_key
from wiggum.ui.tab_lock import (
    APP_EFFECTS,
    BUTTON_TEXT,
    HANDING_OVER_TEXT,
    PAUSED_TEXT,
    RELOADING_TEXT,
    TAKING_OVER_TEXT,
    Effect,
    GuardedAppStorage,
    LockState,
    ProjectPaused,
    TabLock,
    TabMessage,
    lock_name,
    open_elsewhere,
    read_message,
    request_options,
)

E = Effect


def test_lock_name_is_per_project():
    assert lock_name("a1b2c3") == "wiggum:project:a1b2c3"
    assert lock_name("a") != lock_name("b")


def test_first_tab_asks_then_owns_without_reloading():
    lock = TabLock()
    assert lock.open("p1") == [E.REQUEST, E.SHOW]
    assert lock.state == LockState.ACQUIRING
    assert not lock.may_write("p1") and lock.refusal() == PAUSED_TEXT
    assert lock.granted("p1") == [E.SHOW]  # nothing read yet: nothing to re-read
    assert lock.state == LockState.OWNER
    assert lock.may_write("p1") and lock.refusal() is None
    assert lock.banner() is None


def test_second_tab_is_paused_and_queues():
    lock = TabLock()
    lock.open("p1")
    assert lock.unavailable("p1") == [E.WAIT, E.SHOW]
    assert lock.state == LockState.PAUSED and lock.paused
    assert not lock.may_write("p1")
    assert lock.may_write("other")  # only the open project is guarded
    assert lock.banner() == (PAUSED_TEXT, BUTTON_TEXT)
    assert lock.refusal() == PAUSED_TEXT


def test_use_here_without_a_channel_steals_and_rereads():
    lock = TabLock(channel=False)
    lock.open("p1")
    lock.unavailable("p1")
    assert lock.take_over() == [E.CANCEL_WAIT, E.STEAL, E.SHOW]
    assert lock.state == LockState.TAKING_OVER
    assert lock.banner() == (TAKING_OVER_TEXT, BUTTON_TEXT)
    assert not lock.may_write("p1")
    assert lock.take_over() == []  # pressed twice: one steal
    # What this tab showed was read while the other tab owned the project.
    assert lock.granted("p1") == [E.CANCEL_WAIT, E.RELOAD, E.SHOW]
    assert lock.state == LockState.OWNER and lock.may_write("p1")
    # Re-reading: its own writes go, the person's actions wait for it.
    assert lock.reloading and lock.refusal() == RELOADING_TEXT
    assert lock.banner() == (RELOADING_TEXT, BUTTON_TEXT)
    assert lock.reloaded("p2") == []
    assert lock.reloaded("p1") == [E.SHOW]
    assert lock.refusal() is None and lock.banner() is None
    assert lock.reloaded("p1") == []


def test_use_here_asks_the_owner_first_then_steals_if_it_does_not_answer():
    lock = TabLock()
    lock.open("p1")
    lock.unavailable("p1")
    # The queued request stays: it gets the lock when the owner lets it go.
    assert lock.take_over() == [E.ASK_RELEASE, E.SHOW]
    assert lock.state == LockState.TAKING_OVER and not lock.may_write("p1")
    assert lock.steal_now() == [E.CANCEL_WAIT, E.STEAL]
    assert lock.granted("p1") == [E.CANCEL_WAIT, E.RELOAD, E.SHOW]
    assert lock.steal_now() == []  # a late timer after the lock came: nothing


def test_the_owner_asked_to_let_go_finishes_its_writes_then_releases():
    owner = TabLock()
    owner.open("p1")
    owner.granted("p1")
    assert owner.release_asked("p2") == []
    assert owner.release_asked("p1") == [E.HAND_OVER, E.SHOW]
    assert owner.state == LockState.HANDING_OVER
    assert owner.may_write("p1")  # the stopped reply's last write still lands
    assert owner.refusal() == PAUSED_TEXT  # but the person starts nothing new
    assert owner.banner() == (HANDING_OVER_TEXT, BUTTON_TEXT)
    assert owner.release_asked("p1") == []  # asked twice: one hand-over
    assert owner.handed_over("p1") == [E.RELEASE, E.WAIT, E.SHOW]
    assert owner.state == LockState.PAUSED and not owner.may_write("p1")
    assert owner.handed_over("p1") == []
    # Taken while still handing over (too slow): paused all the same.
    slow = TabLock()
    slow.open("p1")
    slow.granted("p1")
    slow.release_asked("p1")
    assert slow.lost("p1") == [E.STOP_WORK, E.WAIT, E.SHOW]
    assert slow.handed_over("p1") == []  # the lock is gone already: nothing to release
    # A paused tab is not asked to let go of what it does not hold.
    assert slow.release_asked("p1") == []


def test_queued_request_granted_when_the_other_tab_lets_go_rereads():
    lock = TabLock()
    lock.open("p1")
    lock.unavailable("p1")
    assert lock.granted("p1") == [E.RELOAD, E.SHOW]
    assert lock.state == LockState.OWNER


def test_losing_the_lock_stops_work_and_pauses():
    lock = TabLock()
    lock.open("p1")
    lock.granted("p1")
    assert lock.lost("p1") == [E.STOP_WORK, E.WAIT, E.SHOW]
    assert lock.state == LockState.PAUSED and not lock.may_write("p1")
    assert lock.lost("p1") == []  # already paused
    # Getting it back re-reads: the other tab wrote meanwhile.
    assert E.RELOAD in lock.granted("p1")
    # Lost again while re-reading: paused, and no longer re-reading.
    assert lock.lost("p1") == [E.STOP_WORK, E.WAIT, E.SHOW]
    assert not lock.reloading and lock.refusal() == PAUSED_TEXT


def test_switching_project_releases_the_old_and_asks_for_the_new():
    lock = TabLock(channel=False)
    lock.open("p1")
    lock.granted("p1")
    assert lock.open("p2") == [E.RELEASE, E.REQUEST, E.SHOW]
    assert lock.project_id == "p2" and lock.state == LockState.ACQUIRING
    assert lock.may_write("p1")  # not this tab's to guard any more
    # A paused tab that switches stops queueing for the old project.
    lock.unavailable("p2")
    assert lock.open("p3") == [E.CANCEL_WAIT, E.REQUEST, E.SHOW]
    # Taking over, then switching: the stolen lock (if it comes) is let go too.
    lock.unavailable("p3")
    lock.take_over()
    assert lock.open("p4") == [E.RELEASE, E.CANCEL_WAIT, E.REQUEST, E.SHOW]


def test_late_answers_about_another_project_change_nothing():
    lock = TabLock()
    lock.open("p1")
    lock.open("p2")
    assert lock.granted("p1") == []
    assert lock.unavailable("p1") == []
    assert lock.lost("p1") == []
    assert lock.state == LockState.ACQUIRING and lock.project_id == "p2"
    lock.granted("p2")
    assert lock.unavailable("p2") == []  # an owner is not paused by a stale answer


def test_without_web_locks_everything_writes_as_before():
    lock = TabLock(supported=False)
    assert lock.state == LockState.UNSUPPORTED
    assert lock.open("p1") == []
    assert lock.may_write("p1") and lock.banner() is None
    assert lock.take_over() == [] and lock.granted("p1") == [] and lock.lost("p1") == []
    assert lock.release_asked("p1") == [] and lock.steal_now() == []
    assert lock.close() == []


def test_a_failed_request_does_not_pause_for_ever():
    lock = TabLock()
    lock.open("p1")
    assert lock.failed("p1", "SecurityError") == [E.SHOW]
    assert lock.may_write("p1")
    # A failed steal does not make a second writer: still paused, queued again.
    lock2 = TabLock(channel=False)
    lock2.open("p1")
    lock2.unavailable("p1")
    lock2.take_over()
    assert lock2.failed("p1", "boom") == [E.WAIT, E.SHOW]
    assert lock2.state == LockState.PAUSED and not lock2.may_write("p1")
    assert lock2.failed("p1", "boom") == []  # a paused tab's failed wait changes nothing


def test_close_lets_go():
    lock = TabLock()
    lock.open("p1")
    lock.granted("p1")
    assert lock.close() == [E.RELEASE]
    lock.open("p1")
    lock.unavailable("p1")
    assert lock.close() == [E.CANCEL_WAIT]


def test_project_paused_reads_as_the_explanation_and_is_a_store_error():
    err = ProjectPaused("p1")
    assert str(err) == PAUSED_TEXT
    assert isinstance(err, FileStoreError)
    assert "another tab" in PAUSED_TEXT and "paused" in PAUSED_TEXT


# ---------------------------------------------------------------- the guard


def _run(coro):
    return asyncio.run(coro)


def _paused_storage() -> tuple[MemoryAppStorage, GuardedAppStorage, TabLock]:
    inner = MemoryAppStorage()
    lock = TabLock()
    lock.open("p1")
    lock.unavailable("p1")
    return inner, GuardedAppStorage(inner, lock), lock


def test_guard_refuses_every_write_to_the_paused_project():
    inner, store, _lock = _paused_storage()

    async def go():
        fs = store.files("p1")
        writes = [
            store.put_message("p1", "chief", 0, {"x": 1}),
            store.delete_messages("p1", "chief"),
            store.put_meta(meta_key("p1"), {"current": "main"}),
            store.rename_project("p1", "new"),
            store.delete_project("p1"),
            fs.write_text("a.txt", "a"),
            fs.write_bytes("a.bin", b"a"),
            fs.write_many({"b.txt": b"b"}),
            fs.mkdir("d"),
            fs.remove("a.txt"),
            fs.rename("a.txt", "c.txt"),
        ]
        for write in writes:
            with pytest.raises(ProjectPaused):
                await write
        # Nothing reached the store underneath.
        assert await inner.load_messages("p1", "chief") == []
        assert await inner.get_meta(meta_key("p1")) is None
        assert await inner.files("p1").list("") == []

    _run(go())


def test_guard_lets_reads_other_projects_and_settings_through():
    inner, store, _lock = _paused_storage()

    async def go():
        await inner.put_message("p1", "chief", 0, {"role": "user"})
        await inner.files("p1").write_text("index.html", "<p>hi")
        assert await store.load_messages("p1", "chief") == [{"role": "user"}]
        assert await store.files("p1").read_text("index.html") == "<p>hi"
        assert await store.files("p1").list("") == ["index.html"]
        await store.put_message("p2", "chief", 0, {"role": "user"})
        await store.files("p2").write_text("x", "y")
        await store.put_meta(meta_key("p2"), {"current": "main"})
        await store.put_meta("active_project", "p1")
        await store.put_settings({"providers": []})
        created = await store.create_project("New")
        await store.files(created["id"]).write_text("a", "b")
        assert await inner.files(created["id"]).read_text("a") == "b"

    _run(go())


def test_guard_follows_the_lock_as_it_changes():
    inner, store, lock = _paused_storage()

    async def go():
        fs = store.files("p1")
        with pytest.raises(ProjectPaused):
            await fs.write_text("a", "1")
        lock.take_over()
        with pytest.raises(ProjectPaused):  # not yet: the steal has not been granted
            await fs.write_text("a", "1")
        lock.granted("p1")
        await fs.write_text("a", "2")
        await store.put_message("p1", "chief", 0, {"n": 1})
        lock.lost("p1")
        with pytest.raises(ProjectPaused):
            await fs.write_text("a", "3")
        assert await inner.files("p1").read_text("a") == "2"

    _run(go())


def test_the_owner_s_writes_are_told_and_refused_ones_are_not():
    _inner, store, lock = _paused_storage()
    told: list[tuple[str, str]] = []
    store.on_write = lambda project_id, what: told.append((project_id, what))

    async def go():
        fs = store.files("p1")
        with pytest.raises(ProjectPaused):
            await fs.write_text("a", "1")
        lock.take_over()
        lock.granted("p1")
        await store.put_message("p1", "chief", 0, {"n": 1})
        await store.delete_messages("p1", "chief")
        await store.put_meta(meta_key("p1"), {"current": "main"})
        await store.put_meta("active_project", "p1")  # not the project's own record
        await fs.write_text("a", "2")
        await fs.write_bytes("b", b"2")
        await fs.write_many({"c": b"3"})
        await fs.mkdir("d")
        await fs.rename("c", "e")
        await fs.remove("e")
        await store.put_settings({"providers": []})

    _run(go())
    assert told == [("p1", "messages:chief")] * 2 + [("p1", "meta")] + [("p1", "files")] * 6


def test_guard_passes_other_attributes_through():
    inner = MemoryAppStorage()
    inner.durable = True  # type: ignore[attr-defined]
    store = GuardedAppStorage(inner, TabLock())
    assert store.durable is True
    assert store.files("p") is store.files("p")


def test_open_elsewhere_counts_other_tabs_requests():
    def names(project_id: str, n: int) -> list[str]:
        return [lock_name(project_id)] * n + [lock_name("other"), "wiggum:first-project"]

    lock = TabLock()
    assert not open_elsewhere(lock, "p1", names("p1", 0))
    assert open_elsewhere(lock, "p1", names("p1", 1))  # not open here: any is another tab's
    lock.open("p1")
    lock.granted("p1")
    assert not open_elsewhere(lock, "p1", names("p1", 1))  # our own lock
    assert open_elsewhere(lock, "p1", names("p1", 2))  # another tab waits for it
    assert open_elsewhere(lock, "p2", names("p2", 1))
    lock.open("p2")
    lock.unavailable("p2")
    assert open_elsewhere(lock, "p2", names("p2", 2))  # held there, our wait here
    assert not open_elsewhere(lock, "p1", names("p1", 0))
    assert not open_elsewhere(TabLock(supported=False), "p1", names("p1", 3))


def test_a_request_asks_takes_or_waits_for_the_lock_and_never_shares_it():
    assert request_options("ask") == {"mode": "exclusive", "ifAvailable": True}
    assert request_options("steal") == {"mode": "exclusive", "steal": True}
    assert request_options("wait") == {"mode": "exclusive"}


def test_the_tabs_messages_read_back_and_nothing_else_is_taken_for_one():
    release, changed = TabMessage("release", "p1"), TabMessage("changed", "p1", "files")
    assert release.as_dict() == {"type": "release", "project": "p1"}
    assert changed.as_dict() == {"type": "changed", "project": "p1", "what": "files"}
    assert [read_message(m.as_dict()) for m in (release, changed)] == [release, changed]
    assert read_message({"type": "hello", "project": "p1"}) is None
    assert read_message("saved") is None and read_message(None) is None


def test_only_what_the_app_must_do_goes_to_the_app():
    assert Effect.STOP_WORK in APP_EFFECTS and Effect.SHOW in APP_EFFECTS
    assert Effect.REQUEST not in APP_EFFECTS and Effect.ASK_RELEASE not in APP_EFFECTS


def _conformance():
    import importlib.util
    import sys
    from pathlib import Path

    name = "wiggum_tests_fs_conformance"  # the name tests/fs loads it under
    if name not in sys.modules:
        path = Path(__file__).parents[1] / "fs" / "conformance.py"
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def test_an_owner_s_guarded_store_behaves_exactly_like_the_store_under_it():
    from wiggum.fs import MemoryFileStore
    from wiggum.ui.tab_lock import GuardedFileStore

    lock = TabLock()
    lock.open("p1")
    lock.granted("p1")

    def factory(clock):
        return GuardedFileStore(MemoryFileStore(clock=clock), "p1", lock.may_write)

    assert _run(_conformance().run_conformance(factory)) == []
