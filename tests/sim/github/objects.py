"""The simulated repositories' git objects: real git blobs, trees and commits (dulwich).

Ids are git's own, because the objects are dulwich's and a test checks them
against the ``git`` CLI.  Trees are nested as in git (a path ``a/b.txt`` is a
tree ``a`` holding ``b.txt``), modes are kept as given (100644, 100755, 120000,
160000, 040000), and :func:`apply` is the Git Data API's tree creation:
``base_tree`` plus entries that add, replace (by ``sha`` or inline ``content``)
or delete (``sha: null``) paths at any depth.
"""

from __future__ import annotations

import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from dulwich.objects import Blob, Commit, ShaFile, Tree

MODES = {"100644", "100755", "040000", "160000", "120000"}
KINDS = {"blob": {"100644", "100755", "120000"}, "tree": {"040000"}, "commit": {"160000"}}


class Refused(Exception):
    """GitHub's 422 for a tree it will not write; ``message`` is GitHub's."""


@dataclass
class Store:
    """One repository's object database."""

    objects: dict[str, ShaFile] = field(default_factory=dict)

    def add(self, obj: ShaFile) -> str:
        sha = obj.id.decode()
        self.objects[sha] = obj
        return sha

    def blob(self, data: bytes) -> str:
        return self.add(Blob.from_string(data))

    def kind(self, sha: str | None) -> str:
        obj = self.objects.get(sha or "")
        return obj.type_name.decode() if obj is not None else ""

    def get(self, sha: str) -> ShaFile:
        return self.objects[sha]

    def commit(
        self, tree: str, parents: list[str], message: str, author: dict, committer: dict
    ) -> str:
        c = Commit()
        c.tree = tree.encode()
        c.parents = [p.encode() for p in parents]
        c.author = f"{author['name']} <{author['email']}>".encode()
        c.committer = f"{committer['name']} <{committer['email']}>".encode()
        c.author_time, c.commit_time = int(author["time"]), int(committer["time"])
        c.author_timezone, c.commit_timezone = author.get("tz", 0), committer.get("tz", 0)
        c.message = message.encode()
        return self.add(c)

    # ------------------------------------------------------------------ trees

    def entries(self, tree: str) -> dict[str, tuple[str, str]]:
        """``{name: (mode, sha)}`` of one tree (modes as the API spells them)."""
        t = self.objects[tree]
        assert isinstance(t, Tree)
        return {e.path.decode(): (f"{e.mode:06o}", e.sha.decode()) for e in t.iteritems()}

    def walk(self, tree: str, prefix: str = "") -> Iterator[tuple[str, str, str, str]]:
        """``(path, mode, type, sha)`` of every entry below ``tree``, git's order,
        each tree before what it holds (as ``?recursive=1`` lists them)."""
        t = self.objects[tree]
        assert isinstance(t, Tree)
        for e in t.iteritems():
            path, mode, sha = prefix + e.path.decode(), f"{e.mode:06o}", e.sha.decode()
            kind = "tree" if stat.S_ISDIR(e.mode) else "commit" if mode == "160000" else "blob"
            yield path, mode, kind, sha
            if kind == "tree":
                yield from self.walk(sha, path + "/")

    def files(self, tree: str) -> dict[str, bytes]:
        """Every blob below ``tree`` by path (submodules left out)."""
        out = {}
        for path, _, kind, sha in self.walk(tree):
            if kind == "blob":
                out[path] = self.objects[sha].as_raw_string()
        return out

    def modes(self, tree: str) -> dict[str, str]:
        return {path: mode for path, mode, kind, _ in self.walk(tree) if kind != "tree"}

    def write_files(self, files: dict[str, bytes], modes: dict[str, str] | None = None) -> str:
        """A tree of ``files`` (any depth), e.g. a repository's first commit."""
        modes = modes or {}
        entries = [
            {"path": p, "mode": modes.get(p, "100644"), "type": "blob", "sha": self.blob(b)}
            for p, b in files.items()
        ]
        return apply(self, None, entries)


# A tree being edited: name -> (mode, sha) for a leaf or an unchanged subtree,
# or a nested dict for a subtree that changes.
Node = dict[str, Any]


def _load(store: Store, tree: str | None) -> Node:
    return dict(store.entries(tree)) if tree else {}


def _descend(store: Store, node: Node, name: str, create: bool) -> Node | None:
    child = node.get(name)
    if isinstance(child, dict):
        return child
    if child is None:
        if not create:
            return None
        node[name] = {}
        return node[name]
    mode, sha = child
    if mode != "040000":
        if not create:
            return None
        node[name] = {}  # a file replaced by a folder of that name
        return node[name]
    node[name] = _load(store, sha)
    return node[name]


def _edit(store: Store, root: Node, entry: dict[str, Any]) -> None:
    path = str(entry.get("path") or "")
    parts = path.split("/")
    if not path or any(p in ("", ".", "..", ".git") for p in parts):
        raise Refused(f"tree.path contains a malformed path component: {path}")
    mode, kind = entry.get("mode"), entry.get("type")
    if mode not in MODES or kind not in KINDS or mode not in KINDS[kind]:
        raise Refused(f"tree.mode and tree.type do not match for {path}")
    has_sha, has_content = "sha" in entry, "content" in entry
    if has_sha and has_content and entry["sha"] is not None:
        raise Refused("Must supply either tree.sha or tree.content, but not both")
    deleting = has_sha and entry["sha"] is None and not has_content
    node: Node | None = root
    for name in parts[:-1]:
        node = _descend(store, node, name, create=not deleting)
        if node is None:
            raise Refused(f"tree.sha null for a path that does not exist: {path}")
    leaf = parts[-1]
    if deleting:
        if leaf not in node:
            raise Refused(f"tree.sha null for a path that does not exist: {path}")
        del node[leaf]
        return
    if has_content:
        if kind != "blob":
            raise Refused(f"tree.content is only for blobs: {path}")
        sha = store.blob(str(entry["content"]).encode("utf-8"))
    else:
        sha = str(entry.get("sha") or "")
        if kind != "commit" and store.kind(sha) != kind:
            raise Refused(f"Invalid tree info: tree.sha {sha} is not a {kind}")
    node[leaf] = (mode, sha)


def _write(store: Store, node: Node) -> str | None:
    """Write ``node`` bottom-up; an empty folder is no tree at all (git keeps none)."""
    t = Tree()
    for name, child in node.items():
        if isinstance(child, dict):
            sha = _write(store, child)
            if sha is None:
                continue
            mode = "040000"
        else:
            mode, sha = child
        t.add(name.encode(), int(mode, 8), sha.encode())
    if not t.items():
        return None
    return store.add(t)


def apply(store: Store, base_tree: str | None, entries: list[dict[str, Any]]) -> str:
    """The Git Data API's "create a tree": ``base_tree`` edited by ``entries``."""
    if base_tree is not None and store.kind(base_tree) != "tree":
        raise Refused("base_tree is not a valid tree")
    root = _load(store, base_tree)
    for entry in entries:
        _edit(store, root, entry)
    sha = _write(store, root)
    return sha if sha is not None else store.add(Tree())
