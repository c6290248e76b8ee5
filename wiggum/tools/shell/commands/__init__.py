"""The shell's command table."""

from __future__ import annotations

from ...command import ShellCommand
from .awk import Awk
from .builtins import BUILTINS
from .diff import Diff
from .fileio import FILEIO
from .fsops import FSOPS
from .grep import Grep
from .sed import Sed
from .text import TEXT
from .vars import VARS

__all__ = ["default_commands"]


def default_commands() -> dict[str, ShellCommand]:
    """A fresh table of every command (commands hold no state, but tables may be extended)."""
    commands: list[ShellCommand] = [
        *BUILTINS, *VARS, *FILEIO, *FSOPS, *TEXT, Grep(), Sed(), Awk(), Diff()
    ]  # fmt: skip
    return {command.command_name: command for command in commands}
