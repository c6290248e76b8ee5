"""Inputs from the model never crash the pattern translators or the shell."""

from __future__ import annotations

import contextlib

from hypothesis import given, settings
from hypothesis import strategies as st

from wiggum.fs import MemoryFileStore
from wiggum.tools.ops.globs import glob_to_regex
from wiggum.tools.ops.regex import RegexError, compile_regex
from wiggum.tools.shell import Interpreter, default_commands

patterns = st.text(alphabet=st.sampled_from(list("ab*?[]!^-{},/\\.:&~|()+$")), max_size=16)


@settings(max_examples=300, deadline=None)
@given(patterns, st.booleans(), st.booleans())
def test_glob_always_compiles(pattern, pathname, dot):
    glob_to_regex(pattern, pathname=pathname, dot=dot).fullmatch("a/b.c")


@settings(max_examples=300, deadline=None)
@given(patterns, st.sampled_from(["basic", "extended", "python"]))
def test_regex_compiles_or_reports(pattern, syntax):
    with contextlib.suppress(RegexError):
        compile_regex(pattern, syntax).search("ab(c)")


async def test_deep_nesting_is_stopped_not_crashed():
    interp = Interpreter(MemoryFileStore(), default_commands())
    outcome = await interp.run("( " * 3000 + "echo" + " )" * 3000)
    assert outcome.status == 124 and "nested too deeply" in outcome.output
    # Written without blanks, as in bash, it is one `(( ))` arithmetic command.
    outcome = await interp.run("(" * 3000 + "x" + ")" * 3000 + "; echo after")
    assert outcome.status == 0 and outcome.output.endswith("after\n")


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["cat a", "ls", "grep -r x .", "sed s/x/y/ a", "sort a", "echo $?", "cd d", "cd ..",
             "mv a b", "cp b a", "rm -f b", "mkdir -p d/e", "find .", "wc a", "head -1 a",
             "echo x > a", "echo y >> d/f", "diff a d/f", "uniq a", "tail a", "false", "true"]
        ),
        max_size=8,
    ),
    st.sampled_from([" | ", " && ", " || ", "; ", "\n"]),
)  # fmt: skip
async def test_random_command_lines_keep_the_store_consistent(commands, separator):
    fs = MemoryFileStore({"a": "x\ny\nx\n", "d/f": "z\n"})
    outcome = await Interpreter(fs, default_commands()).run(separator.join(commands))
    assert "internal error" not in outcome.output
    for path in await fs.list():
        assert not await fs.is_dir(path)
        await fs.read_bytes(path)
