"""A checkpoint costs what changed: only files whose size or time moved are read and
hashed (git's index), only new objects are written (one pack), and the packs of
many checkpoints are merged now and then."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.fs.conformance import FakeClock
from wiggum.fs.memory import MemoryFileStore
from wiggum.project.gitstore import MAX_SMALL_PACKS, PACKS
from wiggum.project.history import History

PAGES = {f"pages/p{i:03}.html": f"<p>{i}</p>\n" * 20 for i in range(100)}


class Counting(MemoryFileStore):
    """A memory store that remembers which working files were read (its
    ``read_many`` reads each through ``read_bytes``)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.read: list[str] = []

    async def read_bytes(self, path):
        if not path.startswith(".git/"):
            self.read.append(path)
        return await super().read_bytes(path)


async def test_only_the_changed_file_is_read_even_after_a_reload():
    clock = FakeClock()
    store = Counting(PAGES, clock=clock)
    clock.advance()
    first = await History(store, clock=clock).commit("Ralph iteration 1", "100 pages")
    assert len(first.files) == 100 and len(store.read) == 100
    clock.advance()
    await store.write_text("pages/p050.html", "<p>changed</p>\n")
    clock.advance()
    store.read.clear()
    # A new History over the same store: as after a reload, nothing cached.
    cp = await History(store, clock=clock).commit("you", "one page")
    assert store.read == ["pages/p050.html"]
    assert [f.path for f in cp.files] == ["pages/p050.html"]
    # One pack per checkpoint, holding only what is new: the blob, 2 trees, the commit.
    packs = [p for p in await store.list(PACKS) if p.endswith(".idx")]
    assert len(packs) == 2


async def test_a_change_within_the_same_tick_is_not_missed():
    clock = FakeClock()  # never moves: every file is as new as the index
    store = Counting({"a.txt": "one\n"}, clock=clock)
    h = History(store, clock=clock)
    await h.commit("you", "one")
    await store.write_text("a.txt", "two\n")  # same size, same time
    cp = await h.commit("you", "two")
    assert cp is not None and [f.path for f in cp.files] == ["a.txt"]


async def test_touched_but_unchanged_files_make_no_checkpoint_and_are_read_once():
    clock = FakeClock()
    store = Counting({"a.txt": "same\n"}, clock=clock)
    clock.advance()
    h = History(store, clock=clock)
    await h.commit("you", "one")
    clock.advance()
    await store.write_text("a.txt", "same\n")
    clock.advance()
    store.read.clear()
    assert await h.commit("you", "again") is None
    assert await h.commit("you", "and again") is None
    assert store.read == ["a.txt"]  # the index now has its new time


@pytest.mark.skipif(subprocess.run(["which", "git"]).returncode, reason="git not installed")
async def test_many_checkpoints_packs_are_merged_and_git_reads_them(tmp_path: Path):
    clock = FakeClock()
    store = MemoryFileStore({"index.html": "0\n"}, clock=clock)
    h = History(store, clock=clock)
    ids = []
    for i in range(MAX_SMALL_PACKS + 4):
        clock.advance()
        await store.write_text("index.html", f"{i}\n")
        ids.append((await h.commit("you", f"edit {i}")).id)
    packs = [p for p in await store.list(PACKS) if p.endswith(".pack")]
    assert len(packs) < MAX_SMALL_PACKS
    assert [cp.id for cp in await History(store).list()] == ids[::-1]
    for path in await store.list(".git"):
        target = tmp_path / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(await store.read_bytes(path))
    git = ["git", "--git-dir", str(tmp_path / ".git")]
    fsck = subprocess.run([*git, "fsck", "--full", "--strict"], capture_output=True, text=True)
    assert fsck.returncode == 0, fsck.stderr
    log = subprocess.run([*git, "log", "--format=%H"], capture_output=True, text=True).stdout
    assert log.split() == ids[::-1]


async def test_an_older_history_of_loose_objects_is_packed_on_its_next_checkpoint():
    from dulwich.objects import Blob, Commit, Tree

    store = MemoryFileStore({".git/HEAD": "ref: refs/heads/main\n"})
    tree = Tree()
    for i in range(70):  # loose objects, as Wiggum wrote its history before packs
        blob = Blob.from_string(f"{i}\n".encode())
        await store.write_bytes(
            f".git/objects/{blob.id[:2].decode()}/{blob.id[2:].decode()}", blob.as_legacy_object()
        )
        tree.add(f"f{i}.txt".encode(), 0o100644, blob.id)
        await store.write_bytes(f"f{i}.txt", f"{i}\n".encode())
    commit = Commit()
    commit.tree, commit.parents = tree.id, []
    commit.author = commit.committer = b"you <you@wiggum.local>"
    commit.author_time = commit.commit_time = 1_700_000_000
    commit.author_timezone = commit.commit_timezone = 0
    commit.message = b"Old\n"
    for obj in (tree, commit):
        await store.write_bytes(
            f".git/objects/{obj.id[:2].decode()}/{obj.id[2:].decode()}", obj.as_legacy_object()
        )
    await store.write_bytes(".git/refs/heads/main", commit.id + b"\n")
    await store.write_text("f0.txt", "changed\n")
    h = History(store)
    cp = await h.commit("you", "new")
    assert cp.parent == commit.id.decode()
    loose = [p for p in await store.list(".git/objects") if not p.startswith(PACKS)]
    assert loose == []
    assert (await History(store).files_at(commit.id.decode()))["f1.txt"] == b"1\n"
