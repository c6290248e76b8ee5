"""Structured file tools: read_file, write_file, edit_file, delete_file.

Each class has two faces over one core operation (see ``wiggum.tools.command``):
the tool face (``Args``, ``run``) answers the model, the command face
(``command_name``, ``execute``) is the shell's utility of the same job.

============  ========  ==========================================================
tool          command   core operation
============  ========  ==========================================================
read_file     ``cat``   ``files.read_text``; numbering ``files.number_lines``
write_file    ``tee``   ``files.write_text`` (the shell's ``>``/``>>`` use it too)
delete_file   ``rm``    ``files.remove_path`` (policy, refused root, ``recursive``)
edit_file     (none)    ``files.edit_file`` with ``files.replace_exact``
============  ========  ==========================================================

``edit_file`` has no command twin: its semantics (one exact, unique string,
with hints when it is not found) are not ``sed -i``'s (a regex program over
every line).  ``sed -i`` goes through the same read-transform-write core,
``files.edit_file``, so policy and errors agree.
"""

from __future__ import annotations

from pydantic import Field

from wiggum.fs import FileStoreError, IsADirectory, PathError

from .args import Opt, parse_args
from .base import Tool, ToolArgs, ToolContext, ToolResult
from .command import DEV_NULL, CommandContext, ShellCommand, UsageError, error_reason
from .ops import files

__all__ = ["DeleteFileTool", "EditFileTool", "ReadFileTool", "WriteFileTool"]

_PATH = "Path relative to the project root, e.g. 'src/app.js'."


class ReadFileTool(Tool, ShellCommand):
    """``read_file`` / ``cat``: a file's text, optionally numbered as ``cat -n``."""

    name = "read_file"
    command_name = "cat"
    description = (
        "Read a text file of the project. Optionally a range of lines (offset is the first "
        "line, 1-based; limit the number of lines) and line numbers in the output."
    )

    class Args(ToolArgs):
        path: str = Field(description=_PATH)
        offset: int | None = Field(default=None, ge=1, description="First line to show (1-based).")
        limit: int | None = Field(default=None, ge=1, description="How many lines to show.")
        line_numbers: bool = Field(
            default=False, description="Prefix each line with its number (as cat -n)."
        )

    #: The command face's options (``execute`` parses ``ctx.args`` with them).
    opts = (
        Opt("number", "n", ("number",)),
        Opt("nonblank", "b"),
        Opt("show", "AETvest"),
    )

    async def run(self, args: Args, ctx: ToolContext) -> ToolResult:
        path = ctx.resolve(args.path, allow_root=False)
        text = await files.read_text(ctx.fs, path)
        if args.offset is None and args.limit is None and not args.line_numbers:
            return ToolResult(text if text else f"({path} is empty)")
        lines = files.split_lines(text)
        if not lines:
            return ToolResult(f"({path} is empty)")
        first = args.offset or 1
        if first > len(lines):
            return ToolResult.error(
                f"Error: {path} has {len(lines)} lines; offset {first} is past the end."
            )
        shown = lines[first - 1 : first - 1 + args.limit if args.limit else None]
        if args.line_numbers:
            shown = files.number_lines(shown, first)
        body = "\n".join(shown)
        last = first + len(shown) - 1
        if first > 1 or last < len(lines):
            more = f" Use offset={last + 1} to read more." if last < len(lines) else ""
            body += f"\n\n[Lines {first}-{last} of {len(lines)}.{more}]"
        return ToolResult(body)

    async def execute(self, ctx: CommandContext) -> int:
        flags, operands = parse_args(ctx.args, self.opts)
        status = 0
        line_no = 1
        for name, text, error in await ctx.inputs(operands):
            if error is not None:
                status = ctx.report(name, error)
                continue
            if text and name != "-" and ctx.writes_to(ctx.resolve(name)):
                # `cat f >> f` would never end with a real file; GNU cat refuses too.
                status = ctx.fail(f"{name}: input file is output file")
                continue
            assert text is not None
            if flags["number"] or flags["nonblank"]:
                lines = files.split_lines(text)
                if flags["nonblank"]:
                    numbered = []
                    for line in lines:
                        if line:
                            numbered += files.number_lines([line], line_no)
                            line_no += 1
                        else:
                            numbered.append(line)
                else:
                    numbered = files.number_lines(lines, line_no)
                    line_no += len(lines)
                text = "\n".join(numbered) + ("\n" if text.endswith("\n") and numbered else "")
            ctx.out(text)
        return status


