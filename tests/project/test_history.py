"""The history module against the memory FileStore, and against real git."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from wiggum.fs.memory import MemoryFileStore
from wiggum.project.history import History, NothingToRevert


class Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        self.now += 1
        return self.now


def make(files=None):
    store = MemoryFileStore(files or {})
    return store, History(store, clock=Clock())


async def test_commit_lists_checkpoints_and_what_changed():
    store, h = make({"index.html": "<h1>Hi</h1>\n", "style.css": "a{}\n"})
    first = await h.commit("Ralph iteration 1", "Build the page")
    assert first is not None and first.parent is None
    assert {(f.path, f.kind) for f in first.files} == {
        ("index.html", "added"),
        ("style.css", "added"),
    }
    await store.write_text("index.html", "<h1>Hello</h1>\n<p>x</p>\n")
    second = await h.commit("you", "Edit index.html")
    assert second.parent == first.id
    # Line counts are not made on the save path: the diff is, when it is opened.
    assert [(f.path, f.kind, f.added, f.removed) for f in second.files] == [
        ("index.html", "modified", None, None)
    ]
    listed = await h.list()
    assert [c.id for c in listed] == [second.id, first.id]
    assert [c.author for c in listed] == ["you", "Ralph iteration 1"]
    assert listed[0].message == "Edit index.html" and listed[0].time > listed[1].time


async def test_nothing_changed_makes_no_checkpoint_and_git_dir_is_not_tracked():
    store, h = make({"a.txt": "a"})
    cp = await h.commit("you", "one")
    assert await h.commit("you", "again") is None
    assert await store.exists(".git/HEAD")
    assert all(not p.startswith(".git") for p in await h.files_at(cp.id))


async def test_diff_between_checkpoint_and_parent():
    store, h = make({"index.html": "one\ntwo\n"})
    await h.commit("Ralph iteration 1", "first")
    await store.write_text("index.html", "one\nTWO\n")
    cp = await h.commit("you", "second")
    diff = await h.diff(cp.id, "index.html")
    assert "-two\n" in diff and "+TWO\n" in diff and "--- a/index.html" in diff
    await store.remove("index.html")
    gone = await h.commit("you", "delete")
    assert gone.files[0].kind == "deleted"
    assert "+++ /dev/null" in await h.diff(gone.id, "index.html")


async def test_restore_one_file():
    store, h = make({"index.html": "old\n", "about.html": "about\n"})
    first = await h.commit("Ralph iteration 1", "first")
    await store.write_text("index.html", "new\n")
    await store.write_text("about.html", "about 2\n")
    await h.commit("Ralph iteration 2", "second")
    cp = await h.restore_file(first.id, "index.html")
    assert await store.read_text("index.html") == "old\n"
    assert await store.read_text("about.html") == "about 2\n"
    assert cp.author == "you" and [f.path for f in cp.files] == ["index.html"]


async def test_revert_is_a_new_checkpoint_and_nothing_is_lost():
    store, h = make({"index.html": "v1\n", "keep.css": "k\n"})
    first = await h.commit("Ralph iteration 1", "v1")
    await store.write_text("index.html", "v2\n")
    await store.write_text("extra.js", "x\n")
    second = await h.commit("Ralph iteration 2", "v2")
    await store.write_text("index.html", "unsaved-in-history\n")
    rev = await h.revert(first.id)
    assert await store.read_text("index.html") == "v1\n"
    assert not await store.exists("extra.js")
    assert await store.read_text("keep.css") == "k\n"
    listed = await h.list()
    assert listed[0].id == rev.id and "Revert to" in rev.message
    # The person's change was checkpointed before the revert, and v2 is still there.
    before = listed[1]
    assert before.message == "Before revert"
    assert (await h.files_at(before.id))["index.html"] == b"unsaved-in-history\n"
    assert (await h.files_at(second.id))["extra.js"] == b"x\n"
    with pytest.raises(NothingToRevert):
        await h.revert(first.id)


async def test_empty_and_binary_files():
    png = b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe" * 10
    store, h = make({"empty.txt": "", "logo.png": png, "dir/inner/empty": ""})
    cp = await h.commit("you", "add")
    files = await h.files_at(cp.id)
    assert files == {"empty.txt": b"", "logo.png": png, "dir/inner/empty": b""}
    assert {f.path for f in cp.files} == {"empty.txt", "logo.png", "dir/inner/empty"}
    await store.write_bytes("logo.png", png + b"\x00")
    cp2 = await h.commit("you", "change")
    assert "Binary" in await h.diff(cp2.id, "logo.png")
    await h.restore_file(cp.id, "logo.png")
    assert await store.read_bytes("logo.png") == png


async def test_hundred_files_and_reload_from_store():
    files = {f"pages/p{i:03}.html": f"<p>{i}</p>\n" for i in range(100)}
    store, h = make(files)
    cp = await h.commit("Ralph iteration 1", "100 files")
    assert len(cp.files) == 100
    await store.write_text("pages/p050.html", "<p>changed</p>\n")
    cp2 = await h.commit("you", "one")
    assert [f.path for f in cp2.files] == ["pages/p050.html"]
    # A fresh History over the same store (a reload) reads everything back.
    again = History(store)
    assert [c.id for c in await again.list()] == [cp2.id, cp.id]
    assert (await again.files_at(cp.id))["pages/p050.html"] == b"<p>50</p>\n"


@pytest.mark.skipif(shutil.which("git") is None, reason="git not installed")
async def test_git_reads_the_repository(tmp_path):
    store, h = make({"index.html": "hi\n", "css/a.css": "a\n", "empty": ""})
    await h.commit("Ralph iteration 1", "first")
    await store.write_text("index.html", "hello\n")
    await h.commit("you", "second")
    for path in await store.list(".git"):
        target = tmp_path / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(await store.read_bytes(path))
    for path in await store.list("", dirs=True):
        if path.startswith(".git/") and await store.is_dir(path):
            (tmp_path / path).mkdir(parents=True, exist_ok=True)
    git = ["git", "-C", str(tmp_path / ".git"), "--git-dir", str(tmp_path / ".git")]
    log = subprocess.run([*git, "log", "--format=%an|%s"], capture_output=True, text=True)
    assert log.stdout.splitlines() == ["you|second", "Ralph iteration 1|first"], log.stderr
    fsck = subprocess.run([*git, "fsck", "--strict"], capture_output=True, text=True)
    assert fsck.returncode == 0, fsck.stderr + fsck.stdout
    show = subprocess.run([*git, "show", "HEAD~1:index.html"], capture_output=True, text=True)
    assert show.stdout == "hi\n"


async def test_service_checkpoints_saves_and_iterations_and_notifies():
    from wiggum.project.service import HistoryService

    store = MemoryFileStore({"index.html": "a\n"})
    loads = []

    async def load():
        loads.append(1)

    service = HistoryService(store, load=load)
    seen = []
    service.subscribe(seen.append)
    first = await service.ralph_iteration(1)
    assert first.author == "Ralph iteration 1" and first.message == "Ralph iteration 1"
    assert await service.ralph_iteration(2) is None  # nothing changed
    await store.write_text("index.html", "b\n")
    mine = await service.saved(["index.html"])
    assert mine.author == "you" and mine.message == "Edit index.html"
    await service.revert(first.id)
    assert await store.read_text("index.html") == "a\n"
    assert [c.author for c in seen] == ["Ralph iteration 1", "you", "you"]
    assert loads == [1] and service.load_seconds is not None


async def test_leave_out_keeps_the_previous_version_of_those_folders():
    store = MemoryFileStore({"index.html": "a\n", ".ralph/last_result.json": "{}\n"})
    h = History(store)
    await h.commit("Ralph iteration 1", "one")
    await store.write_text(".chief/status.txt", "planning\n")
    await store.write_text(".ralph/last_result.json", '{"ok": true}\n')
    await store.write_text("index.html", "b\n")
    memory = (".chief", ".ralph")
    mine = await h.commit("you", "Edit index.html", leave_out=memory)
    assert [(f.path, f.kind) for f in mine.files] == [("index.html", "modified")]
    assert ".chief/status.txt" not in await h.files_at(mine.id)
    assert (await h.files_at(mine.id))[".ralph/last_result.json"] == b"{}\n"
    # Only left-out folders changed: no checkpoint.
    await store.write_text(".chief/status.txt", "building\n")
    assert await h.commit("you", "Edit", leave_out=memory) is None
    ralphs = await h.commit("Ralph iteration 2", "two")
    assert sorted(f.path for f in ralphs.files) == [".chief/status.txt", ".ralph/last_result.json"]


async def test_the_persons_checkpoints_never_carry_the_agents_memory():
    from wiggum.project.service import HistoryService

    store = MemoryFileStore({"index.html": "a\n", ".ralph/progress.md": "one\n"})
    service = HistoryService(store)
    ralph1 = await service.ralph_iteration(1)
    await store.write_text("index.html", "b\n")
    await store.write_text(".ralph/progress.md", "two\n")
    ralph2 = await service.ralph_iteration(2)
    # Chief writes between runs (the post-build notice taken, a plan saved) ...
    await store.write_text(".chief/plan.md", "plan\n")
    await store.remove(".ralph/progress.md")
    # ... and the person saves: only their file is theirs.
    await store.write_text("index.html", "c\n")
    mine = await service.saved(["index.html"])
    assert [(f.path, f.kind) for f in mine.files] == [("index.html", "modified")]
    assert await service.saved(["index.html"]) is None  # only memory changed since
    # A revert: no "Before revert" for the memory, the files go back, the
    # memory stays as the agents left it and is not in the person's checkpoint.
    h = await service.history()
    back = await service.revert(ralph1.id)
    assert [c.message for c in await h.list()][:2] == [back.message, "Edit index.html"]
    assert [(f.path, f.kind) for f in back.files] == [("index.html", "modified")]
    assert await store.read_text("index.html") == "a\n"
    assert await store.read_text(".chief/plan.md") == "plan\n"
    assert not await store.exists(".ralph/progress.md")
    assert (await h.files_at(back.id))[".ralph/progress.md"] == b"two\n"
    # A restore of a page leaves the memory out too ...
    restored = await service.restore_file(ralph2.id, "index.html")
    assert [f.path for f in restored.files] == ["index.html"]
    # ... but a memory file the person restores is theirs to record.
    restored = await service.restore_file(ralph1.id, ".ralph/progress.md")
    assert [f.path for f in restored.files] == [".ralph/progress.md"]
    assert await store.read_text(".ralph/progress.md") == "one\n"
    # Ralph's next checkpoint takes what Chief wrote meanwhile.
    ralph3 = await service.ralph_iteration(3)
    assert [f.path for f in ralph3.files] == [".chief/plan.md"]


async def test_revert_leaving_out_folders_when_only_they_differ():
    store = MemoryFileStore({"index.html": "a\n", ".ralph/s.txt": "1\n"})
    h = History(store)
    first = await h.commit("Ralph iteration 1", "one")
    await store.write_text(".ralph/s.txt", "2\n")
    await h.commit("Ralph iteration 2", "two")
    with pytest.raises(NothingToRevert):
        await h.revert(first.id, leave_out=(".ralph",))
    assert await store.read_text(".ralph/s.txt") == "2\n"


async def test_ralphs_checkpoint_says_what_he_set_out_to_do():
    from wiggum.project.service import HistoryService

    store = MemoryFileStore({"index.html": "a\n"})
    service = HistoryService(store)
    cp = await service.ralph_iteration(1, "\n  Writing the whole site.  \nThen checking it.")
    assert cp.author == "Ralph iteration 1" and cp.message == "Writing the whole site."
    await store.write_text("index.html", "b\n")
    long = await service.ralph_iteration(2, "x" * 300)
    assert len(long.message) == 100 and long.message.endswith("…")
