"""A small POSIX-like shell over the FileStore: lexer -> parser -> interpreter -> commands."""

from .commands import default_commands
from .context import Command, CommandContext, ShellState
from .interpreter import Interpreter, ShellLimits, ShellOutcome
from .lexer import ShellSyntaxError, tokenize
from .parser import parse
from .safety import REFUSED
from .tool import ShellTool

__all__ = [
    "REFUSED",
    "Command",
    "CommandContext",
    "Interpreter",
    "ShellLimits",
    "ShellOutcome",
    "ShellState",
    "ShellSyntaxError",
    "ShellTool",
    "default_commands",
    "parse",
    "tokenize",
]
