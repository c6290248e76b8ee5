"""Tokenizer, parser and quoting/expansion rules, through the interpreter."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wiggum.fs import MemoryFileStore
from wiggum.tools.shell import Interpreter, ShellSyntaxError, default_commands, parse, tokenize
from wiggum.tools.shell.nodes import CmdSub, For, If, Lit, Param, Subshell


def kinds(source: str) -> list[tuple[str, str]]:
    return [(t.kind, t.value) for t in tokenize(source)]


def test_operators_and_io_numbers():
    assert kinds("a|b||c&&d;e 2>&1 >>f <g &>h") == [
        ("word", "a"), ("op", "|"), ("word", "b"), ("op", "||"), ("word", "c"),
        ("op", "&&"), ("word", "d"), ("op", ";"), ("word", "e"), ("io_number", "2"),
        ("op", ">&"), ("word", "1"), ("op", ">>"), ("word", "f"), ("op", "<"), ("word", "g"),
        ("op", "&>"), ("word", "h"), ("eof", ""),
    ]  # fmt: skip


def test_comments_and_newlines():
    assert kinds("echo a # comment | not an op\necho b#c") == [
        ("word", "echo"), ("word", "a"), ("newline", "\n"), ("word", "echo"),
        ("word", "b#c"), ("eof", ""),
    ]  # fmt: skip


def test_word_parts_remember_quoting():
    (word,) = [t.word for t in tokenize("""a"b $X"'c $Y'$Z\\*""") if t.word]
    assert word.parts == (
        Lit("a"),
        Lit("b ", True),
        Param("X", True),
        Lit("c $Y", True),
        Param("Z"),
        Lit("*", True),
    )


def test_command_substitution_is_kept_as_source():
    (_, word) = [t.word for t in tokenize('echo "$(grep ")" f | wc -l)"') if t.word]
    assert word.parts == (CmdSub('grep ")" f | wc -l', True), Lit("", True))


def test_parse_structure():
    script = parse("if true; then (cd src && ls); fi\nfor f in a b; do echo $f; done")
    first, second = (item.first.commands[0] for item in script.items)
    assert isinstance(first, If)
    assert isinstance(first.clauses[0][1].items[0].first.commands[0], Subshell)
    assert isinstance(second, For) and second.var == "f" and len(second.items) == 2


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("echo 'unterminated", "unterminated single quote"),
        ('echo "unterminated', "unterminated double quote"),
        ("echo $(ls", "unterminated $("),
        ("| ls", "unexpected token `|'"),
        ("ls &&", "unexpected end of input"),
        ("ls ;;", "unexpected token `;;'"),
        ("if true; then echo", "unexpected end of input"),
        ("fi", "unexpected token `fi'"),
        ("echo a &", "background jobs"),
        ("select x in a; do :; done", "select is not supported"),
        ("while true; do :; od", "unexpected end of input"),
        ("until; do :; done", "unexpected token `;'"),
        ("case x in a) echo", "unexpected end of input"),
        ("case x a) :;; esac", "unexpected token `a'"),
        ("case x in a b) :;; esac", "unexpected token `b'"),
        ("f() echo hi", "must be a { ...; } group"),
        ("function 1+x { :; }", "not a valid function name"),
        ("echo ${a b}", "bad substitution"),
        ("cat >", "unexpected end of input"),
        ("(ls", "unexpected end of input"),
        ("for 1 in a; do :; done", "not a valid identifier"),
    ],
)
def test_syntax_errors(source, message):
    with pytest.raises(ShellSyntaxError, match=message.replace("$", r"\$").replace("(", r"\(")):
        parse(source)


async def test_syntax_error_result(sh):
    out, status = await sh("echo ok\necho 'oops")
    assert status == 2
    assert out == "sh: line 2: unterminated single quote\n"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("echo a\"b\"'c'", "abc"),
        ('echo ""', ""),
        ("echo '' x", " x"),
        ('echo "a  b"   c', "a  b c"),
        ("echo 'it'\\''s'", "it's"),
        ('echo "say \\"hi\\""', 'say "hi"'),
        ('echo "it\'s"', "it's"),
        ("echo 'a \"b\" c'", 'a "b" c'),
        ('echo "nested $(echo "inner $(echo deep)")"', "nested inner deep"),
        ("echo \\$HOME '$HOME' \"\\$HOME\"", "$HOME $HOME $HOME"),
        ("echo \"back\\\\slash\" 'keep\\n'", "back\\slash keep\\n"),
        ("echo a\\ b", "a b"),
        ("echo $'tab\\there'", "tab\there"),
        ("echo line1\\\nline2", "line1line2"),
        ("X=1; echo $X ${X} \"$X\" '$X'", "1 1 1 $X"),
        ("echo ${UNSET:-default} ${UNSET-d2} ${#HOME}", "default d2 1"),
        ("F=app.test.js; echo ${F%.js} ${F%%.*} ${F#*.} ${F##*.}", "app.test app test.js js"),
        ("X=; echo ${X:+set} ${X+set}", "set"),
        ("echo $((2 + 3 * 4)) $(( (2 + 3) * 4 ))", "14 20"),
        ("i=4; echo $((i * 2))", "8"),
        ("echo {a,b,c}.js x{1..3}", "a.js b.js c.js x1 x2 x3"),
        ("echo '{a,b}' \"{a,b}\"", "{a,b} {a,b}"),
        ("echo `echo back`ticks", "backticks"),
        ("echo $", "$"),
        ("echo a#b", "a#b"),
        ("X='a   b'; echo $X; echo \"$X\"", "a b\na   b"),
        ("E=; printf '[%s]' $E; printf '[%s]' \"$E\"", "[][]"),
    ],
)
async def test_quoting_and_expansion(sh, source, expected):
    out, status = await sh(source)
    assert status == 0, out
    assert out == expected + ("" if source.startswith("E=") else "\n")


async def test_empty_unquoted_expansion_disappears(sh):
    out, _ = await sh('E=; set -- ; printf "<%s>" a $E b "$E"; echo')
    assert out == "<a><b><>\n"


async def test_dollar_question(sh):
    out, _ = await sh("false; echo $?; true; echo $?; grep -q zzz README.md; echo $?")
    assert out == "1\n0\n1\n"


async def test_unbound_variable_with_set_u(sh):
    out, _ = await sh("set -u; echo $NOPE; echo after")
    assert "NOPE: unbound variable" in out


# -- heredocs -------------------------------------------------------------------------


async def test_heredoc_unquoted_delimiter_expands(sh):
    out, _ = await sh('NAME=Ralph\ncat <<EOF\nhi $NAME\n$(echo sub) \\$HOME "q"\nEOF')
    assert out == 'hi Ralph\nsub $HOME "q"\n'


async def test_heredoc_quoted_delimiter_is_literal(sh):
    for delim in ("'EOF'", '"EOF"', "\\EOF", "E'O'F"):
        out, _ = await sh(
            f"NAME=x\ncat <<{delim}\nhi $NAME $(nope) `x` \\n\n{delim.strip(chr(39) + chr(34) + chr(92)).replace(chr(39), '')}"
        )
        assert out == "hi $NAME $(nope) `x` \\n\n", delim


async def test_heredoc_dash_strips_leading_tabs(sh):
    out, _ = await sh("cat <<-EOF\n\tone\n\t\ttwo\n    spaces stay\n\tEOF\necho after")
    assert out == "one\ntwo\n    spaces stay\nafter\n"


async def test_heredoc_to_file_and_piped(sh, fs):
    out, status = await sh(
        "cat > page.html <<'EOF'\n<h1>$TITLE</h1>\nEOF\ncat <<EOF | grep -c line\nline a\nline b\nEOF"
    )
    assert status == 0
    assert out == "2\n"
    assert await fs.read_text("page.html") == "<h1>$TITLE</h1>\n"


async def test_two_heredocs_on_one_line(sh):
    out, _ = await sh("cat <<A; cat <<B\nfirst\nA\nsecond\nB\necho done")
    assert out == "first\nsecond\ndone\n"


async def test_heredoc_without_final_delimiter_takes_the_rest(sh):
    out, _ = await sh("cat <<EOF\nno end")
    assert out == "no end\n"


async def test_heredoc_delimiter_with_trailing_blanks_or_cr(sh):
    out, _ = await sh("cat <<EOF\nx\nEOF  \r\necho y")
    assert out == "x\ny\n"


async def test_heredoc_keeps_content_that_looks_like_shell(sh, fs):
    script = "cat > a.js <<'EOF'\nif (a && b || c) { x > 1; }\n# not a comment\nEOF\ncat a.js"
    out, _ = await sh(script)
    assert out == "if (a && b || c) { x > 1; }\n# not a comment\n"


async def test_here_string(sh):
    out, _ = await sh('X=world; grep -o wor <<< "hello $X"')
    assert out == "wor\n"


# -- properties -----------------------------------------------------------------------

shellish = st.text(
    alphabet=st.sampled_from(list("ab $'\"\\|&;<>(){}#*?[]\n\t`=-!~0123456789")), max_size=40
)


@settings(max_examples=300, deadline=None)
@given(st.one_of(shellish, st.text(max_size=40)))
def test_parser_never_crashes(source):
    with contextlib.suppress(ShellSyntaxError):
        parse(source)


@settings(max_examples=150, deadline=None)
@given(shellish)
async def test_interpreter_always_answers(source):
    fs = MemoryFileStore({"a": "x\n"})
    outcome = await Interpreter(fs, default_commands()).run(source)
    assert isinstance(outcome.output, str)
    assert 0 <= outcome.status <= 255
