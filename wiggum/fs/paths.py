"""Project-relative POSIX paths: the one spelling every FileStore key uses.

A path names something inside the project.  The root is ``""`` (``"."`` is
accepted as a spelling of it).  ``normalize_path`` is the gate every backend
and tool passes a path through, so the store never sees two spellings of one
file nor a path that points outside the project.

``..`` is resolved, not refused: ``src/../index.html`` is ``index.html``.  Only
a ``..`` that climbs above the root is refused.  Resolving is friendlier to an
agent that writes ``../styles.css`` from ``pages/`` and cannot be abused,
because the result is checked after resolution.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = [
    "CONTROL_CHARS",
    "DRIVE",
    "ROOT",
    "WINDOWS_DEVICE_NAMES",
    "PathError",
    "basename",
    "dirname",
    "is_within",
    "join_path",
    "normalize_path",
]

ROOT = ""

#: A drive letter (``C:``, ``c:\\``) means a Windows absolute path.
DRIVE = re.compile(r"^[A-Za-z]:")
#: Control characters cannot be typed back by the model and break line-based
#: listings; NUL in particular truncates keys in some stores.
CONTROL_CHARS = re.compile(r"[\x00-\x1f\x7f]")
#: Windows device names: a file called so (any extension) cannot be unpacked
#: there, so an imported zip and a new file's name both refuse them.
WINDOWS_DEVICE_NAMES = frozenset(
    {"con", "prn", "aux", "nul"} | {f"{p}{i}" for p in ("com", "lpt") for i in range(1, 10)}
)


class PathError(ValueError):
    """A path that is not a valid project-relative path."""


def normalize_path(path: str, *, allow_root: bool = True) -> str:
    """Return the canonical spelling of ``path`` or raise ``PathError``.

    ``./a//b/`` becomes ``a/b``; ``""`` and ``"."`` are the root, refused when
    ``allow_root`` is false (an operation that needs a file).
    """
    return _resolve("", path, allow_root)


def join_path(base: str, path: str, *, allow_root: bool = True) -> str:
    """Resolve ``path`` relative to the directory ``base`` (a normalized path)."""
    return _resolve(base, path, allow_root)


def _resolve(base: str, path: str, allow_root: bool) -> str:
    _check_spelling(path)
    parts = base.split("/") if base else []
    for segment in path.split("/"):
        if segment in ("", "."):
            continue
        if segment == "..":
            if not parts:
                raise PathError(f"{path!r}: '..' leads outside the project")
            parts.pop()
            continue
        parts.append(segment)
    result = "/".join(parts)
    if not result and not allow_root:
        raise PathError(f"{path!r}: a file path is needed, not the project root")
    return result


def _check_spelling(path: str) -> None:
    if not isinstance(path, str):
        raise PathError(f"path must be a string, not {type(path).__name__}")
    if "\x00" in path:
        raise PathError(f"{path!r}: path contains a NUL byte")
    if CONTROL_CHARS.search(path):
        raise PathError(f"{path!r}: path contains a control character")
    if "\\" in path:
        raise PathError(f"{path!r}: backslashes are not allowed in paths; use '/'")
    if DRIVE.match(path):
        raise PathError(f"{path!r}: drive letters are outside the project; use a relative path")
    if path.startswith("/"):
        raise PathError(
            f"{path!r}: absolute paths are outside the project; use a path relative to the "
            "project root"
        )
    if path == "~" or path.startswith("~/"):
        raise PathError(f"{path!r}: the home directory is outside the project")


def dirname(path: str) -> str:
    """The parent of a normalized path; the root's parent is the root."""
    head, _, _ = path.rpartition("/")
    return head


def basename(path: str) -> str:
    return path.rpartition("/")[2]


def is_within(path: str, directory: str) -> bool:
    """Whether normalized ``path`` is ``directory`` or lies below it."""
    if not directory:
        return True
    return path == directory or path.startswith(directory + "/")


def list_below(paths: Iterable[str], prefix: str, *, recursive: bool, dirs: bool) -> list[str]:
    """What ``FileStore.list`` returns, from the stored paths strictly below ``prefix``.

    ``paths`` are files (and explicit directories when ``dirs``); directories
    that exist only implicitly, between ``prefix`` and a deeper entry, are added
    when ``dirs`` is asked for.  Every backend lists through this one rule.
    """
    start = len(prefix) + 1 if prefix else 0
    found: set[str] = set()
    for path in paths:
        rest = path[start:].split("/")
        if recursive:
            found.add(path)
            if dirs:
                for i in range(1, len(rest)):
                    found.add(path[:start] + "/".join(rest[:i]))
        elif len(rest) == 1:
            found.add(path)
        elif dirs:
            found.add(path[:start] + rest[0])
    return sorted(found)
