"""The IndexedDB FileStore: a project's files, write-through.

One record per file, and one per explicit directory (``mkdir``, or one left
behind by ``remove``/``rename``), in the ``files`` store of the app database:
their keys, shapes and ranges are :mod:`wiggum.persist.schema`'s.

Semantics are exactly ``wiggum.fs.memory.MemoryFileStore``'s (checked by
``tests/fs/conformance.py`` in the browser).  Every operation is one
IndexedDB transaction: its checks and its changes are all-or-nothing (a
directory rename moves every record or none), and an awaited change has
committed.
"""

from __future__ import annotations

import builtins
import time
from collections.abc import Awaitable, Callable, Generator
from typing import Any

import js  # type: ignore[import-not-found]

from wiggum.fs.errors import (
    DirectoryNotEmpty,
    FileExists,
    FileNotFound,
    IsADirectory,
    NotADirectory,
)
from wiggum.fs.paths import PathError, dirname, is_within, list_below, normalize_path
from wiggum.fs.store import FileStat, FileStoreBase, Kind
from wiggum.persist.schema import (
    DIRS_INDEX,
    FILES,
    Fence,
    ancestors,
    below_bounds,
    check_batch,
    dir_record,
    file_record,
)

from .idb import Database, key, prefix_range, to_record

__all__ = ["FILES", "IndexedDBFileStore"]

Body = Generator[Any, Any, Any]


