"""The Tool contract: a pydantic argument model, an async ``run``, a result."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict

from wiggum.fs import FileStore, join_path
from wiggum.llm.types import ToolDefinition

from .errors import ToolError
from .policy import WritePolicy
from .schema import model_parameters

__all__ = ["Tool", "ToolArgs", "ToolContext", "ToolError", "ToolResult"]


@dataclass(frozen=True, slots=True)
class ToolResult:
    output: str
    is_error: bool = False
    #: The shell's exit status; 0 for structured tools that succeeded.
    exit_code: int = 0

    @classmethod
    def error(cls, message: str, exit_code: int = 1) -> ToolResult:
        return cls(message, is_error=True, exit_code=exit_code)


@dataclass
class ToolContext:
    """What a tool may touch.  Built by the loop; nothing global."""

    fs: FileStore
    #: Directory (project-relative) that relative paths start from.
    cwd: str = ""
    #: Where ``to_model_output`` keeps full outputs that were truncated.
    tmp_dir: str = ".ralph/tmp"
    policy: WritePolicy = field(default_factory=WritePolicy)
    logger: logging.Logger = field(default_factory=lambda: logging.getLogger("wiggum.tools"))
    #: Initial variables of the shell tool's environment.
    env: dict[str, str] = field(default_factory=dict)

    def resolve(self, path: str, *, allow_root: bool = True) -> str:
        """A path argument as a store path (``PathError`` outside the project)."""
        return join_path(self.cwd, path, allow_root=allow_root)


class ToolArgs(BaseModel):
    """Base for argument models: unknown keys are an error the model can fix."""

    model_config = ConfigDict(extra="forbid")


class Tool:
    name: ClassVar[str]
    description: ClassVar[str]
    Args: ClassVar[type[BaseModel]] = ToolArgs

    async def run(self, args: Any, ctx: ToolContext) -> ToolResult:
        raise NotImplementedError

    def definition(self) -> ToolDefinition:
        return ToolDefinition(
            name=self.name, description=self.description, parameters=model_parameters(self.Args)
        )
