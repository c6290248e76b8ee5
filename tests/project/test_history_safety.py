"""Revert and restore are all-or-nothing and never write git's own folder.

A checkpoint made elsewhere can hold anything a tree can: names that climb
out of the project, absolute ones, Windows paths, ``.git/config`` (whose
``fsmonitor`` line git would run after download), symbolic links.  Every file
of the target is checked before anything is written; a refusal changes
nothing and says why in the person's words.
"""

from __future__ import annotations

import pytest
from dulwich.objects import Blob, Commit, Tree

from wiggum.fs.errors import StorageFull
from wiggum.fs.memory import MemoryFileStore
from wiggum.project.gitrefs import read_head
from wiggum.project.history import History
from wiggum.project.history_errors import CannotRestore
from wiggum.project.service import HistoryService
from wiggum.session.history import restore, revert

TEN = {f"page{i}.html": f"<p>{i}</p>\n" for i in range(10)}


async def foreign_commit(h: History, store, entries: dict[bytes, tuple[int, bytes]]) -> str:
    """A commit on the branch whose tree holds ``entries`` (raw path -> (mode, data)),
    names taken as they are, as a repository made elsewhere may hold them."""

    def tree_of(items: dict[bytes, tuple[int, bytes]]) -> bytes:
        tree, below = Tree(), {}
        for path, (mode, data) in items.items():
            head, sep, rest = path.partition(b"/")
            if sep:
                below.setdefault(head, {})[rest] = (mode, data)
            else:
                blob = Blob.from_string(data)
                h.objects.add(blob)
                tree.add(head, mode, blob.id)
        for name, sub in below.items():
            tree.add(name, 0o040000, tree_of(sub))
        h.objects.add(tree)
        return tree.id

    head = await read_head(store)
    commit = Commit()
    commit.tree = tree_of(entries)
    commit.parents = [head.sha]
    commit.author = commit.committer = b"Mallory <m@example.org>"
    commit.author_time = commit.commit_time = 1_700_000_000
    commit.author_timezone = commit.commit_timezone = 0
    commit.message = b"Made elsewhere\n"
    h.objects.add(commit)
    items = {**h.objects.pack_new(), **head.moved(commit.id)}
    await store.write_many(items)
    h.objects.written(items)
    return commit.id.decode()


async def project_with(entries: dict[bytes, tuple[int, bytes]]):
    store = MemoryFileStore(TEN)
    service = HistoryService(store)
    h = await service.history()
    await h.commit("you", "Ten pages")
    bad = await foreign_commit(h, store, entries)
    # The person's own files come back on top of it, so "bad" is an older checkpoint.
    await service.checkpoint("you", "My pages again")
    return store, service, bad


def page(data: bytes = b"x") -> tuple[int, bytes]:
    return (0o100644, data)


BAD_TREES = {
    "climbs out": ({b"../x": page()}, "“../x”: climbs out of the project (..)"),
    "absolute": ({b"/x": page()}, "“/x”: absolute path"),
    "windows path": ({b"a\\b": page()}, "“a\\b”: contains a backslash"),
    "git's folder": ({b".git/config": page(b"[core]\n\tfsmonitor = evil\n")}, "git's own folder"),
    "GIT spelled": ({b".GIT/hooks/x": page()}, "git's own folder"),
    "link in git's folder": ({b".git/hooks/pre-commit": (0o120000, b"/bin/sh")}, "symbolic link"),
}


async def test_a_symbolic_link_in_a_checkpoint_is_kept_unwritten_and_does_not_block_a_revert():
    """A project here holds files only: a link from a history made elsewhere stays in
    the tree (as a submodule does), is never written as a file, and reverting to the
    checkpoint that brought it puts the person's files back."""
    link = {b"link": (0o120000, b"/etc/passwd")}
    entries = {p.encode(): page(d.encode()) for p, d in TEN.items()} | link
    entries[b"index.html"] = page(b"<h1>Made elsewhere</h1>")
    store, service, bad = await project_with(entries)
    acted = await revert(service, bad)
    assert acted.done, acted.status
    assert await store.read_bytes("index.html") == b"<h1>Made elsewhere</h1>"
    assert not await store.exists("link")
    h = await service.history()
    (last,) = await h.list(1)
    assert "link" not in {f.path for f in last.files}
    assert (await h.layout()).links == (("link", b"/etc/passwd"),)


