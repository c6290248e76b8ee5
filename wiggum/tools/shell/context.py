"""The shell's own state, its limits, and the exceptions that steer a run (exit,
loops, limits).

What a command gets when it runs (``CommandContext``) is in ``wiggum.tools.command``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .nodes import Command as Node

__all__ = [
    "ExitShell",
    "LimitExceeded",
    "LoopControl",
    "ReturnFromFunction",
    "ShellLimits",
    "ShellState",
]


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


@dataclass(frozen=True)
class ShellLimits:
    """What one run may cost (a model's script must not hang or flood the page)."""

    max_script_chars: int = 256 * 1024
    #: What the terminal keeps; the rest is dropped with a note.
    max_output_chars: int = 2 * 1024 * 1024
    #: A pipe, a command substitution or a redirected file.
    max_buffer_chars: int = 16 * 1024 * 1024
    max_commands: int = 10_000
    max_loop_iterations: int = 10_000
    #: Substitutions, ``eval``/``sh -c`` and function calls inside one another.
    max_depth: int = 16
    #: Statements and loop rounds one ``awk`` program may run.
    max_awk_steps: int = 1_000_000


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
