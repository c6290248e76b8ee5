"""Structured search tools: list_files and grep.

As in ``file_tools``, each class is a tool and a shell command over one core:

==========  ========  ==========================================================
tool        command   core operation
==========  ========  ==========================================================
list_files  ``ls``    ``list_entries`` (``find`` walks with it too)
grep        ``grep``  ``compile_regex``, ``iter_search_files``, ``find_matches``
==========  ========  ==========================================================
"""

from __future__ import annotations

import re
import time

from pydantic import Field

from wiggum.fs import FileStore, FileStoreError, NotText, PathError

from .args import Opt, parse_args
from .base import Tool, ToolArgs, ToolContext, ToolResult
from .command import CommandContext, ShellCommand, UsageError
from .ops import files
from .ops.listing import Entry, list_entries, relative_to
from .ops.regex import RegexError, compile_regex
from .ops.search import find_matches, iter_search_files, select_context

__all__ = ["GrepTool", "ListFilesTool"]


class ListFilesTool(Tool, ShellCommand):
    """``list_files`` / ``ls``: the entries of a folder (the tool: the whole tree by default)."""

    name = "list_files"
    command_name = "ls"
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

    #: The command face's options (``execute`` parses ``ctx.args`` with them).
    opts = (
        Opt("all", "a", ("all",)),
        Opt("almost", "A", ("almost-all",)),
        Opt("long", "l"),
        Opt("one", "1"),
        Opt("recursive", "R", ("recursive",)),
        Opt("directory", "d", ("directory",)),
        Opt("human", "h", ("human-readable",)),
        Opt("classify", "Fp", ("classify",)),
        Opt("time", "t"),
        Opt("size", "S"),
        Opt("reverse", "r", ("reverse",)),
        Opt("ignored", "Gon", ("color",)),
    )

    async def run(self, args: Args, ctx: ToolContext) -> ToolResult:
        path = ctx.resolve(args.path)
        entries = await list_entries(
            ctx.fs, path, recursive=args.recursive, glob=args.glob, dirs=args.glob is None
        )
        if not entries:
            where = path or "the project root"
            what = f"matching {args.glob!r} " if args.glob else ""
            return ToolResult(f"(no files {what}in {where})")
        return ToolResult("\n".join(e.path + ("/" if e.is_dir else "") for e in entries))

    async def execute(self, ctx: CommandContext) -> int:
        flags, operands = parse_args(ctx.args, self.opts)
        operands = operands or ["."]
        hidden = flags["all"] or flags["almost"]
        status = 0
        file_ops: list[tuple[str, str]] = []
        dir_ops: list[tuple[str, str]] = []
        for operand in operands:
            try:
                path = ctx.resolve(operand)
                if not await ctx.fs.exists(path):
                    status = ctx.fail(f"cannot access '{operand}': No such file or directory", 2)
                elif await ctx.fs.is_dir(path) and not flags["directory"]:
                    dir_ops.append((operand, path))
                else:
                    file_ops.append((operand, path))
            except PathError as err:
                status = ctx.fail(f"cannot access '{operand}': {err}", 2)
        if file_ops:
            entries = [Entry(path, await ctx.fs.is_dir(path)) for _, path in file_ops]
            names = dict(zip([e.path for e in entries], [op for op, _ in file_ops], strict=True))
            await self._print(ctx, flags, entries, lambda e: names[e.path])
        headers = len(dir_ops) > 1 or bool(file_ops) or flags["recursive"]
        queue = list(dir_ops)
        first = not file_ops
        while queue:
            shown, path = queue.pop(0)
            entries = await list_entries(ctx.fs, path, recursive=False, hidden=hidden)
            if headers:
                ctx.out(("" if first else "\n") + f"{shown}:\n")
            first = False
            await self._print(ctx, flags, entries, lambda e: e.name)
            if flags["recursive"]:
                subdirs = [e for e in self._sorted(entries, flags, {}) if e.is_dir]
                queue[:0] = [(f"{shown.rstrip('/')}/{e.name}", e.path) for e in subdirs]
        return status

    def _sorted(self, entries: list[Entry], flags: dict, stats: dict) -> list[Entry]:
        if flags["time"] and stats:
            entries = sorted(entries, key=lambda e: -stats[e.path].modified)
        elif flags["size"] and stats:
            entries = sorted(entries, key=lambda e: -stats[e.path].size)
        else:
            entries = sorted(entries, key=lambda e: e.name)
        return entries[::-1] if flags["reverse"] else entries

    async def _print(self, ctx: CommandContext, flags: dict, entries: list[Entry], label) -> None:
        stats = {}
        if flags["long"] or flags["time"] or flags["size"]:
            stats = {e.path: await ctx.fs.stat(e.path) for e in entries}
        for entry in self._sorted(entries, flags, stats):
            name = label(entry) + ("/" if flags["classify"] and entry.is_dir else "")
            if not flags["long"]:
                ctx.out(name + "\n")
                continue
            st = stats[entry.path]
            mode = "drwxr-xr-x" if entry.is_dir else "-rw-r--r--"
            size = _human(st.size) if flags["human"] else str(st.size)
            when = time.strftime("%b %d %H:%M", time.gmtime(st.modified))
            ctx.out(f"{mode} 1 ralph ralph {size:>8} {when} {name}\n")


