"""The app database's layout: record shapes, key ranges, and the batch write's checks."""

from __future__ import annotations

import pytest

from wiggum.fs.errors import IsADirectory, NotADirectory
from wiggum.persist.schema import (
    ancestors,
    below_bounds,
    check_batch,
    dir_record,
    fence_key,
    file_record,
    message_row,
    renamed_project,
)


def test_records_keep_the_shape_stored_data_already_has():
    assert file_record("p", "a/b.txt", b"hey", 5.0) == {
        "project": "p",
        "path": "a/b.txt",
        "dir": False,
        "data": b"hey",
        "size": 3,
        "modified": 5.0,
    }
    # Only a directory has dirkey: the sparse "dirs" index lists directories alone.
    assert dir_record("p", "a", 5.0) == {
        "project": "p",
        "path": "a",
        "dir": True,
        "dirkey": ["p", "a"],
        "modified": 5.0,
    }
    assert message_row("p", "chief", 3, {"x": 1}) == {
        "project": "p",
        "agent": "chief",
        "seq": 3,
        "record": {"x": 1},
    }
    assert fence_key("p1") == "fence:p1"
    project = {"id": "p", "name": "Old", "created": 1, "updated": 1}
    assert renamed_project(project, "New", 9.0) == {**project, "name": "New", "updated": 9.0}
    assert project["name"] == "Old"  # the record read is not changed in place


def test_below_a_directory_is_everything_between_slash_and_zero():
    lower, upper = below_bounds("p", "css")
    assert (lower, upper) == (["p", "css/"], ["p", "css0"])
    # '-' (0x2d) sorts before '/' (0x2f) and '0' (0x30) right after it: a sibling
    # named "css-old" is outside, as is "css" itself.
    inside = ["css/a.css", "css/deep/b.css"]
    outside = ["css-old/x.css", "css0", "css"]
    assert all(lower[1] <= p < upper[1] for p in inside)
    assert not any(lower[1] <= p < upper[1] for p in outside)


def test_ancestors_nearest_first():
    assert ancestors("a/b/c.txt") == ["a/b", "a"]
    assert ancestors("top.txt") == []


def test_a_batch_is_checked_as_write_bytes_would_check_each_path_in_order():
    check_batch(["a/x.txt", "a/y.txt"], dirs=set(), below=set(), files_above=set())
    with pytest.raises(IsADirectory):  # a directory record there
        check_batch(["a"], dirs={"a"}, below=set(), files_above=set())
    with pytest.raises(IsADirectory):  # files below it: an implicit directory
        check_batch(["a"], dirs=set(), below={"a"}, files_above=set())
    with pytest.raises(NotADirectory) as err:  # a stored file above it
        check_batch(["a/b/c"], dirs=set(), below=set(), files_above={"a"})
    assert err.value.path == "a"
    with pytest.raises(NotADirectory):  # an earlier file of the batch above it
        check_batch(["a", "a/b"], dirs=set(), below=set(), files_above=set())
    with pytest.raises(IsADirectory):  # an earlier file of the batch below it
        check_batch(["a/b", "a"], dirs=set(), below=set(), files_above=set())
