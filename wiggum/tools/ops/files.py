"""Reading, writing, editing, removing, moving and copying files.

Every change goes through the write policy first; every path is already
normalized (callers resolve them with ``join_path``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from wiggum.fs import FileNotFound, FileStore, IsADirectory, PathError, is_within

from ..errors import ToolError
from ..policy import WritePolicy

__all__ = [
    "EditError",
    "RemoveOutcome",
    "WriteOutcome",
    "copy_path",
    "edit_file",
    "move_path",
    "number_lines",
    "read_text",
    "remove_path",
    "replace_exact",
    "split_lines",
    "split_lines_keepends",
    "write_text",
]


class EditError(ToolError):
    pass


# -- reading ----------------------------------------------------------------


async def read_text(fs: FileStore, path: str) -> str:
    """The file's text.  ``FileNotFound``, ``IsADirectory``, ``NotText``."""
    return await fs.read_text(path)


def split_lines(text: str) -> list[str]:
    """Lines without their terminators; a final newline adds no empty line."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def split_lines_keepends(text: str) -> list[str]:
    """Lines with their ``\n``; only ``\n`` ends a line (not ``\r`` or form feeds)."""
    lines = text.split("\n")
    out = [line + "\n" for line in lines[:-1]]
    if lines[-1]:
        out.append(lines[-1])
    return out


def number_lines(lines: list[str], start: int = 1) -> list[str]:
    """``cat -n`` numbering: right-aligned in six columns, then a tab."""
    return [f"{n:6d}\t{line}" for n, line in enumerate(lines, start)]


# -- writing ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class WriteOutcome:
    path: str
    created: bool
    size: int


async def write_text(
    fs: FileStore, policy: WritePolicy, path: str, text: str, *, append: bool = False
) -> WriteOutcome:
    """Create, replace or append to a text file (``write_file``, ``>``, ``>>``, ``tee``)."""
    policy.check_write(path)
    created = not await fs.exists(path)
    if append and not created:
        text = await fs.read_text(path) + text
    await fs.write_text(path, text)
    return WriteOutcome(path, created, len(text.encode("utf-8")))


# -- editing ----------------------------------------------------------------


async def edit_file(
    fs: FileStore, policy: WritePolicy, path: str, transform: Callable[[str], str]
) -> tuple[str, str]:
    """Read, transform, write back if changed (``edit_file``, ``sed -i``).

    Returns the text before and after.  The policy is checked before reading
    so a refused edit does not depend on the file's contents.
    """
    policy.check_write(path)
    before = await fs.read_text(path)
    after = transform(before)
    if after != before:
        await fs.write_text(path, after)
    return before, after


def _line_of(text: str, index: int) -> int:
    return text.count("\n", 0, index) + 1


def replace_exact(
    text: str, old: str, new: str, *, replace_all: bool = False, path: str = "the file"
) -> tuple[str, int]:
    """Replace the exact string ``old``; exactly one match unless ``replace_all``."""
    if not old:
        raise EditError(
            f"old_string is empty; to create {path} or replace all of it use write_file"
        )
    if old == new:
        raise EditError("old_string and new_string are the same; nothing would change")
    count = text.count(old)
    if count == 0:
        hint = ""
        stripped = old.strip()
        if stripped and stripped in text:
            hint = " (it does occur with different surrounding whitespace)"
        elif "\r\n" in text and "\r\n" not in old and "\n" in old:
            hint = " (the file uses CRLF line endings)"
        raise EditError(
            f"old_string was not found in {path}{hint}. It must match the file exactly, "
            "including indentation and line breaks; read the file again and copy the text."
        )
    if count > 1 and not replace_all:
        lines = []
        start = 0
        for _ in range(min(count, 10)):
            index = text.find(old, start)
            lines.append(str(_line_of(text, index)))
            start = index + len(old)
        more = ", ..." if count > 10 else ""
        raise EditError(
            f"old_string occurs {count} times in {path} (lines {', '.join(lines)}{more}). "
            "Include more surrounding lines to make it unique, or set replace_all to "
            "replace every occurrence."
        )
    return text.replace(old, new), count


# -- removing, moving, copying -----------------------------------------------


@dataclass(frozen=True, slots=True)
class RemoveOutcome:
    path: str
    was_dir: bool
    files: int


async def remove_path(
    fs: FileStore, policy: WritePolicy, path: str, *, recursive: bool
) -> RemoveOutcome:
    """Remove a file or (``recursive``) a directory tree.

    ``IsADirectory`` for a directory without ``recursive``.
    """
    policy.check_remove(path)
    if await fs.is_dir(path):
        if not recursive:
            raise IsADirectory(path)
        count = len(await fs.list(path))
        await fs.remove(path, recursive=True)
        return RemoveOutcome(path, True, count)
    await fs.remove(path)
    return RemoveOutcome(path, False, 1)


async def move_path(fs: FileStore, policy: WritePolicy, src: str, dst: str) -> None:
    policy.check_remove(src)
    policy.check_write(dst)
    if not await fs.exists(src):
        raise FileNotFound(src)
    await fs.rename(src, dst)


async def copy_path(
    fs: FileStore, policy: WritePolicy, src: str, dst: str, *, recursive: bool
) -> int:
    """Copy bytes (a file, or a tree with ``recursive``) to exactly ``dst``."""
    policy.check_write(dst)
    if await fs.is_dir(src):
        if not recursive:
            raise IsADirectory(src)
        if is_within(dst, src):
            raise PathError(f"cannot copy directory {src!r} into itself ({dst!r})")
        files = await fs.list(src)
        for path in files:
            policy.check_write(dst + path[len(src) :])
        await fs.mkdir(dst)
        for sub in await fs.list(src, dirs=True):
            if await fs.is_dir(sub):
                await fs.mkdir(dst + sub[len(src) :])
        for path in files:
            await fs.write_bytes(dst + path[len(src) :], await fs.read_bytes(path))
        return len(files)
    await fs.write_bytes(dst, await fs.read_bytes(src))
    return 1
