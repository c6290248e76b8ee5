"""``sed``: a stream editor covering what agents write.

Addresses: ``N``, ``$``, ``/re/`` (and ``\\cREc``, ``I`` flag), ranges
``a,b`` (incl. ``a,+N``), ``!``.  Commands: ``s`` (flags ``g``, ``i/I``, ``p``,
a number), ``d``, ``p``, ``q``/``Q`` [exit], ``=``, ``a``/``i``/``c`` text, ``y``,
``n``, ``h H g G x``, ``{ ... }``, ``#`` comments.  Options: ``-n``, ``-e``
(repeatable), ``-f``, ``-E``/``-r``, ``-s``, ``-i[SUFFIX]``.

The engine is a pure function of text, so ``sed -i`` edits through the same
read-transform-write primitive as the ``edit_file`` tool.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from wiggum.fs import FileStoreError, PathError

from ...command import CommandContext, ShellCommand, UsageError
from ...ops import files
from ...ops.regex import RegexError, compile_regex

__all__ = ["Sed", "SedError", "SedProgram"]


class SedError(Exception):
    pass


@dataclass
class _Addr:
    kind: str  # "line", "last", "regex", "plus"
    line: int = 0
    regex: re.Pattern[str] | None = None


@dataclass
class _Cmd:
    name: str
    addr1: _Addr | None = None
    addr2: _Addr | None = None
    negate: bool = False
    # s: (regex, replacement, global, occurrence, print); y: (src, dst);
    # a/i/c: text; q/Q: status; {: list of commands
    arg: object = None
    block: list[_Cmd] = field(default_factory=list)
    # Range state while the program runs.
    active: bool = False
    end_line: int = 0


class _Parser:
    def __init__(self, script: str, extended: bool) -> None:
        self.s = script
        self.i = 0
        self.syntax = "extended" if extended else "basic"
        self.last_regex: re.Pattern[str] | None = None

    def error(self, message: str) -> SedError:
        return SedError(f"-e expression #1, char {self.i}: {message}")

    def peek(self) -> str:
        return self.s[self.i] if self.i < len(self.s) else ""

    def skip(self, chars: str = " \t") -> None:
        while self.i < len(self.s) and self.s[self.i] in chars:
            self.i += 1

    def parse(self, nested: bool = False) -> list[_Cmd]:
        cmds: list[_Cmd] = []
        while True:
            self.skip(" \t\n;")
            if self.i >= len(self.s):
                if nested:
                    raise self.error("unmatched `{'")
                return cmds
            if self.peek() == "#":
                while self.i < len(self.s) and self.s[self.i] != "\n":
                    self.i += 1
                continue
            if self.peek() == "}":
                if not nested:
                    raise self.error("unexpected `}'")
                self.i += 1
                return cmds
            cmds.append(self.command())

    def command(self) -> _Cmd:
        addr1 = self.address()
        addr2 = None
        if addr1 is not None and self.peek() == ",":
            self.i += 1
            self.skip()
            if self.peek() == "+":
                self.i += 1
                m = re.match(r"\d+", self.s[self.i :])
                if not m:
                    raise self.error("expected a number after `+'")
                self.i += m.end()
                addr2 = _Addr("plus", int(m.group()))
            else:
                addr2 = self.address()
                if addr2 is None:
                    raise self.error("unexpected `,'")
        self.skip()
        negate = False
        while self.peek() == "!":
            negate = True
            self.i += 1
            self.skip()
        name = self.peek()
        if not name:
            raise self.error("missing command")
        self.i += 1
        cmd = _Cmd(name, addr1, addr2, negate)
        if name == "{":
            cmd.block = self.parse(nested=True)
        elif name == "s":
            cmd.arg = self.substitution()
        elif name == "y":
            cmd.arg = self.transliteration()
        elif name in "aic":
            cmd.arg = self.text()
        elif name in "qQ":
            self.skip()
            m = re.match(r"\d+", self.s[self.i :])
            cmd.arg = int(m.group()) if m else 0
            self.i += m.end() if m else 0
        elif name in "dpn=hHgGxlDNP":
            if name in "DNPl":
                raise self.error(f"command `{name}' is not supported here")
        else:
            raise self.error(f"unknown command: `{name}'")
        self.end_of_command()
        return cmd

    def end_of_command(self) -> None:
        self.skip()
        if self.peek() in ("", ";", "\n", "}", "#"):
            return
        raise self.error(f"extra characters after command (`{self.peek()}')")

    def address(self) -> _Addr | None:
        c = self.peek()
        if c.isdigit():
            m = re.match(r"\d+", self.s[self.i :])
            assert m
            self.i += m.end()
            if self.peek() == "~":  # first~step: take the first line only
                self.i += 1
                m2 = re.match(r"\d+", self.s[self.i :])
                self.i += m2.end() if m2 else 0
            return _Addr("line", int(m.group()))
        if c == "$":
            self.i += 1
            return _Addr("last")
        if c == "/" or c == "\\":
            if c == "\\":
                self.i += 1
            delim = self.peek()
            self.i += 1
            pattern = self.until(delim)
            flags = ""
            while self.peek() in ("I", "M"):
                flags += self.peek()
                self.i += 1
            return _Addr("regex", regex=self.compile(pattern, "I" in flags))
        return None

    def until(self, delim: str) -> str:
        """Text up to an unescaped ``delim``; ``\\delim`` becomes ``delim``."""
        out = []
        while True:
            if self.i >= len(self.s):
                raise self.error(f"unterminated address or command (missing `{delim}')")
            c = self.s[self.i]
            if c == "\\" and self.i + 1 < len(self.s):
                nxt = self.s[self.i + 1]
                if nxt == delim:
                    out.append(delim)
                elif nxt == "n":
                    out.append("\\n")
                else:
                    out.append(c + nxt)
                self.i += 2
                continue
            if c == delim:
                self.i += 1
                return "".join(out)
            if c == "\n" and delim != "\n":
                raise self.error(f"unterminated `s' command (missing `{delim}')")
            out.append(c)
            self.i += 1

    def compile(self, pattern: str, ignore_case: bool) -> re.Pattern[str]:
        if not pattern:
            if self.last_regex is None:
                raise self.error("no previous regular expression")
            return self.last_regex
        try:
            regex = compile_regex(pattern, self.syntax, ignore_case=ignore_case)  # type: ignore[arg-type]
        except RegexError as err:
            raise self.error(str(err)) from None
        self.last_regex = regex
        return regex

    def substitution(self) -> tuple:
        delim = self.peek()
        if not delim or delim in "\\\n":
            raise self.error("unterminated `s' command")
        self.i += 1
        pattern = self.until(delim)
        replacement = self.until(delim)
        global_, occurrence, print_, ignore_case = False, 1, False, False
        while self.peek() and self.peek() in "gpiIM0123456789we":
            c = self.peek()
            if c == "g":
                global_ = True
            elif c == "p":
                print_ = True
            elif c in "iI":
                ignore_case = True
            elif c.isdigit():
                m = re.match(r"\d+", self.s[self.i :])
                assert m
                occurrence = int(m.group())
                self.i += m.end()
                continue
            elif c in "we":
                raise self.error(f"the `{c}' flag of `s' is not supported here")
            self.i += 1
        regex = self.compile(pattern, ignore_case)
        return regex, _parse_replacement(replacement), global_, occurrence, print_

    def transliteration(self) -> tuple[str, str]:
        delim = self.peek()
        self.i += 1
        src = _unescape(self.until(delim))
        dst = _unescape(self.until(delim))
        if len(src) != len(dst):
            raise self.error("strings for `y' command are different lengths")
        return src, dst

    def text(self) -> str:
        """``a text``, ``a\\`` + newline + text (lines continued with ``\\``)."""
        self.skip()
        if self.s.startswith("\\\n", self.i):
            self.i += 2
        elif self.peek() == "\\":
            self.i += 1
        out = []
        while self.i < len(self.s):
            c = self.s[self.i]
            if c == "\\" and self.i + 1 < len(self.s):
                out.append(self.s[self.i + 1])
                self.i += 2
                continue
            if c == "\n":
                break
            out.append(c)
            self.i += 1
        return "".join(out)


def _unescape(text: str) -> str:
    return text.replace("\\n", "\n").replace("\\t", "\t").replace("\\\\", "\\")


def _parse_replacement(text: str) -> list[str | int]:
    """Literal strings and group numbers (0 for ``&``)."""
    out: list[str | int] = []
    buf: list[str] = []
    i = 0
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text):
            nxt = text[i + 1]
            i += 2
            if nxt.isdigit():
                out += ["".join(buf), int(nxt)]
                buf = []
            else:
                buf.append({"n": "\n", "t": "\t"}.get(nxt, nxt))
            continue
        if c == "&":
            out += ["".join(buf), 0]
            buf = []
        else:
            buf.append(c)
        i += 1
    out.append("".join(buf))
    return [p for p in out if p != ""]


def _expand(replacement: list[str | int], m: re.Match[str]) -> str:
    out = []
    for piece in replacement:
        if isinstance(piece, int):
            if piece > (m.re.groups or 0):
                raise SedError(f"invalid reference \\{piece} on `s' command's RHS")
            out.append(m.group(piece) or "")
        else:
            out.append(piece)
    return "".join(out)


def _substitute(spec: tuple, text: str) -> tuple[str, bool]:
    regex, replacement, global_, occurrence, _ = spec
    out: list[str] = []
    pos = 0
    count = 0
    changed = False
    for m in regex.finditer(text):
        count += 1
        if count < occurrence:
            continue
        out.append(text[pos : m.start()])
        out.append(_expand(replacement, m))
        pos = m.end()
        changed = True
        if not global_:
            break
    out.append(text[pos:])
    return "".join(out), changed


class _Stop(Exception):
    def __init__(self, status: int, print_space: bool) -> None:
        self.status = status
        self.print_space = print_space


class SedProgram:
    def __init__(self, script: str, *, extended: bool = False, quiet: bool = False) -> None:
        self.commands = _Parser(script, extended).parse()
        self.quiet = quiet

    def run(self, texts: list[str]) -> tuple[str, int]:
        """Run over the concatenation of ``texts``; returns output and exit status."""
        for cmd in self._all(self.commands):
            cmd.active = False
        lines: list[str] = []
        for text in texts:
            lines += files.split_lines(text)
        last_text = next((t for t in reversed(texts) if t), "")
        keep_final_newline = last_text.endswith("\n") or not last_text
        out: list[str] = []
        hold = ""
        status = 0
        index = 0
        while index < len(lines):
            state = _Cycle(lines, index, hold)
            try:
                self._cycle(self.commands, state, out)
            except _Stop as stop:
                if stop.print_space and not state.deleted and not self.quiet:
                    out.append(state.space)
                out += state.appended
                status = stop.status
                break
            if not state.deleted and not self.quiet:
                out.append(state.space)
            out += state.appended
            hold = state.hold
            index = state.index + 1
        text = "\n".join(out)
        if out and keep_final_newline:
            text += "\n"
        return text, status

    def _all(self, cmds: list[_Cmd]):
        for cmd in cmds:
            yield cmd
            yield from self._all(cmd.block)

    def _matches(self, cmd: _Cmd, state: _Cycle) -> bool:
        line_no = state.index + 1
        if cmd.addr1 is None:
            return True
        if cmd.addr2 is None:
            return self._hit(cmd.addr1, state)
        if cmd.active:
            end = cmd.addr2
            if end.kind in ("line", "plus"):
                if line_no >= cmd.end_line:
                    cmd.active = False
                return True
            if self._hit(end, state):
                cmd.active = False
            return True
        if self._hit(cmd.addr1, state):
            end = cmd.addr2
            if end.kind == "line":
                cmd.end_line = end.line
                cmd.active = end.line > line_no
            elif end.kind == "plus":
                cmd.end_line = line_no + end.line
                cmd.active = end.line > 0
            elif end.kind == "last":
                cmd.active = not state.is_last
            else:
                cmd.active = True
            return True
        return False

    def _hit(self, addr: _Addr, state: _Cycle) -> bool:
        if addr.kind == "line":
            return state.index + 1 == addr.line
        if addr.kind == "last":
            return state.is_last
        assert addr.regex is not None
        return addr.regex.search(state.space) is not None

    def _cycle(self, cmds: list[_Cmd], state: _Cycle, out: list[str]) -> None:
        for cmd in cmds:
            if state.deleted:
                return
            if self._matches(cmd, state) == cmd.negate:
                continue
            name = cmd.name
            if name == "{":
                self._cycle(cmd.block, state, out)
            elif name == "s":
                state.space, changed = _substitute(cmd.arg, state.space)  # type: ignore[arg-type]
                if changed and cmd.arg[4]:  # type: ignore[index]
                    out.append(state.space)
            elif name == "d":
                state.deleted = True
            elif name == "p":
                out.append(state.space)
            elif name == "=":
                out.append(str(state.index + 1))
            elif name == "a":
                state.appended.append(str(cmd.arg))
            elif name == "i":
                out.append(str(cmd.arg))
            elif name == "c":
                if not cmd.active:
                    out.append(str(cmd.arg))
                state.deleted = True
            elif name == "y":
                src, dst = cmd.arg  # type: ignore[misc]
                state.space = state.space.translate(str.maketrans(src, dst))
            elif name in "qQ":
                raise _Stop(int(cmd.arg or 0), name == "q")  # type: ignore[call-overload]
            elif name == "n":
                if state.is_last:
                    raise _Stop(0, True)
                if not self.quiet:
                    out.append(state.space)
                out.extend(state.appended)
                state.appended = []
                state.index += 1
                state.space = state.lines[state.index]
            elif name == "h":
                state.hold = state.space
            elif name == "H":
                state.hold += "\n" + state.space
            elif name == "g":
                state.space = state.hold
            elif name == "G":
                state.space += "\n" + state.hold
            elif name == "x":
                state.space, state.hold = state.hold, state.space


class _Cycle:
    def __init__(self, lines: list[str], index: int, hold: str) -> None:
        self.lines = lines
        self.index = index
        self.space = lines[index]
        self.hold = hold
        self.deleted = False
        self.appended: list[str] = []

    @property
    def is_last(self) -> bool:
        return self.index == len(self.lines) - 1


class Sed(ShellCommand):
    command_name = "sed"

    async def execute(self, ctx: CommandContext) -> int:
        scripts: list[str] = []
        operands: list[str] = []
        quiet = extended = separate = False
        in_place: str | None = None
        rest = iter(ctx.args)
        for arg in rest:
            if arg == "--":
                operands += rest
                break
            if arg in ("-n", "--quiet", "--silent"):
                quiet = True
            elif arg in ("-E", "-r", "--regexp-extended"):
                extended = True
            elif arg in ("-s", "--separate"):
                separate = True
            elif arg.startswith("--in-place"):
                in_place = arg.partition("=")[2]
            elif arg.startswith("-i") and not arg.startswith("-in"):
                in_place = arg[2:]
            elif arg in ("-e", "--expression", "-f", "--file"):
                value = next(rest, None)
                if value is None:
                    raise UsageError(f"option requires an argument -- '{arg[-1]}'")
                scripts.append(
                    value if arg in ("-e", "--expression") else await ctx.read_operand(value)
                )
            elif arg.startswith("--expression="):
                scripts.append(arg.partition("=")[2])
            elif re.fullmatch(r"-[nErsi]+", arg):
                # Bundled short flags such as -ne or -nE (or -ni, GNU's trap).
                quiet = quiet or "n" in arg
                extended = extended or "E" in arg or "r" in arg
                separate = separate or "s" in arg
                if "i" in arg:
                    in_place = ""
            elif arg.startswith("-") and len(arg) > 1:
                raise UsageError(f"invalid option -- '{arg[1]}'")
            else:
                operands.append(arg)
        if not scripts:
            if not operands:
                raise UsageError("usage: sed [OPTION]... {script} [input-file]...")
            if in_place is not None and operands[0] == "" and len(operands) > 2:
                operands.pop(0)  # BSD spelling: sed -i '' 's/a/b/' file
            scripts = [operands.pop(0)]
        try:
            program = SedProgram("\n".join(scripts), extended=extended, quiet=quiet)
        except SedError as err:
            return ctx.fail(str(err), 1)
        if in_place is not None:
            return await self._in_place(ctx, program, operands, in_place)
        inputs = await ctx.inputs(operands)
        status = 0
        texts = []
        for name, text, error in inputs:
            if error is not None:
                status = ctx.fail(f"can't read {name}: {getattr(error, 'reason', error)}", 2)
            else:
                texts.append(text or "")
        try:
            if separate:
                for text in texts:
                    output, code = program.run([text])
                    ctx.out(output)
                    status = status or code
            elif texts:
                output, code = program.run(texts)
                ctx.out(output)
                status = status or code
        except SedError as err:
            return ctx.fail(str(err), 1)
        return status

    async def _in_place(
        self, ctx: CommandContext, program: SedProgram, operands: list[str], suffix: str
    ) -> int:
        if not operands:
            return ctx.fail("no input files", 1)
        status = 0
        for operand in operands:
            try:
                path = ctx.resolve(operand, allow_root=False)
                if suffix:
                    backup = ctx.resolve(operand + suffix, allow_root=False)
                    await files.write_text(ctx.fs, ctx.policy, backup, await ctx.fs.read_text(path))
                code = 0

                def transform(text: str) -> str:
                    nonlocal code
                    output, code = program.run([text])
                    return output

                await files.edit_file(ctx.fs, ctx.policy, path, transform)
                status = status or code
            except SedError as err:
                return ctx.fail(str(err), 1)
            except (FileStoreError, PathError) as err:
                status = ctx.fail(f"couldn't edit {operand}: {getattr(err, 'reason', err)}", 4)
        return status
