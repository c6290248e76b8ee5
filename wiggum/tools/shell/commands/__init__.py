"""The shell's command table."""

from __future__ import annotations

from ..context import Command
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


def default_commands() -> dict[str, Command]:
    """A fresh table of every command (commands hold no state, but tables may be extended)."""
    commands: list[Command] = [
        *BUILTINS, *VARS, *FILEIO, *FSOPS, *TEXT, Grep(), Sed(), Awk(), Diff()
    ]  # fmt: skip
    return {command.name: command for command in commands}
