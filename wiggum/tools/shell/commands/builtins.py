"""Shell builtins and small utilities: cd pwd true false : exit export unset set
eval sh/bash break continue which/type/command echo printf test/[ [[ basename
dirname seq env/printenv sleep."""

from __future__ import annotations

import re
from typing import ClassVar

from wiggum.fs import FileStoreError, PathError, normalize_path

from ...command import CommandContext, ShellCommand, UsageError
from ...ops.globs import match_glob
from ..context import ExitShell, LoopControl, ReturnFromFunction

__all__ = ["BUILTINS"]


def _pwd_of(cwd: str) -> str:
    # Project-relative on purpose: absolute paths are refused, so pwd must not
    # invite the model to build them.
    return cwd or "."


class Cd(ShellCommand):
    command_name = "cd"

    async def execute(self, ctx: CommandContext) -> int:
        if len(ctx.args) > 1:
            return ctx.fail("too many arguments")
        target = ctx.args[0] if ctx.args else "."
        try:
            if target == "-":
                # OLDPWD is project-relative, like PWD: resolve it from the root.
                target = ctx.state.env.get("OLDPWD", ".")
                path = normalize_path(target)
                ctx.out(target + "\n")
            elif not ctx.args or target in ("~", "/"):
                path = ""
            else:
                path = ctx.resolve(target)
        except PathError as err:
            return ctx.fail(str(err))
        if not await ctx.fs.is_dir(path):
            reason = "Not a directory" if await ctx.fs.exists(path) else "No such file or directory"
            return ctx.fail(f"{target}: {reason}")
        ctx.state.env["OLDPWD"] = _pwd_of(ctx.state.cwd)
        ctx.state.cwd = path
        ctx.state.env["PWD"] = _pwd_of(path)
        return 0


class Pwd(ShellCommand):
    command_name = "pwd"

    async def execute(self, ctx: CommandContext) -> int:
        ctx.out(_pwd_of(ctx.cwd) + "\n")
        return 0


class Const(ShellCommand):
    def __init__(self, name: str, status: int) -> None:
        self.command_name = name
        self.status = status

    async def execute(self, ctx: CommandContext) -> int:
        return self.status


class Exit(ShellCommand):
    command_name = "exit"

    async def execute(self, ctx: CommandContext) -> int:
        status = ctx.state.status
        if ctx.args:
            try:
                status = int(ctx.args[0]) & 0xFF
            except ValueError:
                ctx.fail(f"{ctx.args[0]}: numeric argument required")
                status = 2
        raise ExitShell(status)


class Export(ShellCommand):
    command_name = "export"

    async def execute(self, ctx: CommandContext) -> int:
        for arg in ctx.args:
            if arg.startswith("-"):
                continue
            name, eq, value = arg.partition("=")
            if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
                return ctx.fail(f"`{arg}': not a valid identifier")
            if eq:
                ctx.state.env[name] = value
            else:
                ctx.state.env.setdefault(name, "")
        return 0


class Unset(ShellCommand):
    command_name = "unset"

    async def execute(self, ctx: CommandContext) -> int:
        for arg in ctx.args:
            if not arg.startswith("-"):
                ctx.state.env.pop(arg, None)
        return 0


class Set(ShellCommand):
    command_name = "set"
    _FLAGS: ClassVar[dict[str, str]] = {"e": "errexit", "u": "nounset"}

    async def execute(self, ctx: CommandContext) -> int:
        if not ctx.args:
            for key in sorted(ctx.state.env):
                ctx.out(f"{key}={ctx.state.env[key]}\n")
            return 0
        args = iter(ctx.args)
        for arg in args:
            if arg == "--" or not arg.startswith(("-", "+")):
                # `set -- a b` (or `set a b`): the positional parameters.
                rest = list(args)
                ctx.state.params = rest if arg == "--" else [arg, *rest]
                break
            if arg in ("-o", "+o"):
                option = next(args, "")
                if option == "pipefail":
                    ctx.state.pipefail = arg == "-o"
                elif option in ("errexit", "nounset"):
                    setattr(ctx.state, option, arg == "-o")
                # Other options (xtrace, noclobber...) change nothing visible here.
                continue
            if arg[:1] in "-+" and len(arg) > 1:
                for flag in arg[1:]:
                    if flag in self._FLAGS:
                        setattr(ctx.state, self._FLAGS[flag], arg[0] == "-")
        return 0


