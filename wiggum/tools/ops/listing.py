"""Listing directories and walking trees (``list_files``, ``ls``, ``find``)."""

from __future__ import annotations

from dataclasses import dataclass

from wiggum.fs import FileStore

from .globs import glob_matches

__all__ = ["Entry", "list_entries", "relative_to"]


@dataclass(frozen=True, slots=True)
class Entry:
    path: str
    is_dir: bool

    @property
    def name(self) -> str:
        return self.path.rpartition("/")[2]


def relative_to(path: str, base: str) -> str:
    if not base:
        return path
    if path == base:
        return ""
    return path[len(base) + 1 :]


async def list_entries(
    fs: FileStore,
    path: str,
    *,
    recursive: bool,
    dirs: bool = True,
    glob: str | None = None,
    hidden: bool = True,
    max_depth: int | None = None,
) -> list[Entry]:
    """Entries below the directory ``path`` in sorted order.

    ``glob`` filters on the path relative to ``path`` (see ``glob_matches``);
    ``hidden=False`` leaves out dot-entries and everything below them.
    ``FileNotFound`` / ``NotADirectory`` as ``FileStore.list``.
    """
    listed = await fs.list(path, recursive=recursive, dirs=dirs)
    files = set(await fs.list(path, recursive=recursive)) if dirs else set(listed)
    entries = []
    for item in listed:
        rel = relative_to(item, path)
        parts = rel.split("/")
        if not hidden and any(part.startswith(".") for part in parts):
            continue
        if max_depth is not None and len(parts) > max_depth:
            continue
        if glob is not None and not glob_matches(glob, rel):
            continue
        entries.append(Entry(item, item not in files))
    return entries
