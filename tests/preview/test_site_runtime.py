"""The preview's site storage shim, console messages and forms, decided under CPython."""

from __future__ import annotations

import json

from wiggum.fs import MemoryFileStore
from wiggum.preview import bundle_page
from wiggum.preview.console import (
    MAX_ENTRIES,
    ConsoleEntry,
    SiteConsole,
    locate,
    read_console_message,
)
from wiggum.preview.storage import (
    MAX_AREA_CHARS,
    STORAGE_MESSAGE,
    read_storage_message,
    with_storage,
)


async def test_the_storage_script_goes_before_the_runtime_with_an_inert_snapshot():
    fs = MemoryFileStore()
    await fs.write_text("index.html", "<html><head><script>x()</script></head></html>")
    html = (await bundle_page(fs, "index.html")).html
    snapshot = {"local": {"todos": '["</script><b>"]'}, "cookie": {"a": "1"}}
    shown = with_storage(html, snapshot)
    storage = shown.index('data-wiggum-preview="storage"')
    assert storage < shown.index('data-wiggum-preview="runtime"') < shown.index("x()")
    assert "</script><b>" not in shown  # a stored value cannot end the element
    assert STORAGE_MESSAGE in shown
    seed = shown[storage:].split("var seed = ", 1)[1].split(";\n", 1)[0]
    assert json.loads(seed) == {"local": snapshot["local"], "session": {}, "cookie": {"a": "1"}}
    assert with_storage("<p>not ours</p>", snapshot) == "<p>not ours</p>"


def test_a_storage_message_is_taken_only_in_its_shape_and_within_the_quota():
    assert read_storage_message("local", {"a": "1"}) == ("local", {"a": "1"})
    assert read_storage_message("cookie", {}) == ("cookie", {})
    for area, items in (
        ("indexeddb", {"a": "1"}),
        ("local", {"a": 1}),
        ("local", ["a"]),
        ("local", None),
        ("local", {"a": "x" * MAX_AREA_CHARS}),
    ):
        assert read_storage_message(area, items) is None, (area, str(items)[:40])


def test_a_console_message_is_read_only_in_its_shape():
    good = {"level": "error", "kind": "error", "text": "boom", "file": "a.js", "line": 3.0}
    entry = read_console_message(good)
    assert entry is not None and (entry.where, entry.fixable) == ("a.js:3", True)
    for bad in (
        {**good, "level": "fatal"},
        {**good, "kind": "mine"},
        {**good, "text": 5},
        {**good, "line": -1},
        {**good, "line": True},
        "boom",
        None,
    ):
        assert read_console_message(bad) is None, bad
    unplaced = read_console_message({**good, "file": "", "line": 9})
    assert unplaced is not None and unplaced.where == "" and unplaced.line == 0


def test_the_console_groups_repeats_counts_them_and_keeps_the_recent_in_order():
    console = SiteConsole()
    boom = ConsoleEntry("boom", "a.js", 3, level="error", kind="error")
    console.add(boom)
    console.add(ConsoleEntry("boom", "a.js", 3, level="error", kind="error"))
    console.add(ConsoleEntry("old data", level="warn"))
    assert [(e.text, e.count) for e in console.entries] == [("boom", 2), ("old data", 1)]
    assert console.summary() == "2 errors, 1 warning"
    assert list(console.recent) == ["[error] boom (a.js:3)"] * 2 + ["[warn] old data"]
    for n in range(MAX_ENTRIES + 5):
        console.add(ConsoleEntry(f"line {n}"))
    assert len(console.entries) == MAX_ENTRIES and console.dropped == 7
    console.clear()
    assert console.entries == [] and not console.recent and console.summary() == ""


def test_a_reference_is_located_on_the_line_it_is_written():
    assert locate("<p>\n<img src='a.png'>\n", "a.png") == 2
    assert locate("<p>", "b.png") == 0 and locate("<p>", "") == 0


async def test_forms_submit_to_the_page_their_action_names():
    fs = MemoryFileStore()
    await fs.write_text(
        "pages/index.html",
        "<form id=a></form><form id=b action='thanks.html'></form>"
        "<form id=c action='https://example.org/x'></form><form id=d action='mailto:a@b'></form>",
    )
    await fs.write_text("pages/thanks.html", "<h1>Thanks</h1>")
    html = (await bundle_page(fs, "pages/index.html")).html
    assert '<form id="a" data-wiggum-nav="pages/index.html">' in html
    assert '<form id="b" action="thanks.html" data-wiggum-nav="pages/thanks.html">' in html
    assert 'id="c" action="https://example.org/x" target="_blank"' in html
    assert "<form id=d action='mailto:a@b'>" in html