class Eval(ShellCommand):
    command_name = "eval"

    async def execute(self, ctx: CommandContext) -> int:
        return await ctx.run_source(" ".join(ctx.args), ctx)


class Sh(ShellCommand):
    """``sh -c 'script'`` or ``sh script.sh``: a child shell with a copy of the state."""

    def __init__(self, name: str) -> None:
        self.command_name = name

    async def execute(self, ctx: CommandContext) -> int:
        args = [a for a in ctx.args if a not in ("-e", "-x", "-u", "-eu", "-ex", "-l")]
        if not args:
            return 0 if ctx.stdin is None else await self._child(ctx, ctx.stdin)
        if args[0] == "-c":
            if len(args) < 2:
                return ctx.fail("-c: option requires an argument", 2)
            return await self._child(ctx, args[1])
        try:
            source = await ctx.read_operand(args[0])
        except (FileStoreError, PathError) as err:
            return ctx.report(args[0], err)
        return await self._child(ctx, source)

    async def _child(self, ctx: CommandContext, source: str) -> int:
        parent = ctx.state
        ctx.state = parent.copy()
        try:
            return await ctx.run_source(source, ctx)
        except ExitShell as done:
            return done.status
        finally:
            ctx.state = parent


class Loop(ShellCommand):
    def __init__(self, name: str) -> None:
        self.command_name = name

    async def execute(self, ctx: CommandContext) -> int:
        levels = int(ctx.args[0]) if ctx.args and ctx.args[0].isdigit() else 1
        raise LoopControl(self.command_name, max(levels, 1))


class Which(ShellCommand):
    def __init__(self, name: str) -> None:
        self.command_name = name

    async def execute(self, ctx: CommandContext) -> int:
        args = [a for a in ctx.args if not a.startswith("-")]
        if self.command_name == "command" and ctx.args and ctx.args[0] not in ("-v", "-V"):
            # `command ls -l` runs the ls command even when a function is named ls.
            return await ctx.run_argv(ctx.args, ctx)
        status = 0
        for name in args:
            if name in ctx.state.functions and self.command_name != "which":
                # `which` is a program and cannot see the shell's functions.
                ctx.out(f"{name} is a function\n" if self.command_name == "type" else f"{name}\n")
            elif ctx.known(name):
                if self.command_name == "type":
                    ctx.out(f"{name} is /usr/bin/{name}\n")
                elif self.command_name == "which":
                    ctx.out(f"/usr/bin/{name}\n")
                else:
                    ctx.out(f"{name}\n")
            else:
                status = 1
                if self.command_name == "type":
                    ctx.err(f"type: {name}: not found\n")
        return status


class Echo(ShellCommand):
    command_name = "echo"

    async def execute(self, ctx: CommandContext) -> int:
        args = list(ctx.args)
        newline, escapes = True, False
        while args and re.fullmatch(r"-[neE]+", args[0]):
            flags = args.pop(0)[1:]
            newline = newline and "n" not in flags
            for f in flags:
                if f in "eE":
                    escapes = f == "e"
        text = " ".join(args)
        if escapes:
            text, stop = _escapes(text)
            if stop:
                newline = False
        ctx.out(text + ("\n" if newline else ""))
        return 0


_ESC = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "a": "\a", "b": "\b", "f": "\f", "v": "\v",
        "e": "\x1b", "E": "\x1b"}  # fmt: skip


