"""Structured search tools: list_files and grep."""

from __future__ import annotations

from pydantic import Field

from wiggum.fs import NotText, join_path

from .base import Tool, ToolArgs, ToolContext, ToolResult
from .ops import files
from .ops.listing import list_entries, relative_to
from .ops.regex import RegexError, compile_regex
from .ops.search import find_matches, iter_search_files

__all__ = ["GrepTool", "ListFilesTool"]


class ListFilesTool(Tool):
    name = "list_files"
    description = (
        "List files and folders (folders end with '/'). Paths are relative to the project "
        "root. Optionally only entries whose path matches a glob such as '*.js' or 'src/**/*.css'."
    )

    class Args(ToolArgs):
        path: str = Field(default=".", description="Folder to list; '.' is the project root.")
        recursive: bool = Field(default=True, description="Include everything below the folder.")
        glob: str | None = Field(
            default=None, description="Only paths matching this glob (relative to path)."
        )

    async def run(self, args: Args, ctx: ToolContext) -> ToolResult:
        path = join_path(ctx.cwd, args.path)
        entries = await list_entries(
            ctx.fs, path, recursive=args.recursive, glob=args.glob, dirs=args.glob is None
        )
        if not entries:
            where = path or "the project root"
            what = f"matching {args.glob!r} " if args.glob else ""
            return ToolResult(f"(no files {what}in {where})")
        return ToolResult("\n".join(e.path + ("/" if e.is_dir else "") for e in entries))


class GrepTool(Tool):
    name = "grep"
    description = (
        "Search file contents with a regular expression (Python/JavaScript syntax). Prints "
        "'path:line:text' for each matching line. Searches a file or a whole folder "
        "(dot-folders such as .ralph/ are skipped unless searched directly)."
    )

    class Args(ToolArgs):
        pattern: str = Field(description="Regular expression to search for.")
        path: str = Field(default=".", description="File or folder to search.")
        glob: str | None = Field(default=None, description="Only files matching this glob.")
        ignore_case: bool = Field(default=False, description="Case-insensitive match.")
        line_numbers: bool = Field(default=True, description="Show line numbers.")
        max_results: int = Field(default=200, ge=1, description="Stop after this many matches.")

    async def run(self, args: Args, ctx: ToolContext) -> ToolResult:
        try:
            regex = compile_regex(args.pattern, "python", ignore_case=args.ignore_case)
        except RegexError as err:
            return ToolResult.error(f"Error: {err}")
        path = join_path(ctx.cwd, args.path)
        if await ctx.fs.is_dir(path):
            include = [args.glob] if args.glob else None
            targets = [f async for f in iter_search_files(ctx.fs, path, include=include)]
        else:
            targets = [path]
        out: list[str] = []
        hit_limit = False
        for target in targets:
            try:
                text = await files.read_text(ctx.fs, target)
            except NotText:
                continue
            budget = args.max_results - len(out)
            for m in find_matches(files.split_lines(text), regex, limit=budget + 1):
                if len(out) >= args.max_results:
                    hit_limit = True
                    break
                number = f"{m.number}:" if args.line_numbers else ""
                out.append(f"{target}:{number}{m.line}")
            if hit_limit:
                break
        if not out:
            where = relative_to(path, "") or "the project"
            return ToolResult(f"No matches for {args.pattern!r} in {where}.")
        if hit_limit:
            out.append(
                f"\n[Stopped after {args.max_results} matches; narrow the pattern, path or glob.]"
            )
        return ToolResult("\n".join(out))
