from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from wiggum.fs import MemoryFileStore
from wiggum.tools import MAX_BYTES, ToolContext, to_model_output, truncate_output


def numbered(n: int) -> str:
    return "".join(f"line {i}\n" for i in range(1, n + 1))


def test_small_output_untouched():
    text = numbered(2000)
    cut = truncate_output(text)
    assert not cut.truncated
    assert cut.text == text
    assert cut.total_lines == 2000


def test_line_limit_keeps_head_60_and_tail_40():
    cut = truncate_output(numbered(5000))
    assert cut.truncated
    assert cut.total_lines == 5000
    head, marker, tail = cut.text.split("\n\n")
    assert head.split("\n")[0] == "line 1"
    assert head.split("\n")[-1] == "line 1200"
    assert len(head.split("\n")) == 1200
    assert marker == "... [3000 lines omitted] ..."
    assert tail.split("\n")[0] == "line 4201"
    assert tail.split("\n")[-1] == "line 5000"
    assert len(tail.split("\n")) == 800


def test_custom_limits():
    cut = truncate_output(numbered(20), max_lines=10)
    assert cut.text == "\n".join(
        [*(f"line {i}" for i in range(1, 7)), "", "... [10 lines omitted] ...", ""]
        + [f"line {i}" for i in range(17, 21)]
    )


def test_byte_limit_with_one_giant_line():
    text = "x" * (200 * 1024)
    cut = truncate_output(text)
    assert cut.truncated
    assert cut.total_lines == 1
    assert len(cut.text.encode()) <= MAX_BYTES
    assert cut.text.startswith("xxx") and cut.text.endswith("xxx")
    assert re.search(r"\.\.\. \[0 lines omitted, \d+\.\d KB cut\] \.\.\.", cut.text)


def test_byte_limit_cuts_on_character_boundaries():
    text = "é✓😀" * 30000  # 2 + 3 + 4 bytes
    cut = truncate_output(text)
    assert cut.truncated
    encoded = cut.text.encode("utf-8")  # would raise on a broken character
    assert len(encoded) <= MAX_BYTES
    head = cut.text.split("\n\n")[0]
    assert head and set(head) <= set("é✓😀")


def test_byte_limit_with_many_long_lines_prefers_line_breaks():
    text = "".join(f"{i:04d} " + "y" * 195 + "\n" for i in range(1000))  # 200 KB, 1000 lines
    cut = truncate_output(text)
    assert cut.truncated
    head, _, tail = cut.text.partition("\n\n... [")
    assert all(len(line) == 200 for line in head.split("\n"))
    assert tail.rstrip().endswith("0999 " + "y" * 195)
    assert len(cut.text.encode()) <= MAX_BYTES


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=3000), st.integers(1, 50), st.integers(40, 2000))
def test_truncation_properties(text, max_lines, max_bytes):
    cut = truncate_output(text, max_lines=max_lines, max_bytes=max_bytes + 512)
    cut.text.encode("utf-8")
    if not cut.truncated:
        assert cut.text == text
    else:
        assert "omitted" in cut.text


async def test_to_model_output_saves_full_text_and_points_to_it():
    fs = MemoryFileStore()
    ctx = ToolContext(fs)
    text = numbered(3000)
    shown = await to_model_output(text, "shell", ctx)
    assert "... [1000 lines omitted] ..." in shown
    assert shown.endswith(
        "[Output truncated — 3000 lines, 28.2 KB. Full output saved to: .ralph/tmp/shell-1.txt\n"
        "Use grep to search it or head/tail to view sections.]"
    )
    assert await fs.read_text(".ralph/tmp/shell-1.txt") == text
    again = await to_model_output(text, "shell", ctx)
    assert ".ralph/tmp/shell-2.txt" in again
    other = await to_model_output(text, "read_file", ctx)
    assert ".ralph/tmp/read_file-1.txt" in other


async def test_to_model_output_small_output_saves_nothing():
    fs = MemoryFileStore()
    assert await to_model_output("ok\n", "shell", ToolContext(fs)) == "ok\n"
    assert await fs.list() == []


async def test_saved_output_is_readable_with_the_shell():
    from wiggum.tools.shell import Interpreter, default_commands

    fs = MemoryFileStore()
    await to_model_output(numbered(3000), "grep", ToolContext(fs))
    outcome = await Interpreter(fs, default_commands()).run(
        "grep -c line .ralph/tmp/grep-1.txt; tail -n 1 .ralph/tmp/grep-1.txt"
    )
    assert outcome.output == "3000\nline 3000\n"


async def test_dispatch_for_model_returns_full_and_model_views():
    from wiggum.llm.types import ParsedToolCall
    from wiggum.tools import ToolRegistry, default_tools, dispatch_for_model

    fs = MemoryFileStore({"big.txt": numbered(2500)})
    ctx = ToolContext(fs)
    call = ParsedToolCall(id="1", name="read_file", args={"path": "big.txt"})
    result, text = await dispatch_for_model(ToolRegistry(default_tools()), call, ctx)
    assert result.output == numbered(2500)
    assert "Full output saved to: .ralph/tmp/read_file-1.txt" in text
    assert len(text.split("\n")) < 2100