def _escapes(text: str) -> tuple[str, bool]:
    """Backslash escapes of ``echo -e`` / ``printf %b``; ``\\c`` stops output."""
    out = []
    i = 0
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text):
            nxt = text[i + 1]
            if nxt in _ESC:
                out.append(_ESC[nxt])
                i += 2
                continue
            if nxt == "c":
                return "".join(out), True
            m = re.match(r"0([0-7]{0,3})|x([0-9A-Fa-f]{1,2})", text[i + 1 :])
            if m:
                code = int(m.group(1) or "0", 8) if m.group(2) is None else int(m.group(2), 16)
                out.append(chr(code))
                i += 1 + m.end()
                continue
        out.append(c)
        i += 1
    return "".join(out), False


_SPEC = re.compile(r"%([-+ #0]*)(\*|\d+)?(?:\.(\*|\d+))?([diouxXfFeEgGcsb%])")


class Printf(ShellCommand):
    command_name = "printf"

    async def execute(self, ctx: CommandContext) -> int:
        if not ctx.args:
            return ctx.fail("usage: printf format [arguments]", 2)
        fmt, args = ctx.args[0], list(ctx.args[1:])
        status = 0
        while True:
            consumed = 0
            out: list[str] = []
            pos = 0
            stop = False
            for m in _SPEC.finditer(fmt):
                literal, stop = _escapes(fmt[pos : m.start()])
                out.append(literal)
                pos = m.end()
                if stop:
                    break
                flags, width, precision, conv = m.groups()
                if conv == "%":
                    out.append("%")
                    continue
                if width == "*":
                    width = args[consumed] if consumed < len(args) else "0"
                    consumed += 1
                if precision == "*":
                    precision = args[consumed] if consumed < len(args) else "0"
                    consumed += 1
                arg = args[consumed] if consumed < len(args) else None
                consumed += 1
                text, ok = _format_one(flags, width, precision, conv, arg)
                if not ok:
                    ctx.err(f"printf: {arg}: invalid number\n")
                    status = 1
                out.append(text)
            if not stop:
                literal, stop = _escapes(fmt[pos:])
                out.append(literal)
            ctx.out("".join(out))
            args = args[consumed:]
            if stop or not args or consumed == 0:
                return status


def _format_one(
    flags: str, width: str | None, precision: str | None, conv: str, arg: str | None
) -> tuple[str, bool]:
    spec = "%" + flags + (width or "") + (f".{precision}" if precision is not None else "")
    if conv in "sb":
        text = arg or ""
        if conv == "b":
            text, _ = _escapes(text)
        return (spec + "s") % text, True
    if conv == "c":
        return (spec + "s") % (arg or "")[:1], True
    raw = (arg or "0").strip()
    ok = True
    if conv in "diouxX":
        try:
            number: float = (
                int(raw, 0) if re.fullmatch(r"[-+]?0[xX][0-9a-fA-F]+", raw) else int(raw)
            )
        except ValueError:
            m = re.match(r"[-+]?\d+", raw)
            number, ok = (int(m.group()) if m else 0), False
        conv = "d" if conv in "iu" else conv
        return (spec + conv) % number, ok
    try:
        number = float(raw)
    except ValueError:
        number, ok = 0.0, False
    return (spec + conv) % number, ok


