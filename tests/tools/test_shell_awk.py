"""awk: the subset agents use, checked against what POSIX awk prints."""

from __future__ import annotations

import shlex

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wiggum.fs import MemoryFileStore
from wiggum.tools.shell import Interpreter, ShellLimits, default_commands
from wiggum.tools.shell.commands.awk.lexer import AwkError, tokenize
from wiggum.tools.shell.commands.awk.parser import parse

DATA = "alice 30 london\nbob 25 paris\ncarol 35 london\ndave 40 berlin\n"
CSV = "name,qty,price\napple,3,1.5\npear,10,0.25\nplum,,2\n"


@pytest.fixture
def awk(fs):
    interpreter = Interpreter(fs, default_commands())

    async def run(source: str) -> tuple[str, int]:
        await fs.write_text("data.txt", DATA)
        await fs.write_text("csv.txt", CSV)
        await fs.write_text("dup.txt", "a\nb\na\nc\nb\na\n")
        outcome = await interpreter.run(source)
        return outcome.output, outcome.status

    return run


@pytest.mark.parametrize(
    ("program", "expected"),
    [
        ("awk '{print $1}' data.txt", "alice\nbob\ncarol\ndave\n"),
        ("awk '{print $NF, NF}' data.txt | head -1", "london 3\n"),
        ("awk '{print $NF-1, $(NF-1)}' data.txt | head -1", "-1 30\n"),
        ("awk -F, '{print $2}' csv.txt", "qty\n3\n10\n\n"),
        ("awk -F, 'NR>1 {sum += $2 * $3} END {print sum}' csv.txt", "7\n"),
        ("awk 'NR==2' data.txt", "bob 25 paris\n"),
        ("awk 'NR>1 && NR<4 {print $1}' data.txt", "bob\ncarol\n"),
        ("awk 'END {print NR}' data.txt", "4\n"),
        ("awk '{s+=$2} END {print s, s/NR}' data.txt", "130 32.5\n"),
        ("awk '!seen[$0]++' dup.txt", "a\nb\nc\n"),
        ("awk 'length > 14' data.txt", "alice 30 london\ncarol 35 london\n"),
        ("awk '$2 > 28 {print $1}' data.txt", "alice\ncarol\ndave\n"),
        ("awk '$3 == \"london\" {print $1}' data.txt", "alice\ncarol\n"),
        ("awk '$1 ~ /^[ab]/ {print $1}' data.txt", "alice\nbob\n"),
        ("awk '$1 !~ /^[ab]/ {print $1}' data.txt", "carol\ndave\n"),
        ("awk '!/london/' data.txt", "bob 25 paris\ndave 40 berlin\n"),
        ("awk '/bob/,/carol/ {print $1}' data.txt", "bob\ncarol\n"),
        ("awk 'NR==1, NR==2 {print NR}' data.txt", "1\n2\n"),
        ("awk '{print NR \": \" $0}' dup.txt | head -2", "1: a\n2: b\n"),
        ("awk 'NR % 2 == 0 {print; next} {print \"odd\"}' dup.txt | head -3", "odd\nb\nodd\n"),
        ("awk '{printf \"%-6s|%4d|\\n\", $1, $2}' data.txt | head -1", "alice |  30|\n"),
        ("awk -v OFS=, '{$1=$1; print}' data.txt | head -1", "alice,30,london\n"),
        ("awk 'BEGIN{OFS=\"-\"} {print $1, $2}' data.txt | head -1", "alice-30\n"),
        ("awk 'BEGIN{ORS=\";\"} {print $1} END{printf \"\\n\"}' dup.txt", "a;b;a;c;b;a;\n"),
        ("awk '{ $2 = \"\"; print }' data.txt | head -1", "alice  london\n"),
        ("awk '{ $5 = \"X\"; print; print NF }' data.txt | head -2", "alice 30 london  X\n5\n"),
        ("awk '{ NF = 2; print }' data.txt | head -1", "alice 30\n"),
        ("awk '{ $0 = \"new record here\"; print NF, $2 }' dup.txt | head -1", "3 record\n"),
        ("awk '{ $3 = toupper($3) } 1' data.txt | tail -1", "dave 40 BERLIN\n"),
        ("awk '{gsub(/o/, \"0\"); print}' data.txt | head -2", "alice 30 l0nd0n\nb0b 25 paris\n"),
        ("awk '{ sub(/^/, \"> \"); print }' dup.txt | head -1", "> a\n"),
        ("awk '{ gsub(\"a\", \"A\", $1); print $1, $0 }' data.txt | tail -1", "dAve dAve 40 berlin\n"),
        ("awk '{a[$3]+=$2} END {for (k in a) print k, a[k]}' data.txt | sort", "berlin 40\nlondon 65\nparis 25\n"),
        ("awk '{ c[$1]++ } END { for (w in c) if (c[w] > 1) print w, c[w] }' dup.txt | sort", "a 3\nb 2\n"),
        ("awk '{ line[NR] = $0 } END { for (i = NR; i > 0; i--) print line[i] }' dup.txt | head -2", "a\nb\n"),
        ("awk '{n=split($0, p, \"a\"); print n, p[1]}' data.txt | head -1", "2 \n"),
        ("awk '{ printf \"%s%s\", sep, $1; sep = \",\" } END { print \"\" }' data.txt", "alice,bob,carol,dave\n"),
        ("awk '{print substr($0, 1, 5)}' data.txt | head -1", "alice\n"),
        ("awk -v n=2 'NR <= n {print $1}' data.txt", "alice\nbob\n"),
        ("awk '{print $1, $2}' OFS=: data.txt | head -1", "alice:30\n"),
        ("awk '{print $2}' FS=, csv.txt | head -2", "qty\n3\n"),
        ("awk 'END { print $0, NF }' data.txt", "dave 40 berlin 3\n"),
        ("awk 'END { print NR }' data.txt dup.txt", "10\n"),
        ("awk '{ print FILENAME, FNR }' data.txt dup.txt | tail -1", "dup.txt 6\n"),
        ("echo '  lead  trail  ' | awk '{print NF \":\" $1 \":\" $2}'", "2:lead:trail\n"),
        ("printf 'a\\tb\\tc\\n' | awk -F'\\t' '{print $2}'", "b\n"),
        ("echo 'a,b;c' | awk -F '[,;]' '{ print $3 }'", "c\n"),
        ("echo 'a|b|c' | awk -F '|' '{ print $2 }'", "b\n"),
        ("echo 'a.b.c' | awk -F. '{ print $2 }'", "b\n"),
        ("echo '10 9' | awk '{ print ($1 > $2), (\"10\" > \"9\") }'", "1 0\n"),
        ("printf 'p1 a\\nb\\n\\n\\np2 c\\n' | awk 'BEGIN { RS = \"\" } { print NR \": \" $1 }'", "1: p1\n2: p2\n"),
        ("awk 'BEGIN { x = 1; if (x)\n print \"yes\"\n else\n print \"no\" }'", "yes\n"),
        ("awk '\n/london/ { l++ }  # comment\n/paris/ { p++ }\nEND {\n  print l, p\n}' data.txt", "2 1\n"),
    ],
)  # fmt: skip
async def test_programs(awk, program, expected):
    assert await awk(program) == (expected, 0)


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("print 1/3, 2^10, 7%3, -7%3, int(-3.7)", "0.333333 1024 1 -1 -3"),
        ('x = "3.0"; y = 3; print (x == y)', "0"),
        ("print -2^2, 2^3^2, 2^-1", "-4 512 0.5"),
        ("print 1e6, 0.1+0.2, 100000 * 100000, 3.0", "1000000 0.3 10000000000 3"),
        ('print 1==1.0, "a" < "b", 10 < 9, "10" < "9"', "1 1 0 1"),
        ('print !0, !1, !"", !"a"', "1 0 1 0"),
        ('x; print x + 0, "[" x "]", length(x)', "0 [] 0"),
        ('print int("42abc"), ".5" + 0, "+3" + 1, "1e3" + 0', "42 0.5 4 1000"),
        ('printf "%5.2f|%x|%o|%e|%c|%c|%%\\n", 3.14159, 255, 8, 12345.678, 65, "hello"',
         " 3.14|ff|10|1.234568e+04|A|h|%"),
        ('printf "%*d|%-*d|%d|%i\\n", 5, 42, 4, 7, "3abc", 3.9', "   42|7   |3|3"),
        ('printf "%s-%s|\\n", "only"', "only-|"),
        ('s = sprintf("%05d", 42); print s', "00042"),
        ('s = "hello world"; sub(/o/, "[&]", s); print s', "hell[o] world"),
        ('s = "aaa"; n = gsub(/a/, "bb", s); print n, s', "3 bbbbbb"),
        ('s = "abc"; gsub(/x*/, "-", s); print s', "-a-b-c-"),
        ('s = "a.b"; gsub(".", "-", s); t = "a.b"; gsub(/\\./, "-", t); print s, t', "--- a-b"),
        ('s = "x"; gsub(/x/, "\\\\&", s); print s', "&"),
        ('print length("abc"), index("hello", "ll"), match("foobar", /o+/), RSTART, RLENGTH',
         "3 3 2 2 2"),
        ('print substr("hello", 2, 3), substr("hello", 0, 2), substr("hello", 4), substr("abc", -1, 3)',
         "ell h lo a"),
        ('print tolower("ABC") toupper("def")', "abcDEF"),
        ('n = split("a:b:c", arr, ":"); print n, arr[1] arr[3]', "3 ac"),
        ('n = split("a1b22c", arr, /[0-9]+/); print n, arr[2]', "3 b"),
        ('n = split("  a  b c ", arr); print n, arr[1] arr[3]', "3 ac"),
        ("while (i < 3) {i++; printf i}; print \"\"", "123"),
        ("for (i = 0; i < 5; i++) {if (i == 1) continue; if (i == 3) break; printf i}; print \"\"",
         "02"),
        ("do {j++} while (j < 5); print j", "5"),
        ("for (;;) if (++n > 3) break; print n", "4"),
        ('a["x"]=1; a["y"]=2; delete a["x"]; for (k in a) print k; print ("x" in a), ("y" in a)',
         "y\n0 1"),
        ('x["a","b"] = 1; for (k in x) { split(k, p, SUBSEP); print p[1], p[2] }', "a b"),
        ('if (("a","b") in x) print "yes"; else print "no"', "no"),
        ("x[1]; x[2]; print length(x)", "2"),
        ('a["1"] = "one"; print a[1], a[2-1]', "one one"),
        ("x = 5; x += 2; x -= 1; x *= 3; x /= 2; x %= 4; x ^= 2; print x", "1"),
        ("x = 1; x++; ++x; print x--, x, --x", "3 2 1"),
        ("x = y = 3; print x, y", "3 3"),
        ('print (1 < 2) ? "yes" : "no"', "yes"),
        ('print 1 " " 2, 3 4, (1)(2)', "1 2 34 12"),
        ('CONVFMT = "%.2f"; x = 3.14159; y = x ""; print y; OFMT = "%.1f"; print x', "3.14\n3.1"),
        ('print "a\\tb"', "a\tb"),
        ('print ENVIRON["GREETING"]', "hi"),
    ],
)  # fmt: skip
async def test_begin_expressions(awk, body, expected):
    assert await awk(f"GREETING=hi awk 'BEGIN {{ {body} }}'") == (expected + "\n", 0)


