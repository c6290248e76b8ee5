"""What the file tree and the file viewer show, as plain data (the view draws it).

The tree lists every file of the project, the agents' ``.chief/`` and
``.ralph/`` included: folders first, then files, each level sorted by name;
a file and a folder of one name are both kept.  The viewer shows a file as
an image (by its extension: an ``<img>`` never runs an SVG's scripts), as
text in the editor, or, for other bytes, as its size with a download; its
head carries a short note ("12 lines, 340 B").
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from wiggum.fs import is_binary
from wiggum.fs.sizes import format_size
from wiggum.preview.refs import IMAGE_EXTS, file_ext

__all__ = ["Entry", "Folder", "Shown", "file_tree", "show_as"]


@dataclass(frozen=True, slots=True)
class Entry:
    name: str
    path: str


@dataclass(frozen=True, slots=True)
class Folder:
    name: str
    path: str
    children: tuple[Folder | Entry, ...]


def file_tree(files: Iterable[str], dirs: Iterable[str] = ()) -> tuple[Folder | Entry, ...]:
    """The tree of ``files`` (and of the folders ``dirs``, empty ones included)."""
    root: dict[str, object] = {}
    for d in dirs:
        node = root
        for part in d.split("/"):
            node = node.setdefault(part, {})  # type: ignore[assignment]
    for path in files:
        node = root
        *folders, name = path.split("/")
        for part in folders:
            child = node.setdefault(part, {})
            if not isinstance(child, dict):  # a file and a folder of one name: keep both
                child = node[part + "/"] = {}
            node = child
        node[name] = path
    return _nodes(root, "")


def _nodes(node: dict[str, object], prefix: str) -> tuple[Folder | Entry, ...]:
    folders = sorted((k, v) for k, v in node.items() if isinstance(v, dict))
    files = sorted((k, v) for k, v in node.items() if not isinstance(v, dict))
    out: list[Folder | Entry] = []
    for key, child in folders:
        name = key.rstrip("/")
        children = _nodes(child, f"{prefix}{name}/")  # type: ignore[arg-type]
        out.append(Folder(name, prefix + name, children))
    out.extend(Entry(name, str(path)) for name, path in files)
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Shown:
    """How the viewer shows a file, and the note in its head."""

    kind: Literal["image", "binary", "text"]
    note: str
    #: An SVG: it offers its image and its source.
    svg: bool = False
    #: What a binary file's body says in place of its contents.
    body: str = ""


def show_as(path: str, data: bytes, *, svg_source: bool = False) -> Shown:
    """How to show ``path`` holding ``data``; ``svg_source``: an SVG as its text."""
    size = format_size(len(data))
    binary = is_binary(data)
    svg = file_ext(path) == "svg" and not binary
    if file_ext(path) in IMAGE_EXTS and not (svg and svg_source):
        return Shown("image", f"image, {size}", svg)
    if binary:
        return Shown("binary", f"{size}, binary", body=f"binary, {len(data):,} bytes")
    text = data.decode("utf-8")
    lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    return Shown("text", f"{lines} line{'' if lines == 1 else 's'}, {size}", svg)
