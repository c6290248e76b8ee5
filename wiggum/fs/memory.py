"""The in-memory FileStore: the test backend, the FileStore's rules over a dict.

One :class:`~wiggum.fs.records.Record` per file and per explicit directory,
by path; what each operation checks and does is :mod:`wiggum.fs.records`'s,
the same rules the page's IndexedDB store runs.  Every operation runs to its
end without awaiting, so it is atomic with respect to other tasks on the same
loop, as an IndexedDB transaction is; a body checks everything before it
changes anything, and a batch (``write_many``) is undone when one of its
writes is refused.
"""

from __future__ import annotations

import builtins
import time
from collections.abc import Callable, Iterable
from typing import Any

from . import records
from .paths import is_within, normalize_path
from .records import Body, Op, Record
from .store import FileStat, FileStoreBase, Kind

__all__ = ["MemoryFileStore"]


class MemoryFileStore(FileStoreBase):
    def __init__(
        self,
        files: dict[str, bytes | str] | None = None,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._clock = clock
        self._records: dict[str, Record] = {}
        for path, data in (files or {}).items():
            raw = data.encode() if isinstance(data, str) else bytes(data)
            self._run(records.write(normalize_path(path, allow_root=False), raw, clock()))

    def __repr__(self) -> str:
        return f"MemoryFileStore({sum(not r.dir for r in self._records.values())} files)"

    def _below(self, path: str) -> list[Record]:
        return [r for p, r in self._records.items() if p != path and is_within(p, path)]

    def _answer(self, op: Op) -> Any:
        if op.kind == "get":
            return self._records.get(op.path)
        if op.kind == "below":
            return any(p != op.path and is_within(p, op.path) for p in self._records)
        if op.kind == "all_below":
            return self._below(op.path)
        if op.kind == "paths_below":
            below = self._below(op.path)
            return [r.path for r in below], {r.path for r in below if r.dir}
        if op.kind == "put":
            data = op.data
            size = 0 if data is None else len(data)
            load = None if data is None else (lambda: data)
            self._records[op.path] = Record(op.path, data is None, op.modified, size, load)
        elif op.kind == "delete":
            self._records.pop(op.path, None)
        elif op.kind == "delete_below":
            for record in self._below(op.path):
                del self._records[record.path]
        return None

    def _run(self, body: Body) -> Any:
        return records.run(body, self._answer)

    # -- queries -----------------------------------------------------------

    async def read_bytes(self, path: str) -> bytes:
        return self._run(records.read_bytes(normalize_path(path)))

    async def kind(self, path: str) -> Kind:
        return self._run(records.kind(path))

    async def stat(self, path: str) -> FileStat:
        return self._run(records.stat(normalize_path(path)))

    async def list(
        self, prefix: str = "", recursive: bool = True, *, dirs: bool = False
    ) -> builtins.list[str]:
        return self._run(records.listing(normalize_path(prefix), recursive, dirs))

    async def stats(
        self, prefix: str = "", *, exclude: Iterable[str] = ()
    ) -> builtins.list[FileStat]:
        folders = tuple(normalize_path(x) for x in exclude)
        return self._run(records.stats(normalize_path(prefix), folders))

    async def read_many(self, paths: builtins.list[str]) -> dict[str, bytes]:
        """Several files' bytes; ``FileNotFound``/``IsADirectory`` as ``read_bytes``."""
        return {normalize_path(p): await self.read_bytes(p) for p in paths}

    # -- changes -----------------------------------------------------------

    async def write_bytes(self, path: str, data: bytes) -> None:
        if not isinstance(data, bytes | bytearray | memoryview):
            raise TypeError(f"write_bytes needs bytes, not {type(data).__name__}")
        self._run(records.write(normalize_path(path, allow_root=False), bytes(data), self._clock()))

    async def write_many(self, items: dict[str, bytes], *, remove: Iterable[str] = ()) -> None:
        """The files ``remove`` removed and ``items`` written as one change: all
        of it or, when one part fails, none."""
        for data in items.values():
            if not isinstance(data, bytes | bytearray | memoryview):
                raise TypeError(f"write_many needs bytes, not {type(data).__name__}")
        saved = dict(self._records)
        try:
            for path in remove:
                self._run(records.discard(normalize_path(path, allow_root=False)))
            for path, data in items.items():
                path = normalize_path(path, allow_root=False)
                self._run(records.write(path, bytes(data), self._clock()))
        except BaseException:
            self._records = saved
            raise

    async def mkdir(self, path: str, parents: bool = True) -> None:
        self._run(records.mkdir(normalize_path(path), parents, self._clock()))

    async def remove(self, path: str, recursive: bool = False) -> None:
        self._run(records.remove(normalize_path(path, allow_root=False), recursive, self._clock()))

    async def rename(self, src: str, dst: str) -> None:
        src = normalize_path(src, allow_root=False)
        dst = normalize_path(dst, allow_root=False)
        self._run(records.rename(src, dst, self._clock()))
