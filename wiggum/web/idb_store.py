"""The IndexedDB FileStore: a project's files, write-through.

One record per file, and one per explicit directory, in the ``files`` store
of the app database; their keys, shapes and ranges are
:mod:`wiggum.persist.schema`'s.  What each operation checks and does is
:mod:`wiggum.fs.records`'s, the rules the memory store runs too (and
``tests/fs/conformance.py`` checks here, in the browser): this module carries
a body's ops out as IndexedDB requests, all of one operation in one
transaction, so its checks and its changes are all-or-nothing (a directory
rename moves every record or none), and an awaited change has committed.
"""

from __future__ import annotations

import builtins
import time
from collections.abc import Awaitable, Callable, Generator, Iterable
from typing import Any

import js  # type: ignore[import-not-found]

from wiggum.fs import records
from wiggum.fs.errors import FileNotFound, IsADirectory
from wiggum.fs.paths import is_within, normalize_path
from wiggum.fs.records import Body, Op, Record
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

#: A transaction's body: it yields IndexedDB requests and is sent their results.
Requests = Generator[Any, Any, Any]


def _record(raw: Any) -> Record | None:
    if raw is None:
        return None
    if raw.dir:
        return Record(str(raw.path), True, float(raw.modified))
    return Record(str(raw.path), False, float(raw.modified), int(raw.size), raw.data.to_bytes)


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

    def _key(self, path: str) -> Any:
        return key([self.project_id, path])

    def _below(self, path: str) -> Any:
        """Every key strictly below directory ``path`` (the root: the project)."""
        if not path:
            return prefix_range(self.project_id)
        lower, upper = below_bounds(self.project_id, path)
        return js.IDBKeyRange.bound(key(lower), key(upper), False, True)

    # -- a body's ops as requests ------------------------------------------------

    def _answer(self, store: Any, op: Op) -> Requests:
        """Carry ``op`` out on ``store``; yields the requests it waits for."""
        if op.kind == "get":
            return _record((yield store.get(self._key(op.path))))
        if op.kind == "below":
            return (yield store.getKey(self._below(op.path))) is not None
        if op.kind == "all_below":
            return [_record(r) for r in (yield store.getAll(self._below(op.path)))]
        if op.kind == "paths_below":
            below = self._below(op.path)
            keys = yield store.getAllKeys(below)
            dir_keys = yield store.index(DIRS_INDEX).getAllKeys(below)
            return [k[1] for k in keys], {k[1] for k in dir_keys}
        if op.kind == "put":
            pid = self.project_id
            if op.data is None:
                store.put(to_record(dir_record(pid, op.path, op.modified)))
            else:
                store.put(to_record(file_record(pid, op.path, op.data, op.modified)))
        elif op.kind == "delete":
            store.delete(self._key(op.path))
        elif op.kind == "delete_below":
            store.delete(self._below(op.path))
        return None

    async def _run(self, mode: str, body: Body | Callable[[Any], Requests]) -> Any:
        fence = None
        if mode == "readwrite" and self._fence is not None:
            fence = await self._fence()

        def requests(tx: Any) -> Requests:
            store = tx.objectStore(FILES)
            if callable(body):
                return body(store)
            return records.relay(body, lambda op: self._answer(store, op))

        return await self._db.run(FILES, mode, requests, fence=fence)

    # -- the FileStore -------------------------------------------------------------

    async def read_bytes(self, path: str) -> bytes:
        return await self._run("readonly", records.read_bytes(normalize_path(path)))

    async def kind(self, path: str) -> Kind:
        return await self._run("readonly", records.kind(path))

    async def stat(self, path: str) -> FileStat:
        return await self._run("readonly", records.stat(normalize_path(path)))

    async def list(
        self, prefix: str = "", recursive: bool = True, *, dirs: bool = False
    ) -> builtins.list[str]:
        return await self._run("readonly", records.listing(normalize_path(prefix), recursive, dirs))

    async def write_bytes(self, path: str, data: bytes) -> None:
        if not isinstance(data, bytes | bytearray | memoryview):
            raise TypeError(f"write_bytes needs bytes, not {type(data).__name__}")
        path = normalize_path(path, allow_root=False)
        await self._run("readwrite", records.write(path, bytes(data), self._clock()))

    async def mkdir(self, path: str, parents: bool = True) -> None:
        await self._run("readwrite", records.mkdir(normalize_path(path), parents, self._clock()))

    async def remove(self, path: str, recursive: bool = False) -> None:
        path = normalize_path(path, allow_root=False)
        await self._run("readwrite", records.remove(path, recursive, self._clock()))

    async def rename(self, src: str, dst: str) -> None:
        src = normalize_path(src, allow_root=False)
        dst = normalize_path(dst, allow_root=False)
        await self._run("readwrite", records.rename(src, dst, self._clock()))

    # -- batches: every request asked for at once ------------------------------------

    async def stats(
        self, prefix: str = "", *, exclude: Iterable[str] = ()
    ) -> builtins.list[FileStat]:
        """The files' sizes and times in one transaction: a ``getAll`` per key range
        around the folders ``exclude`` (the history's ``.git/`` is not read).
        IndexedDB cannot read part of a record, so the files' bytes are read by
        the browser, but never turned into Python (~3 ms a MB in Chromium,
        against ~0.1 ms a file for a cursor stepped from Python)."""
        prefix = normalize_path(prefix)
        folders = sorted({normalize_path(x) for x in exclude})
        folders = [x for x in folders if x and x != prefix and is_within(x, prefix)]
        ranges = self._ranges_around(prefix, folders)

        def body(store: Any) -> Requests:
            yield from records.relay(records.directory(prefix), lambda op: self._answer(store, op))
            requests = [store.getAll(r) for r in ranges]
            yield requests[-1]
            out = []
            for request in requests:
                for r in request.result:
                    path = str(r.path)
                    if not r.dir and not any(is_within(path, x) for x in folders):
                        out.append(FileStat(path, int(r.size), float(r.modified), False))
            return sorted(out, key=lambda st: st.path)

        return await self._run("readonly", body)

    def _ranges_around(self, prefix: str, folders: builtins.list[str]) -> builtins.list[Any]:
        """Key ranges covering everything below ``prefix`` but below ``folders``."""
        pid = self.project_id
        if prefix:
            (lower, upper), lower_open = below_bounds(pid, prefix), False
        else:
            lower, upper, lower_open = [pid], [pid, []], True
        out = []
        for folder in folders:
            gap_lo, gap_hi = below_bounds(pid, folder)
            out.append(js.IDBKeyRange.bound(key(lower), key(gap_lo), lower_open, True))
            lower, lower_open = gap_hi, False
        out.append(js.IDBKeyRange.bound(key(lower), key(upper), lower_open, bool(prefix)))
        return out

    async def write_many(self, items: dict[str, bytes], *, remove: Iterable[str] = ()) -> None:
        """The files ``remove`` removed, then several ``write_bytes``, in one
        transaction, all or none.

        Every check ``write_bytes`` makes is asked for at once (each distinct
        ancestor once), then answered from the results: a request awaited per
        check and per file made a 100-object history checkpoint take ~400
        round trips through the event loop.  IndexedDB runs a transaction's
        requests in order, so the last one succeeding means all have.
        """
        for data in items.values():
            if not isinstance(data, bytes | bytearray | memoryview):
                raise TypeError(f"write_many needs bytes, not {type(data).__name__}")
        gone = [normalize_path(p, allow_root=False) for p in remove]
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

        def body(store: Any) -> Requests:
            for path in gone:  # first, so the checks below see the project without them
                yield from records.relay(records.discard(path), lambda op: self._answer(store, op))
            found = [store.get(keys[i]) for i in range(len(paths))]
            below = [store.getKey(bound(lows[i], highs[i], False, True)) for i in range(len(paths))]
            parents = {a: store.get(self._key(a)) for a in above}
            if paths:
                yield below[-1] if not parents else list(parents.values())[-1]
            check_batch(
                paths,
                dirs={p for p, r in zip(paths, found, strict=True) if _is_dir_record(r.result)},
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

        def body(store: Any) -> Requests:
            requests = [store.get(self._key(p)) if p else None for p in wanted]
            last = next((r for r in reversed(requests) if r is not None), None)
            if last is not None:
                yield last
            out: dict[str, bytes] = {}
            for path, request in zip(wanted, requests, strict=True):
                record = request.result if request is not None else None
                if record is None or record.dir:
                    if record is None and path and (yield store.getKey(self._below(path))) is None:
                        raise FileNotFound(path)
                    raise IsADirectory(path)
                out[path] = record.data.to_bytes()
            return out

        return await self._run("readonly", body)


def _is_dir_record(record: Any) -> bool:
    return record is not None and bool(record.dir)


def _is_file_record(record: Any) -> bool:
    return record is not None and not record.dir
