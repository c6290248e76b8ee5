"""Edits written into an HTML file at a start tag's offset: only that span changes."""

from __future__ import annotations

import html.parser
import re

import pytest

from wiggum.preview.page import start_tags
from wiggum.preview.source_edit import EditRefused, set_text, text_of

PAGE = """<!doctype html>
<html lang="en">
<head><title>Café &amp; co</title></head>
<body>
  <!-- the hero -->
  <h1 class="title">
    Fresh bread &amp; cakes
  </h1>
  <p>Open <b>daily</b> from 8.</p>
  <p>Implied end
  <ul><li>one<li>two</ul>
  <a href="about.html" title="href=x">About us</a>
  <img src="old.png" alt="Bread"/>
  <script>var s = "<h1>";</script>
</body>
</html>
"""


def at(tag: str, n: int = 0) -> int:
    """The offset of the n-th ``<tag`` start tag, by the parser's numbering."""
    found = [i for i, (t, _, raw) in enumerate(start_tags(PAGE)) if t == tag]
    raw = start_tags(PAGE)[found[n]][2]
    # Offsets are the bundler's; check them against a plain search here.
    offset = -1
    for _ in range(n + 1):
        offset = PAGE.index(raw, offset + 1)
    return offset


def test_text_is_replaced_escaped_with_the_markup_and_whitespace_around_it_kept():
    new = set_text(PAGE, at("h1"), "h1", "Bread <and> cakes & more")
    expected = PAGE.replace(
        "    Fresh bread &amp; cakes\n", "    Bread &lt;and&gt; cakes &amp; more\n"
    )
    assert new == expected
    assert text_of(new, at("h1"), "h1").strip() == "Bread <and> cakes & more"


def test_the_edited_file_parses_and_reads_back_the_typed_text():
    new = set_text(PAGE, at("a"), "a", "Über uns")
    assert 'title="href=x">Über uns</a>' in new

    class Texts(html.parser.HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.seen: list[str] = []

        def handle_data(self, data: str) -> None:
            self.seen.append(data)

    parser = Texts()
    parser.feed(new)
    assert "Über uns" in parser.seen


@pytest.mark.parametrize(
    ("tag", "n", "said"),
    [
        ("p", 0, "holds other markup (<b>)"),
        ("p", 1, "is not written"),
        ("img", 0, "has no text"),
        ("script", 0, "holds code"),
        ("body", 0, "holds other markup"),
    ],
)
def test_text_that_is_not_plain_in_the_source_is_refused_with_the_reason(tag, n, said):
    with pytest.raises(EditRefused, match=re.escape(said)):
        set_text(PAGE, at(tag, n), tag, "x")


def test_a_stale_offset_is_refused_not_written_elsewhere():
    with pytest.raises(EditRefused, match="file changed"):
        set_text(PAGE, at("h1") + 1, "h1", "x")
    with pytest.raises(EditRefused, match="file changed"):
        set_text(PAGE, at("h1"), "h2", "x")