async def test_begin_only_program_reads_no_input(awk):
    assert await awk("echo ignored | awk 'BEGIN { print \"only\" }'") == ("only\n", 0)


async def test_exit_status_and_end(awk):
    assert await awk("awk 'BEGIN { exit 3 } END { print \"end\" }'") == ("end\n", 3)
    assert await awk("awk '{ exit } END { print \"end\", NR }' data.txt") == ("end 1\n", 0)
    assert await awk("awk 'NR == 1 { exit 4 }' data.txt; echo $?") == ("4\n", 0)


async def test_print_to_stderr(awk):
    out, status = await awk("awk '{ print $1 > \"/dev/stderr\" }' dup.txt 2>/dev/null | wc -l")
    assert (out, status) == ("0\n", 0)
    out, _ = await awk('awk \'NR == 1 { print "err" > "/dev/stderr" }\' dup.txt 2>&1')
    assert out == "err\n"


async def test_program_from_file(awk, fs):
    await fs.write_text("prog.awk", "{ n++ }\nEND { print n }\n")
    assert await awk("awk -f prog.awk data.txt") == ("4\n", 0)
    assert await awk("awk -f nope.awk data.txt") == (
        "awk: can't open file nope.awk: No such file or directory\n",
        2,
    )


@pytest.mark.parametrize(
    ("program", "message"),
    [
        ("awk '{ print $1 > \"out.txt\" }' data.txt", "output redirection (print > ...)"),
        ("awk '{ print | \"sort\" }' data.txt", "output redirection (print | ...)"),
        ("awk 'BEGIN { getline x }'", "getline is not supported"),
        ("awk 'BEGIN { \"date\" | getline d }'", "getline is not supported"),
        ("awk 'BEGIN { system(\"ls\") }'", "system() is not supported"),
        ("awk 'function f(x) { return x } BEGIN { print f(1) }'", "user-defined functions"),
        ("awk 'BEGIN { print f(1) }'", "f(): user-defined functions are not supported"),
        ("awk '{ print $1' data.txt", "missing `}'"),
        ("awk 'BEGIN { x = }'", "syntax error at source line 1 near `}'"),
        ("awk 'BEGIN { break }'", "break is not in a loop"),
        ("awk 'BEGIN { next }'", "next used in BEGIN action"),
        ("awk 'BEGIN { print 1/0 }'", "division by zero"),
        ("awk 'BEGIN { x = 1; x[1] = 2 }'", "can't use scalar x as an array"),
        ("awk 'BEGIN { a[1] = 1; print a }'", "can't use array a in a scalar context"),
        ("awk 'BEGIN { print \"unterminated }'", "unterminated string"),
        ("awk '/abc'", "unterminated regular expression"),
        ("awk 'BEGIN { print substr(\"a\") }'", "substr: wrong number of arguments"),
        ("awk 'BEGIN { printf \"%q\", 1 }'", "bad conversion"),
        ("awk '{print}' nope.txt", 'cannot open "nope.txt" (No such file or directory)'),
        ("awk -x '{print}'", "not an option: -x"),
        ("awk -v bad '{print}'", "invalid -v argument"),
        ("awk", "usage: awk"),
        ("awk 'BEGIN { s = \"x\"; while (1) s = s s }'", "string longer than"),
        ("awk 'BEGIN { printf \"%999999999d\", 1 }'", "field width too large"),
    ],
)
async def test_errors_are_reported_with_status_2(awk, program, message):
    out, status = await awk(program)
    assert status == 2, out
    assert out.startswith("awk: ") and message in out


