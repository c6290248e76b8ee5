"""Tool registry: the definitions sent to the model and a dispatch that never raises.

Whatever the model sends — an unknown name, arguments that do not validate,
arguments cut off mid-stream — ``dispatch`` answers with an error result the
model can act on.  Only cancellation (``CancelledError``) goes through.
"""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import ValidationError

from wiggum.fs import FileStoreError, PathError, StorageFull
from wiggum.llm.types import ParsedToolCall, ToolDefinition

from .base import Tool, ToolContext, ToolError, ToolResult
from .output import to_model_output

__all__ = [
    "ToolRegistry",
    "describe_fields",
    "describe_validation_error",
    "dispatch_for_model",
]


class ToolRegistry:
    def __init__(self, tools: Iterable[Tool] = ()) -> None:
        self._tools: dict[str, Tool] = {}
        for tool in tools:
            self.register(tool)

    def register(self, tool: Tool) -> None:
        if tool.name in self._tools:
            raise ValueError(f"tool {tool.name!r} is already registered")
        self._tools[tool.name] = tool

    def __contains__(self, name: str) -> bool:
        return name in self._tools

    def get(self, name: str) -> Tool | None:
        return self._tools.get(name)

    @property
    def names(self) -> list[str]:
        return list(self._tools)

    def definitions(self) -> list[ToolDefinition]:
        return [tool.definition() for tool in self._tools.values()]

    async def dispatch(self, call: ParsedToolCall, ctx: ToolContext) -> ToolResult:
        tool = self._tools.get(call.name)
        if tool is None:
            available = ", ".join(self._tools) or "(none)"
            return ToolResult.error(
                f"Error: unknown tool {call.name!r}. Available tools: {available}."
            )
        if call.truncated:
            # Repaired truncated arguments look valid but are incomplete: a
            # write_file would silently save half a file.
            return ToolResult.error(
                f"Error: the arguments of this {call.name} call were cut off before they were "
                "complete (the reply hit its length limit), so it was not run. Send the call "
                "again; for large content, write the file in smaller parts."
            )
        if call.parse_error:
            return ToolResult.error(
                f"Error: the arguments of this {call.name} call are not valid JSON "
                f"({call.parse_error}), so it was not run. Send it again with a JSON object."
            )
        try:
            args = tool.Args.model_validate(call.args)
        except ValidationError as err:
            return ToolResult.error(
                f"Error: invalid arguments for {call.name}: {describe_validation_error(err)}. "
                f"Expected: {describe_fields(tool)}."
            )
        try:
            return await tool.run(args, ctx)
        except StorageFull as err:
            # Retrying cannot help until the person frees space: say so to Ralph.
            return ToolResult.error(
                f"Error: nothing was written. {err} (Writing again will fail the same "
                "way until the person frees space: stop and tell them.)"
            )
        except (ToolError, FileStoreError, PathError) as err:
            return ToolResult.error(f"Error: {err}")
        except Exception as err:
            ctx.logger.exception("tool %s failed", call.name)
            return ToolResult.error(f"Error: {call.name} failed: {type(err).__name__}: {err}")


async def dispatch_for_model(
    registry: ToolRegistry, call: ParsedToolCall, ctx: ToolContext
) -> tuple[ToolResult, str]:
    """Dispatch, then shape the output for the model (``to_model_output``).

    Returns the full result (for the UI and logs) and the text to put in the
    tool message.
    """
    result = await registry.dispatch(call, ctx)
    return result, await to_model_output(result.output, call.name, ctx)


def describe_validation_error(err: ValidationError) -> str:
    """One clause per problem: which field, what was expected, what came."""
    parts = []
    for problem in err.errors():
        field = ".".join(str(loc) for loc in problem["loc"]) or "arguments"
        kind = problem["type"]
        if kind == "missing":
            parts.append(f"missing required field {field!r}")
        elif kind == "extra_forbidden":
            parts.append(f"unexpected field {field!r}")
        else:
            got = problem.get("input")
            shown = repr(got)
            if len(shown) > 60:
                shown = shown[:57] + "..."
            parts.append(f"field {field!r}: {problem['msg']} (got {shown})")
    return "; ".join(parts)


def describe_fields(tool: Tool) -> str:
    """``path: string (required), limit: integer`` from the tool's schema."""
    schema = tool.definition().parameters
    required = set(schema.get("required", []))
    fields = []
    for name, prop in schema.get("properties", {}).items():
        kind = prop.get("type") or "any"
        fields.append(f"{name}: {kind}{' (required)' if name in required else ''}")
    return ", ".join(fields) or "no arguments"
