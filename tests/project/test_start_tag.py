"""One start tag changed in place: a class added, a style attribute set; the rest
of the file, and the tag's other attributes, as written.  The result is read
back by the standard library's HTML parser (not ours)."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

from wiggum.project.start_tag import (
    StartTagError,
    add_class,
    attributes,
    class_uses,
    set_attribute,
)

PAGE = (
    "<!doctype html>\n<html lang=en>\n<body>\n"
    '  <a href="/shop" class=btn data-x>Shop</a>\n'
    "  <button  type='button' class=\"btn   cta\" >Buy</button>\n"
    "  <img src=logo.png alt=''/>\n"
    "  <h1>Hi</h1>\n</body>\n</html>\n"
)


def at(tag: str) -> int:
    return PAGE.index("<" + tag)


def parsed_attrs(html: str, tag: str) -> dict[str, str | None]:
    found: dict[str, str | None] = {}

    class P(HTMLParser):
        def handle_starttag(self, name, attrs):
            if name == tag and not found:
                found.update(attrs)

    P().feed(html)
    return found


def test_a_class_joins_an_unquoted_quoted_or_missing_class_attribute():
    out = add_class(PAGE, at("a "), "wg-a-1", tag="a")
    assert out == PAGE.replace("class=btn data-x", 'class="btn wg-a-1" data-x')
    assert parsed_attrs(out, "a")["class"] == "btn wg-a-1"

    out = add_class(PAGE, at("button"), "wide", tag="button")
    assert out == PAGE.replace('class="btn   cta" ', 'class="btn   cta wide" ')

    out = add_class(PAGE, at("h1"), "title", tag="h1")
    assert out == PAGE.replace("<h1>", '<h1 class="title">')

    out = add_class(PAGE, at("img"), "logo", tag="img")
    assert out == PAGE.replace("<img src", '<img class="logo" src')
    assert parsed_attrs(out, "img") == {"class": "logo", "src": "logo.png", "alt": ""}


def test_a_class_the_tag_has_already_changes_nothing():
    assert add_class(PAGE, at("button"), "cta", tag="button") == PAGE


def test_a_style_attribute_is_set_where_it_is_or_added():
    out = set_attribute(PAGE, at("h1"), "style", "color: red;", tag="h1")
    assert out == PAGE.replace("<h1>", '<h1 style="color: red;">')
    again = set_attribute(out, at("h1"), "style", "color: blue;")
    assert again == PAGE.replace("<h1>", '<h1 style="color: blue;">')
    bare = "<p style>x</p>"
    assert set_attribute(bare, 0, "style", "margin: 0;") == '<p style="margin: 0;">x</p>'


def test_the_tag_must_still_be_where_it_was_selected():
    with pytest.raises(StartTagError, match="Select the element again"):
        add_class(PAGE, at("h1") + 1, "x")
    with pytest.raises(StartTagError, match="no <h1>"):
        add_class(PAGE, at("button"), "x", tag="h1")
    with pytest.raises(StartTagError):
        add_class(PAGE, at("h1"), "not a class")
    with pytest.raises(StartTagError):
        set_attribute(PAGE, at("h1"), "style", 'x"><script>')


def test_attributes_reads_the_first_of_a_name_as_html_does():
    html = '<div class="a" class="b" hidden data-n=3>'
    assert attributes(html, 0) == {"class": "a", "hidden": "", "data-n": "3"}
    out = add_class(html, 0, "c")
    assert out == '<div class="a c" class="b" hidden data-n=3>'


def test_class_uses_counts_start_tags_per_class():
    assert class_uses(PAGE) == {"btn": 2, "cta": 1}
    assert class_uses('<p class="a a b"><i data-class="a">') == {"a": 1, "b": 1}