def _human(size: int) -> str:
    for unit in ("", "K", "M", "G"):
        if size < 1024 or unit == "G":
            return f"{size:.1f}{unit}" if unit and size < 10 else f"{size:.0f}{unit}"
        size /= 1024
    return str(size)  # pragma: no cover


class GrepTool(Tool, ShellCommand):
    """``grep``, tool and command: matching lines of a file or a folder's files (the
    folder walk skips dot-folders), through one matcher, ``find_matches``."""

    name = "grep"
    command_name = "grep"
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

    #: The command face's options (``execute`` parses ``ctx.args`` with them).
    opts = (
        Opt("ignore_case", "iy", ("ignore-case",)),
        Opt("no_ignore_case", "", ("no-ignore-case",)),
        Opt("invert", "v", ("invert-match",)),
        Opt("count", "c", ("count",)),
        Opt("files_with", "l", ("files-with-matches",)),
        Opt("files_without", "L", ("files-without-match",)),
        Opt("line_number", "n", ("line-number",)),
        Opt("no_filename", "h", ("no-filename",)),
        Opt("with_filename", "H", ("with-filename",)),
        Opt("recursive", "rR", ("recursive", "dereference-recursive")),
        Opt("word", "w", ("word-regexp",)),
        Opt("line", "x", ("line-regexp",)),
        Opt("extended", "E", ("extended-regexp",)),
        Opt("fixed", "F", ("fixed-strings",)),
        Opt("basic", "G", ("basic-regexp",)),
        Opt("perl", "P", ("perl-regexp",)),
        Opt("only", "o", ("only-matching",)),
        Opt("quiet", "q", ("quiet", "silent")),
        Opt("no_messages", "s", ("no-messages",)),
        Opt("binary_skip", "Ia", ("text",)),
        Opt("patterns", "e", ("regexp",), value=True, many=True),
        Opt("after", "A", ("after-context",), value=True),
        Opt("before", "B", ("before-context",), value=True),
        Opt("context", "C", ("context",), value=True),
        Opt("max_count", "m", ("max-count",), value=True),
        Opt("include", "", ("include",), value=True, many=True),
        Opt("exclude", "", ("exclude",), value=True, many=True),
        Opt("exclude_dir", "", ("exclude-dir",), value=True, many=True),
        Opt("color", "", ("color", "colour"), value=True),
    )

    async def run(self, args: Args, ctx: ToolContext) -> ToolResult:
        try:
            regex = compile_regex(args.pattern, "python", ignore_case=args.ignore_case)
        except RegexError as err:
            return ToolResult.error(f"Error: {err}")
        path = ctx.resolve(args.path)
        if await ctx.fs.is_dir(path):
            include = [args.glob] if args.glob else None
            targets = [f async for f in iter_search_files(ctx.fs, path, include=include)]
        else:
            targets = [path]
        out: list[str] = []
        hit_limit = False
        for target in targets:
            lines = await _searchable_lines(ctx.fs, target)
            if lines is None:
                continue
            budget = args.max_results - len(out)
            for m in find_matches(lines, regex, limit=budget + 1):
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

    async def execute(self, ctx: CommandContext) -> int:
        args = [a if a not in ("--color", "--colour") else "--color=never" for a in ctx.args]
        flags, operands = parse_args(args, self.opts)
        patterns = flags["patterns"]
        if not patterns:
            if not operands:
                raise UsageError("usage: grep [OPTION]... PATTERNS [FILE]...")
            patterns = [operands.pop(0)]
        patterns = [p for pattern in patterns for p in pattern.split("\n")]
        syntax = "extended" if flags["extended"] else "python" if flags["perl"] else "basic"
        try:
            sources = [
                re.escape(p) if flags["fixed"] else f"(?:{compile_regex(p, syntax).pattern})"
                for p in patterns
            ]
            regex = compile_regex(
                "|".join(sources),
                "python",
                ignore_case=flags["ignore_case"] and not flags["no_ignore_case"],
                word=flags["word"],
                whole_line=flags["line"],
            )
        except RegexError as err:
            return ctx.fail(str(err), 2)
        try:
            context = int(flags["context"] or 0)
            after = int(flags["after"] or context)
            before = int(flags["before"] or context)
            max_count = int(flags["max_count"]) if flags["max_count"] is not None else None
        except ValueError:
            raise UsageError("invalid context length or count argument") from None

        targets, errors = await self._targets(ctx, operands, flags)
        status = 2 if errors else 1
        show_names = (len(targets) > 1 or flags["recursive"]) and not flags["no_filename"]
        show_names = show_names or flags["with_filename"]
        for name, path in targets:
            try:
                if path is None:
                    lines = files.split_lines(ctx.stdin or "")
                else:
                    lines = await _searchable_lines(ctx.fs, path)
            except (FileStoreError, PathError) as err:
                if not flags["no_messages"]:
                    ctx.report(name, err)
                status = 2
                continue
            if lines is None:
                continue
            matches = find_matches(lines, regex, invert=flags["invert"], limit=max_count)
            if flags["files_without"]:
                if not matches:
                    ctx.out(name + "\n")
                    status = 0 if status != 2 else status
                continue
            if not matches:
                continue
            if status == 1:
                status = 0
            if flags["quiet"]:
                return 0
            if flags["files_with"]:
                ctx.out(name + "\n")
                continue
            prefix = f"{name}:" if show_names else ""
            if flags["count"]:
                ctx.out(f"{prefix}{len(matches)}\n")
                continue
            self._print(ctx, name if show_names else None, lines, matches, flags, before, after)
        if flags["count"] and not targets:
            ctx.out("0\n")
        return status

    async def _targets(
        self, ctx: CommandContext, operands: list[str], flags: dict
    ) -> tuple[list[tuple[str, str | None]], int]:
        defaulted = False
        if not operands:
            if not flags["recursive"]:
                return [("(standard input)", None)], 0
            operands, defaulted = ["."], True
        targets: list[tuple[str, str | None]] = []
        errors = 0
        for operand in operands:
            if operand == "-":
                targets.append(("(standard input)", None))
                continue
            try:
                path = ctx.resolve(operand)
            except PathError as err:
                ctx.fail(str(err))
                errors += 1
                continue
            if await ctx.fs.is_dir(path):
                if not flags["recursive"]:
                    if not flags["no_messages"]:
                        ctx.fail(f"{operand}: Is a directory")
                    errors += 1
                    continue
                async for file in iter_search_files(
                    ctx.fs,
                    path,
                    include=flags["include"] or None,
                    exclude=flags["exclude"] or None,
                    exclude_dirs=flags["exclude_dir"] or None,
                ):
                    rel = file[len(path) + 1 :] if path else file
                    shown = rel if defaulted else f"{operand.rstrip('/')}/{rel}"
                    targets.append((shown, file))
            else:
                targets.append((operand, path))
        return targets, errors

    def _print(self, ctx, name, lines, matches, flags, before, after) -> None:
        numbered = flags["line_number"]
        if flags["only"] and not flags["invert"]:
            for m in matches:
                for start, end in m.spans:
                    if end > start:
                        head = (f"{name}:" if name else "") + (f"{m.number}:" if numbered else "")
                        ctx.out(f"{head}{m.line[start:end]}\n")
            return
        if not (before or after):
            for m in matches:
                head = (f"{name}:" if name else "") + (f"{m.number}:" if numbered else "")
                ctx.out(f"{head}{m.line}\n")
            return
        for item in select_context(len(lines), matches, before, after):
            if item is None:
                ctx.out("--\n")
                continue
            number, is_match = item
            sep = ":" if is_match else "-"
            head = (f"{name}{sep}" if name else "") + (f"{number}{sep}" if numbered else "")
            ctx.out(f"{head}{lines[number - 1]}\n")


async def _searchable_lines(fs: FileStore, path: str) -> list[str] | None:
    """The lines of a file to search; None for a binary file, whose bytes grep never prints."""
    try:
        return files.split_lines(await files.read_text(fs, path))
    except NotText:
        return None
