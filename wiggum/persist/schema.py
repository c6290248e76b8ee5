"""The app database's layout: its stores, keys and record shapes, as plain data.

The page keeps everything in one IndexedDB database (``wiggum.web.storage``
opens it, ``wiggum.web.idb_store`` keeps files in it); what its records look
like and how their keys sort is decided here, in pure Python, so the rules
are read and tested without a browser:

============  ===========================  =========================================
store         key                          value
============  ===========================  =========================================
``settings``  ``"settings"`` (out of line)  the settings dict
``meta``      the meta key (out of line)    any JSON-able value (fences: :func:`fence_key`)
``projects``  ``id`` (key path)             ``{id, name, created, updated}``
``messages``  ``[project, agent, seq]``     ``{project, agent, seq, record}``
``files``     ``[project, path]``           :func:`file_record` / :func:`dir_record`;
                                            index ``dirs`` on ``dirkey`` (directories)
============  ===========================  =========================================

Everything below a directory is the key range ``[project, dir + "/"] ..
[project, dir + "0"]`` ("0" is the character after "/"), a whole project
``[project] .. [project, []]`` (arrays sort after strings and numbers): never a
scan of other projects.  A write may carry a :class:`Fence`, the record its
transaction checks first (the two-tab take-over moves it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from wiggum.fs.errors import IsADirectory, NotADirectory
from wiggum.fs.paths import dirname

__all__ = [
    "DIRS_INDEX",
    "FILES",
    "MESSAGES",
    "META",
    "PROJECTS",
    "SETTINGS",
    "SETTINGS_KEY",
    "Fence",
    "ancestors",
    "below_bounds",
    "check_batch",
    "dir_record",
    "fence_key",
    "file_record",
    "message_row",
    "renamed_project",
]

SETTINGS, META, PROJECTS, MESSAGES, FILES = "settings", "meta", "projects", "messages", "files"
SETTINGS_KEY = "settings"
#: The sparse index of ``files`` that lists a project's directories (only they have ``dirkey``).
DIRS_INDEX = "dirs"


@dataclass(frozen=True, slots=True)
class Fence:
    """A write's condition: ``store[key]`` still holds ``value`` (else
    ``refused()`` is raised and the transaction is aborted)."""

    store: str
    key: Any
    value: Any
    refused: Callable[[], BaseException]


def fence_key(project_id: str) -> str:
    """The ``meta`` key of ``project_id``'s fence record."""
    return f"fence:{project_id}"


def file_record(project: str, path: str, data: bytes, modified: float) -> dict[str, Any]:
    return {
        "project": project,
        "path": path,
        "dir": False,
        "data": data,
        "size": len(data),
        "modified": modified,
    }


def dir_record(project: str, path: str, modified: float) -> dict[str, Any]:
    """An explicit directory; ``dirkey`` puts it (and only it) in the ``dirs`` index."""
    return {
        "project": project,
        "path": path,
        "dir": True,
        "dirkey": [project, path],
        "modified": modified,
    }


def message_row(project: str, agent: str, seq: int, record: dict[str, Any]) -> dict[str, Any]:
    return {"project": project, "agent": agent, "seq": seq, "record": record}


def renamed_project(project: dict[str, Any], name: str, now: float) -> dict[str, Any]:
    return {**project, "name": name, "updated": now}


def below_bounds(project: str, path: str) -> tuple[list[str], list[str]]:
    """The keys strictly below directory ``path`` (not the root): ``[lower, upper)``."""
    return [project, path + "/"], [project, path + "0"]


def ancestors(path: str) -> list[str]:
    """``a/b/c`` -> ``["a/b", "a"]``."""
    out = []
    parent = dirname(path)
    while parent:
        out.append(parent)
        parent = dirname(parent)
    return out


def check_batch(
    paths: Iterable[str], *, dirs: set[str], below: set[str], files_above: set[str]
) -> None:
    """Raise what ``write_bytes`` of each path in order would (one batch, all or none).

    ``dirs``: paths that are a directory record; ``below``: paths with records
    below them; ``files_above``: ancestors of the paths that are files.  An
    earlier path of the batch counts as written for the later ones.
    """
    written: set[str] = set()
    written_dirs: set[str] = set()
    for path in paths:
        if path in dirs or path in below or path in written_dirs:
            raise IsADirectory(path)
        for parent in ancestors(path):
            if parent in files_above or parent in written:
                raise NotADirectory(parent)
        written.add(path)
        written_dirs.update(ancestors(path))
