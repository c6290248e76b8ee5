"""Git's ids as the publisher computes them agree with the git CLI."""

from __future__ import annotations

import subprocess

from wiggum.deploy.gitid import blob_id, is_text, tree_id

FILES = {
    "index.html": b"<h1>Hi</h1>\n",
    "a-b.txt": b"dash",
    "a.b": b"dot",
    "a/x.txt": b"in a folder",
    "a0": b"zero",
    "deep/er/still.css": b"body{}",
    "empty": b"",
    "img/dot.png": bytes(range(256)),
}


def git(cwd, *args, data=None) -> str:
    out = subprocess.run(["git", *args], cwd=cwd, input=data, capture_output=True, check=True)
    return out.stdout.decode().strip()


def test_blob_and_tree_ids_are_the_git_clis(tmp_path) -> None:
    git(tmp_path, "init", "-q")
    for path, data in FILES.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_bytes(data)
        assert blob_id(data) == git(tmp_path, "hash-object", path)
    git(tmp_path, "add", "-A")
    assert tree_id(FILES) == git(tmp_path, "write-tree")


def test_a_mode_changes_the_tree_id_as_in_git(tmp_path) -> None:
    git(tmp_path, "init", "-q")
    (tmp_path / "run.sh").write_bytes(b"#!/bin/sh\n")
    (tmp_path / "run.sh").chmod(0o755)
    git(tmp_path, "add", "-A")
    files = {"run.sh": b"#!/bin/sh\n"}
    assert tree_id(files, {"run.sh": "100755"}) == git(tmp_path, "write-tree")
    assert tree_id(files) != tree_id(files, {"run.sh": "100755"})


def test_what_travels_as_text() -> None:
    assert is_text("café ✓\r\n".encode()) and is_text(b"")
    assert not is_text(b"a\x00b") and not is_text("café".encode("latin-1"))
