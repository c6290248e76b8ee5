from __future__ import annotations

import pytest

from wiggum.llm.types import ParsedToolCall
from wiggum.tools import (
    DeleteFileTool,
    EditFileTool,
    ReadFileTool,
    ShellCommand,
    ToolRegistry,
    default_tools,
)
from wiggum.tools.shell import default_commands


async def run(ctx, name, **args):
    reg = ToolRegistry(default_tools())
    return await reg.dispatch(ParsedToolCall(id="1", name=name, args=args), ctx)


async def test_read_file(ctx):
    r = await run(ctx, "read_file", path="src/app.js")
    assert not r.is_error
    assert r.output == "const a = 1;\nconsole.log(a);\n"


async def test_read_file_range_with_numbers(ctx):
    await ctx.fs.write_text("big.txt", "".join(f"l{i}\n" for i in range(1, 11)))
    r = await run(ctx, "read_file", path="big.txt", offset=3, limit=2, line_numbers=True)
    assert r.output == "     3\tl3\n     4\tl4\n\n[Lines 3-4 of 10. Use offset=5 to read more.]"
    r = await run(ctx, "read_file", path="big.txt", offset=9)
    assert r.output == "l9\nl10\n\n[Lines 9-10 of 10.]"
    r = await run(ctx, "read_file", path="big.txt", offset=11)
    assert r.is_error and "10 lines" in r.output


async def test_read_file_shares_numbering_with_cat(ctx, sh):
    r = await run(ctx, "read_file", path="src/app.js", line_numbers=True)
    out, _ = await sh("cat -n src/app.js")
    assert r.output == out.rstrip("\n")


async def test_read_file_errors(ctx):
    assert (await run(ctx, "read_file", path="src")).output == "Error: src: Is a directory"
    await ctx.fs.write_bytes("logo.png", b"\x89PNG\xff\x00")
    r = await run(ctx, "read_file", path="logo.png")
    assert r.is_error and "binary" in r.output
    r = await run(ctx, "read_file", path="empty.txt")
    assert r.output == "Error: empty.txt: No such file or directory"
    await ctx.fs.write_text("empty.txt", "")
    assert (await run(ctx, "read_file", path="empty.txt")).output == "(empty.txt is empty)"


async def test_write_file(ctx):
    r = await run(ctx, "write_file", path="pages/about.html", content="<p>about</p>\n")
    assert r.output == "Created pages/about.html (1 line, 13 bytes)."
    r = await run(ctx, "write_file", path="./pages/about.html", content="x")
    assert r.output == "Updated pages/about.html (1 line, 1 byte)."
    assert await ctx.fs.read_text("pages/about.html") == "x"


async def test_edit_file(ctx):
    r = await run(ctx, "edit_file", path="src/app.js", old_string="a = 1", new_string="a = 2")
    assert r.output == "Edited src/app.js: replaced at line 1."
    assert await ctx.fs.read_text("src/app.js") == "const a = 2;\nconsole.log(a);\n"


async def test_edit_file_no_match_and_many_matches(ctx):
    r = await run(ctx, "edit_file", path="src/app.js", old_string="let z", new_string="x")
    assert r.is_error and "old_string was not found in src/app.js" in r.output
    r = await run(ctx, "edit_file", path="src/app.js", old_string="a", new_string="b")
    assert r.is_error
    assert "occurs 2 times in src/app.js (lines 1, 2)" in r.output
    assert "replace_all" in r.output
    r = await run(
        ctx, "edit_file", path="src/app.js", old_string="a", new_string="b", replace_all=True
    )
    assert r.output == "Edited src/app.js: replaced 2 occurrences."
    assert await ctx.fs.read_text("src/app.js") == "const b = 1;\nconsole.log(b);\n"


async def test_edit_file_whitespace_hint_and_same_strings(ctx):
    r = await run(
        ctx, "edit_file", path="src/util.js", old_string="\treturn x + y;\t", new_string="x"
    )
    assert r.is_error and "different surrounding whitespace" in r.output
    r = await run(ctx, "edit_file", path="src/util.js", old_string="  return  x", new_string="y")
    assert r.is_error and "whitespace" not in r.output
    r = await run(ctx, "edit_file", path="src/util.js", old_string="export", new_string="export")
    assert r.is_error and "the same" in r.output
    r = await run(ctx, "edit_file", path="src/util.js", old_string="", new_string="x")
    assert r.is_error and "write_file" in r.output


async def test_list_files(ctx):
    r = await run(ctx, "list_files")
    lines = r.output.split("\n")
    assert ".ralph/" in lines and "src/" in lines and "src/styles/main.css" in lines
    r = await run(ctx, "list_files", path="src", recursive=False)
    assert r.output == "src/app.js\nsrc/styles/\nsrc/util.js"
    r = await run(ctx, "list_files", glob="*.js")
    assert r.output == "src/app.js\nsrc/util.js"
    r = await run(ctx, "list_files", path="src", glob="styles/*.css")
    assert r.output == "src/styles/main.css"
    r = await run(ctx, "list_files", glob="*.py")
    assert r.output == "(no files matching '*.py' in the project root)"
    r = await run(ctx, "list_files", path="nope")
    assert r.is_error and "No such file" in r.output


