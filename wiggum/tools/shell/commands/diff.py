"""``diff``: always unified output (``-u`` is accepted and implied).

Unified is the format models read and write best; ``-q`` reports only
whether files differ, ``-r`` compares folders.  Exit status 0 same, 1
different, 2 trouble.
"""

from __future__ import annotations

import difflib

from wiggum.fs import FileStoreError, PathError, join_path

from ...args import Opt, parse_args
from ...command import DEV_NULL, CommandContext, ShellCommand, UsageError
from ...ops import files

__all__ = ["Diff", "unified_diff"]


def unified_diff(a: str, b: str, a_name: str, b_name: str, context: int = 3) -> str:
    """GNU-style unified diff of two texts, '' when equal."""
    if a == b:
        return ""
    a_lines = files.split_lines_keepends(a)
    b_lines = files.split_lines_keepends(b)
    out = []
    for line in difflib.unified_diff(a_lines, b_lines, a_name, b_name, n=context):
        if (line.startswith(("---", "+++")) and line.endswith("\n")) or line.endswith("\n"):
            out.append(line)
        else:
            out.append(line + "\n\\ No newline at end of file\n")
    return "".join(out)


class Diff(ShellCommand):
    command_name = "diff"
    opts = (
        Opt("unified", "u", ("unified",)),
        Opt("context_n", "U", (), value=True),
        Opt("brief", "q", ("brief",)),
        Opt("recursive", "r", ("recursive",)),
        Opt("new_file", "N", ("new-file",)),
        Opt("ignore_space", "bw", ("ignore-space-change", "ignore-all-space")),
        Opt("ignore_case", "i", ("ignore-case",)),
        Opt("ignore_blank", "B", ("ignore-blank-lines",)),
        Opt("ignored", "a", ("text", "color")),
    )

    async def execute(self, ctx: CommandContext) -> int:
        flags, operands = parse_args(ctx.args, self.opts)
        if len(operands) != 2:
            raise UsageError(f"missing operand after '{operands[-1] if operands else 'diff'}'")
        try:
            context = int(flags["context_n"]) if flags["context_n"] else 3
        except ValueError:
            raise UsageError(f"invalid context length '{flags['context_n']}'") from None
        a, b = operands
        try:
            a_path = None if a in ("-", DEV_NULL) else ctx.resolve(a)
            b_path = None if b in ("-", DEV_NULL) else ctx.resolve(b)
        except PathError as err:
            return ctx.fail(str(err), 2)
        a_dir = a_path is not None and await ctx.fs.is_dir(a_path)
        b_dir = b_path is not None and await ctx.fs.is_dir(b_path)
        if a_dir and b_dir:
            if not flags["recursive"]:
                return await self._dirs_shallow(ctx, a, b, a_path, b_path, flags, context)
            return await self._dirs(ctx, a, b, a_path, b_path, flags, context)
        if a_dir and b_path is not None:
            # A file and a folder: compare with the file of the same name inside.
            a_path = (
                f"{a_path}/{b_path.rpartition('/')[2]}" if a_path else b_path.rpartition("/")[2]
            )
            a = f"{a.rstrip('/')}/{b.rpartition('/')[2]}"
        elif b_dir and a_path is not None:
            b_path = (
                f"{b_path}/{a_path.rpartition('/')[2]}" if b_path else a_path.rpartition("/")[2]
            )
            b = f"{b.rstrip('/')}/{a.rpartition('/')[2]}"
        return await self._files(ctx, a, b, a_path, b_path, flags, context)

    async def _read(self, ctx: CommandContext, name: str, path: str | None, flags) -> str:
        if path is None:
            return (ctx.stdin or "") if name == "-" else ""
        if flags["new_file"] and not await ctx.fs.exists(path):
            return ""
        return await ctx.fs.read_text(path)

    async def _files(self, ctx, a, b, a_path, b_path, flags, context) -> int:
        try:
            a_text = await self._read(ctx, a, a_path, flags)
        except FileStoreError as err:
            return ctx.fail(f"{a}: {err.reason}", 2)
        try:
            b_text = await self._read(ctx, b, b_path, flags)
        except FileStoreError as err:
            return ctx.fail(f"{b}: {err.reason}", 2)
        if self._normalize(a_text, flags) == self._normalize(b_text, flags):
            return 0
        if flags["brief"]:
            ctx.out(f"Files {a} and {b} differ\n")
            return 1
        ctx.out(unified_diff(a_text, b_text, a, b, context))
        return 1

    def _normalize(self, text: str, flags) -> str:
        if flags["ignore_case"]:
            text = text.lower()
        if flags["ignore_space"]:
            text = "\n".join(" ".join(line.split()) for line in text.split("\n"))
        if flags["ignore_blank"]:
            text = "\n".join(line for line in text.split("\n") if line.strip())
        return text

    async def _dirs_shallow(self, ctx, a, b, a_path, b_path, flags, context) -> int:
        return await self._dirs(ctx, a, b, a_path, b_path, flags, context, recursive=False)

    async def _dirs(self, ctx, a, b, a_path, b_path, flags, context, recursive=True) -> int:
        def rel(path: str, base: str) -> str:
            return path[len(base) + 1 :] if base else path

        a_files = {rel(p, a_path): p for p in await ctx.fs.list(a_path, recursive=recursive)}
        b_files = {rel(p, b_path): p for p in await ctx.fs.list(b_path, recursive=recursive)}
        status = 0
        for name in sorted(set(a_files) | set(b_files)):
            if name not in b_files and not flags["new_file"]:
                ctx.out(f"Only in {a.rstrip('/')}: {name}\n")
                status = 1
                continue
            if name not in a_files and not flags["new_file"]:
                ctx.out(f"Only in {b.rstrip('/')}: {name}\n")
                status = 1
                continue
            a_name = f"{a.rstrip('/')}/{name}"
            b_name = f"{b.rstrip('/')}/{name}"
            a_file = a_files.get(name) or join_path(a_path, name)
            b_file = b_files.get(name) or join_path(b_path, name)
            code = await self._files(ctx, a_name, b_name, a_file, b_file, flags, context)
            status = max(status, code)
        return status
