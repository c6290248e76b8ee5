"""Line search shared by the ``grep`` tool and the ``grep`` command."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from dataclasses import dataclass

from wiggum.fs import FileStore

from .globs import glob_matches

__all__ = ["LineMatch", "find_matches", "iter_search_files", "select_context"]


@dataclass(frozen=True, slots=True)
class LineMatch:
    number: int  # 1-based
    line: str
    spans: tuple[tuple[int, int], ...]


def find_matches(
    lines: list[str], regex: re.Pattern[str], *, invert: bool = False, limit: int | None = None
) -> list[LineMatch]:
    """Matching lines (or, ``invert``, non-matching ones), at most ``limit``."""
    found: list[LineMatch] = []
    for number, line in enumerate(lines, 1):
        if limit is not None and len(found) >= limit:
            break
        spans = tuple(m.span() for m in regex.finditer(line) if m.end() > m.start()) or (
            ((0, 0),) if regex.search(line) else ()
        )
        if bool(spans) != invert:
            found.append(LineMatch(number, line, () if invert else spans))
    return found


def select_context(
    total: int, matches: list[LineMatch], before: int, after: int
) -> list[tuple[int, bool] | None]:
    """Line numbers to print around matches, as ``(number, is_match)``.

    ``None`` marks a gap between groups (grep prints ``--``).
    """
    wanted: dict[int, bool] = {}
    for m in matches:
        for n in range(max(1, m.number - before), min(total, m.number + after) + 1):
            wanted.setdefault(n, False)
        wanted[m.number] = True
    out: list[tuple[int, bool] | None] = []
    previous = None
    for n in sorted(wanted):
        if previous is not None and n != previous + 1:
            out.append(None)
        out.append((n, wanted[n]))
        previous = n
    return out


async def iter_search_files(
    fs: FileStore,
    path: str,
    *,
    include: list[str] | None = None,
    exclude: list[str] | None = None,
    exclude_dirs: list[str] | None = None,
) -> AsyncIterator[str]:
    """Files below the directory ``path`` for a recursive search, sorted.

    Dot-directories below ``path`` (``.ralph/``, ``.git/``) are skipped unless
    ``path`` is inside one already: a search of the project should find the
    project's code, not the agents' notes.
    """
    for file in await fs.list(path):
        rel = file[len(path) + 1 :] if path else file
        dirs = rel.split("/")[:-1]
        if any(d.startswith(".") for d in dirs):
            continue
        if exclude_dirs and any(glob_matches(g, d) for g in exclude_dirs for d in dirs):
            continue
        if include and not any(glob_matches(g, rel) for g in include):
            continue
        if exclude and any(glob_matches(g, rel) for g in exclude):
            continue
        yield file
