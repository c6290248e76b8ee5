"""A small POSIX-like shell over the FileStore: lexer -> parser -> interpreter -> commands."""

from ..command import CommandContext, ShellCommand
from .commands import default_commands
from .context import ShellLimits, ShellState
from .interpreter import Interpreter, ShellOutcome
from .lexer import ShellSyntaxError, tokenize
from .parser import parse
from .safety import REFUSED
from .tool import ShellTool

__all__ = [
    "REFUSED",
    "CommandContext",
    "Interpreter",
    "ShellCommand",
    "ShellLimits",
    "ShellOutcome",
    "ShellState",
    "ShellSyntaxError",
    "ShellTool",
    "default_commands",
    "parse",
    "tokenize",
]
