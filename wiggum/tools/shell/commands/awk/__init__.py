"""``awk``: the part of POSIX awk that agents use, with its own lexer, parser and
runtime.  Whatever is outside it (``getline``, ``system()``, output
redirection, user functions) is refused with an ``awk: ...`` message and
exit status 2, never half-run."""

from __future__ import annotations

import re

from wiggum.fs import FileStoreError, PathError

from ....command import CommandContext, ShellCommand, error_reason
from .lexer import AwkError, unescape
from .parser import parse
from .runtime import Input, Runtime

__all__ = ["Awk"]

_USAGE = "usage: awk [-F fs] [-v var=value] ['program' | -f progfile] [file ...]"
_ASSIGNMENT = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)=(.*)", re.DOTALL)
#: gawk options that change nothing for the programs accepted here.
_IGNORED = {"--posix", "--traditional", "--re-interval", "--characters-as-bytes"}


class Awk(ShellCommand):
    command_name = "awk"

    async def execute(self, ctx: CommandContext) -> int:
        try:
            fs, assignments, program_files, rest = _options(ctx.args)
            if program_files:
                source = "\n".join([await _program_file(ctx, f) for f in program_files])
            elif rest:
                source, rest = rest[0], rest[1:]
            else:
                raise AwkError(_USAGE)
            program = parse(source)
        except AwkError as err:
            return ctx.fail(str(err), 2)
        except RecursionError:
            return ctx.fail("program nested too deeply", 2)
        inputs: list[Input] = []
        # A BEGIN-only program reads no input, as in every awk.
        if any(item.kind != "BEGIN" for item in program.items):
            inputs = [await _operand(ctx, operand) for operand in rest]
            if all(i.assignment is not None for i in inputs):
                inputs.append(Input("-", ctx.stdin or ""))
        runtime = Runtime(
            program,
            ctx.out,
            ctx.err,
            max_steps=ctx.limits.max_awk_steps,
            max_chars=ctx.limits.max_buffer_chars,
            environ=dict(ctx.state.env),
        )
        if fs is not None:
            runtime.scalars["FS"] = fs
        for name, value in assignments:
            runtime.assign_var(name, value)
        try:
            return runtime.run(inputs)
        except AwkError as err:
            return ctx.fail(str(err), 2)
        except RecursionError:
            return ctx.fail("expression nested too deeply", 2)


def _options(args: list[str]) -> tuple[str | None, list[tuple[str, str]], list[str], list[str]]:
    """``-F``, ``-v`` and ``-f`` (before the program), then the program and operands."""
    fs: str | None = None
    assignments: list[tuple[str, str]] = []
    program_files: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            i += 1
            break
        if arg in _IGNORED:
            i += 1
            continue
        if arg[:2] not in ("-F", "-v", "-f"):
            if arg.startswith("-") and arg != "-":
                raise AwkError(f"not an option: {arg}")
            break
        value = arg[2:]
        if not value:
            if i + 1 >= len(args):
                raise AwkError(f"option requires an argument -- '{arg[1]}'")
            i += 1
            value = args[i]
        i += 1
        if arg[1] == "F":
            fs = "\t" if value == "t" else unescape(value)
        elif arg[1] == "f":
            program_files.append(value)
        else:
            m = _ASSIGNMENT.fullmatch(value)
            if not m:
                raise AwkError(f"invalid -v argument '{value}': use -v name=value")
            assignments.append((m.group(1), unescape(m.group(2))))
    return fs, assignments, program_files, args[i:]


async def _program_file(ctx: CommandContext, path: str) -> str:
    try:
        return await ctx.read_operand(path)
    except (FileStoreError, PathError) as err:
        raise AwkError(f"can't open file {path}: {error_reason(err)}") from None


async def _operand(ctx: CommandContext, operand: str) -> Input:
    m = _ASSIGNMENT.fullmatch(operand)
    if m:
        return Input(operand, assignment=(m.group(1), unescape(m.group(2))))
    try:
        return Input(operand, await ctx.read_operand(operand))
    except (FileStoreError, PathError) as err:
        return Input(operand, error=error_reason(err))
