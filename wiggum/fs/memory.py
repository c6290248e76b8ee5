"""The in-memory FileStore: the reference semantics and the test backend.

Every method does its work without awaiting in between, so each operation is
atomic with respect to other tasks on the same loop, as an IndexedDB
transaction is.
"""

from __future__ import annotations

import builtins
import time
from collections.abc import Callable

from .errors import (
    DirectoryNotEmpty,
    FileExists,
    FileNotFound,
    IsADirectory,
    NotADirectory,
)
from .paths import PathError, dirname, is_within, list_below, normalize_path
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
        # path -> (data, modified)
        self._files: dict[str, tuple[bytes, float]] = {}
        # Explicit directories (mkdir, or left behind by remove/rename) -> modified.
        self._dirs: dict[str, float] = {}
        for path, data in (files or {}).items():
            raw = data.encode() if isinstance(data, str) else bytes(data)
            self._put(normalize_path(path, allow_root=False), raw)

    def __repr__(self) -> str:
        return f"MemoryFileStore({len(self._files)} files)"

    # -- queries -----------------------------------------------------------

    def _is_file(self, path: str) -> bool:
        return path in self._files

    def _is_dir(self, path: str) -> bool:
        if not path or path in self._dirs:
            return True
        prefix = path + "/"
        return any(p.startswith(prefix) for p in self._files) or any(
            d.startswith(prefix) for d in self._dirs
        )

    def _check_ancestors(self, path: str) -> None:
        parent = dirname(path)
        while parent:
            if parent in self._files:
                raise NotADirectory(parent)
            parent = dirname(parent)

    async def read_bytes(self, path: str) -> bytes:
        path = normalize_path(path)
        if path in self._files:
            return self._files[path][0]
        if self._is_dir(path):
            raise IsADirectory(path)
        raise FileNotFound(path)

    async def kind(self, path: str) -> Kind:
        if self._is_file(path):
            return "file"
        return "dir" if self._is_dir(path) else None

    async def stat(self, path: str) -> FileStat:
        path = normalize_path(path)
        if path in self._files:
            data, modified = self._files[path]
            return FileStat(path, len(data), modified, False)
        if not self._is_dir(path):
            raise FileNotFound(path)
        times = [m for p, (_, m) in self._files.items() if is_within(p, path)]
        times += [m for d, m in self._dirs.items() if is_within(d, path)]
        return FileStat(path, 0, max(times, default=0.0), True)

    async def list(
        self, prefix: str = "", recursive: bool = True, *, dirs: bool = False
    ) -> builtins.list[str]:
        prefix = normalize_path(prefix)
        if prefix in self._files:
            raise NotADirectory(prefix)
        if not self._is_dir(prefix):
            raise FileNotFound(prefix)
        candidates = builtins.list(self._files)
        if dirs:
            candidates += self._dirs
        below = (p for p in candidates if p != prefix and is_within(p, prefix))
        return list_below(below, prefix, recursive=recursive, dirs=dirs)

    # -- changes -----------------------------------------------------------

    def _put(self, path: str, data: bytes) -> None:
        if self._is_dir(path) and path not in self._files:
            raise IsADirectory(path)
        self._check_ancestors(path)
        self._files[path] = (data, self._clock())

    async def write_bytes(self, path: str, data: bytes) -> None:
        if not isinstance(data, bytes | bytearray | memoryview):
            raise TypeError(f"write_bytes needs bytes, not {type(data).__name__}")
        self._put(normalize_path(path, allow_root=False), bytes(data))

    async def write_many(self, items: dict[str, bytes]) -> None:
        """Several ``write_bytes`` as one change: all are written or, when one
        fails, none."""
        for data in items.values():
            if not isinstance(data, bytes | bytearray | memoryview):
                raise TypeError(f"write_many needs bytes, not {type(data).__name__}")
        saved = dict(self._files)
        try:
            for path, data in items.items():
                self._put(normalize_path(path, allow_root=False), bytes(data))
        except BaseException:
            self._files = saved
            raise

    async def read_many(self, paths: builtins.list[str]) -> dict[str, bytes]:
        """Several files' bytes; ``FileNotFound``/``IsADirectory`` as ``read_bytes``."""
        return {normalize_path(p): await self.read_bytes(p) for p in paths}

    async def mkdir(self, path: str, parents: bool = True) -> None:
        path = normalize_path(path)
        if path in self._files:
            raise FileExists(path)
        self._check_ancestors(path)
        if self._is_dir(path):
            if parents:
                return
            raise FileExists(path)
        if not parents and not self._is_dir(dirname(path)):
            raise FileNotFound(dirname(path))
        now = self._clock()
        while path and not self._is_dir(path):
            self._dirs[path] = now
            path = dirname(path)

    def _keep_parent(self, path: str) -> None:
        """Leave the parent directory in place once its last entry is gone."""
        parent = dirname(path)
        if parent and not self._is_dir(parent):
            self._dirs[parent] = self._clock()

    async def remove(self, path: str, recursive: bool = False) -> None:
        path = normalize_path(path, allow_root=False)
        if path in self._files:
            del self._files[path]
            self._keep_parent(path)
            return
        if not self._is_dir(path):
            raise FileNotFound(path)
        inside_files = [p for p in self._files if is_within(p, path)]
        inside_dirs = [d for d in self._dirs if is_within(d, path) and d != path]
        if (inside_files or inside_dirs) and not recursive:
            raise DirectoryNotEmpty(path)
        for p in inside_files:
            del self._files[p]
        for d in [*inside_dirs, path]:
            self._dirs.pop(d, None)
        self._keep_parent(path)

    async def rename(self, src: str, dst: str) -> None:
        src = normalize_path(src, allow_root=False)
        dst = normalize_path(dst, allow_root=False)
        if src in self._files:
            if src == dst:
                return
            if self._is_dir(dst) and dst not in self._files:
                raise IsADirectory(dst)
            self._check_ancestors(dst)
            data, _ = self._files.pop(src)
            self._files[dst] = (data, self._clock())
            self._keep_parent(src)
            return
        if not self._is_dir(src):
            raise FileNotFound(src)
        if src == dst:
            return
        if is_within(dst, src):
            raise PathError(f"cannot move directory {src!r} into itself ({dst!r})")
        if dst in self._files:
            raise FileExists(dst)
        if self._is_dir(dst):
            if any(is_within(p, dst) for p in self._files) or any(
                is_within(d, dst) and d != dst for d in self._dirs
            ):
                raise FileExists(dst)
            self._dirs.pop(dst, None)
        self._check_ancestors(dst)
        now = self._clock()
        moved_files = {p: v for p, v in self._files.items() if is_within(p, src)}
        moved_dirs = {d: m for d, m in self._dirs.items() if is_within(d, src)}
        for p in moved_files:
            del self._files[p]
        for d in moved_dirs:
            del self._dirs[d]
        for p, (data, modified) in moved_files.items():
            self._files[dst + p[len(src) :]] = (data, modified)
        for d, modified in moved_dirs.items():
            self._dirs[dst + d[len(src) :]] = modified
        # An empty source directory must still exist under its new name.
        self._dirs.setdefault(dst, now)
        self._keep_parent(src)
