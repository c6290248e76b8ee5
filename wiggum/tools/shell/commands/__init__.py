"""The shell's command table."""

from __future__ import annotations

from collections.abc import Iterable

from ...command import ShellCommand
from ...structured import structured_tools
from .awk import Awk
from .builtins import BUILTINS
from .diff import Diff
from .fileio import FILEIO
from .fsops import FSOPS
from .sed import Sed
from .text import TEXT
from .vars import VARS

__all__ = ["default_commands"]


def default_commands(tools: Iterable[object] | None = None) -> dict[str, ShellCommand]:
    """A fresh table of every command, by command name.

    The file commands are the command faces of ``tools`` (the tool registry's
    instances; by default fresh ``structured_tools()``): ``cat`` is the
    ``read_file`` tool, ``tee`` ``write_file``, ``ls`` ``list_files``,
    ``grep`` ``grep``, ``rm`` ``delete_file``.  Tools without a command face
    (``edit_file``, ``shell``) are skipped.  The rest are the commands with no
    tool twin (``echo``, ``sort``, ``sed``, ...), which hold no state.
    """
    twins = [
        t for t in (structured_tools() if tools is None else tools) if isinstance(t, ShellCommand)
    ]
    commands: list[ShellCommand] = [
        *twins, *BUILTINS, *VARS, *FILEIO, *FSOPS, *TEXT, Sed(), Awk(), Diff()
    ]  # fmt: skip
    table: dict[str, ShellCommand] = {}
    for command in commands:
        if command.command_name in table:
            raise ValueError(f"two commands are named {command.command_name!r}")
        table[command.command_name] = command
    return table
