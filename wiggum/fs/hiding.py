"""A FileStore view that hides one top-level folder (the project's ``.git/``).

Chief, Ralph, the gates and the preview get this view: the history is the
person's safety net, not the agents' memory, and an agent must not be able
to list, read, overwrite or delete it.  Hidden paths behave as absent for
reads and are refused, with the reason, for writes.
"""

from __future__ import annotations

from collections.abc import Iterable

from .errors import FileNotFound
from .paths import PathError, normalize_path
from .store import FileStat, FileStore

__all__ = ["HidingFileStore"]


class HidingFileStore:
    def __init__(self, inner: FileStore, hidden: str = ".git") -> None:
        self.inner = inner
        self.hidden = hidden

    def __repr__(self) -> str:
        return f"HidingFileStore({self.inner!r}, hidden={self.hidden!r})"

    def _is_hidden(self, path: str) -> bool:
        p = normalize_path(path)
        return p == self.hidden or p.startswith(self.hidden + "/")

    def _absent(self, path: str) -> None:
        if self._is_hidden(path):
            raise FileNotFound(path)

    def _refuse(self, path: str) -> None:
        if self._is_hidden(path):
            raise PathError(
                f"{path}: {self.hidden}/ holds the project's history (kept by Wiggum for the "
                "person); use another name"
            )

    async def read_bytes(self, path: str) -> bytes:
        self._absent(path)
        return await self.inner.read_bytes(path)

    async def read_text(self, path: str) -> str:
        self._absent(path)
        return await self.inner.read_text(path)

    async def write_bytes(self, path: str, data: bytes) -> None:
        self._refuse(path)
        await self.inner.write_bytes(path, data)

    async def write_text(self, path: str, text: str) -> None:
        self._refuse(path)
        await self.inner.write_text(path, text)

    async def write_many(self, items: dict[str, bytes], *, remove: Iterable[str] = ()) -> None:
        remove = list(remove)
        for path in [*items, *remove]:
            self._refuse(path)
        await self.inner.write_many(items, remove=remove)

    async def read_many(self, paths: list[str]) -> dict[str, bytes]:
        for path in paths:
            self._absent(path)
        return await self.inner.read_many(paths)

    async def list(
        self, prefix: str = "", recursive: bool = True, *, dirs: bool = False
    ) -> list[str]:
        self._absent(prefix)
        paths = await self.inner.list(prefix, recursive, dirs=dirs)
        return [p for p in paths if not self._is_hidden(p)]

    async def stats(self, prefix: str = "", *, exclude: Iterable[str] = ()) -> list[FileStat]:
        self._absent(prefix)
        return await self.inner.stats(prefix, exclude=(*exclude, self.hidden))

    async def exists(self, path: str) -> bool:
        return not self._is_hidden(path) and await self.inner.exists(path)

    async def is_dir(self, path: str) -> bool:
        return not self._is_hidden(path) and await self.inner.is_dir(path)

    async def stat(self, path: str) -> FileStat:
        self._absent(path)
        return await self.inner.stat(path)

    async def mkdir(self, path: str, parents: bool = True) -> None:
        self._refuse(path)
        await self.inner.mkdir(path, parents)

    async def remove(self, path: str, recursive: bool = False) -> None:
        self._absent(path)
        await self.inner.remove(path, recursive)

    async def rename(self, src: str, dst: str) -> None:
        self._absent(src)
        self._refuse(dst)
        await self.inner.rename(src, dst)
