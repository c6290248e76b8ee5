"""A project's history: a real git repository, kept in the project's FileStore.

Checkpoints are git commits on the branch ``HEAD`` names (``main`` for a new
project, ``master`` or any other for an imported one), so ``.git/`` copied
out of the store (the zip export) is a repository git reads as is, and an
imported repository goes on where it was: loose objects or packs,
``packed-refs``, tags (kept as they are), submodule entries (kept and shown
as such), symbolic links (kept in every checkpoint as they were, since a
project here holds files only, and given back to git by the zip export), a
shallow clone's edge.  The formats are dulwich's; reading and
writing them through the async store is :mod:`~wiggum.project.gitstore`,
:mod:`~wiggum.project.gitrefs`, :mod:`~wiggum.project.gitindex` and
:mod:`~wiggum.project.gittree`.

A checkpoint costs what changed: ``.git/index`` records the size and time
of every file it holds, so only files whose size or time moved are read and
hashed; only new objects are written, as one pack, with the branch and the
index, in one all-or-nothing write.  What changed in a checkpoint is listed
from its trees (subtrees that did not change are not read); a file's diff is
made when the person opens it, never on the save path.

Revert is all-or-nothing: every file of the checkpoint is checked first
(:func:`wiggum.project.names.tree_refusal`: inside the project, a file, never
git's own folder; submodules and links stay in the tree unwritten), then the
files, the removals and the new commit are one write.  ``.git/`` is the
person's safety net, not the agents' memory: the FileStore views of Chief,
Ralph, the preview and the gates hide it, and it is never part of a checkpoint.
"""

from __future__ import annotations

import difflib
import logging
import time
from dataclasses import dataclass, field

from dulwich.objects import Blob, Commit

from wiggum.fs.errors import FileNotFound
from wiggum.fs.store import FileStore, is_binary

from .archive import ExportLayout
from .gitignore import ignored_by_git
from .gitindex import INDEX, Entry, index_bytes, read_index, stamp
from .gitrefs import GIT, Head, read_head, read_shallow, unreadable_reason
from .gitstore import ObjectStore
from .gittree import GITLINK_MODE, Change, Item, build_tree, changes, flatten, is_tree, tree_ids
from .history_errors import CannotRestore, NothingToRevert, unreadable
from .names import git_name_refusal, tree_refusal

__all__ = [
    "HISTORY_DIR",
    "Checkpoint",
    "FileChange",
    "History",
    "NothingToRevert",
    "is_history_path",
]

log = logging.getLogger("wiggum.project.history")

HISTORY_DIR = GIT
FILE_MODE = 0o100644
EXEC_MODE = 0o100755
LINK_MODE = 0o120000
#: Entries a project cannot hold as files (a submodule, a symbolic link): a
#: checkpoint keeps them as they were and a revert leaves them in the tree unwritten.
HELD_MODES = (GITLINK_MODE, LINK_MODE)


def _held_link(path: str, mode: int) -> bool:
    """A symbolic link kept as it is: never written here, given back by the zip export,
    so its name must be one a file could have (never inside git's own folder)."""
    return mode == LINK_MODE and tree_refusal(path, FILE_MODE) is None


#: Files above this size are not line-diffed: the diff says "binary or too large".
DIFF_LIMIT = 512 * 1024
_NEW_REPOSITORY = {
    f"{GIT}/config": b"[core]\n\trepositoryformatversion = 0\n\tfilemode = false\n\tbare = false\n",
    f"{GIT}/description": b"Wiggum project history (checkpoints).\n",
    f"{GIT}/HEAD": b"ref: refs/heads/main\n",
}


def is_history_path(path: str) -> bool:
    return path == HISTORY_DIR or path.startswith(HISTORY_DIR + "/")


