"""A project's history: a real git repository, kept in the project's FileStore.

Checkpoints are git commits made with dulwich's object model (``Blob``,
``Tree``, ``Commit``); the objects are written as standard zlib loose objects
under ``.git/objects/``, the branch under ``.git/refs/heads/main`` and
``.git/HEAD`` points at it, so ``.git/`` copied out of the store (the zip
export) is a repository ``git log`` reads as is.

Why dulwich's object model and not ``dulwich.repo.Repo``: ``Repo`` does
blocking file I/O through ``os``; the FileStore is async (IndexedDB in the
page), so the objects are read and written here, through the store.  The
hashing, serialisation and diffing are dulwich's, not ours.

``.git/`` is the person's safety net, not the agents' memory: the FileStore
listings used by Chief, Ralph, the preview and the gates skip it
(``HISTORY_DIR``); ``.git/`` is never part of a checkpoint either.
"""

from __future__ import annotations

import difflib
import time
from dataclasses import dataclass, field

from dulwich.objects import Blob, Commit, Tree

from wiggum.fs.errors import FileNotFound
from wiggum.fs.store import FileStore, is_binary

__all__ = [
    "HISTORY_DIR",
    "Checkpoint",
    "FileChange",
    "History",
    "NothingToRevert",
    "is_history_path",
]

HISTORY_DIR = ".git"
BRANCH = b"refs/heads/main"
FILE_MODE = 0o100644
DIR_MODE = 0o040000
#: Files above this size are not line-diffed: their +/- counts are 0 and the
#: diff says "binary or too large".
DIFF_LIMIT = 512 * 1024


def is_history_path(path: str) -> bool:
    return path == HISTORY_DIR or path.startswith(HISTORY_DIR + "/")


class NothingToRevert(Exception):
    """The project already matches the checkpoint."""


@dataclass(frozen=True, slots=True)
class FileChange:
    path: str
    #: "added" | "modified" | "deleted"
    kind: str
    added: int
    removed: int
    binary: bool = False


@dataclass(frozen=True, slots=True)
class Checkpoint:
    id: str
    parent: str | None
    #: "Ralph iteration N" or "you"
    author: str
    time: float
    message: str
    files: list[FileChange] = field(default_factory=list)


def _lines(data: bytes) -> list[str]:
    return data.decode("utf-8").splitlines(keepends=True)


