from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wiggum.fs import PathError, basename, dirname, is_within, join_path, normalize_path


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("", ""),
        (".", ""),
        ("./", ""),
        ("a", "a"),
        ("./a//b/", "a/b"),
        ("a/./b/.", "a/b"),
        ("a/b/../c", "a/c"),
        ("a/..", ""),
        ("src/../index.html", "index.html"),
        (".ralph/plan.md", ".ralph/plan.md"),
        ("dir with space/f.txt", "dir with space/f.txt"),
        ("ünï/çødé.txt", "ünï/çødé.txt"),
        ("ab:c", "ab:c"),
        ("...", "..."),
        ("..a/b..", "..a/b.."),
    ],
)
def test_normalize(raw, expected):
    assert normalize_path(raw) == expected


@pytest.mark.parametrize(
    ("raw", "fragment"),
    [
        ("..", "outside the project"),
        ("../x", "outside the project"),
        ("a/../../x", "outside the project"),
        ("/etc/passwd", "absolute"),
        ("//x", "absolute"),
        ("C:/Windows", "drive"),
        ("c:", "drive"),
        ("a\\b", "backslash"),
        ("..\\x", "backslash"),
        ("a\x00b", "NUL"),
        ("a\nb", "control"),
        ("~/x", "home"),
        ("~", "home"),
    ],
)
def test_refused(raw, fragment):
    with pytest.raises(PathError, match=fragment):
        normalize_path(raw)


def test_path_error_is_value_error():
    assert issubclass(PathError, ValueError)


@pytest.mark.parametrize("root", ["", ".", "./", "a/.."])
def test_root_refused_where_a_file_is_needed(root):
    with pytest.raises(PathError, match="file path is needed"):
        normalize_path(root, allow_root=False)


def test_join():
    assert join_path("src", "app.js") == "src/app.js"
    assert join_path("src/pages", "../styles.css") == "src/styles.css"
    assert join_path("", "a") == "a"
    assert join_path("src", ".") == "src"
    assert join_path("src", "..") == ""
    with pytest.raises(PathError, match=re.escape("'../../x'")):
        join_path("src", "../../x")
    with pytest.raises(PathError, match="absolute"):
        join_path("src", "/x")


def test_helpers():
    assert dirname("a/b/c") == "a/b"
    assert dirname("a") == ""
    assert basename("a/b/c") == "c"
    assert is_within("a/b", "a")
    assert is_within("a", "a")
    assert not is_within("ab", "a")
    assert is_within("anything", "")


segments = st.sampled_from(["a", "b", ".", "..", "", "x.txt", "..."])


@given(st.lists(segments, max_size=8), st.booleans())
def test_normalize_never_escapes(parts, leading_slash):
    raw = ("/" if leading_slash else "") + "/".join(parts)
    try:
        result = normalize_path(raw)
    except PathError:
        return
    assert not result.startswith("/")
    assert ".." not in result.split("/")
    assert "." not in result.split("/")
    assert "//" not in result
    assert not result.endswith("/")
    # Idempotent.
    assert normalize_path(result) == result


@given(st.text(max_size=40))
def test_normalize_arbitrary_text(raw):
    try:
        result = normalize_path(raw)
    except PathError:
        return
    assert not result.startswith("/")
    assert ".." not in result.split("/")
    assert "\\" not in result
    assert "\x00" not in result
    assert normalize_path(result) == result
