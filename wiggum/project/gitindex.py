"""The project's ``.git/index``: git's staging area, and the history's record of
which file had which content at which size and time.

Written at every checkpoint with every file of the checkpoint, so a
downloaded project is one ``git status`` finds clean right after unzipping
(the files' times differ there, so git compares contents once and agrees).
Read back at the next checkpoint: a file whose size and time are those of
its entry has that entry's content and is not read or hashed again, as in
git.  An entry as new as the index itself may hide a change made within the
same tick of the clock, so it is hashed anyway (git's "racily clean" rule).

dulwich writes and reads the format (``write_index_dict``,
``read_index_dict_with_version``, the checksum); the entries' times come
from the FileStore, the rest of the stat fields git keeps are 0.
"""

from __future__ import annotations

import hashlib
import io
import struct
from dataclasses import dataclass

from dulwich.index import (
    IndexEntry,
    Stage,
    read_index_dict_with_version,
    write_cache_entry,
)

__all__ = ["INDEX", "Entry", "index_bytes", "read_index", "stamp"]

INDEX = ".git/index"


def stamp(t: float) -> tuple[int, int]:
    """A time as the index keeps it: (seconds, nanoseconds)."""
    seconds, fraction = divmod(t, 1.0)
    return int(seconds), int(fraction * 1_000_000_000)


@dataclass(frozen=True, slots=True)
class Entry:
    """One file of the index: its git ``mode``, content ``sha`` (hex), and the
    ``size`` and ``mtime`` it had when that content was read (``None``: unknown)."""

    mode: int
    sha: bytes
    size: int = 0
    mtime: tuple[int, int] | None = None

    def matches(self, size: int, modified: float, index_time: tuple[int, int]) -> bool:
        """Whether a file of ``size`` written at ``modified`` has this entry's
        content, the index having been written at ``index_time``."""
        if self.mtime is None or self.mtime >= index_time:
            return False
        return self.size == size and self.mtime == stamp(modified)


def read_index(data: bytes) -> dict[str, Entry]:
    """The entries of an index (a merge's conflicting entries are left out);
    ``{}`` for one that cannot be read: it is only a record, the files decide."""
    try:
        entries, _version, _extensions = read_index_dict_with_version(io.BytesIO(data))
    except Exception:
        return {}
    out: dict[str, Entry] = {}
    for name, entry in entries.items():
        if not isinstance(entry, IndexEntry):
            continue
        mtime = entry.mtime if isinstance(entry.mtime, tuple) else stamp(float(entry.mtime))
        out[name.decode("utf-8", "surrogateescape")] = Entry(
            entry.mode, entry.sha, entry.size, mtime
        )
    return out


def _entry_bytes(path: str, entry: Entry) -> bytes:
    """One entry as an index of version 2 holds it (dulwich writes it)."""
    mtime = entry.mtime or (0, 0)
    row = IndexEntry(
        ctime=mtime,
        mtime=mtime,
        dev=0,
        ino=0,
        mode=entry.mode,
        uid=0,
        gid=0,
        size=entry.size & 0xFFFFFFFF,
        sha=entry.sha,
    )
    out = io.BytesIO()
    write_cache_entry(out, row.serialize(path.encode("utf-8", "surrogateescape"), Stage.NORMAL), 2)
    return out.getvalue()


def index_bytes(
    entries: dict[str, Entry], cache: dict[tuple[str, Entry], bytes] | None = None
) -> bytes:
    """An index (version 2, with its checksum) of ``entries``, in git's order.

    ``cache`` keeps each entry's bytes between calls: a checkpoint changes a few
    entries, and writing each of 100 through dulwich took most of its time."""
    cache = {} if cache is None else cache
    order = sorted(entries, key=lambda p: p.encode("utf-8", "surrogateescape"))
    rows = []
    for path in order:
        key = (path, entries[path])
        if key not in cache:
            cache[key] = _entry_bytes(path, entries[path])
        rows.append(cache[key])
    if len(cache) > 4 * len(entries) + 64:  # forget entries long gone
        for key in [k for k in cache if entries.get(k[0]) != k[1]]:
            del cache[key]
    body = b"DIRC" + struct.pack(">LL", 2, len(rows)) + b"".join(rows)
    return body + hashlib.sha1(body).digest()
