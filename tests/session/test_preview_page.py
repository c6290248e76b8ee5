"""Which page the preview shows for a path, and when a refresh leaves it be."""

from __future__ import annotations

from wiggum.fs import MemoryFileStore
from wiggum.session.preview import load_page, unchanged


async def test_the_root_is_the_entry_page_and_the_fragment_is_kept():
    fs = MemoryFileStore({"home.html": "<h1>Home</h1>", "css/a.css": "x"})
    page = await load_page(fs, "/#top")
    assert (page.path, page.shown, page.found, page.status) == (
        "home.html",
        "home.html#top",
        True,
        "",
    )
    assert "<h1>Home</h1>" in page.html


async def test_a_missing_page_says_not_found_and_what_it_lacks():
    fs = MemoryFileStore({"index.html": '<img src="logo.png">'})
    missing = await load_page(fs, "about.html")
    assert (missing.path, missing.found, missing.status) == ("about.html", False, "Not found")
    index = await load_page(fs, "index.html")
    assert index.missing == ("index.html: logo.png (not found)",)


async def test_a_refresh_leaves_the_page_alone_only_when_the_frame_shows_it_already():
    fs = MemoryFileStore({"index.html": "<p>a</p>"})
    page = await load_page(fs, "")
    assert not unchanged(page, None)  # the frame has not started
    assert unchanged(page, (page.path, page.html))
    assert not unchanged(page, (page.path, page.html + " "))
    assert not unchanged(page, ("other.html", page.html))


async def test_a_project_without_any_page_says_so_and_how_one_comes():
    for fs in (MemoryFileStore({}), MemoryFileStore({".ralph/plan.md": "x", "style.css": "p{}"})):
        page = await load_page(fs, "")
        assert (page.found, page.status, page.missing) == (False, "No page yet", ())
        assert "No page yet" in page.html and "hand it to Ralph" in page.html
        assert "Not found" not in page.html
    # a page that is not the entry page is still not found by its name
    fs = MemoryFileStore({"a.html": "<p>a</p>", "b.html": "<p>b</p>"})
    assert (await load_page(fs, "")).status == "Not found"
