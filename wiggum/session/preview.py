"""What the live preview shows when asked for a page: which page, bundled how.

The site's root (``""``, ``/``, ``index.html``) is the project's entry page
(``index.html``, else the one page the entry-page gate accepts); any other
path is bundled as asked, its ``#fragment`` kept for the frame to scroll to.
Each load carries the select mode over a secret of its own and the table of
where each element is written (:mod:`wiggum.preview.point`).
A refresh asked for because files changed somewhere leaves a page whose
bundle did not change alone (:func:`unchanged`), its scripts' state and
scroll with it (:class:`PreviewState` keeps what is shown).  The view
(``wiggum.web.views.preview``) hands the page to its sandboxed frame.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from wiggum.fs import FileStore
from wiggum.preview import INDEX, bundle_page, entry_page_among, is_page, no_page_yet, site_files
from wiggum.preview.point import SourcePlace, new_secret
from wiggum.preview.storage import with_storage
from wiggum.ui.preview import is_root

from .site_panels import SitePanels

__all__ = ["PreviewPage", "PreviewState", "load_page", "unchanged"]


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

    #: The project has no page at all (nothing was written yet).
    empty: bool = False
    #: Where each numbered start tag is written (select mode's table).
    places: tuple[SourcePlace, ...] = ()
    #: The project stylesheets the page links, in document order.
    stylesheets: tuple[str, ...] = ()

    @property
    def status(self) -> str:
        if self.empty:
            return "No page yet"
        return "" if self.found else "Not found"


async def load_page(fs: FileStore, path: str, point: str | None = None) -> PreviewPage:
    """The page at ``path`` bundled (``point``: with select mode, over that secret)."""
    page, hash_, fragment = path.partition("#")
    if is_root(page):
        files = await site_files(fs)
        if not any(is_page(p) for p in files):
            empty = no_page_yet()
            return PreviewPage(empty.path, empty.html, False, (), empty.path, empty=True)
        path = (entry_page_among(files) or INDEX) + hash_ + fragment
    bundle = await bundle_page(fs, path, point=point)
    shown = f"{bundle.path}#{fragment}" if fragment else bundle.path
    missing = tuple(str(m) for m in bundle.missing)
    return PreviewPage(
        bundle.path,
        bundle.html,
        bundle.found,
        missing,
        shown,
        places=tuple(bundle.places),
        stylesheets=tuple(bundle.stylesheets),
    )


def unchanged(page: PreviewPage, shown: tuple[str, str] | None) -> bool:
    """The frame shows this page already: ``shown`` is its ``(path, html)``
    (``None`` while the frame has not started)."""
    return shown is not None and shown == (page.path, page.html)


class PreviewState:
    """What the preview shows, for its view to draw: the page of the frame
    (``path``; the references it makes to files the project lacks,
    ``missing``; ``html``, the document handed to the frame, its storage with
    it), the errors it reported (``errors``), and the site's storage, console
    and checks beside it (``site``).

    Each load is numbered (:meth:`begin`) and only the latest one's page is
    shown; a page the frame shows already (``started``: its host page took
    it) is not loaded again when only some files changed (:meth:`load`).
    """

    def __init__(self, site: SitePanels | None = None) -> None:
        self.site = site or SitePanels()
        self.path = INDEX
        self.errors: list[str] = []
        self.missing: list[str] = []
        self.html = ""
        self.page: PreviewPage | None = None
        self.started = False
        self._gen = 0
        #: The select channel's secret of the page the frame shows (a new one per load).
        self.secret = new_secret()

    def begin(self) -> int:
        """A load starts, or the view closes: what came before is not shown."""
        self._gen += 1
        return self._gen

    def latest(self, gen: int) -> bool:
        return gen == self._gen

    async def load(
        self, fs: FileStore, path: str, gen: int, *, if_changed: bool = False
    ) -> PreviewPage | None:
        """The page ``path`` of ``fs`` for a new frame, the page's state reset (its
        errors, its console); ``None`` when load ``gen`` is not the latest any
        more, or (``if_changed``) the frame shows this very page already."""
        page = await load_page(fs, path, point=self.secret)
        snapshot = await self.site.storage.snapshot()
        shown = (self.page.path, self.page.html) if self.started and self.page else None
        if not self.latest(gen) or (if_changed and unchanged(page, shown)):
            return None
        # A new frame, a new secret: written once, in the runtime, before the site.
        old, self.secret = self.secret, new_secret()
        page = replace(page, html=page.html.replace(old, self.secret, 1))
        self.path, self.errors, self.missing = page.path, [], list(page.missing)
        self.html = with_storage(page.html, snapshot)
        self.page, self.started = page, False
        self.site.clear()
        return page