class Test(ShellCommand):
    """``test``, ``[ ... ]`` and (simple forms of) ``[[ ... ]]``."""

    def __init__(self, name: str) -> None:
        self.command_name = name

    async def execute(self, ctx: CommandContext) -> int:
        args = list(ctx.args)
        closer = {"[": "]", "[[": "]]"}.get(self.command_name)
        if closer:
            if not args or args[-1] != closer:
                return ctx.fail(f"missing `{closer}'", 2)
            args.pop()
        try:
            result, rest = await self._or(ctx, args)
            if rest:
                raise UsageError(f"{rest[0]}: unexpected argument")
        except UsageError as err:
            return ctx.fail(str(err), 2)
        return 0 if result else 1

    async def _or(self, ctx: CommandContext, args: list[str]) -> tuple[bool, list[str]]:
        left, args = await self._and(ctx, args)
        while args and args[0] in ("-o", "||"):
            right, args = await self._and(ctx, args[1:])
            left = left or right
        return left, args

    async def _and(self, ctx: CommandContext, args: list[str]) -> tuple[bool, list[str]]:
        left, args = await self._not(ctx, args)
        while args and args[0] in ("-a", "&&"):
            right, args = await self._not(ctx, args[1:])
            left = left and right
        return left, args

    async def _not(self, ctx: CommandContext, args: list[str]) -> tuple[bool, list[str]]:
        if args and args[0] == "!" and len(args) > 1:
            value, rest = await self._not(ctx, args[1:])
            return not value, rest
        return await self._primary(ctx, args)

    async def _primary(self, ctx: CommandContext, args: list[str]) -> tuple[bool, list[str]]:
        if not args:
            return False, []
        if args[0] == "(":
            value, rest = await self._or(ctx, args[1:])
            if not rest or rest[0] != ")":
                raise UsageError("missing `)'")
            return value, rest[1:]
        if len(args) >= 3 and args[1] in _BINARY:
            return self._binary(args[0], args[1], args[2]), args[3:]
        if len(args) >= 2 and args[0] in _UNARY:
            return await self._unary(ctx, args[0], args[1]), args[2:]
        return args[0] != "", args[1:]

    def _binary(self, a: str, op: str, b: str) -> bool:
        if op in ("=", "=="):
            return (
                match_glob(b, a, pathname=False, dot=True) if self.command_name == "[[" else a == b
            )
        if op == "!=":
            return not self._binary(a, "=", b)
        if op == "<":
            return a < b
        if op == ">":
            return a > b
        if op == "=~":
            return re.search(b, a) is not None
        try:
            x, y = int(a), int(b)
        except ValueError:
            raise UsageError(
                f"{a if not a.lstrip('-').isdigit() else b}: integer expected"
            ) from None
        return {
            "-eq": x == y, "-ne": x != y, "-lt": x < y, "-le": x <= y, "-gt": x > y, "-ge": x >= y
        }[op]  # fmt: skip

    async def _unary(self, ctx: CommandContext, op: str, arg: str) -> bool:
        if op == "-n":
            return arg != ""
        if op == "-z":
            return arg == ""
        if arg == "/dev/null":
            return op in ("-e", "-r", "-w")
        try:
            path = ctx.resolve(arg)
        except PathError:
            return False
        fs = ctx.fs
        if op in ("-e", "-r", "-w"):
            return await fs.exists(path)
        if op == "-f":
            return await fs.exists(path) and not await fs.is_dir(path)
        if op == "-d":
            return await fs.is_dir(path)
        if op == "-s":
            return await fs.exists(path) and (await fs.stat(path)).size > 0
        return False  # -x -L -h -p -S -b -c: nothing here is executable or special


_BINARY = {"=", "==", "!=", "<", ">", "=~", "-eq", "-ne", "-lt", "-le", "-gt", "-ge"}
_UNARY = {"-n", "-z", "-e", "-f", "-d", "-s", "-r", "-w", "-x", "-L", "-h", "-p", "-S", "-b", "-c"}


class Basename(ShellCommand):
    command_name = "basename"

    async def execute(self, ctx: CommandContext) -> int:
        if not ctx.args:
            return ctx.fail("missing operand", 2)
        path = ctx.args[0].rstrip("/") or "/"
        name = path.rpartition("/")[2] or path
        if len(ctx.args) > 1 and name != ctx.args[1] and name.endswith(ctx.args[1]):
            name = name[: -len(ctx.args[1])]
        ctx.out(name + "\n")
        return 0


class Dirname(ShellCommand):
    command_name = "dirname"

    async def execute(self, ctx: CommandContext) -> int:
        if not ctx.args:
            return ctx.fail("missing operand", 2)
        for arg in ctx.args:
            path = arg.rstrip("/")
            head = path.rpartition("/")[0] if "/" in path else "."
            ctx.out((head or "/") + "\n")
        return 0


