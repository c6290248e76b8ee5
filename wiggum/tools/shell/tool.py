"""The ``shell`` tool: one command line (or script) run by the FileStore shell."""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import Field

from ..base import Tool, ToolArgs, ToolContext, ToolResult
from .commands import default_commands
from .context import ShellLimits
from .interpreter import Interpreter

__all__ = ["ShellTool"]


class ShellTool(Tool):
    name = "shell"

    class Args(ToolArgs):
        command: str = Field(
            description="Shell command line or script (pipes, &&, ||, ;, redirects, heredocs)."
        )

    def __init__(
        self, limits: ShellLimits | None = None, *, tools: Iterable[Tool] | None = None
    ) -> None:
        # The file commands are the command faces of ``tools`` (the registry's instances).
        self.commands = default_commands(tools)
        self.limits = limits or ShellLimits()
        names = " ".join(sorted(n for n in self.commands if n.isalpha() or n == "["))
        self.description = (
            "Run a POSIX-like shell over the project's files (no OS, no network, no node/npm/"
            "python). Supports pipes, && || ;, > >> < 2>&1, heredocs (cat > f <<'EOF'), globs, "
            "quotes, $VAR, ${VAR/a/b}, $(...), $((...)), [[ ]], if/for/while/until/case, "
            "functions, read, awk. No arrays. Paths are relative to the project root. "
            f"Commands: {names}."
        )

    async def run(self, args: Args, ctx: ToolContext) -> ToolResult:
        interpreter = Interpreter(ctx.fs, self.commands, policy=ctx.policy, limits=self.limits)
        outcome = await interpreter.run(args.command, cwd=ctx.cwd, env=ctx.env)
        output = outcome.output
        if outcome.status != 0:
            if output and not output.endswith("\n"):
                output += "\n"
            output += f"[exit {outcome.status}]"
        elif not output:
            output = "(no output)"
        return ToolResult(output, is_error=outcome.status != 0, exit_code=outcome.status)
