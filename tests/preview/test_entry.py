"""The project's entry page: one rule for the gates and the preview."""

from __future__ import annotations

import pytest

from wiggum.fs import MemoryFileStore
from wiggum.preview import bundle_page, entry_page, entry_page_among


@pytest.mark.parametrize(
    ("paths", "expected"),
    [
        (["index.html", "home.html", "about.html"], "index.html"),
        (["home.html", "style.css", "js/app.js"], "home.html"),
        (["game.htm"], "game.htm"),
        # No page at the root: the only page anywhere.
        (["pages/game.html", "pages/game.css"], "pages/game.html"),
        # A single root page wins over pages in folders.
        (["home.html", "pages/a.html", "pages/b.html"], "home.html"),
        # Two candidates: nobody can tell which one a visitor lands on.
        (["a.html", "b.html"], None),
        (["pages/a.html", "docs/b.html"], None),
        (["style.css", "app.js"], None),
        ([], None),
        # The agents' folders are not the site.
        ([".ralph/tmp/out.html", "pages/x.html"], "pages/x.html"),
        ([".ralph/index.html", ".chief/plan.html"], None),
        # index.html in a folder is not the root's index.html.
        (["docs/index.html", "home.html"], "home.html"),
    ],
)
def test_entry_page_rule(paths, expected):
    assert entry_page_among(paths) == expected


async def test_entry_page_reads_the_store_and_the_bundle_finds_it():
    fs = MemoryFileStore()
    await fs.write_text("home.html", "<h1>Home</h1>")
    await fs.write_text(".ralph/notes.html", "<p>agent</p>")
    page = await entry_page(fs)
    assert page == "home.html"
    bundle = await bundle_page(fs, page)
    assert bundle.found and bundle.path == "home.html" and "<h1>Home</h1>" in bundle.html

    await fs.write_text("index.html", "<h1>Index</h1>")
    assert await entry_page(fs) == "index.html"


async def test_entry_page_of_an_empty_store_is_none():
    assert await entry_page(MemoryFileStore()) is None
