"""The data behind the preview's fetch/XHR shim: which files, how they are written.

The shim's behaviour in a browser is covered by tests/e2e/test_preview.py; here
CPython checks what the bundle embeds and that it stays inert inside <script>.
"""

from __future__ import annotations

import base64
import json
import re
from html.parser import HTMLParser

import pytest

from wiggum.fs import MemoryFileStore
from wiggum.preview import bundle, bundle_page

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)


async def store(files: dict[str, str | bytes]) -> MemoryFileStore:
    fs = MemoryFileStore()
    for path, content in files.items():
        if isinstance(content, bytes):
            await fs.write_bytes(path, content)
        else:
            await fs.write_text(path, content)
    return fs


class Scripts(HTMLParser):
    """Every <script> element as (attrs, text), the way a browser would split them."""

    def __init__(self) -> None:
        super().__init__()
        self.scripts: list[tuple[dict[str, str | None], str]] = []
        self.tags: list[str] = []
        self._in: dict[str, str | None] | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        if tag == "script":
            self._in, self._text = dict(attrs), []

    def handle_endtag(self, tag):
        if tag == "script" and self._in is not None:
            self.scripts.append((self._in, "".join(self._text)))
            self._in = None

    def handle_data(self, data):
        if self._in is not None:
            self._text.append(data)


def scripts(doc: str) -> Scripts:
    p = Scripts()
    p.feed(doc)
    p.close()
    return p


def project(doc: str) -> dict:
    """The shim's data, read back from the runtime script of ``doc``."""
    runtime = [text for attrs, text in scripts(doc).scripts if attrs.get("data-wiggum-preview")]
    assert len(runtime) == 1
    literal = re.search(r"var P = (.*);\n", runtime[0])
    assert literal, "no project literal in the runtime"
    return json.loads(literal.group(1))


def contents(data: dict) -> dict[str, bytes]:
    out = {}
    for path, _mime, is_b64, value in data["files"]:
        out[path] = base64.b64decode(value) if is_b64 else value.encode("utf-8")
    return out


async def test_project_files_embedded_with_their_types():
    fs = await store(
        {
            "pages/quiz.html": "<script src='../js/quiz.js'></script>",
            "js/quiz.js": "fetch('../data/questions.json')",
            "data/questions.json": '[{"q": "2+2?", "a": 4}]',
            "data/menu.csv": "name,price\ntea,2\n",
            "notes.md": "# Notes\n",
            "img/x.png": PNG,
            "img/y.svg": "<svg xmlns='http://www.w3.org/2000/svg'/>",
            "README": "plain",
            ".ralph/progress.md": "agent state",
            ".chief/plan.md": "plan",
            "site/.hidden/secret.txt": "x",
        }
    )
    b = await bundle_page(fs, "pages/quiz.html")
    data = project(b.html)
    assert data["page"] == "pages/quiz.html"
    assert data["cap"] == bundle.MAX_FETCHABLE
    assert data["over"] == []
    files = contents(data)
    assert set(files) == {
        "pages/quiz.html",
        "js/quiz.js",
        "data/questions.json",
        "data/menu.csv",
        "notes.md",
        "img/x.png",
        "img/y.svg",
        "README",
    }
    for path in files:
        assert files[path] == await fs.read_bytes(path)
    types = {path: (mime, is_b64) for path, mime, is_b64, _ in data["files"]}
    assert types["data/questions.json"] == ("application/json", 0)
    assert types["data/menu.csv"] == ("text/csv", 0)
    assert types["notes.md"] == ("text/markdown", 0)
    assert types["img/y.svg"] == ("image/svg+xml", 0)
    assert types["img/x.png"] == ("image/png", 1)
    assert types["README"] == ("application/octet-stream", 0)


async def test_embedded_content_cannot_end_the_script():
    evil = "</script><script>alert(1)</script><!-- <script> & > \u2028\u2029 é"
    fs = await store(
        {
            "index.html": "<!DOCTYPE html><html><head><title>t</title></head>"
            "<body><p id=after>ok</p></body></html>",
            "data/evil.json": json.dumps({"x": evil}),
            "evil.txt": evil,
            "</script><script>alert(2)</script>.txt": "named",
        }
    )
    b = await bundle_page(fs)
    doc = scripts(b.html)
    # Only the runtime: nothing in a file opened another script element.
    assert [attrs.get("data-wiggum-preview") for attrs, _ in doc.scripts] == ["runtime"]
    assert doc.tags == ["html", "head", "script", "title", "body", "p"]
    runtime = doc.scripts[0][1]
    for unsafe in ("<", ">", "&", "\u2028", "\u2029"):
        assert unsafe not in re.search(r"var P = (.*);\n", runtime).group(1)
    files = contents(project(b.html))
    assert files["evil.txt"] == evil.encode("utf-8")
    assert json.loads(files["data/evil.json"]) == {"x": evil}
    assert files["</script><script>alert(2)</script>.txt"] == b"named"


async def test_cap_keeps_named_files_then_text_then_smallest(monkeypatch):
    monkeypatch.setattr(bundle, "MAX_FETCHABLE", 1000)
    fs = await store(
        {
            "index.html": "<script>fetch('data/big.json')</script>",  # 39 bytes
            "data/big.json": "[" + "1," * 299 + "1]",  # 600 bytes, named in a script
            "data/small.json": "{}",
            "notes.txt": "n" * 300,
            "style.css": "c" * 100,
            "img/a.png": b"\x89PNG" + b"\x00" * 96,  # 100 bytes: binary comes after text
            "img/b.png": b"\x89PNG" + b"\x00" * 600,
        }
    )
    b = await bundle_page(fs)
    data = project(b.html)
    embedded = [path for path, *_ in data["files"]]
    # 600 + 2 + 39 + 100 = 741 fit; notes.txt (300) would not; img/a.png (100) then does.
    assert embedded == ["data/big.json", "data/small.json", "index.html", "style.css", "img/a.png"]
    assert sum(len(v) for v in contents(data).values()) <= 1000
    assert data["over"] == [["notes.txt", 300], ["img/b.png", 604]]
    assert data["cap"] == 1000
    assert b.over_cap == ["img/b.png", "notes.txt"]
    assert "embeds at most" in b.html  # the shim's 404 message names the cap


async def test_map_keys_are_project_paths_from_any_page_folder():
    fs = await store(
        {
            "a/b/page.html": "<script>fetch('../../data/x.json'); fetch('./local.txt');"
            "fetch('/root.txt?v=2#top')</script>",
            "a/b/local.txt": "local",
            "data/x.json": "{}",
            "root.txt": "root",
            "my dir/file name.txt": "spaces",
        }
    )
    b = await bundle_page(fs, "a/b/page.html")
    data = project(b.html)
    keys = [path for path, *_ in data["files"]]
    assert set(keys) == {
        "a/b/page.html",
        "a/b/local.txt",
        "data/x.json",
        "root.txt",
        "my dir/file name.txt",
    }
    # The literals name these three files, so they come first (smallest first).
    assert set(keys[:3]) == {"a/b/local.txt", "data/x.json", "root.txt"}
    assert data["page"] == "a/b/page.html"
    assert b.missing == []  # fetched names are not references the bundle must resolve


@pytest.mark.parametrize("page", ["index.html", "sub/index.html"])
async def test_message_pages_and_missing_pages_embed_nothing(page):
    fs = await store({"notes.txt": "x"})
    b = await bundle_page(fs, page)
    assert not b.found
    assert project(b.html)["files"] == []
    b = await bundle_page(fs, "notes.txt")
    assert project(b.html)["files"] == []
