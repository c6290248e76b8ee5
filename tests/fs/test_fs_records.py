"""The FileStore's rules over records (``wiggum.fs.records``), op by op.

The conformance checks run them through the memory store; these hold what
the page's IndexedDB store relies on besides: a refused operation has
changed nothing before it raised (the memory store has no undo), and each
operation asks only for the records it needs.
"""

from __future__ import annotations

import pytest

from wiggum.fs import records
from wiggum.fs.errors import DirectoryNotEmpty, FileExists, IsADirectory, NotADirectory
from wiggum.fs.memory import MemoryFileStore
from wiggum.fs.paths import PathError


def store(**files: str) -> MemoryFileStore:
    return MemoryFileStore({path.replace("__", "/"): text for path, text in files.items()})


CHANGES = {"put", "delete", "delete_below"}


@pytest.mark.parametrize(
    ("body", "error"),
    [
        (lambda: records.write("a", b"x", 1.0), IsADirectory),
        (lambda: records.write("f/x", b"x", 1.0), NotADirectory),
        (lambda: records.mkdir("f", True, 1.0), FileExists),
        (lambda: records.mkdir("f/x", True, 1.0), NotADirectory),
        (lambda: records.remove("a", False, 1.0), DirectoryNotEmpty),
        (lambda: records.rename("a", "a/b/c", 1.0), PathError),
        (lambda: records.rename("a", "f", 1.0), FileExists),
        (lambda: records.rename("a", "f/x", 1.0), NotADirectory),
        (lambda: records.rename("f", "a", 1.0), IsADirectory),
    ],
)
def test_a_refused_operation_changed_nothing_before_it_raised(body, error):
    fs = store(a__b__c="c", f="f")
    before = dict(fs._records)
    seen: list[str] = []

    def answer(op):
        seen.append(op.kind)
        return fs._answer(op)

    with pytest.raises(error):
        records.run(body(), answer)
    assert not CHANGES & set(seen)
    assert fs._records == before


def test_a_directory_rename_moves_every_record_and_keeps_their_times():
    fs = MemoryFileStore({"a/x.txt": "x", "a/b/y.txt": "y"}, clock=lambda: 5.0)
    fs._run(records.mkdir("a/empty", True, 7.0))
    fs._run(records.rename("a", "z", 9.0))
    assert sorted(fs._records) == ["z", "z/b/y.txt", "z/empty", "z/x.txt"]
    assert fs._records["z/x.txt"].modified == 5.0
    assert fs._records["z/empty"].modified == 7.0
    assert fs._records["z"].modified == 9.0  # "a" was implicit: "z" is kept as a directory
    assert fs._records["z/b/y.txt"].data == b"y"


def test_reads_only_load_the_bytes_they_return():
    loaded: list[str] = []
    fs = store(a__b="b", c="c")
    for path, record in list(fs._records.items()):
        if not record.dir:
            fs._records[path] = records.Record(
                record.path,
                False,
                record.modified,
                record.size,
                lambda p=path, r=record: loaded.append(p) or r.data,
            )
    assert fs._run(records.kind("a")) == "dir"
    assert fs._run(records.stat("a")).is_dir
    assert fs._run(records.listing("", True, False)) == ["a/b", "c"]
    assert loaded == []
    assert fs._run(records.read_bytes("c")) == b"c"
    assert loaded == ["c"]
