from __future__ import annotations

import pytest

from wiggum.fs import MemoryFileStore
from wiggum.tools.ops.globs import glob_matches, match_glob
from wiggum.tools.shell.globbing import expand_glob


@pytest.fixture
def store():
    return MemoryFileStore(
        {
            "a.js": "",
            "b.js": "",
            "c.css": "",
            ".hidden.js": "",
            "src/x.js": "",
            "src/deep/y.js": "",
            "src/deep/z.ts": "",
            "src/.secret/w.js": "",
            "file1.txt": "",
            "file2.txt": "",
            "fileA.txt": "",
        }
    )


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        ("*.js", ["a.js", "b.js"]),
        ("*", ["a.js", "b.js", "c.css", "file1.txt", "file2.txt", "fileA.txt", "src"]),
        (".*", [".hidden.js"]),
        ("?.js", ["a.js", "b.js"]),
        ("file[0-9].txt", ["file1.txt", "file2.txt"]),
        ("file[!0-9].txt", ["fileA.txt"]),
        ("file[[:alpha:]].txt", ["fileA.txt"]),
        ("src/*", ["src/deep", "src/x.js"]),
        ("src/*/*.js", ["src/deep/y.js"]),
        ("*/", ["src/"]),
        ("**/*.js", ["a.js", "b.js", "src/deep/y.js", "src/x.js"]),
        ("src/**", ["src/deep", "src/deep/y.js", "src/deep/z.ts", "src/x.js"]),
        ("./src/*.js", ["./src/x.js"]),
        ("src/deep/../*.js", ["src/deep/../x.js"]),
        ("*.py", []),
        ("nodir/*", []),
        ("a\\*.js", []),
    ],
)
async def test_expand_glob(store, pattern, expected):
    assert await expand_glob(store, "", pattern) == expected


async def test_expand_glob_from_cwd(store):
    assert await expand_glob(store, "src", "*.js") == ["x.js"]
    assert await expand_glob(store, "src/deep", "../*.js") == ["../x.js"]


async def test_no_match_stays_literal(sh):
    assert await sh("echo *.py") == ("*.py\n", 0)
    out, status = await sh("ls *.py")
    assert status == 2 and "cannot access '*.py'" in out


async def test_quoted_glob_is_literal(sh):
    assert await sh("echo '*.md' \"*.md\" \\*.md") == ("*.md *.md *.md\n", 0)
    assert await sh("echo *.md") == ("README.md\n", 0)
    assert await sh('D=src; echo "$D"/*.js') == ("src/app.js src/util.js\n", 0)


def test_match_glob_helpers():
    assert match_glob("*.js", "a.js")
    assert not match_glob("*.js", "src/a.js")
    assert match_glob("**/*.js", "src/a/b.js")
    assert match_glob("*.{js,ts}", "a.ts")
    assert match_glob("*", "a/b", pathname=False)
    assert glob_matches("*.js", "src/deep/a.js")
    assert glob_matches("src/*.js", "src/a.js")
    assert glob_matches(".ralph/*", ".ralph/plan.md")
    assert not glob_matches("src/*.js", "src/deep/a.js")
