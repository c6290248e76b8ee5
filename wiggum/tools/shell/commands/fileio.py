"""Reading and writing files: head tail wc touch mkdir.

``cat`` and ``tee`` are the command faces of ``read_file`` and ``write_file``
(``wiggum.tools.file_tools``)."""

from __future__ import annotations

import re

from wiggum.fs import FileStoreError, PathError

from ...args import Opt, parse_args
from ...command import CommandContext, ShellCommand, UsageError, error_reason
from ...ops import files

__all__ = ["FILEIO"]


def _count_arg(value: str | None, default: int = 10) -> tuple[int, bool]:
    """``N``, ``-N`` (all but the last N for head) or ``+N`` (from line N for tail)."""
    if value is None:
        return default, False
    m = re.fullmatch(r"([-+]?)(\d+)([kKmM]?)", value.strip())
    if not m:
        raise UsageError(f"invalid number of lines: '{value}'")
    n = int(m.group(2)) * {"": 1, "k": 1024, "K": 1024, "m": 1 << 20, "M": 1 << 20}[m.group(3)]
    return n, m.group(1) in ("-", "+")


def _numeric_shorthand(args: list[str]) -> list[str]:
    """``head -5`` means ``head -n 5``."""
    out: list[str] = []
    for arg in args:
        takes_value = bool(out) and out[-1] in ("-n", "-c", "--lines", "--bytes")
        out.append(f"-n{arg[1:]}" if re.fullmatch(r"-\d+", arg) and not takes_value else arg)
    return out


class HeadTail(ShellCommand):
    opts = (
        Opt("lines", "n", ("lines",), value=True),
        Opt("bytes", "c", ("bytes",), value=True),
        Opt("quiet", "q", ("quiet", "silent")),
        Opt("verbose", "v", ("verbose",)),
        Opt("follow", "fF", ("follow",)),
    )

    def __init__(self, name: str) -> None:
        self.command_name = name

    async def execute(self, ctx: CommandContext) -> int:
        flags, operands = parse_args(_numeric_shorthand(ctx.args), self.opts)
        by_bytes = flags["bytes"] is not None
        count, signed = _count_arg(flags["bytes"] if by_bytes else flags["lines"])
        status = 0
        inputs = await ctx.inputs(operands)
        headers = (len(inputs) > 1 and not flags["quiet"]) or flags["verbose"]
        for index, (name, text, error) in enumerate(inputs):
            if error is not None:
                status = ctx.report(name, error)
                continue
            assert text is not None
            if headers:
                shown = "standard input" if name == "-" else name
                ctx.out(("\n" if index else "") + f"==> {shown} <==\n")
            ctx.out(self._slice(text, count, signed, by_bytes))
        return status

    def _slice(self, text: str, count: int, signed: bool, by_bytes: bool) -> str:
        if by_bytes:
            data = text.encode("utf-8")
            if self.command_name == "head":
                part = data[: len(data) - count] if signed else data[:count]
            else:
                part = data[count - 1 :] if signed else data[len(data) - count :] if count else b""
            return part.decode("utf-8", errors="replace")
        lines = files.split_lines_keepends(text)
        if self.command_name == "head":
            chosen = lines[: len(lines) - count] if signed else lines[:count]
        elif signed:  # tail -n +N: from line N on
            chosen = lines[max(count - 1, 0) :]
        else:
            chosen = lines[len(lines) - count :] if count else []
        return "".join(chosen)


class Wc(ShellCommand):
    command_name = "wc"
    opts = (
        Opt("lines", "l", ("lines",)),
        Opt("words", "w", ("words",)),
        Opt("bytes", "c", ("bytes",)),
        Opt("chars", "m", ("chars",)),
        Opt("longest", "L", ("max-line-length",)),
    )

    async def execute(self, ctx: CommandContext) -> int:
        flags, operands = parse_args(ctx.args, self.opts)
        chosen = [k for k in ("lines", "words", "chars", "bytes", "longest") if flags[k]]
        if not chosen:
            chosen = ["lines", "words", "bytes"]
        rows: list[tuple[list[int], str]] = []
        status = 0
        for name, text, error in await ctx.inputs(operands):
            if error is not None:
                status = ctx.report(name, error)
                continue
            assert text is not None
            counts = {
                "lines": text.count("\n"),
                "words": len(text.split()),
                "chars": len(text),
                "bytes": len(text.encode("utf-8")),
                "longest": max((len(line) for line in text.split("\n")), default=0),
            }
            rows.append(([counts[k] for k in chosen], "" if name == "-" else name))
        if len(rows) > 1:
            totals = [sum(r[0][i] for r in rows) for i in range(len(chosen))]
            rows.append((totals, "total"))
        width = max((len(str(n)) for r in rows for n in r[0]), default=1)
        single = len(rows) == 1 and len(chosen) == 1
        for counts, label in rows:
            cells = [str(n) if single else str(n).rjust(width) for n in counts]
            ctx.out(" ".join(cells) + (f" {label}" if label else "") + "\n")
        return status


class Touch(ShellCommand):
    command_name = "touch"
    opts = (
        Opt("no_create", "c", ("no-create",)),
        Opt("ignored", "am"),
        Opt("ref", "rdt", (), True),
    )

    async def execute(self, ctx: CommandContext) -> int:
        flags, operands = parse_args(ctx.args, self.opts)
        if not operands:
            raise UsageError("missing file operand")
        status = 0
        for operand in operands:
            try:
                path = ctx.resolve(operand, allow_root=False)
                ctx.policy.check_write(path)
                if await ctx.fs.is_dir(path):
                    continue
                if await ctx.fs.exists(path):
                    # Rewriting the same bytes is how a store without utime bumps mtime.
                    await ctx.fs.write_bytes(path, await ctx.fs.read_bytes(path))
                elif not flags["no_create"]:
                    await files.write_text(ctx.fs, ctx.policy, path, "")
            except (FileStoreError, PathError) as err:
                status = ctx.fail(f"cannot touch '{operand}': {error_reason(err)}")
        return status


class Mkdir(ShellCommand):
    command_name = "mkdir"
    opts = (
        Opt("parents", "p", ("parents",)),
        Opt("verbose", "v", ("verbose",)),
        Opt("mode", "m", (), True),
    )

    async def execute(self, ctx: CommandContext) -> int:
        flags, operands = parse_args(ctx.args, self.opts)
        if not operands:
            raise UsageError("missing operand")
        status = 0
        for operand in operands:
            try:
                path = ctx.resolve(operand, allow_root=False)
                ctx.policy.check_write(path)
                await ctx.fs.mkdir(path, parents=flags["parents"])
                if flags["verbose"]:
                    ctx.out(f"mkdir: created directory '{operand}'\n")
            except (FileStoreError, PathError) as err:
                status = ctx.fail(f"cannot create directory '{operand}': {error_reason(err)}")
        return status


FILEIO: list[ShellCommand] = [HeadTail("head"), HeadTail("tail"), Wc(), Touch(), Mkdir()]