class IndexedDBFileStore(FileStoreBase):
    def __init__(
        self,
        db: Database,
        project_id: str,
        *,
        clock: Callable[[], float] = time.time,
        fence: Callable[[], Awaitable[Fence | None]] | None = None,
    ) -> None:
        self._db = db
        self.project_id = project_id
        self._clock = clock
        #: The condition each write is made on (``wiggum.web.storage``).
        self._fence = fence

    def __repr__(self) -> str:
        return f"IndexedDBFileStore({self.project_id!r})"

    # -- keys and ranges -----------------------------------------------------

    def _key(self, path: str) -> Any:
        return key([self.project_id, path])

    def _below(self, path: str) -> Any:
        """Every key strictly below directory ``path`` (the root: the project)."""
        if not path:
            return prefix_range(self.project_id)
        lower, upper = below_bounds(self.project_id, path)
        return js.IDBKeyRange.bound(key(lower), key(upper), False, True)

    def _file_record(self, path: str, data: bytes, modified: float) -> Any:
        return to_record(file_record(self.project_id, path, data, modified))

    def _dir_record(self, path: str, modified: float) -> Any:
        return to_record(dir_record(self.project_id, path, modified))

    # -- generator helpers (run inside one transaction) ------------------------

    def _get(self, store: Any, path: str) -> Body:
        """The record at ``path`` (a JsProxy) or None."""
        return (yield store.get(self._key(path)))

    def _is_file(self, store: Any, path: str) -> Body:
        if not path:
            return False
        record = yield from self._get(store, path)
        return record is not None and not record.dir

    def _has_below(self, store: Any, path: str) -> Body:
        found = yield store.getKey(self._below(path))
        return found is not None

    def _is_dir(self, store: Any, path: str, record: Any = False) -> Body:
        """``record``: the record at ``path`` if already read (False: not read)."""
        if not path:
            return True
        if record is False:
            record = yield from self._get(store, path)
        if record is not None:
            return bool(record.dir)
        return (yield from self._has_below(store, path))

    def _check_ancestors(self, store: Any, path: str) -> Body:
        for parent in ancestors(path):
            if (yield from self._is_file(store, parent)):
                raise NotADirectory(parent)

    def _keep_parent(self, store: Any, path: str) -> Body:
        parent = dirname(path)
        if parent and not (yield from self._is_dir(store, parent)):
            store.put(self._dir_record(parent, self._clock()))

    async def _run(self, mode: str, body: Callable[[Any], Body]) -> Any:
        fence = None
        if mode == "readwrite" and self._fence is not None:
            fence = await self._fence()
        return await self._db.run(FILES, mode, lambda tx: body(tx.objectStore(FILES)), fence=fence)

    # -- queries ---------------------------------------------------------------

    async def read_bytes(self, path: str) -> bytes:
        path = normalize_path(path)

        def body(store: Any) -> Body:
            record = (yield from self._get(store, path)) if path else None
            if record is not None and not record.dir:
                return record.data.to_bytes()
            if (yield from self._is_dir(store, path, record)):
                raise IsADirectory(path)
            raise FileNotFound(path)

        return await self._run("readonly", body)

    async def kind(self, path: str) -> Kind:
        def body(store: Any) -> Body:
            record = (yield from self._get(store, path)) if path else None
            if record is not None:
                return "dir" if record.dir else "file"
            return "dir" if (yield from self._is_dir(store, path, None)) else None

        return await self._run("readonly", body)

    async def stat(self, path: str) -> FileStat:
        path = normalize_path(path)

        def body(store: Any) -> Body:
            record = (yield from self._get(store, path)) if path else None
            if record is not None and not record.dir:
                return FileStat(path, int(record.size), float(record.modified), False)
            if not (yield from self._is_dir(store, path, record)):
                raise FileNotFound(path)
            times = [float(record.modified)] if record is not None else []
            below = yield store.getAll(self._below(path))
            times += [float(r.modified) for r in below]
            return FileStat(path, 0, max(times, default=0.0), True)

        return await self._run("readonly", body)

    async def list(
        self, prefix: str = "", recursive: bool = True, *, dirs: bool = False
    ) -> builtins.list[str]:
        prefix = normalize_path(prefix)

        def body(store: Any) -> Body:
            record = (yield from self._get(store, prefix)) if prefix else None
            if record is not None and not record.dir:
                raise NotADirectory(prefix)
            if not (yield from self._is_dir(store, prefix, record)):
                raise FileNotFound(prefix)
            below = self._below(prefix)
            keys = yield store.getAllKeys(below)
            dir_keys = yield store.index(DIRS_INDEX).getAllKeys(below)
            return [k[1] for k in keys], {k[1] for k in dir_keys}

        every, explicit_dirs = await self._run("readonly", body)
        candidates = [p for p in every if dirs or p not in explicit_dirs]
        return list_below(candidates, prefix, recursive=recursive, dirs=dirs)

    # -- changes ---------------------------------------------------------------

    def _put(self, path: str, data: bytes) -> Callable[[Any], Body]:
        def body(store: Any) -> Body:
            record = yield from self._get(store, path)
            if record is not None and record.dir:
                raise IsADirectory(path)
            if record is None and (yield from self._has_below(store, path)):
                raise IsADirectory(path)
            yield from self._check_ancestors(store, path)
            store.put(self._file_record(path, data, self._clock()))

        return body

    async def write_bytes(self, path: str, data: bytes) -> None:
        if not isinstance(data, bytes | bytearray | memoryview):
            raise TypeError(f"write_bytes needs bytes, not {type(data).__name__}")
        path = normalize_path(path, allow_root=False)
        await self._run("readwrite", self._put(path, bytes(data)))

    async def write_many(self, items: dict[str, bytes]) -> None:
        """Several ``write_bytes`` in one transaction, all or none.

        Every check ``write_bytes`` makes is asked for at once (each distinct
        ancestor once), then answered from the results: a request awaited per
        check and per file made a 100-object history checkpoint take ~400
        round trips through the event loop.  IndexedDB runs a transaction's
        requests in order, so the last one succeeding means all have.
        """
        for data in items.values():
            if not isinstance(data, bytes | bytearray | memoryview):
                raise TypeError(f"write_many needs bytes, not {type(data).__name__}")
        batch = [(normalize_path(p, allow_root=False), bytes(d)) for p, d in items.items()]
        paths = [p for p, _ in batch]
        above = sorted({a for p in paths for a in ancestors(p)})

        # One conversion per list, not one per key or record: Python -> JS
        # conversions were most of the batch's time.
        pid = self.project_id
        keys = key([[pid, p] for p in paths])
        bounds = [below_bounds(pid, p) for p in paths]
        lows, highs = key([lo for lo, _ in bounds]), key([hi for _, hi in bounds])
        bound = js.IDBKeyRange.bound
        now = self._clock()
        files = to_record([file_record(pid, p, d, now) for p, d in batch])

        def body(store: Any) -> Body:
            records = [store.get(keys[i]) for i in range(len(paths))]
            below = [store.getKey(bound(lows[i], highs[i], False, True)) for i in range(len(paths))]
            parents = {a: store.get(self._key(a)) for a in above}
            if paths:
                yield below[-1] if not parents else list(parents.values())[-1]
            check_batch(
                paths,
                dirs={p for p, r in zip(paths, records, strict=True) if _is_dir_record(r.result)},
                below={p for p, r in zip(paths, below, strict=True) if r.result is not None},
                files_above={a for a, r in parents.items() if _is_file_record(r.result)},
            )
            for i in range(len(batch)):
                store.put(files[i])

        await self._run("readwrite", body)

    async def read_many(self, paths: builtins.list[str]) -> dict[str, bytes]:
        """Several files' bytes in one transaction, all asked for at once;
        errors as ``read_bytes``."""
        wanted = [normalize_path(p) for p in paths]

        def body(store: Any) -> Body:
            requests = [store.get(self._key(p)) if p else None for p in wanted]
            last = next((r for r in reversed(requests) if r is not None), None)
            if last is not None:
                yield last
            out: dict[str, bytes] = {}
            for path, request in zip(wanted, requests, strict=True):
                record = request.result if request is not None else None
                if record is None or record.dir:
                    if record is not None or not path or (yield from self._has_below(store, path)):
                        raise IsADirectory(path)
                    raise FileNotFound(path)
                out[path] = record.data.to_bytes()
            return out

        return await self._run("readonly", body)

    async def mkdir(self, path: str, parents: bool = True) -> None:
        path = normalize_path(path)

        def body(store: Any) -> Body:
            if (yield from self._is_file(store, path)):
                raise FileExists(path)
            yield from self._check_ancestors(store, path)
            if (yield from self._is_dir(store, path)):
                if parents:
                    return
                raise FileExists(path)
            if not parents and not (yield from self._is_dir(store, dirname(path))):
                raise FileNotFound(dirname(path))
            now = self._clock()
            current = path
            while current and not (yield from self._is_dir(store, current)):
                store.put(self._dir_record(current, now))
                current = dirname(current)

        await self._run("readwrite", body)

    async def remove(self, path: str, recursive: bool = False) -> None:
        path = normalize_path(path, allow_root=False)

        def body(store: Any) -> Body:
            record = yield from self._get(store, path)
            if record is not None and not record.dir:
                store.delete(self._key(path))
                yield from self._keep_parent(store, path)
                return
            if not (yield from self._is_dir(store, path, record)):
                raise FileNotFound(path)
            if not recursive and (yield from self._has_below(store, path)):
                raise DirectoryNotEmpty(path)
            store.delete(self._below(path))
            store.delete(self._key(path))
            yield from self._keep_parent(store, path)

        await self._run("readwrite", body)

    async def rename(self, src: str, dst: str) -> None:
        src = normalize_path(src, allow_root=False)
        dst = normalize_path(dst, allow_root=False)

        def move_file(store: Any, record: Any) -> Body:
            if src == dst:
                return
            target = yield from self._get(store, dst)
            if (target is not None and target.dir) or (
                target is None and (yield from self._has_below(store, dst))
            ):
                raise IsADirectory(dst)
            yield from self._check_ancestors(store, dst)
            store.put(self._file_record(dst, record.data.to_bytes(), self._clock()))
            store.delete(self._key(src))
            yield from self._keep_parent(store, src)

        def body(store: Any) -> Body:
            record = yield from self._get(store, src)
            if record is not None and not record.dir:
                yield from move_file(store, record)
                return
            if not (yield from self._is_dir(store, src, record)):
                raise FileNotFound(src)
            if src == dst:
                return
            if is_within(dst, src):
                raise PathError(f"cannot move directory {src!r} into itself ({dst!r})")
            target = yield from self._get(store, dst)
            if target is not None and not target.dir:
                raise FileExists(dst)
            if (yield from self._has_below(store, dst)):
                raise FileExists(dst)
            if target is not None:
                store.delete(self._key(dst))
            yield from self._check_ancestors(store, dst)
            now = self._clock()
            below = yield store.getAll(self._below(src))
            moved = [record] if record is not None else []
            moved += list(below)
            store.delete(self._below(src))
            store.delete(self._key(src))
            for old in moved:
                new_path = dst + str(old.path)[len(src) :]
                if old.dir:
                    store.put(self._dir_record(new_path, float(old.modified)))
                else:
                    store.put(self._file_record(new_path, old.data.to_bytes(), float(old.modified)))
            if record is None:  # an implicit source directory still exists as dst
                store.put(self._dir_record(dst, now))
            yield from self._keep_parent(store, src)

        await self._run("readwrite", body)


def _is_dir_record(record: Any) -> bool:
    return record is not None and bool(record.dir)


def _is_file_record(record: Any) -> bool:
    return record is not None and not record.dir
