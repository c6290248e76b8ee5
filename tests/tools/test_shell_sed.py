from __future__ import annotations

import pytest

from wiggum.tools.shell.commands.sed import SedError, SedProgram

TEXT = "alpha one\nbeta two\ngamma three\ndelta four\n"


def sed(script: str, text: str = TEXT, **kw) -> str:
    return SedProgram(script, **kw).run([text])[0]


@pytest.mark.parametrize(
    ("script", "expected"),
    [
        ("s/a/A/", "Alpha one\nbetA two\ngAmma three\ndeltA four\n"),
        ("s/a/A/g", "AlphA one\nbetA two\ngAmmA three\ndeltA four\n"),
        ("s/a/A/2", "alphA one\nbeta two\ngammA three\ndelta four\n"),
        ("s/ALPHA/x/I", "x one\nbeta two\ngamma three\ndelta four\n"),
        ("s/\\(\\w*\\) \\(\\w*\\)/\\2 \\1/", "one alpha\ntwo beta\nthree gamma\nfour delta\n"),
        ("s/[aeiou]/<&>/", "<a>lpha one\nb<e>ta two\ng<a>mma three\nd<e>lta four\n"),
        ("s|a|/|g;s#/#\\##", "#lph/ one\nbet# two\ng#mm/ three\ndelt# four\n"),
        ("s/one/1\\n2/", "alpha 1\n2\nbeta two\ngamma three\ndelta four\n"),
        ("2d", "alpha one\ngamma three\ndelta four\n"),
        ("$d", "alpha one\nbeta two\ngamma three\n"),
        ("/mm/d", "alpha one\nbeta two\ndelta four\n"),
        ("2,3d", "alpha one\ndelta four\n"),
        ("/beta/,/gamma/d", "alpha one\ndelta four\n"),
        ("/beta/,+1d", "alpha one\ndelta four\n"),
        ("2,$d", "alpha one\n"),
        ("2!d", "beta two\n"),
        ("/beta/,/gamma/!d", "beta two\ngamma three\n"),
        ("1i\\\nfirst", "first\nalpha one\nbeta two\ngamma three\ndelta four\n"),
        ("$a last line", TEXT + "last line\n"),
        ("/two/a after two", "alpha one\nbeta two\nafter two\ngamma three\ndelta four\n"),
        ("2c replaced", "alpha one\nreplaced\ngamma three\ndelta four\n"),
        ("2,3c both", "alpha one\nboth\ndelta four\n"),
        ("y/abc/ABC/", "AlphA one\nBetA two\ngAmmA three\ndeltA four\n"),
        ("2q", "alpha one\nbeta two\n"),
        ("2Q", "alpha one\n"),
        ("=", "1\nalpha one\n2\nbeta two\n3\ngamma three\n4\ndelta four\n"),
        ("/beta/{s/two/2/;s/beta/B/}", "alpha one\nB 2\ngamma three\ndelta four\n"),
        ("# comment\ns/one/1/ # trailing", "alpha 1\nbeta two\ngamma three\ndelta four\n"),
        ("1h;2,$H;$!d;x", TEXT),
        ("n;d", "alpha one\ngamma three\n"),
    ],
)
def test_sed_scripts(script, expected):
    assert sed(script) == expected


def test_quiet_and_print():
    assert sed("2p", quiet=True) == "beta two\n"
    assert sed("/a/p", quiet=True) == TEXT
    assert sed("2,3p", quiet=True) == "beta two\ngamma three\n"
    assert sed("$p", quiet=True) == "delta four\n"
    assert sed("s/two/2/p", quiet=True) == "beta 2\n"
    assert sed("p", "x\n") == "x\nx\n"


def test_extended_regex():
    assert sed("s/(al|be)(pha|ta)/[\\2]/", extended=True) == (
        "[pha] one\n[ta] two\ngamma three\ndelta four\n"
    )
    assert sed("s/a+/A/g", "caaat a+\n") == "caaat A\n"
    assert sed("s/a+/A/g", "caaat a+\n", extended=True) == "cAt A+\n"


def test_no_trailing_newline_is_kept():
    assert sed("s/x/y/", "x\nz") == "y\nz"
    assert sed("s/x/y/g", "x\nx") == "y\ny"


@pytest.mark.parametrize(
    ("script", "message"),
    [
        ("s/a/b", "unterminated"),
        ("k", "unknown command"),
        ("s/a/b/w out", "not supported"),
        ("y/ab/c/", "different lengths"),
        ("{p", "unmatched"),
        ("s/a/\\2/", "invalid reference"),
        ("p x", "extra characters"),
    ],
)
def test_sed_errors(script, message):
    with pytest.raises(SedError, match=message):
        SedProgram(script).run(["a\n"])


async def test_sed_command_in_place(sh, fs):
    out, status = await sh("sed -i 's/const/let/g' src/app.js src/util.js")
    assert (out, status) == ("", 0)
    assert await fs.read_text("src/app.js") == "let a = 1;\nconsole.log(a);\n"
    assert (await fs.read_text("src/util.js")).startswith("export let b")


async def test_sed_in_place_bsd_spelling_and_backup(sh, fs):
    await sh("sed -i '' 's/Demo/Project/' README.md")
    assert await fs.read_text("README.md") == "# Project\n"
    await sh("sed -i.bak 's/Project/X/' README.md")
    assert await fs.read_text("README.md") == "# X\n"
    assert await fs.read_text("README.md.bak") == "# Project\n"


async def test_sed_in_place_shares_the_edit_policy(sh, fs):
    out, status = await sh("sed -i 's/running/done/' .ralph/status.txt")
    assert status == 4 and "refused" in out
    assert await fs.read_text(".ralph/status.txt") == "running\n"


async def test_sed_command_forms(sh, fs):
    assert await sh("sed -n '1p' src/util.js") == ("export const b = 2;\n", 0)
    assert await sh("sed -n -e '1p' -e '$p' src/util.js") == ("export const b = 2;\n}\n", 0)
    assert await sh("echo hello | sed 's/l/L/g'") == ("heLLo\n", 0)
    assert await sh("sed -E 's/(const|export) //g' src/util.js | head -1") == ("b = 2;\n", 0)
    # Without -s, line numbers and $ run across files.
    assert await sh("sed -n '$p' src/app.js README.md") == ("# Demo\n", 0)
    assert await sh("sed -s -n '$p' src/app.js README.md") == ("console.log(a);\n# Demo\n", 0)
    out, status = await sh("sed 's/a/b' README.md")
    assert status == 1 and "unterminated" in out
    out, status = await sh("sed p nope")
    assert status == 2 and "can't read nope" in out
    await fs.write_text("script.sed", "s/Demo/D/\n")
    assert await sh("sed -f script.sed README.md") == ("# D\n", 0)
