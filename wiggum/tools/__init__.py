"""Ralph's tools: pydantic argument models, dispatch, output truncation, the shell.

The shell (its grammar, interpreter and ~30 commands) is imported on first use:
Chief's tools come from here too, and the page's first screen should not pay
for a shell only Ralph runs.
"""

from typing import TYPE_CHECKING

from wiggum._lazy import lazy_names

from .base import Tool, ToolArgs, ToolContext, ToolError, ToolResult
from .command import CommandContext, ShellCommand
from .file_tools import DeleteFileTool, EditFileTool, ReadFileTool, WriteFileTool
from .output import MAX_BYTES, MAX_LINES, Truncation, to_model_output, truncate_output
from .policy import PolicyError, WritePolicy
from .registry import ToolRegistry, dispatch_for_model
from .search_tools import GrepTool, ListFilesTool
from .structured import structured_tools

if TYPE_CHECKING:
    from .shell import ShellTool

__all__ = [
    "MAX_BYTES",
    "MAX_LINES",
    "CommandContext",
    "DeleteFileTool",
    "EditFileTool",
    "GrepTool",
    "ListFilesTool",
    "PolicyError",
    "ReadFileTool",
    "ShellCommand",
    "ShellTool",
    "Tool",
    "ToolArgs",
    "ToolContext",
    "ToolError",
    "ToolRegistry",
    "ToolResult",
    "Truncation",
    "WriteFileTool",
    "WritePolicy",
    "default_tools",
    "dispatch_for_model",
    "structured_tools",
    "to_model_output",
    "truncate_output",
]


__getattr__, __dir__ = lazy_names(__name__, {"ShellTool": "shell"})


def default_tools() -> list[Tool]:
    """Ralph's tool set: the structured tools and the shell, whose file commands
    (``cat``, ``tee``, ``ls``, ``grep``, ``rm``) are those same tool instances."""
    from .shell import ShellTool

    structured = structured_tools()
    return [*structured, ShellTool(tools=structured)]
