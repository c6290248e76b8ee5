"""Git's object ids, computed here, and which files can travel as text.

A blob's id is what GitHub reports for a file, so comparing ids tells which
files GitHub already holds (nothing uploaded twice) and whether what it holds
after a publish is exactly the project's (the check after publishing).
:func:`tree_id` computes the id of a whole tree the way git does (nested
trees, git's name order), so one id stands for every file below it: the
publisher knows, before it moves the branch, whether the tree GitHub wrote is
the one it meant.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping

__all__ = ["blob_id", "is_text", "tree_id", "tree_id_of"]

FILE = "100644"
FOLDER = "40000"  # git writes a tree's mode without the leading zero


def blob_id(data: bytes) -> str:
    """Git's object id of a blob."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def is_text(data: bytes) -> bool:
    """Whether ``data`` survives being sent as a JSON string: UTF-8, no NUL.

    Such a file goes inline as a tree entry's ``content`` (GitHub writes the
    blob from it, byte for byte); anything else is uploaded as a base64 blob.
    """
    if b"\0" in data:
        return False
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def tree_id(files: Mapping[str, bytes], modes: Mapping[str, str] | None = None) -> str:
    """Git's id of the tree holding ``files`` (``{"a/b.txt": data}``), empty folders
    having no tree (as in git)."""
    modes = modes or {}
    return tree_id_of({p: (modes.get(p, FILE), blob_id(b)) for p, b in files.items()})


def tree_id_of(leaves: Mapping[str, tuple[str, str]]) -> str:
    """Git's id of the tree whose files (blobs, links, submodules) are
    ``{path: (mode, id)}``."""
    nested: dict = {}
    for path, leaf in leaves.items():
        node = nested
        *folders, name = path.split("/")
        for folder in folders:
            node = node.setdefault(folder, {})
        node[name] = leaf
    return _write(nested)


def _write(node: dict) -> str:
    rows = []
    for name, child in node.items():
        if isinstance(child, dict):
            rows.append((name + "/", FOLDER, name, _write(child)))
        else:
            rows.append((name, child[0].lstrip("0"), name, child[1]))
    # git orders a tree's entries by name, a folder's name as if it ended in "/".
    rows.sort(key=lambda r: r[0].encode())
    raw = b"".join(f"{mode} {name}".encode() + b"\0" + bytes.fromhex(sha)
                   for _, mode, name, sha in rows)  # fmt: skip
    return hashlib.sha1(b"tree %d\0" % len(raw) + raw).hexdigest()
