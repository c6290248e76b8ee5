"""Git trees as the history uses them: every entry of a tree by path, a tree made
from such a map, and what changed between two trees.

A tree entry is a file (``100644``, ``100755``), a symbolic link
(``120000``), a submodule (``160000``, a commit of another repository, whose
object is not in this one) or a subtree; only subtrees are followed.  The
tree objects are dulwich's ``Tree``; reading them goes through the async
:class:`~wiggum.project.gitstore.ObjectStore`, which dulwich's own walkers
(synchronous) cannot, hence these few functions.  Comparing two trees skips
every subtree whose id did not change, so its cost follows the change.
"""

from __future__ import annotations

from dataclasses import dataclass

from dulwich.objects import Tree

from .gitstore import ObjectStore

__all__ = ["TREE_MODE", "Change", "Item", "build_tree", "changes", "flatten", "is_tree"]

TREE_MODE = 0o040000
GITLINK_MODE = 0o160000

#: A tree entry below the root: (git mode, object id).
Item = tuple[int, bytes]


def is_tree(mode: int) -> bool:
    return mode & 0o170000 == TREE_MODE


@dataclass(frozen=True, slots=True)
class Change:
    path: str
    old: Item | None
    new: Item | None


def _name(raw: bytes) -> str:
    # Tree names are bytes; a repository made elsewhere may hold names that are
    # not UTF-8, kept byte for byte (surrogateescape) so the tree is rebuilt as it was.
    return raw.decode("utf-8", "surrogateescape")


async def flatten(objects: ObjectStore, tree: bytes | None) -> dict[str, Item]:
    """path -> (mode, id) of every entry below ``tree`` that is not a subtree."""
    out: dict[str, Item] = {}
    level: list[tuple[str, bytes]] = [("", tree)] if tree else []
    while level:
        found = await objects.get_many(sha for _, sha in level)
        below: list[tuple[str, bytes]] = []
        for prefix, sha in level:
            for entry in found[sha].iteritems():
                path = prefix + _name(entry.path)
                if is_tree(entry.mode):
                    below.append((path + "/", entry.sha))
                else:
                    out[path] = (entry.mode, entry.sha)
        level = below  # one read per depth of the tree, not per folder
    return out


def build_tree(objects: ObjectStore, entries: dict[str, Item], keep: frozenset[bytes]) -> bytes:
    """The tree of ``entries`` (path -> (mode, id)); its new subtrees are added to
    ``objects`` unless their id is in ``keep`` (the trees already stored)."""
    children: dict[str, dict[str, Item]] = {}
    tree = Tree()
    for path, (mode, sha) in entries.items():
        head, sep, rest = path.partition("/")
        if sep:
            children.setdefault(head, {})[rest] = (mode, sha)
        else:
            tree.add(head.encode("utf-8", "surrogateescape"), mode, sha)
    for name, sub in children.items():
        tree.add(name.encode("utf-8", "surrogateescape"), TREE_MODE, build_tree(objects, sub, keep))
    sha = tree.id
    if sha not in keep:
        objects.add(tree)
    return sha


async def tree_ids(objects: ObjectStore, tree: bytes | None) -> frozenset[bytes]:
    """The ids of ``tree`` and of every subtree below it."""
    out: set[bytes] = set()
    level = [tree] if tree else []
    while level:
        out.update(level)
        found = await objects.get_many(level)
        level = [e.sha for sha in level for e in found[sha].iteritems() if is_tree(e.mode)]
    return frozenset(out)


async def changes(objects: ObjectStore, old: bytes | None, new: bytes | None) -> list[Change]:
    """What differs between the trees ``old`` and ``new``, path order."""
    out: list[Change] = []
    await _compare(objects, old, new, "", out)
    return sorted(out, key=lambda c: c.path)


async def _entries(objects: ObjectStore, tree: bytes | None) -> dict[str, Item]:
    if tree is None:
        return {}
    return {_name(e.path): (e.mode, e.sha) for e in (await objects.get(tree)).iteritems()}


async def _compare(
    objects: ObjectStore, old: bytes | None, new: bytes | None, prefix: str, out: list[Change]
) -> None:
    if old == new:
        return
    a, b = await _entries(objects, old), await _entries(objects, new)
    for name in sorted(set(a) | set(b)):
        x, y = a.get(name), b.get(name)
        if x == y:
            continue
        path = prefix + name
        x_tree = x is not None and is_tree(x[0])
        y_tree = y is not None and is_tree(y[0])
        if x_tree or y_tree:
            await _compare(
                objects, x[1] if x_tree else None, y[1] if y_tree else None, path + "/", out
            )
        if not (x_tree and y_tree):
            left, right = (None if x_tree else x), (None if y_tree else y)
            if left != right:
                out.append(Change(path, left, right))
