"""The FileStore seam: what every backend (memory, IndexedDB) must provide.

Semantics (written once, in :mod:`wiggum.fs.records`, which both backends
carry out; ``tests/fs/conformance.py`` checks any backend against them):

- Paths are normalized with ``normalize_path`` by the store itself; a bad path
  raises ``PathError`` (a ``ValueError``).  The root is ``""``.
- Directories are implicit: a file ``a/b/c.txt`` makes ``a`` and ``a/b``
  directories.  ``mkdir`` also records an explicit, possibly empty directory,
  and removing or moving the last file out of a directory leaves the directory
  behind, as on a disk.
- Writes create missing parent directories; writing where a directory is, or
  below a file, fails (``IsADirectory`` / ``NotADirectory``).
- ``list`` returns sorted full paths (never relative to ``prefix``).
- ``modified`` comes from the clock the store was built with (seconds).
- An awaited write is durable.

:class:`FileStoreBase` writes once what every backend derives the same way
from its own primitives: text from bytes (``read_text``, ``write_text``),
existence and directory-ness from :meth:`FileStoreBase.kind`.  And
:func:`is_binary` is the one rule for "show these bytes as text or not"
(the history's diffs, the file viewer).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

from .errors import NotText
from .paths import normalize_path

__all__ = ["FileStat", "FileStore", "FileStoreBase", "is_binary"]

#: What is at a path: a file, a directory, or nothing (``None``).
Kind = Literal["file", "dir"] | None


def is_binary(data: bytes) -> bool:
    """Bytes that are not shown as text: a NUL in the first 8 KiB, or not UTF-8."""
    if b"\x00" in data[:8192]:
        return True
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


@dataclass(frozen=True, slots=True)
class FileStat:
    path: str
    #: Bytes for a file; 0 for a directory.
    size: int
    #: Seconds since the epoch, from the store's clock.  A directory reports
    #: the newest time among itself and everything below it.
    modified: float
    is_dir: bool


@runtime_checkable
class FileStore(Protocol):
    async def read_bytes(self, path: str) -> bytes:
        """The file's bytes.  ``FileNotFound``, ``IsADirectory``."""
        ...

    async def read_text(self, path: str) -> str:
        """The file decoded as UTF-8.  ``NotText`` when it is not valid UTF-8."""
        ...

    async def write_bytes(self, path: str, data: bytes) -> None:
        """Create or replace a file; parents are created.

        ``IsADirectory`` when ``path`` is a directory, ``NotADirectory`` when an
        ancestor is a file, ``PathError`` for the root.
        """
        ...

    async def write_text(self, path: str, text: str) -> None:
        """``write_bytes`` of ``text`` encoded as UTF-8."""
        ...

    async def write_many(self, items: dict[str, bytes], *, remove: Iterable[str] = ()) -> None:
        """Remove the files ``remove``, then ``write_bytes`` every item: one change,
        all or none.

        The same checks and errors as ``write_bytes``, applied in order (a
        later item conflicting with an earlier one fails the batch); a path of
        ``remove`` that is not a file fails it (``FileNotFound``,
        ``IsADirectory``).  A directory a removed file leaves empty goes with
        it (unlike ``remove``): a revert that turns ``a/b`` into a file ``a``
        is one batch.  One IndexedDB transaction instead of one per file:
        history checkpoints write ~100 objects at once, a revert changes the
        whole project or nothing.
        """
        ...

    async def read_many(self, paths: list[str]) -> dict[str, bytes]:
        """normalized path -> bytes for every path; errors as ``read_bytes``."""
        ...

    async def list(
        self, prefix: str = "", recursive: bool = True, *, dirs: bool = False
    ) -> list[str]:
        """Sorted paths below the directory ``prefix``.

        Files only, unless ``dirs`` is true: then directories (explicit and
        implicit) are listed too.  Not recursive: only direct children.
        ``FileNotFound`` when ``prefix`` does not exist, ``NotADirectory`` when
        it is a file.
        """
        ...

    async def stats(self, prefix: str = "", *, exclude: Iterable[str] = ()) -> list[FileStat]:
        """Every file below the directory ``prefix`` with its size and time, sorted by
        path, leaving out what is below the folders ``exclude``; bytes are not read.

        One read for the whole project: the history asks it at each checkpoint
        to hash only the files whose size or time changed (as git's index does).
        ``FileNotFound`` / ``NotADirectory`` as ``list``.
        """
        ...

    async def exists(self, path: str) -> bool:
        """A file or a directory is there.  The root always exists."""
        ...

    async def is_dir(self, path: str) -> bool: ...

    async def stat(self, path: str) -> FileStat:
        """``FileNotFound`` when nothing is there."""
        ...

    async def mkdir(self, path: str, parents: bool = True) -> None:
        """Create a directory.

        ``parents=True`` (``mkdir -p``): missing parents are created and an
        existing directory is fine.  ``parents=False``: ``FileNotFound`` when
        the parent is missing, ``FileExists`` when the directory exists.
        Either way ``FileExists`` when a file is there and ``NotADirectory``
        when an ancestor is a file.
        """
        ...

    async def remove(self, path: str, recursive: bool = False) -> None:
        """Remove a file, or a directory (``DirectoryNotEmpty`` unless empty or
        ``recursive``).  ``FileNotFound`` when nothing is there; the root
        cannot be removed (``PathError``).
        """
        ...

    async def rename(self, src: str, dst: str) -> None:
        """Move a file or a directory tree to exactly ``dst``.

        A file replaces an existing file at ``dst`` (``IsADirectory`` when
        ``dst`` is a directory).  A directory needs ``dst`` to be absent or an
        empty directory (``FileExists`` otherwise) and cannot move into itself
        (``PathError``).  Missing parents of ``dst`` are created.
        """
        ...


class FileStoreBase:
    """The methods every backend builds the same way from its primitives.

    A backend implements ``read_bytes``, ``write_bytes`` and :meth:`kind`
    (the rest of :class:`FileStore` too); this adds ``read_text``,
    ``write_text``, ``exists`` and ``is_dir`` on top of them, so the two
    backends cannot drift apart on what these mean."""

    async def read_bytes(self, path: str) -> bytes:
        raise NotImplementedError

    async def write_bytes(self, path: str, data: bytes) -> None:
        raise NotImplementedError

    async def kind(self, path: str) -> Kind:
        """``"file"``, ``"dir"`` or ``None`` at the normalized ``path`` (the root is a dir)."""
        raise NotImplementedError

    async def read_text(self, path: str) -> str:
        data = await self.read_bytes(path)
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            raise NotText(normalize_path(path)) from None

    async def write_text(self, path: str, text: str) -> None:
        if not isinstance(text, str):
            raise TypeError(f"write_text needs str, not {type(text).__name__}")
        await self.write_bytes(path, text.encode("utf-8"))

    async def exists(self, path: str) -> bool:
        return await self.kind(normalize_path(path)) is not None

    async def is_dir(self, path: str) -> bool:
        return await self.kind(normalize_path(path)) == "dir"
