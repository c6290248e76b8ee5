"""What the live preview shows when asked for a page: which page, bundled how.

The site's root (``""``, ``/``, ``index.html``) is the project's entry page
(``index.html``, else the one page the entry-page gate accepts); any other
path is bundled as asked, its ``#fragment`` kept for the frame to scroll to.
A refresh asked for because files changed somewhere leaves a page whose
bundle did not change alone (:func:`unchanged`), its scripts' state and
scroll with it.  The view (``wiggum.web.views.preview``) hands the page to
its sandboxed frame.
"""

from __future__ import annotations

from dataclasses import dataclass

from wiggum.fs import FileStore
from wiggum.preview import INDEX, bundle_page, entry_page
from wiggum.ui.preview import is_root

__all__ = ["PreviewPage", "load_page", "unchanged"]


@dataclass(frozen=True, slots=True)
class PreviewPage:
    #: The page bundled (the entry page for the root), without its fragment.
    path: str
    html: str
    found: bool
    #: References the page makes to files the project lacks.
    missing: tuple[str, ...]
    #: What the path line shows: the path, with its ``#fragment`` if it had one.
    shown: str

    @property
    def status(self) -> str:
        return "" if self.found else "Not found"


async def load_page(fs: FileStore, path: str) -> PreviewPage:
    page, hash_, fragment = path.partition("#")
    if is_root(page):
        path = (await entry_page(fs) or INDEX) + hash_ + fragment
    bundle = await bundle_page(fs, path)
    shown = f"{bundle.path}#{fragment}" if fragment else bundle.path
    missing = tuple(str(m) for m in bundle.missing)
    return PreviewPage(bundle.path, bundle.html, bundle.found, missing, shown)


def unchanged(page: PreviewPage, shown: tuple[str, str] | None) -> bool:
    """The frame shows this page already: ``shown`` is its ``(path, html)``
    (``None`` while the frame has not started)."""
    return shown is not None and shown == (page.path, page.html)
