"""Builtins that set the shell's variables and parameters: read, local/declare,
let, shift, return."""

from __future__ import annotations

import re

from ...args import Opt, parse_args
from ...command import CommandContext, ShellCommand, UsageError
from ..arith import ArithmeticError_, evaluate
from ..context import ReturnFromFunction

__all__ = ["VARS"]

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_DEFAULT_IFS = " \t\n"

#: A character of input and whether a backslash made it literal.
_Char = tuple[str, bool]


class Read(ShellCommand):
    """``read [-r] [-d delim] [-n count] [name...]``: one line of input into variables."""

    command_name = "read"
    opts = (
        Opt("raw", "r"),
        Opt("delim", "d", (), value=True),
        Opt("count", "nN", (), value=True),
        Opt("array", "aA", (), value=True),
        Opt("fd", "u", (), value=True),
        # A prompt, a timeout and silence mean nothing without a terminal.
        Opt("prompt", "p", (), value=True),
        Opt("timeout", "t", (), value=True),
        Opt("silent", "se"),
    )

    async def execute(self, ctx: CommandContext) -> int:
        flags, given = parse_args(ctx.args, self.opts)
        if flags["array"] is not None:
            raise UsageError("-a: arrays are not supported here; read into names instead")
        if flags["fd"] not in (None, "0"):
            raise UsageError(f"{flags['fd']}: only standard input (0) can be read")
        names = given or ["REPLY"]
        for name in names:
            if not _NAME.fullmatch(name):
                return ctx.fail(f"`{name}': not a valid identifier")
        delim = flags["delim"] if flags["delim"] is not None else "\n"
        limit = None
        if flags["count"] is not None:
            if not flags["count"].isdigit():
                return ctx.fail(f"{flags['count']}: invalid number")
            limit = int(flags["count"])
        chars, found = self._line(ctx, delim[:1] or "\0", limit, flags["raw"])
        if not given:
            values = ["".join(c for c, _ in chars)]  # REPLY keeps the line as it was
        else:
            values = _split(chars, len(names), ctx.state.env.get("IFS", _DEFAULT_IFS))
        for name, value in zip(names, values, strict=True):
            ctx.state.env[name] = value
        return 0 if found else 1

    def _line(
        self, ctx: CommandContext, delim: str, limit: int | None, raw: bool
    ) -> tuple[list[_Char], bool]:
        chars: list[_Char] = []
        source = ctx.input
        while source is not None:
            chunk = source.read_until(delim, None if limit is None else limit - len(chars))
            if chunk is None:
                return chars, False
            text, found = chunk
            if raw:
                return [(c, False) for c in text], found
            i = 0
            while i < len(text):
                if text[i] == "\\" and i + 1 < len(text):
                    chars.append((text[i + 1], True))
                    i += 2
                elif text[i] == "\\":
                    i += 1
                    if found and delim == "\n":
                        break  # backslash-newline: the line goes on
                    chars.append(("\\", False))
                else:
                    chars.append((text[i], False))
                    i += 1
            else:
                return chars, found
            if limit is not None and len(chars) >= limit:
                return chars, True
        return chars, False


def _split(chars: list[_Char], count: int, ifs: str) -> list[str]:
    """POSIX field splitting for ``read``: the last name takes the rest."""
    blanks = {c for c in ifs if c in " \t\n"}
    delims = set(ifs)

    def is_blank(i: int, items: list[_Char]) -> bool:
        return not items[i][1] and items[i][0] in blanks

    def is_delim(i: int, items: list[_Char]) -> bool:
        return not items[i][1] and items[i][0] in delims

    start, end = 0, len(chars)
    while start < end and is_blank(start, chars):
        start += 1
    while end > start and is_blank(end - 1, chars):
        end -= 1
    rest = chars[start:end]

    def field(items: list[_Char], pos: int) -> tuple[str, int]:
        """The field at ``pos`` and where the next one starts."""
        out = []
        while pos < len(items) and not is_delim(pos, items):
            out.append(items[pos][0])
            pos += 1
        while pos < len(items) and is_blank(pos, items):
            pos += 1
        if pos < len(items) and is_delim(pos, items):
            pos += 1
            while pos < len(items) and is_blank(pos, items):
                pos += 1
        return "".join(out), pos

    values = []
    for _ in range(count - 1):
        value, used = field(rest, 0)
        values.append(value)
        rest = rest[used:]
    if count > 1 and rest:
        # As bash: a last field followed only by its delimiter loses the delimiter.
        value, used = field(rest, 0)
        if used == len(rest):
            values.append(value)
            return values
    values.append("".join(c for c, _ in rest))
    return values


class Local(ShellCommand):
    """``local``, and ``declare``/``typeset``, which are local inside a function."""

    def __init__(self, name: str) -> None:
        self.command_name = name

    async def execute(self, ctx: CommandContext) -> int:
        frames = ctx.state.frames
        if self.command_name == "local" and not frames:
            return ctx.fail("can only be used in a function")
        status = 0
        for arg in ctx.args:
            if arg.startswith(("-", "+")):
                if set(arg[1:]) & set("aA"):
                    raise UsageError(f"{arg}: arrays are not supported here")
                continue
            name, eq, value = arg.partition("=")
            if not _NAME.fullmatch(name):
                status = ctx.fail(f"`{arg}': not a valid identifier")
                continue
            if frames and name not in frames[-1]:
                frames[-1][name] = ctx.state.env.get(name)
            if eq:
                ctx.state.env[name] = value
            elif frames:
                ctx.state.env.pop(name, None)
        return status


class Let(ShellCommand):
    """``let 'i += 1' n=2``: arithmetic; fails when the last value is 0."""

    command_name = "let"

    async def execute(self, ctx: CommandContext) -> int:
        if not ctx.args:
            return ctx.fail("expression expected")
        env = ctx.state.env
        value = 0
        for expr in ctx.args:
            try:
                value = evaluate(expr, env.get, env.__setitem__)
            except ArithmeticError_ as err:
                return ctx.fail(str(err))
        return 0 if value else 1


class Shift(ShellCommand):
    command_name = "shift"

    async def execute(self, ctx: CommandContext) -> int:
        count = ctx.args[0] if ctx.args else "1"
        if not count.isdigit():
            return ctx.fail(f"{count}: numeric argument required", 2)
        if int(count) > len(ctx.state.params):
            return ctx.fail("shift count out of range")
        ctx.state.params = ctx.state.params[int(count) :]
        return 0


class Return(ShellCommand):
    command_name = "return"

    async def execute(self, ctx: CommandContext) -> int:
        if not ctx.state.frames:
            return ctx.fail("can only `return' from a function")
        status = ctx.state.status
        if ctx.args:
            if not re.fullmatch(r"-?\d+", ctx.args[0]):
                ctx.fail(f"{ctx.args[0]}: numeric argument required")
                raise ReturnFromFunction(2)
            status = int(ctx.args[0]) & 0xFF
        raise ReturnFromFunction(status)


VARS: list[ShellCommand] = [
    Read(), Local("local"), Local("declare"), Local("typeset"), Let(), Shift(), Return()
]  # fmt: skip