class WriteFileTool(Tool, ShellCommand):
    """``write_file`` / ``tee``: put text into a file (``tee`` takes it from its input,
    writes every file operand, ``-a`` appends, and passes the text on)."""

    name = "write_file"
    command_name = "tee"
    description = (
        "Create a file or replace its whole content. Parent folders are created. "
        "For a small change to an existing file prefer edit_file."
    )

    class Args(ToolArgs):
        path: str = Field(description=_PATH)
        content: str = Field(description="The complete new content of the file.")

    #: The command face's options (``execute`` parses ``ctx.args`` with them).
    opts = (
        Opt("append", "a", ("append",)),
        Opt("ignore", "ip"),
    )

    async def run(self, args: Args, ctx: ToolContext) -> ToolResult:
        path = ctx.resolve(args.path, allow_root=False)
        outcome = await files.write_text(ctx.fs, ctx.policy, path, args.content)
        lines = len(files.split_lines(args.content))
        verb = "Created" if outcome.created else "Updated"
        size = outcome.size
        return ToolResult(
            f"{verb} {path} ({lines} line{'s' if lines != 1 else ''},"
            f" {size} byte{'s' if size != 1 else ''})."
        )

    async def execute(self, ctx: CommandContext) -> int:
        flags, operands = parse_args(ctx.args, self.opts)
        text = ctx.stdin or ""
        status = 0
        for operand in operands:
            if operand == DEV_NULL:
                continue
            try:
                path = ctx.resolve(operand, allow_root=False)
                await files.write_text(ctx.fs, ctx.policy, path, text, append=flags["append"])
            except (FileStoreError, PathError) as err:
                status = ctx.report(operand, err)
        ctx.out(text)
        return status


class EditFileTool(Tool):
    """``edit_file``: replace one exact string (no command twin; see the module docstring)."""

    name = "edit_file"
    description = (
        "Replace an exact piece of text in a file. old_string must match the file exactly "
        "(indentation and line breaks included) and occur once, unless replace_all is set."
    )

    class Args(ToolArgs):
        path: str = Field(description=_PATH)
        old_string: str = Field(description="The exact text to replace.")
        new_string: str = Field(description="The text to put in its place.")
        replace_all: bool = Field(default=False, description="Replace every occurrence.")

    async def run(self, args: Args, ctx: ToolContext) -> ToolResult:
        path = ctx.resolve(args.path, allow_root=False)
        count = 0

        def replace(text: str) -> str:
            nonlocal count
            text, count = files.replace_exact(
                text, args.old_string, args.new_string, replace_all=args.replace_all, path=path
            )
            return text

        before, _ = await files.edit_file(ctx.fs, ctx.policy, path, replace)
        line = before.count("\n", 0, before.find(args.old_string)) + 1
        where = f"at line {line}" if count == 1 else f"{count} occurrences"
        return ToolResult(f"Edited {path}: replaced {where}.")


class DeleteFileTool(Tool, ShellCommand):
    """``delete_file`` / ``rm``: remove a file, or a folder with ``recursive`` / ``-r``."""

    name = "delete_file"
    command_name = "rm"
    description = "Delete a file, or a folder and everything in it when recursive is set."

    class Args(ToolArgs):
        path: str = Field(description=_PATH)
        recursive: bool = Field(default=False, description="Required to delete a folder.")

    #: The command face's options (``execute`` parses ``ctx.args`` with them).
    opts = (
        Opt("recursive", "rR", ("recursive",)),
        Opt("force", "f", ("force",)),
        Opt("dir", "d", ("dir",)),
        Opt("verbose", "v", ("verbose",)),
        Opt("interactive", "iI"),
    )

    async def run(self, args: Args, ctx: ToolContext) -> ToolResult:
        path = ctx.resolve(args.path, allow_root=False)
        try:
            outcome = await files.remove_path(ctx.fs, ctx.policy, path, recursive=args.recursive)
        except IsADirectory:
            return ToolResult.error(
                f"Error: {path} is a folder; set recursive to delete it and everything in it."
            )
        if not outcome.was_dir:
            return ToolResult(f"Deleted {path}.")
        noun = "file" if outcome.files == 1 else "files"
        return ToolResult(f"Deleted folder {path} ({outcome.files} {noun}).")

    async def execute(self, ctx: CommandContext) -> int:
        flags, operands = parse_args(ctx.args, self.opts)
        if not operands and not flags["force"]:
            raise UsageError("missing operand")
        status = 0
        for operand in operands:
            try:
                path = ctx.resolve(operand)
                if not await ctx.fs.exists(path):
                    if not flags["force"]:
                        status = ctx.fail(f"cannot remove '{operand}': No such file or directory")
                    continue
                recursive = flags["recursive"]
                if flags["dir"] and not recursive and await ctx.fs.is_dir(path):
                    ctx.policy.check_remove(path)
                    await ctx.fs.remove(path)
                else:
                    await files.remove_path(ctx.fs, ctx.policy, path, recursive=recursive)
                if flags["verbose"]:
                    ctx.out(f"removed '{operand}'\n")
            except (FileStoreError, PathError) as err:
                status = ctx.fail(f"cannot remove '{operand}': {error_reason(err)}")
        return status