async def test_grep_tool(ctx):
    r = await run(ctx, "grep", pattern=r"const \w")
    assert r.output == "src/app.js:1:const a = 1;\nsrc/util.js:1:export const b = 2;"
    r = await run(ctx, "grep", pattern="EXPORT", ignore_case=True, path="src", glob="util.*")
    assert r.output.startswith("src/util.js:1:export const")
    r = await run(ctx, "grep", pattern="export", line_numbers=False, max_results=1)
    assert r.output == (
        "src/util.js:export const b = 2;\n\n"
        "[Stopped after 1 matches; narrow the pattern, path or glob.]"
    )
    r = await run(ctx, "grep", pattern="zzz")
    assert not r.is_error and r.output == "No matches for 'zzz' in the project."
    r = await run(ctx, "grep", pattern="(unclosed")
    assert r.is_error and "invalid regular expression" in r.output


async def test_grep_tool_and_command_agree(ctx, sh):
    r = await run(ctx, "grep", pattern="const", path=".")
    out, _ = await sh("grep -rn const .")
    assert out.replace("./", "") == r.output + "\n"


async def test_grep_skips_dot_folders_unless_asked(ctx):
    r = await run(ctx, "grep", pattern="build")
    assert r.output.startswith("No matches")
    r = await run(ctx, "grep", pattern="build", path=".ralph")
    assert r.output == ".ralph/plan.md:1:- [ ] build"


async def test_delete_file(ctx):
    r = await run(ctx, "delete_file", path="README.md")
    assert r.output == "Deleted README.md."
    r = await run(ctx, "delete_file", path="src")
    assert r.is_error and "recursive" in r.output
    r = await run(ctx, "delete_file", path="src", recursive=True)
    assert r.output == "Deleted folder src (3 files)."
    assert not await ctx.fs.exists("src/app.js")


@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("read_file", {"path": "../secret"}),
        ("read_file", {"path": "/etc/passwd"}),
        ("write_file", {"path": "../x", "content": ""}),
        ("write_file", {"path": "C:/x", "content": ""}),
        ("edit_file", {"path": "a/../../x", "old_string": "a", "new_string": "b"}),
        ("list_files", {"path": ".."}),
        ("grep", {"pattern": "x", "path": "/"}),
        ("delete_file", {"path": "..", "recursive": True}),
        ("delete_file", {"path": ".", "recursive": True}),
        ("write_file", {"path": "", "content": ""}),
    ],
)
async def test_paths_outside_the_project_refused(ctx, tool, args):
    before = await ctx.fs.list()
    r = await run(ctx, tool, **args)
    assert r.is_error
    assert await ctx.fs.list() == before


@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("write_file", {"path": ".ralph/status.txt", "content": "done"}),
        ("write_file", {"path": ".chief/plan.md", "content": "x"}),
        ("edit_file", {"path": ".chief/prompt.md", "old_string": "Build", "new_string": "Burn"}),
        ("delete_file", {"path": ".ralph", "recursive": True}),
        ("delete_file", {"path": ".ralph/status.txt"}),
    ],
)
async def test_agent_state_is_protected(ctx, tool, args):
    r = await run(ctx, tool, **args)
    assert r.is_error and "refused" in r.output
    assert await ctx.fs.read_text(".ralph/status.txt") == "running\n"
    assert await ctx.fs.read_text(".chief/prompt.md") == "Build a page\n"


async def test_ralph_may_write_his_memory(ctx):
    r = await run(ctx, "write_file", path=".ralph/progress.md", content="did x")
    assert not r.is_error
    r = await run(ctx, "edit_file", path=".ralph/plan.md", old_string="[ ]", new_string="[x]")
    assert not r.is_error
    r = await run(ctx, "write_file", path=".ralph/tmp/scratch.txt", content="x")
    assert not r.is_error


async def test_cwd_is_respected(ctx):
    ctx.cwd = "src"
    r = await run(ctx, "read_file", path="app.js")
    assert r.output.startswith("const a")
    r = await run(ctx, "read_file", path="../README.md")
    assert r.output == "# Demo\n"


async def test_each_file_tool_is_its_shell_command(ctx):
    """One class, two faces: the shell's cat/tee/ls/grep/rm are the registry's tool instances."""
    tools = default_tools()
    by_name = {tool.name: tool for tool in tools}
    shell = by_name["shell"]
    twins = {"cat": "read_file", "tee": "write_file", "ls": "list_files", "grep": "grep"}
    twins["rm"] = "delete_file"
    for command, tool in twins.items():
        assert shell.commands[command] is by_name[tool]
        assert isinstance(by_name[tool], ShellCommand)
    # edit_file has no command twin (sed -i is a regex program, not one exact string).
    assert not isinstance(by_name["edit_file"], ShellCommand)
    assert all(c not in tools for n, c in shell.commands.items() if n not in twins)


def test_command_table_takes_the_tools_it_is_given():
    read = ReadFileTool()
    table = default_commands([read, EditFileTool()])
    assert table["cat"] is read
    assert "ls" not in table and "edit_file" not in table and "echo" in table
    assert isinstance(default_commands()["rm"], DeleteFileTool)
    with pytest.raises(ValueError, match="'cat'"):
        default_commands([read, ReadFileTool()])


async def test_tool_face_and_command_face_share_the_policy(ctx, sh, fs):
    r = await run(ctx, "write_file", path=".chief/x.md", content="x")
    out, status = await sh("echo x | tee .chief/x.md")
    assert r.is_error and status == 1
    assert r.output.removeprefix("Error: ") in out
    r = await run(ctx, "delete_file", path=".ralph/status.txt")
    out, status = await sh("rm .ralph/status.txt")
    assert r.is_error and status == 1
    assert r.output.removeprefix("Error: ") in out