@dataclass(frozen=True, slots=True)
class FileChange:
    path: str
    #: "added" | "modified" | "deleted"
    kind: str
    #: Lines added and removed: ``None`` until the diff is asked for.
    added: int | None = None
    removed: int | None = None
    binary: bool = False
    #: A submodule's entry (a commit of another repository), not a file.
    submodule: bool = False


@dataclass(frozen=True, slots=True)
class Checkpoint:
    id: str
    parent: str | None
    #: "Ralph iteration N", "you", or a git author's name
    author: str
    time: float
    message: str
    files: list[FileChange] = field(default_factory=list)


def _below(path: str, folders: tuple[str, ...]) -> bool:
    return any(path.startswith(folder.rstrip("/") + "/") for folder in folders)


def _text(raw: bytes, encoding: bytes | None = None) -> str:
    try:
        return raw.decode((encoding or b"utf-8").decode("ascii", "replace"), "replace")
    except LookupError:
        return raw.decode("utf-8", "replace")


def _subject(commit: Commit) -> str:
    lines = _text(commit.message, commit.encoding).strip().splitlines()
    return lines[0][:60] if lines else ""


def _email(author: str) -> str:
    if author.startswith("Ralph"):
        return "ralph@wiggum.local"
    return "wiggum@wiggum.local" if author == "Wiggum" else "you@wiggum.local"


def _file_changes(found: list[Change]) -> list[FileChange]:
    out = []
    for c in found:
        kind = "added" if c.old is None else "deleted" if c.new is None else "modified"
        gitlink = any(item is not None and item[0] == GITLINK_MODE for item in (c.old, c.new))
        out.append(FileChange(c.path, kind, submodule=gitlink))
    return out


def _summary(old: dict[str, Item], new: dict[str, Item]) -> list[Change]:
    paths = sorted(p for p in set(old) | set(new) if old.get(p) != new.get(p))
    return [Change(p, old.get(p), new.get(p)) for p in paths]


