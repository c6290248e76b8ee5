"""What a shell command gets when it runs: arguments, streams, the shell's state."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from wiggum.fs import FileStore, FileStoreError, PathError, join_path

from ..errors import ToolError
from ..policy import WritePolicy
from .streams import Sink, Source

if TYPE_CHECKING:
    from .interpreter import ShellLimits
    from .nodes import Command as Node

__all__ = [
    "Command",
    "CommandContext",
    "ExitShell",
    "LimitExceeded",
    "LoopControl",
    "ReturnFromFunction",
    "ShellState",
    "UsageError",
]

DEV_NULL = "/dev/null"


class UsageError(Exception):
    """Bad options or operands: the command prints it and exits 2."""


class ExitShell(Exception):
    """``exit`` (or ``set -e`` after a failure): ends the script or subshell."""

    def __init__(self, status: int) -> None:
        self.status = status


class LoopControl(Exception):
    """``break`` / ``continue`` out of ``levels`` enclosing loops."""

    def __init__(self, kind: str, levels: int) -> None:
        self.kind = kind
        self.levels = levels


class ReturnFromFunction(Exception):
    """``return``: ends the innermost function call with ``status``."""

    def __init__(self, status: int) -> None:
        self.status = status


class LimitExceeded(Exception):
    """A run limit was hit: the whole script stops."""


@dataclass
class ShellState:
    cwd: str = ""
    env: dict[str, str] = field(default_factory=dict)
    status: int = 0
    errexit: bool = False
    pipefail: bool = False
    nounset: bool = False
    #: ``$1``, ``$2``...: set by ``set --`` and by function calls.
    params: list[str] = field(default_factory=list)
    #: Shell functions by name; each body is a compound command node.
    functions: dict[str, Node] = field(default_factory=dict)
    #: One frame per running function call: the values ``local`` replaced.
    frames: list[dict[str, str | None]] = field(default_factory=list)

    def copy(self) -> ShellState:
        return ShellState(
            self.cwd,
            dict(self.env),
            self.status,
            self.errexit,
            self.pipefail,
            self.nounset,
            list(self.params),
            dict(self.functions),
            [dict(frame) for frame in self.frames],
        )


@dataclass
class CommandContext:
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
    #: Runs a command line (``find -exec``, ``xargs``, ``sh -c``, ``eval``).
    run_argv: Callable[[list[str], CommandContext], Awaitable[int]]
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


class Command:
    """A shell command.  ``run`` returns the exit status."""

    name: str = ""

    async def run(self, ctx: CommandContext) -> int:
        raise NotImplementedError
