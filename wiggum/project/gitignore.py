"""Which new files a checkpoint leaves out, as git would: ``.gitignore`` files and
``.git/info/exclude``.

An imported repository's folder often holds files its git ignores (build
output, ``node_modules/``, an ``.env`` with keys): a checkpoint must not take
them into the history git would never have put them in.  As in git, only
files the last checkpoint does not hold can be ignored; the ignored files
stay in the project, untouched, and ``git status`` is silent about them.

The rules (patterns, negation, directories, the deepest ``.gitignore``
deciding) are dulwich's ``IgnoreFilterManager``; it reads ``.gitignore``
files from disk, so :class:`_StoreIgnores` hands it the files read from the
project's store instead.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable

from dulwich.ignore import IgnoreFilter, IgnoreFilterManager, read_ignore_patterns

from wiggum.fs.store import FileStore

__all__ = ["ignored_by_git"]

GITIGNORE = ".gitignore"
EXCLUDE = ".git/info/exclude"


class _StoreIgnores(IgnoreFilterManager):
    """dulwich's rules over ``.gitignore`` files given as bytes, by folder."""

    def __init__(self, files: dict[str, bytes], exclude: bytes | None) -> None:
        globals_ = [IgnoreFilter(read_ignore_patterns(io.BytesIO(exclude)))] if exclude else []
        super().__init__("", globals_, False)
        self._files = files

    def _load_path(self, path: str) -> IgnoreFilter | None:
        if path not in self._path_filters:
            raw = self._files.get(f"{path}/{GITIGNORE}" if path else GITIGNORE)
            self._path_filters[path] = (
                None if raw is None else IgnoreFilter(read_ignore_patterns(io.BytesIO(raw)))
            )
        return self._path_filters[path]

    def _is_dir(self, path: str) -> bool:
        return path.endswith("/")  # only files are asked about


async def ignored_by_git(fs: FileStore, paths: Iterable[str]) -> Callable[[str], bool]:
    """Whether a file (of ``paths``, the project's files) is ignored by git."""
    rules = [p for p in paths if p == GITIGNORE or p.endswith("/" + GITIGNORE)]
    if await fs.exists(EXCLUDE):
        rules.append(EXCLUDE)
    if not rules:
        return lambda _path: False
    found = await fs.read_many(rules)
    manager = _StoreIgnores(found, found.pop(EXCLUDE, None))
    return lambda path: bool(manager.is_ignored(path))
