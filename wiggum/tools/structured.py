"""The structured tools: what the model calls by name, and the shell's file commands."""

from __future__ import annotations

from .base import Tool
from .file_tools import DeleteFileTool, EditFileTool, ReadFileTool, WriteFileTool
from .search_tools import GrepTool, ListFilesTool

__all__ = ["structured_tools"]


def structured_tools() -> list[Tool]:
    """Fresh instances of the structured tools.

    All but ``edit_file`` are shell commands too (``cat``, ``tee``, ``ls``,
    ``grep``, ``rm``): ``default_commands`` takes them from this list.
    """
    return [
        ReadFileTool(),
        WriteFileTool(),
        EditFileTool(),
        ListFilesTool(),
        GrepTool(),
        DeleteFileTool(),
    ]
