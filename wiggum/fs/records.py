"""The FileStore's rules written once, over records keyed by path.

Both backends keep one record per file and one per explicit directory (made
by ``mkdir``, or left behind when the last entry of a directory goes), in
path order: the memory store in a dict (``wiggum.fs.memory``), the page in
IndexedDB (``wiggum.web.idb_store``).  What a read finds and what a change
checks and does is decided here, once, as generator bodies in the sans-I/O
style: a body yields :class:`Op`\\ s (read a record, is anything below a
directory, put, delete) and is sent each one's answer; the backend carries
them out.  In the page a body runs inside one IndexedDB transaction, so its
checks and its changes are all-or-nothing.

A body checks everything before it changes anything, so the memory store
needs no undo for a refused operation.  Paths come normalized (the store's
public methods do it).
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any, Literal

from .errors import DirectoryNotEmpty, FileExists, FileNotFound, IsADirectory, NotADirectory
from .paths import PathError, dirname, is_within, list_below
from .store import FileStat

__all__ = [
    "Body",
    "Op",
    "Record",
    "directory",
    "discard",
    "kind",
    "listing",
    "mkdir",
    "read_bytes",
    "relay",
    "remove",
    "rename",
    "run",
    "stat",
    "stats",
    "write",
]

#: ``get``: the record at a path, or ``None``.  ``below``: whether any record is
#: strictly below a directory (the root: the whole project).  ``all_below``: those
#: records.  ``paths_below``: their paths, and which of them are directories.
#: ``put``: store a file (``data``) or a directory (``data`` is ``None``).
#: ``delete`` / ``delete_below``: remove the record at a path / every one below it.
OpKind = Literal["get", "below", "all_below", "paths_below", "put", "delete", "delete_below"]


@dataclass(frozen=True, slots=True)
class Op:
    kind: OpKind
    path: str
    data: bytes | None = None
    modified: float = 0.0


@dataclass(frozen=True, slots=True)
class Record:
    """A stored file or directory.  A file's bytes are read when asked for
    (``load``): most checks only need to know what is there."""

    path: str
    dir: bool
    modified: float
    size: int = 0
    load: Callable[[], bytes] | None = None

    @property
    def data(self) -> bytes:
        return self.load() if self.load is not None else b""


Body = Generator[Op, Any, Any]
_UNREAD: Any = object()


def _get(path: str) -> Body:
    return (yield Op("get", path))


def _has_below(path: str) -> Body:
    return (yield Op("below", path))


def _is_file(path: str) -> Body:
    if not path:
        return False
    record = yield from _get(path)
    return record is not None and not record.dir


def _is_dir(path: str, record: Any = _UNREAD) -> Body:
    """``record``: the record at ``path`` if already read."""
    if not path:
        return True
    if record is _UNREAD:
        record = yield from _get(path)
    if record is not None:
        return record.dir
    return (yield from _has_below(path))


def _check_ancestors(path: str) -> Body:
    parent = dirname(path)
    while parent:
        if (yield from _is_file(parent)):
            raise NotADirectory(parent)
        parent = dirname(parent)


def _keep_parent(path: str, now: float) -> Body:
    """Leave the parent directory in place once its last entry is gone."""
    parent = dirname(path)
    if parent and not (yield from _is_dir(parent)):
        yield Op("put", parent, None, now)


# -- reads ---------------------------------------------------------------------


def read_bytes(path: str) -> Body:
    record = (yield from _get(path)) if path else None
    if record is not None and not record.dir:
        return record.data
    if (yield from _is_dir(path, record)):
        raise IsADirectory(path)
    raise FileNotFound(path)


def kind(path: str) -> Body:
    record = (yield from _get(path)) if path else None
    if record is not None:
        return "dir" if record.dir else "file"
    return "dir" if (yield from _is_dir(path, None)) else None


def stat(path: str) -> Body:
    record = (yield from _get(path)) if path else None
    if record is not None and not record.dir:
        return FileStat(path, record.size, record.modified, False)
    if not (yield from _is_dir(path, record)):
        raise FileNotFound(path)
    times = [record.modified] if record is not None else []
    times += [r.modified for r in (yield Op("all_below", path))]
    return FileStat(path, 0, max(times, default=0.0), True)


def directory(prefix: str) -> Body:
    """Check that ``prefix`` is a directory (``list``'s errors)."""
    record = (yield from _get(prefix)) if prefix else None
    if record is not None and not record.dir:
        raise NotADirectory(prefix)
    if not (yield from _is_dir(prefix, record)):
        raise FileNotFound(prefix)


def stats(prefix: str, exclude: tuple[str, ...]) -> Body:
    """Every file below ``prefix`` but below ``exclude``, as :class:`FileStat`\\ s."""
    yield from directory(prefix)
    below = yield Op("all_below", prefix)
    return sorted(
        (
            FileStat(r.path, r.size, r.modified, False)
            for r in below
            if not r.dir and not any(is_within(r.path, x) for x in exclude)
        ),
        key=lambda st: st.path,
    )


def listing(prefix: str, recursive: bool, dirs: bool) -> Body:
    yield from directory(prefix)
    every, explicit_dirs = yield Op("paths_below", prefix)
    candidates = [p for p in every if dirs or p not in explicit_dirs]
    return list_below(candidates, prefix, recursive=recursive, dirs=dirs)


# -- changes -------------------------------------------------------------------


def write(path: str, data: bytes, now: float) -> Body:
    record = yield from _get(path)
    if record is not None and record.dir:
        raise IsADirectory(path)
    if record is None and (yield from _has_below(path)):
        raise IsADirectory(path)
    yield from _check_ancestors(path)
    yield Op("put", path, data, now)


def discard(path: str) -> Body:
    """Remove the file ``path`` in a batch: no directory is kept in its place."""
    record = yield from _get(path)
    if record is None or record.dir:
        if record is not None or (yield from _has_below(path)):
            raise IsADirectory(path)
        raise FileNotFound(path)
    yield Op("delete", path)


def mkdir(path: str, parents: bool, now: float) -> Body:
    if (yield from _is_file(path)):
        raise FileExists(path)
    yield from _check_ancestors(path)
    if (yield from _is_dir(path)):
        if parents:
            return
        raise FileExists(path)
    if not parents and not (yield from _is_dir(dirname(path))):
        raise FileNotFound(dirname(path))
    current = path
    while current and not (yield from _is_dir(current)):
        yield Op("put", current, None, now)
        current = dirname(current)


def remove(path: str, recursive: bool, now: float) -> Body:
    record = yield from _get(path)
    if record is not None and not record.dir:
        yield Op("delete", path)
        yield from _keep_parent(path, now)
        return
    if not (yield from _is_dir(path, record)):
        raise FileNotFound(path)
    if not recursive and (yield from _has_below(path)):
        raise DirectoryNotEmpty(path)
    yield Op("delete_below", path)
    yield Op("delete", path)
    yield from _keep_parent(path, now)


def rename(src: str, dst: str, now: float) -> Body:
    record = yield from _get(src)
    if record is not None and not record.dir:
        if src == dst:
            return
        target = yield from _get(dst)
        if (target is not None and target.dir) or (target is None and (yield from _has_below(dst))):
            raise IsADirectory(dst)
        yield from _check_ancestors(dst)
        data = record.data
        yield Op("delete", src)
        yield Op("put", dst, data, now)
        yield from _keep_parent(src, now)
        return
    if not (yield from _is_dir(src, record)):
        raise FileNotFound(src)
    if src == dst:
        return
    if is_within(dst, src):
        raise PathError(f"cannot move directory {src!r} into itself ({dst!r})")
    target = yield from _get(dst)
    if (target is not None and not target.dir) or (yield from _has_below(dst)):
        raise FileExists(dst)
    yield from _check_ancestors(dst)
    moved = ([record] if record is not None else []) + list((yield Op("all_below", src)))
    data = {r.path: r.data for r in moved if not r.dir}
    if target is not None:
        yield Op("delete", dst)
    yield Op("delete_below", src)
    yield Op("delete", src)
    for old in moved:
        new_path = dst + old.path[len(src) :]
        yield Op("put", new_path, None if old.dir else data[old.path], old.modified)
    if record is None:  # an implicit source directory still exists as dst
        yield Op("put", dst, None, now)
    yield from _keep_parent(src, now)


def relay(body: Body, answer: Callable[[Op], Generator[Any, Any, Any]]) -> Generator[Any, Any, Any]:
    """``body`` with each op carried out by ``answer(op)``: a generator that yields
    what the backend waits on (IndexedDB requests) and returns the op's answer."""
    value = None
    while True:
        try:
            op = body.send(value)
        except StopIteration as stop:
            return stop.value
        value = yield from answer(op)


def run(body: Body, answer: Callable[[Op], Any]) -> Any:
    """Carry ``body`` out at once, ``answer(op)`` answering each op (the memory store)."""

    def at_once(op: Op) -> Generator[Any, Any, Any]:
        return answer(op)
        yield  # a generator that waits on nothing

    relayed = relay(body, at_once)
    try:
        next(relayed)
    except StopIteration as stop:
        return stop.value
    raise RuntimeError("an answer waited on something")
