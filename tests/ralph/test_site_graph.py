"""The site's reference graph, get_impact and the map, on small sites (cycles,
missing files, folders)."""

from __future__ import annotations

import json

from wiggum.fs import MemoryFileStore
from wiggum.ralph.acceptance import run_probes
from wiggum.ralph.impact import IMPACT_FILE, GetImpactTool, first_pages
from wiggum.ralph.probes import Seen
from wiggum.ralph.site_graph import build_graph
from wiggum.tools import ToolContext

SITE = {
    "index.html": (
        '<link rel="stylesheet" href="css/site.css">\n<script type="module" src="js/app.js">'
        '</script>\n<a href="about.html">About</a>\n<a href="blog/">Blog</a>\n'
        '<img src="img/missing.png" alt="">\n<a href="https://example.com">out</a>'
    ),
    "about.html": '<link rel="stylesheet" href="css/site.css">\n<a href="index.html">Home</a>',
    "blog/index.html": '<a href="../contact.html">Contact</a>',
    "css/site.css": '@import "base.css";\nbody { background: url("../img/bg.png") }',
    "css/base.css": "p { margin: 0 }",
    "js/app.js": 'import { b } from "./b.js";\n',
    "js/b.js": 'import { a } from "./app.js";\nexport const b = 1;\n',
    "img/bg.png": "png",
    "img/unused.svg": "<svg/>",
    ".ralph/progress.md": '<a href="nowhere.html">not the site</a>',
}


async def site(files=SITE):
    fs = MemoryFileStore()
    for path, text in files.items():
        await fs.write_text(path, text)
    return fs


async def test_the_graph_has_each_reference_with_its_kind_line_and_whether_it_is_missing():
    graph = await build_graph(await site())
    found = {(e.source, e.target, e.ref.line, e.kind, e.missing) for e in graph.edges}
    assert ("index.html", "css/site.css", 1, "load", False) in found
    assert ("index.html", "about.html", 3, "link", False) in found
    assert ("index.html", "blog/index.html", 4, "link", False) in found  # a folder's index
    assert ("index.html", "img/missing.png", 5, "load", True) in found
    assert ("css/site.css", "css/base.css", 1, "load", False) in found
    assert ("css/site.css", "img/bg.png", 2, "load", False) in found
    assert ("js/b.js", "js/app.js", 1, "load", False) in found  # the cycle's back edge
    assert ("blog/index.html", "contact.html", 1, "link", True) in found
    assert not any(e.source.startswith(".ralph") for e in graph.edges)
    assert not any("example.com" in e.target for e in graph.edges)
    assert [(e.source, e.target) for e in graph.broken] == [
        ("blog/index.html", "contact.html"),
        ("index.html", "img/missing.png"),
    ]


async def test_impact_follows_loads_through_any_depth_and_cycles_and_links_one_step():
    graph = await build_graph(await site())
    assert graph.impact("img/bg.png") == (["about.html", "index.html"], [])
    assert graph.impact("js/b.js") == (["index.html"], [])  # through app.js, cycle and all
    assert graph.impact("about.html") == (["about.html"], ["index.html"])
    assert graph.impact("index.html") == (["index.html"], ["about.html"])
    assert graph.impact("img/unused.svg") == ([], [])
    assert graph.unused() == ["img/unused.svg"]


async def test_the_map_lists_each_page_with_what_it_loads_and_links_broken_ones_marked():
    pages = {p.path: p for p in (await build_graph(await site())).pages()}
    assert sorted(pages) == ["about.html", "blog/index.html", "index.html"]
    index = pages["index.html"]
    assert dict(index.loads) == {
        "css/site.css": False,
        "css/base.css": False,
        "img/bg.png": False,
        "js/app.js": False,
        "js/b.js": False,
        "img/missing.png": True,
    }
    assert dict(index.links) == {"about.html": False, "blog/index.html": False}
    assert pages["blog/index.html"].links == (("contact.html", True),)


class Page:
    def __init__(self, opened):
        self.opened = opened

    async def open(self, page):
        self.opened.append(page)
        return None

    async def do(self, step):
        return Seen(page_text="ok")

    def close(self) -> None:
        pass


async def test_get_impact_names_pages_probes_and_checks_and_their_probes_run_first():
    fs = await site()
    for name, page in (("a", "blog/index.html"), ("b", "about.html")):
        probe = {"criterion": f"{name} works", "page": page, "steps": [{"expect_text": "ok"}]}
        await fs.write_text(f".ralph/checks/{name}.json", json.dumps(probe))
    ctx = ToolContext(fs=fs)
    result = await GetImpactTool().run(GetImpactTool.Args(path="css/base.css"), ctx)
    assert not result.is_error
    assert "pages that load it: about.html, index.html" in result.output
    assert '.ralph/checks/b.json ("b works")' in result.output
    assert "a works" not in result.output
    assert "phone width and errors on load (index.html is the entry page)" in result.output
    assert "index.html:5 <img src> -> img/missing.png" in result.output
    assert await first_pages(fs) == ["about.html", "index.html"]
    opened: list[str] = []
    await run_probes(fs, lambda: Page(opened), first=await first_pages(fs))
    assert opened == ["about.html", "blog/index.html"]  # b.json first, though a sorts first
    # Asked again about another file: its pages join, none twice.
    await GetImpactTool().run(GetImpactTool.Args(path="about.html"), ctx)
    assert json.loads(await fs.read_text(IMPACT_FILE)) == ["about.html", "index.html"]


async def test_get_impact_of_a_file_not_in_the_site_says_so():
    ctx = ToolContext(fs=await site())
    result = await GetImpactTool().run(GetImpactTool.Args(path="nope.css"), ctx)
    assert result.output == "nope.css is not a file of the site."
    result = await GetImpactTool().run(GetImpactTool.Args(path="../x"), ctx)
    assert result.is_error