def _count(old: bytes, new: bytes) -> tuple[int, int, bool]:
    if is_binary(old) or is_binary(new) or max(len(old), len(new)) > DIFF_LIMIT:
        return 0, 0, True
    added = removed = 0
    matcher = difflib.SequenceMatcher(None, _lines(old), _lines(new), autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag in ("replace", "delete"):
            removed += i2 - i1
        if tag in ("replace", "insert"):
            added += j2 - j1
    return added, removed, False


class History:
    """Checkpoints of one project's FileStore."""

    def __init__(self, store: FileStore, *, clock=time.time) -> None:
        self._store = store
        self._clock = clock
        # sha -> object; objects never change, so this cache is always right.
        self._cache: dict[bytes, Blob | Tree | Commit] = {}
        # Objects made but not yet written: flushed together (one IndexedDB
        # transaction when the store has ``write_many``) before the ref moves.
        self._pending: dict[str, bytes] = {}

    # ---- raw objects -------------------------------------------------------

    @staticmethod
    def _object_path(sha: bytes) -> str:
        hexsha = sha.decode()
        return f"{HISTORY_DIR}/objects/{hexsha[:2]}/{hexsha[2:]}"

    async def _put(self, obj: Blob | Tree | Commit) -> bytes:
        sha = obj.id
        if sha not in self._cache:
            # The loose-object form git itself writes: zlib("<type> <len>\\0<body>").
            # Content-addressed, so writing an object that is already there is harmless.
            self._pending[self._object_path(sha)] = obj.as_legacy_object()
            self._cache[sha] = obj
        return sha

    async def _write_all(self, items: dict[str, bytes]) -> None:
        write_many = getattr(self._store, "write_many", None)
        if write_many is not None:
            await write_many(items)
            return
        for path, data in items.items():
            await self._store.write_bytes(path, data)

    async def _flush(self) -> None:
        pending, self._pending = self._pending, {}
        try:
            await self._write_all(pending)
        except BaseException:
            # Not stored after all: forget them so the next checkpoint writes them.
            for path in pending:
                self._cache.pop("".join(path.split("/")[-2:]).encode(), None)
            raise

    async def _read_all(self, paths: list[str]) -> dict[str, bytes]:
        read_many = getattr(self._store, "read_many", None)
        if read_many is not None:
            return await read_many(paths)
        return {p: await self._store.read_bytes(p) for p in paths}

    async def _get(self, sha: bytes) -> Blob | Tree | Commit:
        obj = self._cache.get(sha)
        if obj is None:
            raw = await self._store.read_bytes(self._object_path(sha))
            from dulwich.objects import ShaFile

            obj = ShaFile.from_file(_BytesFile(raw))
            self._cache[sha] = obj
        return obj

    async def _head(self) -> bytes | None:
        try:
            ref = (await self._store.read_text(f"{HISTORY_DIR}/refs/heads/main")).strip()
        except FileNotFound:
            return None
        return ref.encode() or None

    async def _init(self) -> None:
        if await self._store.exists(f"{HISTORY_DIR}/HEAD"):
            return
        await self._store.mkdir(f"{HISTORY_DIR}/refs/tags")
        # HEAD last (one batch, all or none): it is what marks the repository made.
        await self._write_all(
            {
                f"{HISTORY_DIR}/config": b"[core]\n\trepositoryformatversion = 0\n"
                b"\tfilemode = false\n\tbare = false\n",
                f"{HISTORY_DIR}/description": b"Wiggum project history (checkpoints).\n",
                f"{HISTORY_DIR}/HEAD": b"ref: refs/heads/main\n",
            }
        )

    # ---- trees ---------------------------------------------------------------

    async def _flatten(self, tree_sha: bytes | None, prefix: str = "") -> dict[str, bytes]:
        """path -> blob sha of every file in a tree."""
        out: dict[str, bytes] = {}
        if tree_sha is None:
            return out
        tree = await self._get(tree_sha)
        for entry in tree.iteritems():
            name = entry.path.decode()
            path = f"{prefix}{name}"
            if entry.mode & 0o170000 == DIR_MODE:
                out.update(await self._flatten(entry.sha, path + "/"))
            else:
                out[path] = entry.sha
        return out

    async def _build_tree(self, files: dict[str, bytes]) -> bytes:
        """A tree (and its subtrees) for path -> blob sha; returns the root's sha."""
        children: dict[str, dict[str, bytes]] = {}
        tree = Tree()
        for path, sha in files.items():
            head, sep, rest = path.partition("/")
            if sep:
                children.setdefault(head, {})[rest] = sha
            else:
                tree.add(head.encode(), FILE_MODE, sha)
        for name, sub in children.items():
            tree.add(name.encode(), DIR_MODE, await self._build_tree(sub))
        return await self._put(tree)

    async def _current_files(self) -> list[str]:
        paths = await self._store.list("")
        return [p for p in paths if not is_history_path(p)]

    async def _commit_tree(self, tree_sha: bytes, author: str, message: str) -> bytes:
        head = await self._head()
        commit = Commit()
        commit.tree = tree_sha
        commit.parents = [head] if head else []
        ident = f"{author} <{_email(author)}>".encode()
        commit.author = commit.committer = ident
        now = int(self._clock())
        commit.author_time = commit.commit_time = now
        commit.author_timezone = commit.commit_timezone = 0
        commit.encoding = b"UTF-8"
        commit.message = message.encode() + (b"" if message.endswith("\n") else b"\n")
        sha = await self._put(commit)
        # The branch moves in the same all-or-none batch as the objects it
        # needs: never a ref to a missing object, and one transaction less.
        self._pending[f"{HISTORY_DIR}/refs/heads/main"] = sha + b"\n"
        await self._flush()
        return sha

    # ---- public API ------------------------------------------------------------

    async def commit(
        self, author: str, message: str, *, leave_out: tuple[str, ...] = ()
    ) -> Checkpoint | None:
        """A checkpoint of the current files; ``None`` when nothing changed.

        Files below the folders ``leave_out`` keep the version of the previous
        checkpoint (or stay absent): their changes are not this author's and
        go into the next checkpoint that does not leave them out.
        """
        await self._init()
        head = await self._head()
        parent_files: dict[str, bytes] = {}
        if head:
            parent_files = await self._flatten((await self._get(head)).tree)
        files: dict[str, bytes] = {}

        def left_out(path: str) -> bool:
            return _below(path, leave_out)

        files.update({p: s for p, s in parent_files.items() if left_out(p)})
        paths = [p for p in await self._current_files() if not left_out(p)]
        current = await self._read_all(paths)
        for path, data in current.items():
            blob = Blob.from_string(data)
            if parent_files.get(path) == blob.id:
                files[path] = blob.id  # unchanged: its object is already stored
                continue
            files[path] = await self._put(blob)
        if head and files == parent_files:
            self._pending.clear()
            for sha in set(files.values()) - set(parent_files.values()):
                self._cache.pop(sha, None)
            return None
        sha = await self._commit_tree(await self._build_tree(files), author, message)
        return await self._checkpoint(sha)

    async def list(self, limit: int | None = None) -> list[Checkpoint]:
        """Checkpoints, newest first."""
        out: list[Checkpoint] = []
        sha = await self._head()
        while sha and (limit is None or len(out) < limit):
            cp = await self._checkpoint(sha)
            out.append(cp)
            sha = cp.parent.encode() if cp.parent else None
        return out

    async def files_at(self, checkpoint: str) -> dict[str, bytes]:
        commit = await self._get(checkpoint.encode())
        files = await self._flatten(commit.tree)
        return {p: (await self._get(s)).as_raw_string() for p, s in files.items()}

    async def diff(self, checkpoint: str, path: str) -> str:
        """Unified diff of ``path`` between a checkpoint's parent and the checkpoint."""
        commit = await self._get(checkpoint.encode())
        new = await self._blob_at(commit.tree, path)
        old = b""
        if commit.parents:
            old = await self._blob_at((await self._get(commit.parents[0])).tree, path)
        old_b, new_b = old or b"", new or b""
        if is_binary(old_b) or is_binary(new_b) or max(len(old_b), len(new_b)) > DIFF_LIMIT:
            return f"Binary or large file {path}: {len(old_b)} bytes → {len(new_b)} bytes\n"
        return "".join(
            difflib.unified_diff(
                _lines(old_b),
                _lines(new_b),
                fromfile=f"a/{path}" if old is not None else "/dev/null",
                tofile=f"b/{path}" if new is not None else "/dev/null",
            )
        )

    async def restore_file(
        self, checkpoint: str, path: str, *, author: str = "you", leave_out: tuple[str, ...] = ()
    ) -> Checkpoint | None:
        """Put one file back as it was at ``checkpoint`` (deleting it if it did not exist
        there), then checkpoint that (``leave_out`` as in :meth:`commit`)."""
        commit = await self._get(checkpoint.encode())
        data = await self._blob_at(commit.tree, path)
        if data is None:
            if await self._store.exists(path):
                await self._store.remove(path)
        else:
            await self._store.write_bytes(path, data)
        message = f"Restore {path} from {checkpoint[:7]}"
        return await self.commit(author, message, leave_out=leave_out)

    async def revert(
        self, checkpoint: str, *, author: str = "you", leave_out: tuple[str, ...] = ()
    ) -> Checkpoint:
        """Make the project's files what they were at ``checkpoint``, as a new checkpoint.

        The current state is checkpointed first (if it differs from the last
        checkpoint), so nothing is lost.  Files below the folders ``leave_out``
        are neither reverted nor checkpointed: they stay as they are, and the
        new checkpoint keeps the previous checkpoint's version of them."""
        await self.commit(author, "Before revert", leave_out=leave_out)
        commit = await self._get(checkpoint.encode())
        head_files = await self._flatten((await self._get(await self._head())).tree)
        target = await self._flatten(commit.tree)
        if leave_out:
            target = {p: s for p, s in target.items() if not _below(p, leave_out)}
            target.update({p: s for p, s in head_files.items() if _below(p, leave_out)})
        current = {p for p in await self._current_files() if not _below(p, leave_out)}
        if target == head_files:
            raise NothingToRevert(f"The project already matches checkpoint {checkpoint[:7]}.")
        for path in sorted(current - set(target)):
            await self._store.remove(path)
        for path, sha in target.items():
            if head_files.get(path) != sha and not _below(path, leave_out):
                await self._store.write_bytes(path, (await self._get(sha)).as_raw_string())
        msg = f"Revert to {checkpoint[:7]} ({_subject(commit)})"
        tree = commit.tree if not leave_out else await self._build_tree(target)
        sha = await self._commit_tree(tree, author, msg)
        return await self._checkpoint(sha)

    # ---- helpers -----------------------------------------------------------------

    async def _blob_at(self, tree_sha: bytes, path: str) -> bytes | None:
        sha = tree_sha
        parts = path.split("/")
        for i, part in enumerate(parts):
            tree = await self._get(sha)
            try:
                mode, sha = tree[part.encode()]
            except KeyError:
                return None
            if i < len(parts) - 1 and mode & 0o170000 != DIR_MODE:
                return None
        obj = await self._get(sha)
        return obj.as_raw_string() if isinstance(obj, Blob) else None

    async def _checkpoint(self, sha: bytes) -> Checkpoint:
        commit = await self._get(sha)
        parent = commit.parents[0] if commit.parents else None
        new = await self._flatten(commit.tree)
        old = await self._flatten((await self._get(parent)).tree) if parent else {}
        changes: list[FileChange] = []
        for path in sorted(set(new) | set(old)):
            a, b = old.get(path), new.get(path)
            if a == b:
                continue
            old_data = (await self._get(a)).as_raw_string() if a else b""
            new_data = (await self._get(b)).as_raw_string() if b else b""
            added, removed, binary = _count(old_data, new_data)
            kind = "added" if a is None else "deleted" if b is None else "modified"
            changes.append(FileChange(path, kind, added, removed, binary))
        name = commit.author.decode("utf-8", "replace").split(" <", 1)[0]
        return Checkpoint(
            id=sha.decode(),
            parent=parent.decode() if parent else None,
            author=name,
            time=float(commit.author_time),
            message=commit.message.decode("utf-8", "replace").strip(),
            files=changes,
        )


def _below(path: str, folders: tuple[str, ...]) -> bool:
    return any(path.startswith(folder.rstrip("/") + "/") for folder in folders)


def _subject(commit: Commit) -> str:
    return commit.message.decode("utf-8", "replace").strip().splitlines()[0][:60]


def _email(author: str) -> str:
    return "ralph@wiggum.local" if author.startswith("Ralph") else "you@wiggum.local"


class _BytesFile:
    """The minimal file object ``ShaFile.from_file`` reads a loose object from."""

    def __init__(self, data: bytes) -> None:
        self._data = data

    def read(self, n: int = -1) -> bytes:
        data, self._data = (self._data, b"") if n < 0 else (self._data[:n], self._data[n:])
        return data

    def close(self) -> None:
        pass
