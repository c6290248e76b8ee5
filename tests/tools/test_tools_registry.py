from __future__ import annotations

from pydantic import BaseModel, Field

from wiggum.llm.types import ParsedToolCall
from wiggum.tools import Tool, ToolArgs, ToolRegistry, ToolResult, default_tools
from wiggum.tools.schema import clean_schema


def call(name: str, **kw) -> ParsedToolCall:
    return ParsedToolCall(id="c1", name=name, **kw)


def registry() -> ToolRegistry:
    return ToolRegistry(default_tools())


def walk(node):
    if isinstance(node, dict):
        yield node
        for key, value in node.items():
            if key != "properties":
                yield from walk(value)
            else:
                for sub in value.values():
                    yield from walk(sub)
    elif isinstance(node, list):
        for item in node:
            yield from walk(item)


def test_definitions_have_clean_schemas():
    defs = registry().definitions()
    names = [d.name for d in defs]
    assert names == [
        "read_file", "write_file", "edit_file", "list_files", "grep", "delete_file", "shell"
    ]  # fmt: skip
    for d in defs:
        params = d.parameters
        assert params["type"] == "object"
        assert params["additionalProperties"] is False
        assert d.description
        for node in walk(params):
            assert "title" not in node
            assert "$ref" not in node and "$defs" not in node
            assert node.get("anyOf") is None


def test_read_file_schema_details():
    params = registry().get("read_file").definition().parameters
    assert params["required"] == ["path"]
    assert params["properties"]["offset"] == {
        "type": "integer",
        "minimum": 1,
        "description": "First line to show (1-based).",
    }
    assert params["properties"]["line_numbers"]["default"] is False


def test_clean_schema_inlines_refs_and_keeps_property_named_title():
    class Inner(BaseModel):
        title: str = Field(description="a property called title")

    class Outer(BaseModel):
        inner: Inner
        maybe: Inner | None = None

    schema = clean_schema(Outer.model_json_schema())
    inner = schema["properties"]["inner"]
    assert inner["type"] == "object"
    assert inner["properties"]["title"]["description"] == "a property called title"
    assert inner["additionalProperties"] is False
    assert schema["properties"]["maybe"]["properties"]["title"]["type"] == "string"
    assert "default" not in schema["properties"]["maybe"]


async def test_unknown_tool_lists_available(ctx):
    result = await registry().dispatch(call("run_command", args={"command": "ls"}), ctx)
    assert result.is_error
    assert "unknown tool 'run_command'" in result.output
    assert "read_file, write_file" in result.output and "shell" in result.output


async def test_missing_field(ctx):
    result = await registry().dispatch(call("write_file", args={"path": "a.txt"}), ctx)
    assert result.is_error
    assert "missing required field 'content'" in result.output
    assert "Expected: path: string (required), content: string (required)" in result.output
    assert not await ctx.fs.exists("a.txt")


async def test_wrong_type_and_extra_field(ctx):
    result = await registry().dispatch(
        call("read_file", args={"path": "index.html", "offset": "first", "colour": 1}), ctx
    )
    assert result.is_error
    assert "field 'offset'" in result.output and "'first'" in result.output
    assert "unexpected field 'colour'" in result.output


async def test_truncated_call_is_never_run(ctx):
    tc = call("write_file", args={"path": "a.txt", "content": "half"}, truncated=True)
    result = await registry().dispatch(tc, ctx)
    assert result.is_error
    assert "cut off" in result.output and "again" in result.output
    assert not await ctx.fs.exists("a.txt")


async def test_parse_error_is_refused(ctx):
    tc = call("shell", raw_args="{command: ls", parse_error="Expecting property name")
    result = await registry().dispatch(tc, ctx)
    assert result.is_error
    assert "Expecting property name" in result.output


class Boom(Tool):
    name = "boom"
    description = "always fails"

    class Args(ToolArgs):
        pass

    async def run(self, args, ctx) -> ToolResult:
        raise RuntimeError("kaput")


async def test_exception_in_tool_becomes_error(ctx, caplog):
    reg = ToolRegistry([Boom()])
    result = await reg.dispatch(call("boom"), ctx)
    assert result.is_error
    assert result.output == "Error: boom failed: RuntimeError: kaput"
    assert "Traceback" not in result.output


async def test_store_errors_become_messages(ctx):
    result = await registry().dispatch(call("read_file", args={"path": "missing.txt"}), ctx)
    assert result.is_error
    assert result.output == "Error: missing.txt: No such file or directory"


def test_duplicate_registration_refused():
    import pytest

    with pytest.raises(ValueError):
        ToolRegistry([Boom(), Boom()])
