"""The command face: what a class needs to be one of the shell's commands.

A structured tool has a tool face (``Tool``: a pydantic ``Args`` model,
``run(args, ctx)`` -> ``ToolResult`` for the model).  The file tools also have
a command face: ``command_name`` (``cat`` for ``read_file``) and
``execute(ctx)``, which parses ``ctx.args`` like the POSIX utility, does the
same core operation as the tool face and answers through ``ctx.out`` /
``ctx.fail`` with an exit status.  Commands with no tool twin (``echo``,
``sort``, ``sed``, ...) have only this face.  The shell's command table is
built from both (``wiggum.tools.shell.default_commands``).

This module sits beside ``base`` (not inside ``shell/``) because the tool
classes implement it: the shell imports the tools, never the other way round.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from wiggum.fs import FileStore, FileStoreError, PathError, join_path

from .errors import ToolError
from .policy import WritePolicy

if TYPE_CHECKING:
    from .shell.context import ShellLimits, ShellState
    from .shell.streams import Sink, Source

__all__ = ["DEV_NULL", "CommandContext", "ShellCommand", "UsageError", "error_reason"]

DEV_NULL = "/dev/null"


class UsageError(Exception):
    """Bad options or operands: the command prints it and exits 2."""


def error_reason(err: Exception) -> str:
    """What went wrong with a path, as a command's message says it after the name
    (``No such file or directory``)."""
    return err.reason if isinstance(err, FileStoreError) else str(err)


@dataclass
class CommandContext:
    """What a command gets when it runs: arguments, streams, the shell's state."""

    #: ``argv[0]`` as typed (``/usr/bin/cat`` runs ``cat``); messages start with it.
    name: str
    args: list[str]
    #: ``None`` when nothing was piped or redirected in (a terminal: reads as empty).
    input: Source | None
    stdout: Sink
    stderr: Sink
    fs: FileStore
    policy: WritePolicy
    state: ShellState
    limits: ShellLimits
    #: Runs a command line (``find -exec``, ``xargs``, ``env``, ``command``).
    run_argv: Callable[[list[str], CommandContext], Awaitable[int]]
    #: Runs shell text in ``state`` (``eval``, ``sh -c``).
    run_source: Callable[[str, CommandContext], Awaitable[int]]
    #: Names of every command the shell knows (``which``, ``type``).
    known: Callable[[str], bool] = lambda name: False
    _stdin: str | None = field(default=None, init=False, repr=False)

    @property
    def stdin(self) -> str | None:
        """All the input that is left, read once; later reads see the same text."""
        if self._stdin is None and self.input is not None:
            self._stdin = self.input.read_all()
        return self._stdin

    @property
    def cwd(self) -> str:
        return self.state.cwd

    def resolve(self, path: str, *, allow_root: bool = True) -> str:
        """A path operand as a store path (``PathError`` outside the project)."""
        return join_path(self.state.cwd, path, allow_root=allow_root)

    def writes_to(self, path: str) -> bool:
        """Whether standard output is redirected into the file ``path``."""
        return self.stdout.path == path

    def out(self, text: str) -> None:
        self.stdout.write(text)

    def err(self, text: str) -> None:
        self.stderr.write(text)

    def fail(self, message: str, status: int = 1) -> int:
        self.stderr.write(f"{self.name}: {message}\n")
        return status

    def report(self, operand: str, error: Exception) -> int:
        """Print an error about one operand the way coreutils do; return 1."""
        if isinstance(error, FileStoreError):
            return self.fail(f"{operand}: {error.reason}")
        if isinstance(error, PathError | ToolError):
            return self.fail(str(error))
        return self.fail(f"{operand}: {error}")

    async def read_operand(self, operand: str) -> str:
        """Text of a file operand; ``-`` is stdin, ``/dev/null`` is empty."""
        if operand == "-":
            return self.stdin or ""
        if operand == DEV_NULL:
            return ""
        return await self.fs.read_text(self.resolve(operand, allow_root=False))

    async def inputs(self, operands: list[str]) -> list[tuple[str, str | None, Exception | None]]:
        """``(name, text, error)`` for each operand, or stdin when there are none."""
        if not operands:
            return [("-", self.stdin or "", None)]
        out: list[tuple[str, str | None, Exception | None]] = []
        for operand in operands:
            try:
                out.append((operand, await self.read_operand(operand), None))
            except (FileStoreError, PathError) as err:
                out.append((operand, None, err))
        return out


class ShellCommand:
    """The command face.  ``execute`` returns the exit status.

    ``command_name`` is the name the shell knows it by; a class that is also
    a tool keeps its tool name in ``name``.
    """

    command_name: str = ""

    async def execute(self, ctx: CommandContext) -> int:
        raise NotImplementedError
