"""A stylesheet linked from a page: the link is last in the head as Python's own
HTML parser reads the result, and nothing else of the page changes."""

from __future__ import annotations

import pytest

from tests.page_reference import PageRead
from wiggum.project.stylesheet_link import link_stylesheet

PAGES = {
    "indented head": (
        '<!doctype html>\n<html lang="en">\n<head>\n  <meta charset="utf-8">\n'
        "  <title>Tea</title>\n  <style>h1 { color: navy }</style>\n</head>\n"
        "<body>\n  <h1>Tea</h1>\n</body>\n</html>\n"
    ),
    "head end on a line of content": (
        '<html><head><meta charset="utf-8"><title>T</title></head><body><p>x</p></body></html>'
    ),
    "flat head": "<head>\n<title>T</title>\n</head>\n<body></body>\n",
    "a head end in a comment and a script first": (
        "<html><head>\n<!-- </head> -->\n<script>var s = '</head>';</script>\n</head>\n"
        "<body></body></html>"
    ),
    "a <header> is not the head": "<head>\n</head>\n<body><header>Top</header></body>",
    "no head end": "<!doctype html>\n<html>\n<head>\n<title>T</title>\n<body>\n<p>x</p>",
    "no head at all": "<!doctype html>\n<html>\n<body>\n<p>x</p>\n</body>\n</html>\n",
    "a doctype and a fragment": "<!DOCTYPE html>\n<h1>Hi</h1>\n",
    "a bare fragment": "<h1>Hi</h1>",
    "uppercase tags": "<HTML><HEAD><TITLE>T</TITLE></HEAD><BODY></BODY></HTML>",
}


@pytest.mark.parametrize("name", PAGES)
def test_the_link_is_last_in_the_head_and_nothing_else_changes(name):
    page = PAGES[name]
    done = link_stylesheet(page, "css/style.css")
    assert PageRead(done.text).links == [("css/style.css", True)]
    inserted = done.text[done.offset : done.offset + done.length]
    assert inserted.strip() == '<link rel="stylesheet" href="css/style.css">'
    assert done.text[: done.offset] + done.text[done.offset + done.length :] == page
    assert done.lines == inserted.count("\n")
    # Last among the head's elements, after the page's own <style>.
    assert PageRead(done.text).head[-1] == "link"


def test_it_is_indented_as_the_heads_children_are():
    indented = link_stylesheet(PAGES["indented head"], "style.css").text
    assert (
        '  <style>h1 { color: navy }</style>\n  <link rel="stylesheet" href="style.css">\n</head>'
        in indented
    )
    flat = link_stylesheet(PAGES["flat head"], "style.css").text
    assert '<title>T</title>\n<link rel="stylesheet" href="style.css">\n</head>' in flat
    empty = link_stylesheet(PAGES["a <header> is not the head"], "style.css").text
    assert empty.startswith('<head>\n  <link rel="stylesheet" href="style.css">\n</head>')


def test_an_address_is_escaped_into_the_attribute():
    done = link_stylesheet("<head></head>", 'a "b" & c.css')
    assert PageRead(done.text).links == [('a "b" & c.css', True)]
