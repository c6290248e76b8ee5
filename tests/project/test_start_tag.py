"""One start tag changed in place: an attribute set (the inspector's ``style``,
point-and-edit's ``href`` and ``src``), a class added; the rest of the file, and
the tag's other attributes, as written.  The result is read back by the
standard library's HTML parser (not ours), across a table of awkward tags."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

from wiggum.project.start_tag import (
    StartTagError,
    add_class,
    attributes,
    class_uses,
    masked,
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


def test_the_tag_must_still_be_where_it_was_selected():
    with pytest.raises(StartTagError, match="Select the element again"):
        add_class(PAGE, at("h1") + 1, "x")
    with pytest.raises(StartTagError, match="no <h1>"):
        add_class(PAGE, at("button"), "x", tag="h1")
    with pytest.raises(StartTagError):
        add_class(PAGE, at("h1"), "not a class")
    with pytest.raises(StartTagError, match="not an attribute name"):
        set_attribute(PAGE, at("h1"), 'style="x"', "y")
    with pytest.raises(StartTagError, match="not closed"):
        set_attribute("<p class=x", 0, "style", "y")


#: (source, name, value, the source written).  A value is escaped, never refused
#: (``'x"><script>'`` used to be refused; it is an attribute's text like any other).
WRITES = [
    # Set where it is, whatever its quotes; the tag's other bytes kept.
    ('<h1 style="color: red">', "style", "top: 0", '<h1 style="top: 0">'),
    ("<p style>x</p>", "style", "top: 0", '<p style="top: 0">x</p>'),
    ("<a class=x href='a' data-q=\"'\">", "href", "b", '<a class=x href="b" data-q="\'">'),
    ("<a class=x href='a'>", "class", "y", "<a class=\"y\" href='a'>"),
    ("<A  HREF = 'x'  >", "href", "y", '<A  HREF="y"  >'),
    # Never inside another attribute's value.
    ('<a title="href=x" href=a>', "href", "c", '<a title="href=x" href="c">'),
    ("<p title='<b class=\"x\">'>", "class", "y", '<p class="y" title=\'<b class="x">\'>'),
    # Escaped: & and " (the only characters that could end or change the value).
    ("<a href=a>", "href", 'b?a=1&b="2"', '<a href="b?a=1&amp;b=&quot;2&quot;">'),
    ("<p>", "style", 'font: "Open Sans"', '<p style="font: &quot;Open Sans&quot;">'),
    ("<h1>", "style", 'x"><script>', '<h1 style="x&quot;><script>">'),
    # A new one goes right after the tag's name.
    ("<h1>Hi</h1>", "style", "top: 0", '<h1 style="top: 0">Hi</h1>'),
    ('<img src="a.png" alt=""/>', "loading", "lazy", '<img loading="lazy" src="a.png" alt=""/>'),
    ("<img src=a.png/>", "alt", "", '<img alt="" src=a.png/>'),
    ("<br/>", "class", "x", '<br class="x"/>'),
    # The first of two of one name is the one HTML reads.
    ('<p class="a" CLASS="b">', "class", "c", '<p class="c" CLASS="b">'),
]


@pytest.mark.parametrize(("source", "name", "value", "written"), WRITES)
def test_an_attribute_is_set_where_it_is_or_added_after_the_name(source, name, value, written):
    assert set_attribute(source, 0, name, value) == written


#: Start tags as real pages write them, awkward ones included.
AWKWARD = [
    "<a href=x>",
    '<A HREF="x" href="y">',
    '<p title="a>b" class=c>',
    '<p\n  class="a"\n\tid=b\n>',
    "<input disabled value='x\"y'>",
    "<img src=a.png/>",
    "<br/>",
    '<img alt="" />',
    "<p a = \"1\" b= 2 c ='3'>",
    '<div style="x: &quot;y&quot;">',
    "<a  href=x  >",
    '<p data-x="&amp;quot;">',
    '<p a="1"b="2">',
    '<svg viewBox="0 0 1 1">',
    "<p title='<b class=\"x\">'>",
    "<p a= >",
]
NAMES = ["style", "class", "href", "disabled", "a"]
VALUES = ['font-family: "Open Sans", sans-serif', "a&b", "&quot;", 'x"><script>', "it's", ""]


def parsed_tags(html: str) -> list[tuple[str, list[tuple[str, str | None]]]]:
    """Every start tag of ``html`` with its attributes, as the standard library reads them."""
    tags: list[tuple[str, list[tuple[str, str | None]]]] = []

    class P(HTMLParser):
        def handle_starttag(self, name, attrs):
            tags.append((name, attrs))

        handle_startendtag = handle_starttag

    P(convert_charrefs=True).feed(html)
    return tags


@pytest.mark.parametrize("tag", AWKWARD)
def test_what_is_written_reads_back_in_the_standard_librarys_parser(tag):
    before, after = "<body>\n<!-- <p class=no> -->\n", "text</p>\n<i class=z>"
    page = before + tag + after
    (_, old), *rest = parsed_tags(page)[1:]
    assert [n for n, _ in rest] == ["i"]  # the table's tag parses as one tag
    assert attributes(page, len(before)) == {n: v or "" for n, v in reversed(old)}
    for name in NAMES:
        for value in VALUES:
            out = set_attribute(page, len(before), name, value)
            assert out.startswith(before) and out.endswith(after)
            (_, new), *others = parsed_tags(out)[1:]
            assert others == rest
            first = {n: v or "" for n, v in reversed(new)}  # the first of a name wins
            assert first[name] == value, (tag, name, value, out)
            assert attributes(out, len(before)) == first  # ours reads as the reference does
            kept = [(n, v) for n, v in old if n != name]
            assert [(n, v) for n, v in new if n != name] == kept, out
            assert len([n for n, _ in new if n == name]) == max(
                1, len([n for n, _ in old if n == name])
            )
            again = set_attribute(out, len(before), name, value)
            assert again == out  # written once, the same value writes nothing new


def test_attributes_reads_the_first_of_a_name_as_html_does():
    html = '<div class="a" class="b" hidden data-n=3>'
    assert attributes(html, 0) == {"class": "a", "hidden": "", "data-n": "3"}
    out = add_class(html, 0, "c")
    assert out == '<div class="a c" class="b" hidden data-n=3>'


def test_class_uses_counts_start_tags_per_class():
    assert class_uses(PAGE) == {"btn": 2, "cta": 1}
    assert class_uses('<p class="a a b"><i data-class="a">') == {"a": 1, "b": 1}
    # What a comment or a script holds is not a tag of the page; a script's own is.
    page = (
        '<!-- <p class="a"> --><script class="js">var t = "<p class=a>";</script>'
        '<style>.a::after { content: "<b class=a>" }</style><p class="a">'
    )
    assert class_uses(page) == {"a": 1, "js": 1}
    assert len(masked(page)) == len(page)
