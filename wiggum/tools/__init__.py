"""Ralph's tools: pydantic argument models, dispatch, output truncation, the shell."""

from .base import Tool, ToolArgs, ToolContext, ToolError, ToolResult
from .command import CommandContext, ShellCommand
from .file_tools import DeleteFileTool, EditFileTool, ReadFileTool, WriteFileTool
from .output import MAX_BYTES, MAX_LINES, Truncation, to_model_output, truncate_output
from .policy import PolicyError, WritePolicy
from .registry import ToolRegistry, dispatch_for_model
from .search_tools import GrepTool, ListFilesTool
from .shell import ShellTool
from .structured import structured_tools

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


def default_tools() -> list[Tool]:
    """Ralph's tool set: the structured tools and the shell, whose file commands
    (``cat``, ``tee``, ``ls``, ``grep``, ``rm``) are those same tool instances."""
    structured = structured_tools()
    return [*structured, ShellTool(tools=structured)]
