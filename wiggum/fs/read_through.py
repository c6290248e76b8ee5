"""A FileStore in front of another that passes every read through unchanged.

The stores that stand in front of a project's files (the tab guard in
``wiggum.persist.guarded``, Ralph's approval gate in
``wiggum.ralph.approval``) decide about writes only; their reads are the
inner store's.  They share this base rather than each spelling the reads out.
"""

from __future__ import annotations

from collections.abc import Iterable

from .store import FileStat, FileStore

__all__ = ["ReadThrough"]


class ReadThrough:
    """Reads (and ``exists``/``stat``) of ``inner``, as they are; subclasses add the writes."""

    inner: FileStore

    async def read_bytes(self, path: str) -> bytes:
        return await self.inner.read_bytes(path)

    async def read_text(self, path: str) -> str:
        return await self.inner.read_text(path)

    async def read_many(self, paths: list[str]) -> dict[str, bytes]:
        return await self.inner.read_many(paths)

    async def list(
        self, prefix: str = "", recursive: bool = True, *, dirs: bool = False
    ) -> list[str]:
        return await self.inner.list(prefix, recursive, dirs=dirs)

    async def stats(self, prefix: str = "", *, exclude: Iterable[str] = ()) -> list[FileStat]:
        return await self.inner.stats(prefix, exclude=exclude)

    async def exists(self, path: str) -> bool:
        return await self.inner.exists(path)

    async def is_dir(self, path: str) -> bool:
        return await self.inner.is_dir(path)

    async def stat(self, path: str) -> FileStat:
        return await self.inner.stat(path)
