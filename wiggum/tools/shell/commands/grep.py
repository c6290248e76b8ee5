"""``grep``: the same matcher and file walk as the ``grep`` tool."""

from __future__ import annotations

import re

from wiggum.fs import FileStoreError, NotText, PathError

from ...args import Opt, parse_args
from ...command import CommandContext, ShellCommand, UsageError
from ...ops import files
from ...ops.regex import RegexError, compile_regex
from ...ops.search import find_matches, iter_search_files, select_context

__all__ = ["Grep"]


class Grep(ShellCommand):
    command_name = "grep"
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
                _escape(p) if flags["fixed"] else f"(?:{compile_regex(p, syntax).pattern})"
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
                    text = ctx.stdin or ""
                else:
                    text = await files.read_text(ctx.fs, path)
            except NotText:
                # A binary file: report a match the way grep does, never its bytes.
                continue
            except (FileStoreError, PathError) as err:
                if not flags["no_messages"]:
                    ctx.report(name, err)
                status = 2
                continue
            lines = files.split_lines(text)
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


def _escape(text: str) -> str:
    return re.escape(text)