async def test_endless_awk_loop_is_stopped():
    limits = ShellLimits(max_awk_steps=500)
    interp = Interpreter(MemoryFileStore(), default_commands(), limits=limits)
    outcome = await interp.run("awk 'BEGIN { while (1) x++ }'; echo next")
    assert outcome.status == 0
    assert outcome.output == (
        "awk: stopped after 500 steps: the program does not end (an endless loop?)\nnext\n"
    )


def test_regex_or_division_depends_on_the_previous_token():
    kinds = [(t.kind, t.value) for t in tokenize("a / 2 / b; x ~ /2/")][:-1]
    assert kinds == [
        ("name", "a"), ("op", "/"), ("number", "2"), ("op", "/"), ("name", "b"), ("op", ";"),
        ("name", "x"), ("op", "~"), ("regex", "2"),
    ]  # fmt: skip


def test_slash_inside_regex_brackets_and_escaped():
    assert [t.value for t in tokenize("/[/]a\\/b/")][:-1] == ["[/]a/b"]


def test_parser_reports_unsupported_before_running():
    with pytest.raises(AwkError, match="getline"):
        parse("{ print } END { while ((getline line) > 0) n++ }")


_AWK_PIECES = [
    *'ab$01 +-*/%^!=<>~?:,;{}()[]"\\\n#', "print ", "printf ", "if", "else", "while", "for",
    " in ", "BEGIN", "END", "NF", "NR", "length", "substr(", "split(", "gsub(", "/x/", "++",
    "--", "&&", "||", "next", "exit",
]  # fmt: skip
awkish = st.lists(st.sampled_from(_AWK_PIECES), max_size=25).map("".join)


@settings(max_examples=300, deadline=None)
@given(awkish)
async def test_awk_always_answers(program):
    fs = MemoryFileStore({"in.txt": "a b\n1 2\n"})
    limits = ShellLimits(max_awk_steps=2000)
    interpreter = Interpreter(fs, default_commands(), limits=limits)
    outcome = await interpreter.run(f"awk {shlex.quote(program)} in.txt")
    assert "internal error" not in outcome.output
    assert 0 <= outcome.status <= 255