class Seq(ShellCommand):
    command_name = "seq"

    async def execute(self, ctx: CommandContext) -> int:
        nums = [a for a in ctx.args if not re.fullmatch(r"-[a-zA-Z]+", a)]
        try:
            values = [float(a) if "." in a else int(a) for a in nums]
        except ValueError:
            return ctx.fail(f"invalid argument: {' '.join(nums)}", 2)
        if len(values) == 1:
            first, step, last = 1, 1, values[0]
        elif len(values) == 2:
            first, step, last = values[0], 1, values[1]
        elif len(values) == 3:
            first, step, last = values
        else:
            return ctx.fail("usage: seq [first [step]] last", 2)
        if step == 0 or abs((last - first) / step) > ctx.limits.max_loop_iterations * 10:
            return ctx.fail("too many numbers", 1)
        out = []
        n = first
        while (step > 0 and n <= last) or (step < 0 and n >= last):
            out.append(f"{n:g}" if isinstance(n, float) else str(n))
            n += step
        ctx.out("".join(line + "\n" for line in out))
        return 0


class Env(ShellCommand):
    """``env [-i] [-u NAME]... [NAME=VALUE]... [COMMAND [ARG]...]``.

    With a command, runs it as POSIX ``env`` does: in a child (a copy of the
    shell's state, so nothing it sets comes back) whose environment is changed
    as asked, through the shell's ordinary command lookup and checks, so
    ``env curl x`` is refused exactly like ``curl x``.  Like any program it
    cannot call the shell's functions.  Without one, prints the environment.
    """

    command_name = "env"

    async def execute(self, ctx: CommandContext) -> int:
        env, argv = _env_args(ctx.args, ctx.state.env)
        if not argv:
            for key in sorted(env):
                ctx.out(f"{key}={env[key]}\n")
            return 0
        parent = ctx.state
        ctx.state = parent.copy()
        ctx.state.env = env
        try:
            return await ctx.run_argv(argv, ctx)
        except (ExitShell, ReturnFromFunction) as done:
            return done.status
        except LoopControl:
            return 0  # a child cannot break the parent's loop
        finally:
            ctx.state = parent


def _env_args(args: list[str], current: dict[str, str]) -> tuple[dict[str, str], list[str]]:
    """``env``'s options and assignments applied to a copy of ``current``; the command."""
    env = dict(current)
    i = 0
    while i < len(args):
        arg = args[i]
        if arg in ("-i", "--ignore-environment", "-"):
            env = {}
        elif arg in ("-u", "--unset"):
            if i + 1 == len(args):
                raise UsageError("option requires an argument -- 'u'")
            i += 1
            env.pop(args[i], None)
        elif arg.startswith("--unset="):
            env.pop(arg.partition("=")[2], None)
        elif arg.startswith("-u"):
            env.pop(arg[2:], None)
        elif arg == "--":
            i += 1
            break
        elif arg.startswith("-"):
            raise UsageError(f"invalid option -- '{arg[1]}'")
        else:
            break
        i += 1
    while i < len(args) and args[i].find("=") > 0:
        name, _, value = args[i].partition("=")
        env[name] = value
        i += 1
    return env, args[i:]


class Printenv(ShellCommand):
    command_name = "printenv"

    async def execute(self, ctx: CommandContext) -> int:
        if not ctx.args:
            for key in sorted(ctx.state.env):
                ctx.out(f"{key}={ctx.state.env[key]}\n")
            return 0
        values = [ctx.state.env.get(a) for a in ctx.args]
        for v in values:
            if v is not None:
                ctx.out(v + "\n")
        return 0 if all(v is not None for v in values) else 1


class Sleep(ShellCommand):
    """Returns at once: nothing here runs in the background to wait for."""

    command_name = "sleep"

    async def execute(self, ctx: CommandContext) -> int:
        return 0


BUILTINS: list[ShellCommand] = [
    Cd(), Pwd(), Const("true", 0), Const(":", 0), Const("false", 1), Exit(), Export(),
    Unset(), Set(), Eval(), Sh("sh"), Sh("bash"), Loop("break"), Loop("continue"),
    Which("which"), Which("type"), Which("command"), Echo(), Printf(), Test("test"),
    Test("["), Test("[["), Basename(), Dirname(), Seq(), Env(), Printenv(), Sleep(),
]  # fmt: skip
