"""The site's reference graph: which page links to, includes or imports which file.

Built from what the checks already parse (``gates.file_refs``: HTML
``href``/``src``/``srcset``, CSS ``url()``/``@import``, JavaScript
``import``), resolved the way the links check resolves them, so the graph and
the Checks panel never disagree about what is broken.

What a change to a file can break (:meth:`SiteGraph.impact`): the pages that
reach it through what they load (a stylesheet, a script and what it imports,
an image in that stylesheet: followed through any depth, cycles included),
plus the pages that link to it (one step: a link does not load the page it
points at).  Ralph asks with the ``get_impact`` tool; the probes opening
those pages run first in the next round.  The person sees :meth:`pages`: each
page with what it loads and links to, broken references marked.

Hand-written (a dict of sets and a breadth-first walk): a graph library would
be a package to vendor for thirty lines.
"""

from __future__ import annotations

import posixpath
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from wiggum.fs import FileStore
from wiggum.preview.entry import is_page, site_files

from .gates import file_refs, resolve_ref
from .htmlscan import Ref

__all__ = ["Edge", "PageNode", "SiteGraph", "build_graph"]


@dataclass(frozen=True, slots=True)
class Edge:
    """A reference: the file ``source`` it is written in, the ``ref`` as written
    there (its text, line, and how: ``<link href>``…), the project path
    ``target`` it resolves to, and whether that is ``missing`` from the project."""

    @property
    def kind(self) -> str:
        """``link`` (``<a href>``: a visitor goes there) or ``load`` (the page loads it)."""
        return "link" if self.ref.via in ("<a href>", "<area href>") else "load"

    source: str
    ref: Ref
    target: str
    missing: bool = False


class PageNode(NamedTuple):
    """A page of the map: what it loads and links to, each ``(target, missing)``."""

    path: str
    loads: tuple[tuple[str, bool], ...]
    links: tuple[tuple[str, bool], ...]


@dataclass(slots=True)
class SiteGraph:
    files: list[str] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)

    def _from(self, source: str) -> list[Edge]:
        return [e for e in self.edges if e.source == source]

    @property
    def broken(self) -> list[Edge]:
        return [e for e in self.edges if e.missing]

    def loaded_by(self, path: str) -> set[str]:
        """Every file that loads ``path``, directly or through files it loads."""
        seen: set[str] = set()
        todo = deque([path])
        while todo:
            current = todo.popleft()
            for edge in self.edges:
                if edge.kind == "load" and edge.target == current and edge.source not in seen:
                    seen.add(edge.source)
                    todo.append(edge.source)
        seen.discard(path)
        return seen

    def impact(self, path: str) -> tuple[list[str], list[str]]:
        """``(pages that load it, pages that link to it)``, sorted; a page is
        affected by its own change too."""
        loading = {p for p in self.loaded_by(path) if is_page(p)}
        if is_page(path):
            loading.add(path)
        linking = {
            e.source
            for e in self.edges
            if e.kind == "link" and e.target == path and e.source not in loading
        }
        return sorted(loading), sorted(linking)

    def pages(self) -> list[PageNode]:
        """Each page with what it loads (through any depth) and links to."""
        out = []
        for page in (f for f in self.files if is_page(f)):
            loads: dict[str, bool] = {}
            todo = deque([page])
            while todo:
                for edge in self._from(todo.popleft()):
                    if edge.kind == "load" and edge.target not in loads and edge.target != page:
                        loads[edge.target] = edge.missing
                        todo.append(edge.target)
            links = {e.target: e.missing for e in self._from(page) if e.kind == "link"}
            out.append(PageNode(page, tuple(loads.items()), tuple(sorted(links.items()))))
        return out

    def unused(self) -> list[str]:
        """Files no page reaches (neither loaded nor linked), pages aside."""
        reached = {e.target for e in self.edges}
        return [f for f in self.files if not is_page(f) and f not in reached]


async def build_graph(fs: FileStore, files: Iterable[str] | None = None) -> SiteGraph:
    """The graph of the site's files (``files``: the site's, by default)."""
    paths = sorted(await site_files(fs) if files is None else files)
    present = set(paths)
    graph = SiteGraph(files=paths)
    for path in paths:
        for ref in await file_refs(fs, path):
            target = resolve_ref(path, ref.target)
            if target is None or target.startswith("../"):
                continue
            if target == "/" or target.endswith("/") or target not in present:
                folder = target.rstrip("/")
                index = posixpath.join(folder, "index.html") if folder else "index.html"
                target = index if (target.endswith("/") or index in present) else target
            graph.edges.append(Edge(path, ref, target, target not in present))
    return graph
