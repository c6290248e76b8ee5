"""Structured file tools: read_file, write_file, edit_file, delete_file."""

from __future__ import annotations

from pydantic import Field

from wiggum.fs import IsADirectory, join_path

from .base import Tool, ToolArgs, ToolContext, ToolResult
from .ops import files

__all__ = ["DeleteFileTool", "EditFileTool", "ReadFileTool", "WriteFileTool"]

_PATH = "Path relative to the project root, e.g. 'src/app.js'."


class ReadFileTool(Tool):
    name = "read_file"
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

    async def run(self, args: Args, ctx: ToolContext) -> ToolResult:
        path = join_path(ctx.cwd, args.path, allow_root=False)
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


class WriteFileTool(Tool):
    name = "write_file"
    description = (
        "Create a file or replace its whole content. Parent folders are created. "
        "For a small change to an existing file prefer edit_file."
    )

    class Args(ToolArgs):
        path: str = Field(description=_PATH)
        content: str = Field(description="The complete new content of the file.")

    async def run(self, args: Args, ctx: ToolContext) -> ToolResult:
        path = join_path(ctx.cwd, args.path, allow_root=False)
        outcome = await files.write_text(ctx.fs, ctx.policy, path, args.content)
        lines = len(files.split_lines(args.content))
        verb = "Created" if outcome.created else "Updated"
        return ToolResult(f"{verb} {path} ({lines} lines, {outcome.size} bytes).")


class EditFileTool(Tool):
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
        path = join_path(ctx.cwd, args.path, allow_root=False)
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


class DeleteFileTool(Tool):
    name = "delete_file"
    description = "Delete a file, or a folder and everything in it when recursive is set."

    class Args(ToolArgs):
        path: str = Field(description=_PATH)
        recursive: bool = Field(default=False, description="Required to delete a folder.")

    async def run(self, args: Args, ctx: ToolContext) -> ToolResult:
        path = join_path(ctx.cwd, args.path, allow_root=False)
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
