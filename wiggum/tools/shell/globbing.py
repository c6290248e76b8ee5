"""Filename expansion: a glob word matched against the FileStore.

Wildcards do not match a leading dot (``*`` skips ``.ralph``), ``**`` spans
directories (as bash with ``globstar``), results are sorted, and a pattern
that matches nothing is left to the caller to keep as literal text.
"""

from __future__ import annotations

from wiggum.fs import FileStore, FileStoreError, PathError, join_path

from ..ops.globs import glob_to_regex, has_glob

__all__ = ["expand_glob", "unescape"]

MAX_MATCHES = 10_000


def unescape(text: str) -> str:
    out = []
    i = 0
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text):
            out.append(text[i + 1])
            i += 2
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


async def _children(fs: FileStore, path: str) -> list[tuple[str, bool]]:
    try:
        listed = await fs.list(path, recursive=False, dirs=True)
        files = set(await fs.list(path, recursive=False))
    except (FileStoreError, PathError):
        return []
    return [(p.rpartition("/")[2], p not in files) for p in listed]


async def _subdirs(fs: FileStore, path: str, shown: str) -> list[tuple[str, str]]:
    """``(shown, path)`` for ``path`` and every non-hidden directory below it."""
    out = [(shown, path)]
    for name, is_dir in await _children(fs, path):
        if is_dir and not name.startswith("."):
            out += await _subdirs(fs, join_path(path, name), f"{shown}{name}/")
    return out


async def _descendants(fs: FileStore, shown: str, path: str) -> list[tuple[str, str]]:
    """A trailing ``**``: every non-hidden file and directory below ``path``."""
    try:
        listed = await fs.list(path, dirs=True)
    except (FileStoreError, PathError):
        return []
    out = []
    for item in listed:
        rel = item[len(path) + 1 :] if path else item
        if not any(part.startswith(".") for part in rel.split("/")):
            out.append((shown + rel, item))
    return out


async def expand_glob(fs: FileStore, cwd: str, pattern: str) -> list[str]:
    """Paths matching ``pattern`` (backslash-escaped characters are literal),
    spelled as the pattern was: relative to ``cwd``, keeping a ``./`` prefix."""
    if pattern.startswith("/") or not has_glob(pattern):
        return []
    dirs_only = pattern.endswith("/")
    segments = [s for s in pattern.split("/") if s]
    # (how the match is shown, its store path)
    current: list[tuple[str, str]] = [("", cwd)]
    for index, segment in enumerate(segments):
        last = index == len(segments) - 1
        nxt: list[tuple[str, str]] = []
        if segment == "**":
            for shown, path in current:
                if not await fs.is_dir(path):
                    continue
                if last:
                    nxt += await _descendants(fs, shown, path)
                else:
                    nxt += await _subdirs(fs, path, shown)
        elif not has_glob(segment):
            name = unescape(segment)
            for shown, path in current:
                try:
                    nxt.append((f"{shown}{name}" + ("" if last else "/"), join_path(path, name)))
                except PathError:
                    continue
        else:
            regex = glob_to_regex(segment)
            for shown, path in current:
                for name, is_dir in await _children(fs, path):
                    if regex.fullmatch(name) and (is_dir or (last and not dirs_only)):
                        nxt.append(
                            (f"{shown}{name}" + ("" if last else "/"), join_path(path, name))
                        )
        current = nxt
        if len(current) > MAX_MATCHES:
            current = current[:MAX_MATCHES]
    results = []
    for shown, path in current:
        if await fs.exists(path) and (not dirs_only or await fs.is_dir(path)):
            results.append(shown + ("/" if dirs_only else ""))
    return sorted(set(results))
