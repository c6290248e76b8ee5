"""A git object database in the project's FileStore: loose objects and packs.

Reads what git writes: loose objects (``.git/objects/ab/cdef…``) and packs
(``.git/objects/pack/pack-*.pack`` with their ``.idx``, as after ``git gc``
or in a clone, deltas included).  Writes each checkpoint's new objects as one
pack and its index, so a checkpoint of 100 files is two records, not 100;
small packs and loose objects are merged into one pack now and then (git's
``gc --auto`` does the same).

The formats are dulwich's: ``ShaFile`` parses loose objects, ``PackData``,
``PackIndex`` and ``Pack`` read packs and resolve their deltas,
``write_pack_objects`` and ``write_pack_index`` write them.  What is written
here is the I/O only: dulwich's ``DiskObjectStore`` reads with blocking
``os`` calls and ``mmap``, while the project's files are async (IndexedDB in
the page), so each file is read through the FileStore first and handed to
dulwich as bytes in memory.  A pack is read when one of its objects is first
asked for, and kept.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from dulwich.object_format import DEFAULT_OBJECT_FORMAT
from dulwich.objects import ShaFile
from dulwich.pack import Pack, PackData, load_pack_index_file, write_pack_index, write_pack_objects

from wiggum.fs.errors import FileNotFound
from wiggum.fs.store import FileStore

from .history_errors import HistoryUnreadable, unreadable

__all__ = ["OBJECTS", "PACKS", "ObjectStore", "missing", "write_pack"]

log = logging.getLogger("wiggum.project.history")

OBJECTS = ".git/objects"
PACKS = ".git/objects/pack"
#: A pack of at most this many objects counts as small: a checkpoint's.
SMALL_PACK = 256
#: Small packs merged into one once there are this many (git: gc.autoPackLimit 50).
MAX_SMALL_PACKS = 16
#: Loose objects packed once there are this many (an import, an older Wiggum's history).
MAX_LOOSE = 64
#: A pack with one of these beside it is git's to manage: it is never merged.
_GITS_OWN = (".keep", ".bitmap", ".rev", ".promisor", ".mtimes")


def missing(sha: bytes) -> HistoryUnreadable:
    return unreadable(f"its object {sha[:7].decode()} is missing from .git/")


@dataclass(slots=True)
class _PackFile:
    #: The path without ``.pack`` / ``.idx``.
    name: str
    index: Any
    #: Whether only git's own files sit beside it (never merged then).
    plain: bool = True
    pack: Pack | None = None
    data: bytes | None = field(default=None, repr=False)


def _index(name: str, data: bytes) -> Any:
    return load_pack_index_file(name + ".idx", io.BytesIO(data), DEFAULT_OBJECT_FORMAT)


def _pack(pf: _PackFile, data: bytes) -> Pack:
    packed = PackData.from_file(io.BytesIO(data), DEFAULT_OBJECT_FORMAT, size=len(data))
    return Pack.from_objects(packed, pf.index)


def _parsed(sha: bytes, parse: Callable[[], ShaFile]) -> ShaFile:
    """``parse()``: an object that cannot be parsed (a damaged pack or file) is said
    as such, whichever of zlib's or dulwich's errors it raised."""
    try:
        return parse()
    except Exception as exc:
        log.warning("history: object %s cannot be read: %r", sha[:7], exc)
        raise unreadable(f"its object {sha[:7].decode()} in .git/ is damaged") from None


def _loose_sha(path: str) -> bytes | None:
    """The object id of a loose object's path (``.git/objects/ab/cd…``), else ``None``."""
    rest = path[len(OBJECTS) + 1 :].split("/")
    if len(rest) != 2 or len(rest[0]) != 2 or len(rest[1]) != 38:
        return None
    hexsha = rest[0] + rest[1]
    if any(c not in "0123456789abcdef" for c in hexsha):
        return None
    return hexsha.encode()


def _loose_path(sha: bytes) -> str:
    hexsha = sha.decode()
    return f"{OBJECTS}/{hexsha[:2]}/{hexsha[2:]}"


