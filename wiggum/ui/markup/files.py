"""The project's files as markup: the tree, the viewer beside it, and what the
viewer shows for each kind of file.  ``wiggum.web.views.files`` mounts these.

Folders are ``<details>`` (the view keeps a closed one closed when the tree
is drawn again); files are buttons (``data-testid="file-entry"``, their path
in ``data-path``), marked ``aria-current`` when open and ``data-unsaved``
while the editor holds edits not yet saved.  An image shows from a ``data:``
URL; other bytes say their size and offer a download; text gets the editor
(its own markup: :mod:`.editor`), an SVG a switch between image and source.
"""

from __future__ import annotations

from collections.abc import Collection

from wiggum.fs.paths import basename
from wiggum.preview.refs import data_url, mime_type

from ..files import Entry, Folder, Shown
from ..markdown import El
from ..tree import btn, e

__all__ = [
    "EMPTY",
    "body",
    "empty",
    "error_body",
    "frame",
    "tree",
    "viewer_head",
]

EMPTY = "No files yet."


def frame() -> El:
    """The tree and, hidden until a file is opened, the viewer (its head and body)."""
    viewer = e(
        "section",
        "file-viewer",
        e("div", "file-viewer-head", ref="head"),
        e("div", "file-viewer-body", ref="body"),
        testid="file-viewer",
        hidden=True,
        ref="viewer",
    )
    tree = e("nav", "file-tree", testid="file-tree", aria_label="Project files", ref="tree")
    return e("div", "files", tree, viewer, testid="files")


def empty() -> El:
    return e("p", "file-empty", testid="file-empty", text=EMPTY)


def _flag(on: bool) -> str | None:
    return "true" if on else None


def tree(
    nodes: tuple[Folder | Entry, ...],
    *,
    collapsed: Collection[str] = (),
    current: str | None = None,
    unsaved: Collection[str] = (),
) -> El:
    """The list of ``nodes``: folders open unless ``collapsed``, the ``current``
    file and those with ``unsaved`` edits marked."""
    items = []
    for node in nodes:
        if isinstance(node, Folder):
            item = e(
                "details",
                "file-folder",
                e("summary", "file-folder-name", text=node.name),
                tree(node.children, collapsed=collapsed, current=current, unsaved=unsaved),
                testid="file-folder",
                data_path=node.path,
                open=node.path not in collapsed,
            )
        else:
            item = btn(
                node.name,
                action="open-file",
                testid="file-entry",
                cls="file-entry",
                data_path=node.path,
                title=node.path,
                aria_current=_flag(node.path == current),
                data_unsaved=_flag(node.path in unsaved),
            )
        items.append(e("li", None, item))
    return e("ul", "file-list", items, role="list")


def viewer_head(path: str, note: str) -> list[El]:
    return [
        e("code", "file-viewer-path", testid="file-viewer-path", text=path),
        e("span", "file-viewer-note", text=note or None),  # no empty text node
    ]


def _pressed(on: bool) -> str:
    return "true" if on else "false"


def _svg_toggle(shown: Shown) -> El | None:
    """An SVG shows as an image or as its source: the person switches."""
    if not shown.svg:
        return None
    source = shown.kind == "text"
    return e(
        "div",
        "file-svg-toggle",
        btn("Image", action="svg-image", cls="", aria_pressed=_pressed(not source)),
        btn(
            "Source",
            action="svg-source",
            testid="svg-source",
            cls="",
            aria_pressed=_pressed(source),
        ),
        role="group",
        aria_label="Show SVG as",
    )


def body(shown: Shown, path: str, data: bytes) -> El:
    """What the viewer shows of ``path`` (``data``): an image, a binary file's
    size and download, or the frame the editor goes into (for text)."""
    if shown.kind == "image":
        url = data_url(data, mime_type(path))
        img = e("img", src=url, alt=path, testid="file-image")
        return e("div", "file-image", _svg_toggle(shown), img, data_kind="image")
    if shown.kind == "binary":
        link = e(
            "a",
            "file-download",
            testid="file-download",
            download=basename(path),
            href=data_url(data, "application/octet-stream"),
            text="Download",
        )
        said = e("p", testid="file-binary", text=shown.body)
        return e("div", "file-binary", said, link, data_kind="binary")
    return e("div", "file-text", _svg_toggle(shown), data_kind="text")


def error_body(reason: str) -> El:
    return e("p", "file-error", text=f"Cannot open: {reason}")
