"""The project's entry page: the one rule the gates and the live preview share.

``index.html`` at the project root when it exists.  Otherwise a site whose
main page has another name still has an entry page when there is no doubt
which page that is: the only page at the root (``home.html``), or, with no
page at the root, the only page anywhere (``pages/game.html``).  With two or
more candidates there is none: nobody can tell which one a visitor lands on.

The entry-page gate accepts exactly the pages this rule finds, the preview
gate loads the page it finds, and the preview opens it, so the three never
disagree about the site's first page.
"""

from __future__ import annotations

from collections.abc import Iterable

from wiggum.fs import FileStore, FileStoreError

from .bundle import Bundle, bundle_page

__all__ = [
    "INDEX",
    "STATE_DIRS",
    "bundle_entry_page",
    "entry_page",
    "entry_page_among",
    "is_page",
    "site_files",
]

INDEX = "index.html"
#: Folders that belong to the agents, not to the site.
STATE_DIRS = (".ralph/", ".chief/")


def is_page(path: str) -> bool:
    return path.endswith((".html", ".htm"))


def entry_page_among(paths: Iterable[str]) -> str | None:
    """The entry page among project paths (state folders are ignored), or ``None``."""
    files = [p for p in paths if not p.startswith(STATE_DIRS)]
    if INDEX in files:
        return INDEX
    pages = [p for p in files if is_page(p)]
    root = [p for p in pages if "/" not in p]
    if len(root) == 1:
        return root[0]
    if not root and len(pages) == 1:
        return pages[0]
    return None


async def site_files(fs: FileStore) -> list[str]:
    """The site's files: everything but the agents' state folders."""
    try:
        paths = await fs.list("", recursive=True)
    except FileStoreError:
        return []
    return [p for p in paths if not p.startswith(STATE_DIRS)]


async def entry_page(fs: FileStore) -> str | None:
    """The project's entry page (see the module docstring), or ``None``."""
    return entry_page_among(await site_files(fs))


async def bundle_entry_page(fs: FileStore, stamp: bool = False) -> Bundle | str:
    """The entry page bundled for loading (``stamp``: its start tags numbered, see
    ``wiggum.preview.page``), or why there is none to load."""
    page = await entry_page(fs)
    if page is None:
        return f"{INDEX} not found"
    bundle = await bundle_page(fs, page, stamp)
    return bundle if bundle.found else f"{page} not found"