class ObjectStore:
    """The objects of one project's ``.git/``; ids are hex ``bytes`` as dulwich's."""

    def __init__(self, fs: FileStore) -> None:
        self._fs = fs
        # Objects never change, so what was read once stays right.
        self._cache: dict[bytes, ShaFile] = {}
        self._packs: list[_PackFile] = []
        self._loose: set[bytes] = set()
        #: Objects made and not yet written (:meth:`pack_new`).
        self._new: dict[bytes, ShaFile] = {}
        self._loaded = False
        #: ``.git/objects/info/alternates``: objects kept in another repository.
        self.alternates = False
        self._midx = False

    async def load(self) -> None:
        """Read the packs' indexes and the loose objects' names (once)."""
        if self._loaded:
            return
        try:
            paths = await self._fs.list(OBJECTS)
        except FileNotFound:
            paths = []
        names = set(paths)
        self.alternates = f"{OBJECTS}/info/alternates" in names
        self._midx = f"{PACKS}/multi-pack-index" in names
        self._loose = {sha for sha in map(_loose_sha, paths) if sha is not None}
        packs = [p[:-4] for p in paths if p.startswith(PACKS + "/") and p.endswith(".idx")]
        packs = [p for p in packs if p + ".pack" in names]
        known = {pf.name: pf for pf in self._packs}
        raw = await self._fs.read_many([p + ".idx" for p in packs if p not in known])
        found = [known[p] for p in packs if p in known]
        for name in (p for p in packs if p not in known):
            try:
                index = _index(name, raw[name + ".idx"])
            except Exception as exc:
                log.warning("history: unreadable pack index %s: %s", name, exc)
                continue
            plain = not any(name + ext in names for ext in _GITS_OWN)
            found.append(_PackFile(name, index, plain))
        self._packs = found
        self._loaded = True

    # ---- reading ------------------------------------------------------------------

    def _pack_of(self, sha: bytes) -> _PackFile | None:
        for pf in self._packs:
            try:
                pf.index.object_offset(sha)
            except KeyError:
                continue
            return pf
        return None

    async def _opened(self, pf: _PackFile) -> Pack:
        if pf.pack is None:
            data = pf.data if pf.data is not None else await self._fs.read_bytes(pf.name + ".pack")
            try:
                pf.pack, pf.data = _pack(pf, data), None
            except Exception as exc:
                log.warning("history: pack %s cannot be read: %r", pf.name, exc)
                raise unreadable(f"{pf.name}.pack is damaged") from None
        return pf.pack

    async def get(self, sha: bytes) -> ShaFile:
        """The object ``sha``; :class:`HistoryUnreadable` when it is not there."""
        return (await self.get_many([sha]))[sha]

    async def get_many(self, shas: Iterable[bytes]) -> dict[bytes, ShaFile]:
        """Several objects, the loose ones read in one go."""
        await self.load()
        shas = list(shas)
        if any(
            s not in self._cache and s not in self._loose and not self._pack_of(s) for s in shas
        ):
            # Written since the packs were listed (another History of the same
            # project, another tab that had it): list them again, once.
            self._loaded = False
            await self.load()
        out: dict[bytes, ShaFile] = {}
        loose: list[bytes] = []
        for sha in shas:
            obj = self._cache.get(sha)
            if obj is not None:
                out[sha] = obj
                continue
            pf = self._pack_of(sha)
            if pf is not None:
                pack = await self._opened(pf)
                obj = _parsed(sha, lambda p=pack, s=sha: p[s])
                self._cache[sha] = out[sha] = obj
            elif sha in self._loose:
                loose.append(sha)
            else:
                raise missing(sha)
        if loose:
            raw = await self._fs.read_many([_loose_path(s) for s in loose])
            for sha in loose:
                data = raw[_loose_path(sha)]
                obj = _parsed(sha, lambda d=data: ShaFile.from_file(io.BytesIO(d)))
                self._cache[sha] = out[sha] = obj
        return out

    # ---- writing ------------------------------------------------------------------

    def add(self, obj: ShaFile) -> bytes:
        """Keep ``obj`` to be written with the next pack; returns its id."""
        sha = obj.id
        if sha not in self._cache:
            self._cache[sha] = obj
            self._new[sha] = obj
        return sha

    def pack_new(self) -> dict[str, bytes]:
        """The pack and index (path -> bytes) of the objects made since the last one."""
        return write_pack(self._new.values()) if self._new else {}

    def written(self, items: dict[str, bytes], removed: Iterable[str] = ()) -> None:
        """``items`` (from :meth:`pack_new` or :meth:`merge`) are stored, ``removed`` gone."""
        gone = set(removed)
        self._packs = [pf for pf in self._packs if pf.name + ".pack" not in gone]
        self._loose -= {sha for sha in map(_loose_sha, gone) if sha is not None}
        for path, data in items.items():
            if path.startswith(PACKS + "/") and path.endswith(".idx"):
                name = path[:-4]
                self._packs.append(_PackFile(name, _index(name, data), data=items[name + ".pack"]))
        self._new.clear()

    def forget_new(self) -> None:
        """The objects made were not stored after all: the next pack writes them."""
        for sha in self._new:
            self._cache.pop(sha, None)
        self._new.clear()

    async def merge(self) -> tuple[dict[str, bytes], list[str]] | None:
        """One pack for the small packs and loose objects, once there are many:
        (files to write, files to remove), or ``None`` when not needed yet."""
        await self.load()
        small = [pf for pf in self._packs if pf.plain and len(pf.index) <= SMALL_PACK]
        if self._midx or (len(small) < MAX_SMALL_PACKS and len(self._loose) < MAX_LOOSE):
            return None
        objects: dict[bytes, ShaFile] = {}
        for pf in small:
            for obj in (await self._opened(pf)).iterobjects():
                objects[obj.id] = obj
        objects.update(await self.get_many(sorted(self._loose)))
        removed = [pf.name + ext for pf in small for ext in (".idx", ".pack")]
        removed += [_loose_path(sha) for sha in sorted(self._loose)]
        return write_pack(objects.values()), removed


def write_pack(objects: Iterable[ShaFile]) -> dict[str, bytes]:
    """A pack of ``objects`` (whole, no deltas) and its version-2 index, named as git
    names them (by the pack's checksum)."""
    data = io.BytesIO()
    entries, checksum = write_pack_objects(data.write, list(objects), DEFAULT_OBJECT_FORMAT)
    index = io.BytesIO()
    rows = sorted((sha, offset, crc) for sha, (offset, crc) in entries.items())
    write_pack_index(index, rows, checksum, version=2)
    name = f"{PACKS}/pack-{checksum.hex()}"
    return {name + ".pack": data.getvalue(), name + ".idx": index.getvalue()}