@pytest.mark.parametrize("case", list(BAD_TREES))
async def test_a_revert_to_a_checkpoint_that_holds_a_bad_name_changes_nothing(case):
    extra, words = BAD_TREES[case]
    entries = {p.encode(): page(d.encode()) for p, d in TEN.items()} | extra
    store, service, bad = await project_with(entries)
    before = {p: await store.read_bytes(p) for p in await store.list("")}
    acted = await revert(service, bad)
    assert not acted.done
    assert acted.status.startswith(f"Not done: Checkpoint {bad[:7]} cannot be restored")
    assert words in acted.status and acted.status.endswith("Your files are as they were.")
    # Nothing written, nothing removed, git's own folder untouched, no checkpoint made.
    assert {p: await store.read_bytes(p) for p in await store.list("")} == before
    h = await service.history()
    assert [cp.message for cp in await h.list()][:2] == ["My pages again", "Made elsewhere"]


async def test_a_file_under_gits_folder_is_never_restored():
    entries = {b".git/config": page(b"[core]\n\tfsmonitor = touch /tmp/pwned\n")}
    store, service, bad = await project_with(entries)
    config = await store.read_bytes(".git/config")
    acted = await restore(service, bad, ".git/config")
    assert not acted.done and "git" in acted.status and "own folder" in acted.status
    assert await store.read_bytes(".git/config") == config
    h = await service.history()
    with pytest.raises(CannotRestore):
        await h.restore_file(bad, ".git/HEAD")


async def test_a_file_outside_the_project_is_never_restored_nor_removed():
    store, service, bad = await project_with({b"../x": page(), b"index.html": page()})
    before = await store.list("")
    h = await service.history()
    # Listed as what the checkpoint after it deleted; restoring it is refused in words.
    mine = (await h.list())[0]
    assert "../x" in [f.path for f in mine.files]
    for checkpoint in (bad, mine.id):
        acted = await restore(service, checkpoint, "../x")
        assert acted.status == (
            "Not done: “../x” cannot be restored: climbs out of the project (..). "
            "Your files are as they were."
        )
    assert await store.list("") == before


async def test_a_revert_is_one_write_a_refused_one_changes_no_file(monkeypatch):
    store = MemoryFileStore({"index.html": "v1\n", "old.css": "a\n"})
    service = HistoryService(store)
    first = await service.checkpoint("you", "v1")
    await store.write_text("index.html", "v2\n")
    await store.remove("old.css")
    await store.write_text("new.js", "b\n")
    await service.checkpoint("you", "v2")
    real = MemoryFileStore.write_many

    async def full(self, items, *, remove=()):
        if "index.html" in items:  # the revert's write, not the checkpoint's
            raise StorageFull("index.html")
        await real(self, items, remove=remove)

    monkeypatch.setattr(MemoryFileStore, "write_many", full)
    acted = await revert(service, first.id)
    assert not acted.done and acted.status.startswith("Not done: ")
    assert await store.read_text("index.html") == "v2\n"
    assert await store.exists("new.js") and not await store.exists("old.css")
    monkeypatch.setattr(MemoryFileStore, "write_many", real)
    acted = await revert(service, first.id)
    assert acted.done
    assert await store.read_text("index.html") == "v1\n" and await store.exists("old.css")
    assert not await store.exists("new.js")


async def test_a_revert_turns_a_folder_into_a_file_in_one_write():
    store = MemoryFileStore({"about": "a file\n"})
    service = HistoryService(store)
    first = await service.checkpoint("you", "about is a file")
    await store.remove("about")
    await store.write_text("about/index.html", "now a folder\n")
    await service.checkpoint("you", "about is a folder")
    acted = await revert(service, first.id)
    assert acted.done
    assert await store.read_text("about") == "a file\n"
