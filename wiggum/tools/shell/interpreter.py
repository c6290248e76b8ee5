"""Runs a parsed script against the FileStore.

Commands run one at a time; a pipeline's stages run in order, each reading
the whole output of the one before (no command here waits for input, so
nothing is lost by not streaming).  Every run is bounded: commands executed,
loop iterations, nesting of substitutions and function calls, and the size
of every buffer.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from wiggum.fs import FileStore, FileStoreError, PathError

from ..command import CommandContext, ShellCommand, UsageError
from ..errors import ToolError
from ..ops.globs import match_glob
from ..policy import WritePolicy
from . import nodes
from .arith import ArithmeticError_, evaluate
from .context import (
    ExitShell,
    LimitExceeded,
    LoopControl,
    ReturnFromFunction,
    ShellLimits,
    ShellState,
)
from .expand import Expander, ExpansionError
from .lexer import ShellSyntaxError
from .parser import parse
from .redirects import IO, RedirectError, Redirections
from .safety import check_command, check_removal, check_words, not_found
from .streams import BufferSink, OutputLimitExceeded, Sink, Source

__all__ = ["Interpreter", "ShellLimits", "ShellOutcome"]


@dataclass(frozen=True, slots=True)
class ShellOutcome:
    output: str
    status: int


class _Terminal(Sink):
    """The run's visible output: stdout and stderr in the order written."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.chunks: list[str] = []
        self.size = 0
        self.dropped = 0

    def write(self, text: str) -> None:
        room = self.limit - self.size
        if len(text) > room:
            self.dropped += len(text) - max(room, 0)
            text = text[: max(room, 0)]
        self.size += len(text)
        if text:
            self.chunks.append(text)

    def text(self) -> str:
        out = "".join(self.chunks)
        if self.dropped:
            out += f"\n[output limit reached: {self.dropped} more characters not shown]\n"
        return out


class _Run:
    """One invocation of the shell tool: its counters and nesting depth."""

    def __init__(self, interp: Interpreter) -> None:
        self.interp = interp
        self.commands = 0
        self.depth = 0
        #: Status of the last command substitution: an assignment-only command returns it.
        self.subst_status: int | None = None

    def count_command(self) -> None:
        self.commands += 1
        limit = self.interp.limits.max_commands
        if self.commands > limit:
            raise LimitExceeded(f"more than {limit} commands run (an endless loop?)")


class _Scope:
    """Adapts a ShellState to what the expander needs."""

    def __init__(self, fs: FileStore, state: ShellState) -> None:
        self.fs = fs
        self.state = state

    @property
    def cwd(self) -> str:
        return self.state.cwd

    @property
    def params(self) -> list[str]:
        return self.state.params

    def get_var(self, name: str) -> str | None:
        params = self.state.params
        if name == "?":
            return str(self.state.status)
        if name == "#":
            return str(len(params))
        if name == "0":
            return "sh"
        if name == "$":
            return "1"
        if name == "-":
            return "e" if self.state.errexit else ""
        if name in ("@", "*"):
            return " ".join(params)
        if name == "!":
            return ""
        if name.isdigit():
            value = params[int(name) - 1] if int(name) <= len(params) else None
        else:
            value = self.state.env.get(name)
        if value is None and self.state.nounset:
            raise ExpansionError(f"{name}: unbound variable")
        return value

    def set_var(self, name: str, value: str) -> None:
        self.state.env[name] = value