class History:
    """Checkpoints of one project's FileStore (the raw store: ``.git/`` included)."""

    def __init__(self, store: FileStore, *, clock=time.time) -> None:
        self._store = store
        self._clock = clock
        self.objects = ObjectStore(store)
        # The last commit's tree, by path, and its trees' ids (objects never change).
        self._trees: dict[bytes, tuple[dict[str, Item], frozenset[bytes]]] = {}
        self._format_checked = False
        self._index_rows: dict = {}
        # The index as last read or written: its bytes, entries and write time.
        self._index_seen: tuple[bytes, dict[str, Entry], tuple[int, int] | None] | None = None

    # ---- reading -----------------------------------------------------------------

    async def _read(self, path: str) -> bytes | None:
        try:
            return await self._store.read_bytes(path)
        except FileNotFound:
            return None

    async def _head(self) -> Head:
        if not self._format_checked:  # the repository's format does not change
            await self.objects.load()
            reason = unreadable_reason(
                await self._read(f"{GIT}/config"), alternates=self.objects.alternates
            )
            if reason:
                raise unreadable(reason)
            self._format_checked = True
        return await read_head(self._store)

    async def _commit(self, sha: bytes) -> Commit:
        obj = await self.objects.get(sha)
        if not isinstance(obj, Commit):
            raise unreadable(f"{sha[:7].decode()} is not a commit")
        return obj

    async def _tree_of(self, commit: bytes | None) -> tuple[dict[str, Item], frozenset[bytes]]:
        """A commit's entries by path and its trees' ids (``{}`` for none)."""
        if commit is None:
            return {}, frozenset()
        if commit not in self._trees:
            tree = (await self._commit(commit)).tree
            self._trees = {commit: (await flatten(self.objects, tree), frozenset())}
        entries, ids = self._trees[commit]
        return entries, ids

    async def _known_trees(self, commit: bytes | None) -> frozenset[bytes]:
        entries, ids = await self._tree_of(commit)
        if commit is not None and not ids:
            ids = await tree_ids(self.objects, (await self._commit(commit)).tree)
            self._trees[commit] = (entries, ids)
        return ids

    async def check(self) -> bool:
        """Read what a checkpoint needs (``HEAD``, its commit and every tree of it);
        ``False`` for a repository with no commit yet.  Raises
        :class:`~wiggum.project.history_errors.HistoryUnreadable` with the reason."""
        head = await self._head()
        if head.sha is None:
            return False
        await self._tree_of(head.sha)
        return True

    # ---- the files as they are now -------------------------------------------------

    async def _working(
        self, keep: dict[str, Item], tracked: dict[str, Item]
    ) -> dict[str, tuple[int, float]]:
        """path -> (size, time) of the files a checkpoint holds: not ``.git/``, nothing
        spelled as git's own folder, nothing inside a submodule's folder (of
        ``keep``), no file git ignores unless ``tracked`` already holds it."""
        links = tuple(p for p, (mode, _) in keep.items() if mode == GITLINK_MODE)
        out = {}
        for st in await self._store.stats(exclude=[GIT]):
            path = st.path
            if path in links or _below(path, links) or git_name_refusal(path):
                continue
            out[path] = (st.size, st.modified)
        if all(path in tracked for path in out):
            return out
        ignored = await ignored_by_git(self._store, out)
        return {p: v for p, v in out.items() if p in tracked or not ignored(p)}

    async def _index(self) -> tuple[dict[str, Entry], tuple[int, int]]:
        """The index's entries and when it was written (parsed again only when its
        bytes changed: an older time only makes more entries racy, never fewer)."""
        raw = await self._read(INDEX)
        if raw is None:
            return {}, (0, 0)
        seen = self._index_seen
        if seen is not None and seen[0] == raw and seen[2] is not None:
            return seen[1], seen[2]
        entries = seen[1] if seen is not None and seen[0] == raw else read_index(raw)
        written = stamp((await self._store.stat(INDEX)).modified)
        self._index_seen = (raw, entries, written)
        return entries, written

    def _index_written(self, data: bytes, entries: dict[str, Entry]) -> None:
        self._index_seen = (data, entries, None)

    async def _snapshot(
        self, parent: dict[str, Item], leave_out: tuple[str, ...]
    ) -> tuple[dict[str, Item], dict[str, Entry], dict[str, Entry]]:
        """The entries of a checkpoint of the files now, its index, and the index
        as it was."""
        index, index_time = await self._index()
        entries: dict[str, Item] = {}
        new_index: dict[str, Entry] = {}
        for path, item in parent.items():
            # Left out (the agents' memory) or a submodule: the previous version stays.
            if item[0] == GITLINK_MODE or _below(path, leave_out):
                entries[path] = item
                old = index.get(path)
                new_index[path] = old if old and old.sha == item[1] else Entry(*item)
        working = await self._working(entries, parent)
        for path, item in parent.items():
            # A symbolic link (from an imported history) cannot be a file here: it
            # stays as it was, unless a file has been written where it was.
            if _held_link(path, item[0]) and path not in working and path not in entries:
                entries[path] = item
                old = index.get(path)
                new_index[path] = old if old and old.sha == item[1] else Entry(*item)
        to_read = []
        for path, (size, modified) in working.items():
            if _below(path, leave_out) or path in entries:
                continue
            mode = parent[path][0] if path in parent else FILE_MODE
            mode = mode if mode in (FILE_MODE, EXEC_MODE) else FILE_MODE
            entry = index.get(path)
            # The index's word is taken only for the content the last checkpoint has.
            if (
                entry
                and path in parent
                and entry.sha == parent[path][1]
                and entry.matches(size, modified, index_time)
            ):
                entries[path] = (mode, entry.sha)
                new_index[path] = entry
            else:
                to_read.append(path)
        for path, data in (await self._store.read_many(to_read)).items():
            mode = parent[path][0] if path in parent else FILE_MODE
            mode = mode if mode in (FILE_MODE, EXEC_MODE) else FILE_MODE
            blob = Blob.from_string(data)
            if parent.get(path, (0, b""))[1] != blob.id:
                self.objects.add(blob)
            entries[path] = (mode, blob.id)
            size, modified = working[path]
            # The time read before the bytes: a write in between makes it differ next time.
            fresh = size == len(data)
            stat = (size, stamp(modified)) if fresh else (0, None)
            new_index[path] = Entry(mode, blob.id, *stat)
        return entries, new_index, index

    # ---- writing -------------------------------------------------------------------

    async def _write(
        self,
        head: Head,
        entries: dict[str, Item],
        index: dict[str, Entry],
        author: str,
        message: str,
        *,
        files: dict[str, bytes] | None = None,
        remove: tuple[str, ...] = (),
    ) -> bytes:
        """A commit of ``entries`` on ``head``, written with ``files`` and ``remove``
        (a revert's) in one all-or-nothing change; returns its id."""
        keep = await self._known_trees(head.sha)
        tree = build_tree(self.objects, entries, keep)
        commit = Commit()
        commit.tree = tree
        commit.parents = [head.sha] if head.sha else []
        ident = f"{author} <{_email(author)}>".encode()
        commit.author = commit.committer = ident
        commit.author_time = commit.commit_time = int(self._clock())
        commit.author_timezone = commit.commit_timezone = 0
        commit.encoding = b"UTF-8"
        commit.message = message.encode() + (b"" if message.endswith("\n") else b"\n")
        sha = self.objects.add(commit)
        items = dict(files or {})
        if not head.stored:
            items.update(_NEW_REPOSITORY)
        items.update(self.objects.pack_new())
        # The branch moves in the same write as the objects it needs: never a
        # ref to a missing object.
        items.update(head.moved(sha))
        items[INDEX] = index_bytes(index, self._index_rows)
        try:
            await self._store.write_many(items, remove=remove)
        except BaseException:
            self.objects.forget_new()
            raise
        self.objects.written(items)
        self._index_written(items[INDEX], index)
        self._trees = {sha: (entries, frozenset())}
        return sha

    async def _tidy(self) -> None:
        """Merge many small packs (and loose objects) into one: its own write, as it
        changes how the objects are kept, not which."""
        merged = await self.objects.merge()
        if merged is not None:
            items, removed = merged
            await self._store.write_many(items, remove=removed)
            self.objects.written(items, removed)

    # ---- public API ------------------------------------------------------------------

    async def commit(
        self, author: str, message: str, *, leave_out: tuple[str, ...] = ()
    ) -> Checkpoint | None:
        """A checkpoint of the current files; ``None`` when nothing changed.

        Files below the folders ``leave_out`` keep the version of the previous
        checkpoint (or stay absent): their changes are not this author's and
        go into the next checkpoint that does not leave them out.
        """
        head = await self._head()
        await self._tidy()
        parent, _ = await self._tree_of(head.sha)
        entries, index, before = await self._snapshot(parent, leave_out)
        if head.sha and entries == parent:
            self.objects.forget_new()
            if index != before:  # the same contents at new times: read them once only
                data = index_bytes(index, self._index_rows)
                await self._store.write_many({INDEX: data})
                self._index_written(data, index)
            return None
        sha = await self._write(head, entries, index, author, message)
        return await self._checkpoint(sha, _summary(parent, entries))

    async def adopt(self) -> bool:
        """An imported repository: checked, its loose objects packed, its index made
        for the files as imported, and what differs from its last commit (work not
        committed there) made a checkpoint.  ``False`` when it has no commit yet."""
        has_commit = await self.check()
        await self.commit("you", "Files as imported (not committed in git)")
        return has_commit

    async def list(self, limit: int | None = None) -> list[Checkpoint]:
        """Checkpoints, newest first (the first parent of each: the branch's own line)."""
        out: list[Checkpoint] = []
        head = await self._head()
        shallow = await read_shallow(self._store)
        sha = head.sha
        while sha and (limit is None or len(out) < limit):
            try:
                cp = await self._checkpoint(sha, shallow=shallow)
            except Exception:
                if not out:
                    raise
                log.warning("history: listing stops before the unreadable %s", sha[:7])
                break
            out.append(cp)
            sha = cp.parent.encode() if cp.parent else None
        return out

    async def files_at(self, checkpoint: str) -> dict[str, bytes]:
        entries = await flatten(self.objects, (await self._commit(checkpoint.encode())).tree)
        files = {p: sha for p, (mode, sha) in entries.items() if mode in (FILE_MODE, EXEC_MODE)}
        found = await self.objects.get_many(set(files.values()))
        return {p: found[sha].as_raw_string() for p, sha in files.items()}

    async def layout(self) -> ExportLayout:
        """The last checkpoint's executable files, submodules and links (see
        :class:`ExportLayout`)."""
        head = await self._head()
        entries, _ = await self._tree_of(head.sha)
        links = {p: sha for p, (mode, sha) in entries.items() if _held_link(p, mode)}
        found = await self.objects.get_many(set(links.values())) if links else {}
        return ExportLayout(
            frozenset(p for p, (mode, _) in entries.items() if mode == EXEC_MODE),
            tuple(sorted(p for p, (mode, _) in entries.items() if mode == GITLINK_MODE)),
            tuple(sorted((p, found[sha].as_raw_string()) for p, sha in links.items())),
        )

    async def _item_at(self, checkpoint: bytes, path: str) -> Item | None:
        tree = (await self._commit(checkpoint)).tree
        *dirs, name = path.split("/")
        for part in dirs:
            found = dict(_entries_of(await self.objects.get(tree))).get(part)
            if found is None or not is_tree(found[0]):
                return None
            tree = found[1]
        return dict(_entries_of(await self.objects.get(tree))).get(name)

    async def diff(self, checkpoint: str, path: str) -> str:
        """Unified diff of ``path`` between a checkpoint's parent and the checkpoint."""
        commit = await self._commit(checkpoint.encode())
        new = await self._item_at(commit.id, path)
        old = await self._item_at(commit.parents[0], path) if commit.parents else None
        if any(item is not None and item[0] == GITLINK_MODE for item in (old, new)):
            before = old[1][:7].decode() if old else "none"
            after = new[1][:7].decode() if new else "none"
            return f"Submodule {path}: commit {before} → {after}\n"
        old_b = (await self.objects.get(old[1])).as_raw_string() if old else b""
        new_b = (await self.objects.get(new[1])).as_raw_string() if new else b""
        if is_binary(old_b) or is_binary(new_b) or max(len(old_b), len(new_b)) > DIFF_LIMIT:
            return f"Binary or large file {path}: {len(old_b)} bytes → {len(new_b)} bytes\n"
        return "".join(
            difflib.unified_diff(
                old_b.decode().splitlines(keepends=True),
                new_b.decode().splitlines(keepends=True),
                fromfile=f"a/{path}" if old is not None else "/dev/null",
                tofile=f"b/{path}" if new is not None else "/dev/null",
            )
        )

    async def restore_file(
        self, checkpoint: str, path: str, *, author: str = "you", leave_out: tuple[str, ...] = ()
    ) -> Checkpoint | None:
        """Put one file back as it was at ``checkpoint`` (deleting it if it did not exist
        there), then checkpoint that (``leave_out`` as in :meth:`commit`)."""
        item = await self._item_at(checkpoint.encode(), path)
        # A file the checkpoint does not hold is removed: its name is checked all the same.
        reason = tree_refusal(path, item[0] if item else FILE_MODE)
        if reason:
            raise CannotRestore(f"“{path}” cannot be restored: {reason}")
        if item is None:
            if await self._store.exists(path):
                await self._store.write_many({}, remove=[path])
        else:
            data = (await self.objects.get(item[1])).as_raw_string()
            await self._store.write_many({path: data})
        message = f"Restore {path} from {checkpoint[:7]}"
        return await self.commit(author, message, leave_out=leave_out)

    async def revert(
        self, checkpoint: str, *, author: str = "you", leave_out: tuple[str, ...] = ()
    ) -> Checkpoint:
        """Make the project's files what they were at ``checkpoint``, as a new checkpoint.

        Every file of the checkpoint is checked first; the current state is then
        checkpointed (if it differs from the last checkpoint), so nothing is lost,
        and the files, the removals and the new checkpoint are one write.  Files
        below the folders ``leave_out`` are neither reverted nor checkpointed."""
        commit = await self._commit(checkpoint.encode())
        target = await flatten(self.objects, commit.tree)
        target = {p: item for p, item in target.items() if not _below(p, leave_out)}
        refused = [
            (p, reason)
            for p, (mode, _) in sorted(target.items())
            if mode != GITLINK_MODE
            and not _held_link(p, mode)
            and (reason := tree_refusal(p, mode))
        ]
        if refused:
            raise CannotRestore(_refused_text(checkpoint, refused))
        await self.commit(author, "Before revert", leave_out=leave_out)
        head = await self._head()
        now, _ = await self._tree_of(head.sha)
        target.update({p: item for p, item in now.items() if _below(p, leave_out)})
        if target == now:
            raise NothingToRevert(f"The project already matches checkpoint {checkpoint[:7]}.")
        links = tuple(p for p, (mode, _) in target.items() if mode == GITLINK_MODE)
        working = await self._working({p: target[p] for p in links}, now)
        remove = tuple(p for p in sorted(working) if p not in target and not _below(p, leave_out))
        wanted = {
            p: sha
            for p, (mode, sha) in target.items()
            if mode not in HELD_MODES and not _below(p, leave_out) and now.get(p) != (mode, sha)
        }
        found = await self.objects.get_many(set(wanted.values()))
        files = {p: found[sha].as_raw_string() for p, sha in wanted.items()}
        index, _ = await self._index()
        new_index = {
            p: (
                index[p] if p in index and index[p].sha == sha and p not in files else Entry(m, sha)
            )
            for p, (m, sha) in target.items()
        }
        msg = f"Revert to {checkpoint[:7]} ({_subject(commit)})"
        sha = await self._write(head, target, new_index, author, msg, files=files, remove=remove)
        return await self._checkpoint(sha, _summary(now, target))

    # ---- helpers ---------------------------------------------------------------------

    async def _checkpoint(
        self,
        sha: bytes,
        found: list[Change] | None = None,
        *,
        shallow: frozenset[bytes] = frozenset(),
    ) -> Checkpoint:
        commit = await self._commit(sha)
        parent = commit.parents[0] if commit.parents and sha not in shallow else None
        if found is None:
            old = (await self._commit(parent)).tree if parent else None
            found = await changes(self.objects, old, commit.tree)
        name = _text(commit.author, commit.encoding).split(" <", 1)[0]
        return Checkpoint(
            id=sha.decode(),
            parent=parent.decode() if parent else None,
            author=name,
            time=float(commit.author_time),
            message=_text(commit.message, commit.encoding).strip(),
            files=_file_changes(found),
        )


def _entries_of(tree) -> list[tuple[str, Item]]:
    return [(e.path.decode("utf-8", "surrogateescape"), (e.mode, e.sha)) for e in tree.iteritems()]


def _refused_text(checkpoint: str, refused: list[tuple[str, str]]) -> str:
    shown = "; ".join(f"“{path}”: {reason}" for path, reason in refused[:3])
    more = f" (and {len(refused) - 3} more)" if len(refused) > 3 else ""
    return (
        f"Checkpoint {checkpoint[:7]} cannot be restored, it holds what the project cannot "
        f"take: {shown}{more}"
    )