class Interpreter:
    def __init__(
        self,
        fs: FileStore,
        commands: Mapping[str, ShellCommand],
        *,
        policy: WritePolicy | None = None,
        limits: ShellLimits | None = None,
    ) -> None:
        self.fs = fs
        self.commands = commands
        self.policy = policy or WritePolicy()
        self.limits = limits or ShellLimits()
        self._redirections = Redirections(fs, self.policy, self.limits)

    async def run(
        self, source: str, *, cwd: str = "", env: Mapping[str, str] | None = None
    ) -> ShellOutcome:
        """Run ``source``; never raises for anything the script does."""
        terminal = _Terminal(self.limits.max_output_chars)
        # Project-relative, like `pwd`: absolute paths are refused, so none is offered.
        base = {"PWD": cwd or ".", "HOME": ".", "PATH": "/usr/bin:/bin", "SHELL": "sh"}
        state = ShellState(cwd=cwd, env={**base, **(env or {})})
        run = _Run(self)
        if len(source) > self.limits.max_script_chars:
            return ShellOutcome(
                f"sh: script too long ({len(source)} characters; limit "
                f"{self.limits.max_script_chars}); write it to a file in parts\n",
                2,
            )
        io = IO(None, terminal, terminal)
        try:
            script = parse(source)
            status = await self._script(run, script, state, io)
        except ShellSyntaxError as err:
            return ShellOutcome(f"sh: {err}\n", 2)
        except (ExitShell, ReturnFromFunction) as done:
            status = done.status
        except LoopControl:
            status = 0
        except LimitExceeded as err:
            terminal.write(f"sh: stopped: {err}\n")
            status = 124
        except RecursionError:
            terminal.write("sh: stopped: script nested too deeply\n")
            status = 124
        except Exception as err:  # a bug here must not take the loop down
            terminal.write(f"sh: internal error: {type(err).__name__}: {err}\n")
            status = 70
        return ShellOutcome(terminal.text(), status)

    # -- structure ---------------------------------------------------------------------

    async def _script(
        self,
        run: _Run,
        script: nodes.Script,
        state: ShellState,
        io: IO,
        *,
        condition: bool = False,
    ) -> int:
        status = 0
        for item in script.items:
            status = await self._and_or(run, item, state, io, condition)
        return status

    async def _and_or(
        self, run: _Run, node: nodes.AndOr, state: ShellState, io: IO, condition: bool
    ) -> int:
        last_ran = node.first
        in_chain = bool(node.rest)
        status = await self._pipeline(run, node.first, state, io)
        for op, pipeline in node.rest:
            if (op == "&&") == (status == 0):
                last_ran = pipeline
                status = await self._pipeline(run, pipeline, state, io)
        state.status = status
        final = last_ran is (node.rest[-1][1] if in_chain else node.first)
        if state.errexit and status != 0 and not condition and final and not last_ran.negated:
            raise ExitShell(status)
        return status

    async def _pipeline(self, run: _Run, node: nodes.Pipeline, state: ShellState, io: IO) -> int:
        if len(node.commands) == 1:
            status = await self._command(run, node.commands[0], state, io)
        else:
            stdin = io.stdin
            statuses = []
            for index, command in enumerate(node.commands):
                last = index == len(node.commands) - 1
                pipe = BufferSink(self.limits.max_buffer_chars)
                stage_io = IO(stdin, io.stdout if last else pipe, io.stderr)
                # Each stage runs in a subshell, as in POSIX: `cd` or `exit` in a
                # pipe ends only that stage.
                try:
                    statuses.append(await self._command(run, command, state.copy(), stage_io))
                except (ExitShell, ReturnFromFunction) as done:
                    statuses.append(done.status)
                stdin = Source(pipe.text())
            status = statuses[-1]
            if state.pipefail:
                status = next((s for s in reversed(statuses) if s), 0)
        if node.negated:
            status = int(status == 0)
        state.status = status
        return status

    async def _command(self, run: _Run, node: nodes.Command, state: ShellState, io: IO) -> int:
        try:
            if isinstance(node, nodes.SimpleCommand):
                return await self._simple(run, node, state, io)
            cmd_io, sinks = await self._redirections.open(
                node.redirects, lambda: self._expander(run, state, io), state, io
            )
            handler = {
                nodes.Subshell: self._subshell,
                nodes.If: self._if,
                nodes.For: self._for,
                nodes.ArithFor: self._arith_for,
                nodes.While: self._while,
                nodes.Case: self._case,
                nodes.ArithCommand: self._arith,
                nodes.Cond: self._cond,
                nodes.FunctionDef: self._define,
            }[type(node)]
            try:
                return await handler(run, node, state, cmd_io)
            finally:
                await self._redirections.flush(sinks, io.stderr)
        except RedirectError as err:
            io.stderr.write(f"sh: {err}\n")
            return 1
        except ExpansionError as err:
            io.stderr.write(f"sh: {err}\n")
            return 1
        except OutputLimitExceeded as err:
            raise LimitExceeded(str(err)) from None

    async def _define(self, run: _Run, node: nodes.FunctionDef, state: ShellState, io: IO) -> int:
        state.functions[node.name] = node.body
        return 0

    async def _subshell(self, run: _Run, node: nodes.Subshell, state: ShellState, io: IO) -> int:
        if node.group:
            return await self._script(run, node.body, state, io)
        inner = state.copy()
        try:
            return await self._script(run, node.body, inner, io)
        except (ExitShell, ReturnFromFunction) as done:
            return done.status

    async def _if(self, run: _Run, node: nodes.If, state: ShellState, io: IO) -> int:
        for condition, body in node.clauses:
            if await self._script(run, condition, state, io, condition=True) == 0:
                return await self._script(run, body, state, io)
        if node.orelse is not None:
            return await self._script(run, node.orelse, state, io)
        return 0

    async def _for(self, run: _Run, node: nodes.For, state: ShellState, io: IO) -> int:
        expander = self._expander(run, state, io)
        items = await expander.words(node.items) if node.items is not None else state.params
        if len(items) > self.limits.max_loop_iterations:
            raise LimitExceeded(
                f"for loop over {len(items)} items (limit {self.limits.max_loop_iterations})"
            )
        status = 0
        for number, item in enumerate(list(items), 1):
            state.env[node.var] = item
            status, stop = await self._round(run, node.body, state, io, "for", number)
            if stop:
                break
        return status

    async def _while(self, run: _Run, node: nodes.While, state: ShellState, io: IO) -> int:
        status = 0
        keyword = "until" if node.until else "while"
        number = 0
        while True:
            # The condition's failure ends the loop: it is not an error under set -e.
            failed = await self._script(run, node.condition, state, io, condition=True) != 0
            if failed != node.until:
                return status
            number += 1
            status, stop = await self._round(run, node.body, state, io, keyword, number)
            if stop:
                return status

    async def _round(
        self, run: _Run, body: nodes.Script, state: ShellState, io: IO, loop: str, number: int
    ) -> tuple[int, bool]:
        """Pass ``number`` of a loop's body: its status and whether ``break`` ended the loop."""
        if number > self.limits.max_loop_iterations:
            raise LimitExceeded(
                f"{loop} loop still running after {self.limits.max_loop_iterations} "
                "iterations (an endless loop?)"
            )
        try:
            return await self._script(run, body, state, io), False
        except LoopControl as ctl:
            if ctl.levels > 1:
                raise LoopControl(ctl.kind, ctl.levels - 1) from None
            return 0, ctl.kind == "break"

    async def _case(self, run: _Run, node: nodes.Case, state: ShellState, io: IO) -> int:
        expander = self._expander(run, state, io)
        subject = await expander.text(node.subject)
        for patterns, body in node.arms:
            for pattern in patterns:
                if match_glob(await expander.pattern(pattern), subject, pathname=False, dot=True):
                    return await self._script(run, body, state, io)
        return 0

    async def _arith_for(self, run: _Run, node: nodes.ArithFor, state: ShellState, io: IO) -> int:
        await self._arith_value(run, node.init, state, io)
        status = 0
        number = 0
        while await self._arith_value(run, node.condition, state, io, empty=1):
            number += 1
            status, stop = await self._round(run, node.body, state, io, "for (( ))", number)
            if stop:
                break
            await self._arith_value(run, node.step, state, io)
        return status

    async def _arith(self, run: _Run, node: nodes.ArithCommand, state: ShellState, io: IO) -> int:
        run.count_command()
        return 0 if await self._arith_value(run, node.expr, state, io) else 1

    async def _arith_value(
        self, run: _Run, word: nodes.Word, state: ShellState, io: IO, *, empty: int = 0
    ) -> int:
        scope = _Scope(self.fs, state)
        expr = await self._expander(run, state, io).text(word)
        if not expr.strip():
            return empty
        try:
            return evaluate(expr, scope.get_var, scope.set_var)
        except ArithmeticError_ as err:
            raise ExpansionError(str(err)) from None

    async def _cond(self, run: _Run, node: nodes.Cond, state: ShellState, io: IO) -> int:
        expander = self._expander(run, state, io)
        args: list[str] = []
        previous: str | None = None
        for word in node.words:
            # After == and != the word is a pattern: its quoted parts match literally.
            if previous in ("=", "==", "!="):
                args.append(await expander.pattern(word))
            else:
                args.append(await expander.text(word))
            previous = word.plain
        run.count_command()
        return await self._exec(run, ["[[", *args, "]]"], state, io)

    # -- simple commands -----------------------------------------------------------------

    def _expander(self, run: _Run, state: ShellState, io: IO) -> Expander:
        async def substitute(source: str) -> str:
            return await self._substitute(run, source, state, io.stderr)

        return Expander(_Scope(self.fs, state), substitute)

    async def _substitute(self, run: _Run, source: str, state: ShellState, stderr: Sink) -> str:
        if run.depth >= self.limits.max_depth:
            raise LimitExceeded(f"command substitution nested more than {self.limits.max_depth}")
        try:
            script = parse(source)
        except ShellSyntaxError as err:
            raise ExpansionError(f"command substitution: {err}") from None
        capture = BufferSink(self.limits.max_buffer_chars)
        inner = state.copy()
        run.depth += 1
        try:
            status = await self._script(run, script, inner, IO(None, capture, stderr))
        except (ExitShell, ReturnFromFunction) as done:
            status = done.status
        finally:
            run.depth -= 1
        run.subst_status = status
        return capture.text()

    async def _simple(self, run: _Run, node: nodes.SimpleCommand, state: ShellState, io: IO) -> int:
        run.count_command()
        refusal = check_words(node.words, state.cwd)
        if refusal is not None:
            io.stderr.write(f"rm: {refusal}\n")
            return 126
        expander = self._expander(run, state, io)
        run.subst_status = None
        argv = await expander.words(node.words)
        assigned = {name: await expander.text(value) for name, value in node.assignments}
        cmd_io, sinks = await self._redirections.open(
            node.redirects, lambda: self._expander(run, state, io), state, io
        )
        try:
            if not argv:
                state.env.update(assigned)
                return run.subst_status or 0
            return await self._exec(run, argv, state, cmd_io, assigned, functions=True)
        finally:
            await self._redirections.flush(sinks, io.stderr)

    async def _exec(
        self,
        run: _Run,
        argv: list[str],
        state: ShellState,
        io: IO,
        assigned: Mapping[str, str] | None = None,
        *,
        functions: bool = False,
    ) -> int:
        """Run one command line.  ``functions``: a shell function may answer it
        (not for ``xargs``/``find -exec``, which run programs, as in POSIX)."""
        name = argv[0]
        refusal = check_command(argv, state.cwd) or await check_removal(self.fs, argv, state.cwd)
        if refusal is not None:
            io.stderr.write(f"{name}: {refusal}\n")
            return 126
        function = state.functions.get(name) if functions else None
        command = self.commands.get(name)
        if command is None and name.startswith(("/bin/", "/usr/bin/", "/usr/local/bin/")):
            # `which` answers /usr/bin/<name>; let that spelling run the same command.
            command = self.commands.get(name.rpartition("/")[2])
        if function is None and command is None:
            io.stderr.write(not_found(name) + "\n")
            return 127
        # `IFS= read -r line`: the assignment holds for this command only, but
        # what the command itself sets (read's variables, cd) stays.
        saved = {key: state.env.get(key) for key in assigned or {}}
        state.env.update(assigned or {})
        try:
            if function is not None:
                return await self._call(run, function, argv, state, io)
            assert command is not None
            return await self._run_command(run, command, argv, state, io)
        finally:
            _restore(state.env, saved)

    async def _run_command(
        self, run: _Run, command: ShellCommand, argv: list[str], state: ShellState, io: IO
    ) -> int:
        ctx = CommandContext(
            name=argv[0],
            args=argv[1:],
            input=io.stdin,
            stdout=io.stdout,
            stderr=io.stderr,
            fs=self.fs,
            policy=self.policy,
            state=state,
            limits=self.limits,
            run_argv=lambda args, c: self._exec_nested(run, args, c),
            run_source=lambda source, c: self._source_nested(run, source, c),
            known=lambda n: n in self.commands,
        )
        try:
            return await command.execute(ctx)
        except UsageError as err:
            return ctx.fail(str(err), 2)
        except (FileStoreError, PathError, ToolError) as err:
            return ctx.fail(str(err))
        except (
            ExitShell,
            LoopControl,
            ReturnFromFunction,
            LimitExceeded,
            OutputLimitExceeded,
        ):
            raise
        except Exception as err:  # a bug in a command must not end the run
            return ctx.fail(f"internal error: {type(err).__name__}: {err}")

    async def _call(
        self, run: _Run, body: nodes.Command, argv: list[str], state: ShellState, io: IO
    ) -> int:
        """A shell function: its arguments become ``$1``...; ``local`` and
        ``return`` work inside."""
        if run.depth >= self.limits.max_depth:
            raise LimitExceeded(f"function calls nested more than {self.limits.max_depth} deep")
        outer_params = state.params
        state.params = argv[1:]
        state.frames.append({})
        run.depth += 1
        try:
            return await self._command(run, body, state, io)
        except ReturnFromFunction as done:
            return done.status
        finally:
            run.depth -= 1
            state.params = outer_params
            _restore(state.env, state.frames.pop())

    async def _exec_nested(self, run: _Run, argv: list[str], ctx: CommandContext) -> int:
        """Run ``argv`` as a command of its own (``find -exec``, ``xargs``)."""
        run.count_command()
        io = IO(ctx.input, ctx.stdout, ctx.stderr)
        return await self._exec(run, argv, ctx.state, io)

    async def _source_nested(self, run: _Run, source: str, ctx: CommandContext) -> int:
        """Run shell text in the current shell (``eval``; ``sh -c`` passes a copy)."""
        if run.depth >= self.limits.max_depth:
            raise LimitExceeded(f"scripts nested more than {self.limits.max_depth} deep")
        try:
            script = parse(source)
        except ShellSyntaxError as err:
            return ctx.fail(str(err), 2)
        run.depth += 1
        try:
            return await self._script(run, script, ctx.state, IO(ctx.input, ctx.stdout, ctx.stderr))
        finally:
            run.depth -= 1


def _restore(env: dict[str, str], saved: Mapping[str, str | None]) -> None:
    """Put back variables as they were (None: unset)."""
    for key, value in saved.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
