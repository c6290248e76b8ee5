"""Select mode's source table and channel: positions from the bundler, messages
taken only with the load's secret and in their shape."""

from __future__ import annotations

import re

import pytest

from wiggum.fs.memory import MemoryFileStore
from wiggum.preview import bundle_page
from wiggum.preview.point import (
    EDIT_MESSAGE,
    EXIT_MESSAGE,
    SELECT_MESSAGE,
    Picked,
    TextCommitted,
    new_secret,
    read_point_message,
)
from wiggum.preview.runtime import injected_source
from wiggum.session.point import selection_of

INDEX = (
    "<!doctype html>\r\n<html>\n<head><title>T</title>\n"
    "<link rel=stylesheet href=style.css></head>\n"
    "<body>\n  <h1 class=hero>Hi é</h1>\n  <p>x<br>y</p>\n<script src=app.js></script>\n</body></html>"
)


async def bundled(point: str | None):
    fs = MemoryFileStore(
        {"index.html": INDEX, "style.css": "h1{color:red}", "app.js": "document.title='x'"}
    )
    return await bundle_page(fs, "index.html", point=point)


async def test_each_start_tag_is_numbered_with_its_file_line_and_offset():
    secret = new_secret()
    bundle = await bundled(secret)
    tags = [p.tag for p in bundle.places]
    assert tags == ["html", "head", "title", "link", "body", "h1", "p", "br", "script"]
    for place in bundle.places:
        assert place.path == "index.html"
        assert INDEX[place.offset] == "<" and INDEX[place.offset + 1 :].startswith(place.tag)
        assert INDEX.count("\n", 0, place.offset) + 1 == place.line
    assert bundle.stylesheets == ["style.css"]
    h1 = bundle.places[5]
    assert h1.where == "index.html:6"
    # The page's element carries its number; the table stays with Wiggum.
    assert '<h1 data-wiggum-tag="5" class=hero>' in bundle.html
    assert "index.html" not in re.findall(r'data-wiggum-tag="[^"]*"', bundle.html)


async def test_the_secret_is_written_once_in_the_runtime_and_only_with_select_mode():
    secret = new_secret()
    bundle = await bundled(secret)
    assert bundle.html.count(secret) == 1
    runtime = bundle.html.index('<script data-wiggum-preview="runtime">')
    assert runtime < bundle.html.index(secret) < bundle.html.index("<title ")
    plain = await bundled(None)
    assert plain.places == [] and "data-wiggum-tag" not in plain.html
    assert "wiggum-point-select" not in plain.html


def test_the_select_script_speaks_the_channel_names_python_reads():
    code = injected_source("point.js")
    for kind in (SELECT_MESSAGE, EDIT_MESSAGE, EXIT_MESSAGE):
        assert f'"{kind}"' in code
    # It keeps the secret to itself: removes its own script, captures the parent.
    assert "removeChild(me)" in code and "var P = parent;" in code
    assert "secret: SECRET" in code and ".secret =" not in code


SECRET = "s" * 32


def select(**over):
    data = {
        "type": SELECT_MESSAGE,
        "secret": SECRET,
        "place": 5,
        "tag": "h1",
        "id": "",
        "classes": ["hero"],
        "text": "Hi",
        "plain": True,
        "width": 320.5,
        "height": 40,
        "styles": {"color": "rgb(255, 0, 0)", "font-size": "32px"},
        "href": None,
        "made": "",
        "edit": False,
    }
    data.update(over)
    return data


def test_a_selection_in_its_shape_with_the_secret_is_read():
    msg = read_point_message(select(), SECRET)
    assert isinstance(msg, Picked)
    assert (msg.place, msg.tag, msg.classes, msg.width) == (5, "h1", ("hero",), 320.5)
    assert msg.styles["font-size"] == "32px"
    edit = read_point_message(
        {"type": EDIT_MESSAGE, "secret": SECRET, "place": 5, "text": "x"}, SECRET
    )
    assert edit == TextCommitted(5, "x")
    assert read_point_message({"type": EXIT_MESSAGE, "secret": SECRET}, SECRET) == EXIT_MESSAGE


@pytest.mark.parametrize(
    "data",
    [
        select(secret="t" * 32),  # another secret: the site's forgery
        {k: v for k, v in select().items() if k != "secret"},
        select(secret=None),
        select(place="5"),
        select(place=True),
        select(place=-2),
        select(tag="H1"),
        select(tag="h1><script"),
        select(classes="hero"),
        select(classes=[1]),
        select(styles={"position": "fixed"}),
        select(styles={"color": 1}),
        select(width=float("inf")),
        select(width=-1),
        select(text="x" * 20_001),
        select(made="a\nb"),
        select(plain="yes"),
        select(href=5),
        select(type="wiggum-point-other"),
        {"type": EDIT_MESSAGE, "secret": SECRET, "place": -1, "text": "x"},
        {"type": EDIT_MESSAGE, "secret": SECRET, "place": 1, "text": None},
        "wiggum-point-select",
        None,
    ],
)
def test_anything_else_is_ignored(data):
    assert read_point_message(data, SECRET) is None


def test_no_secret_of_ours_means_nothing_is_taken():
    assert read_point_message(select(secret=""), "") is None


async def test_a_number_is_looked_up_in_wiggums_table_and_never_trusted_as_a_place():
    bundle = await bundled(new_secret())
    sel = selection_of(read_point_message(select(), SECRET), bundle.places)
    assert sel.where == "index.html:6" and sel.open_at == ("index.html", 6)
    assert sel.selector == "h1.hero" and sel.size == "320×40" and sel.kind == "text"
    # A number that is not this element's (or not in the page) places nothing.
    for place in (4, 99):
        other = selection_of(read_point_message(select(place=place), SECRET), bundle.places)
        assert other.place is None and other.where.endswith("source not known")
    made = selection_of(read_point_message(select(place=-1, made="app.js:3"), SECRET), [])
    assert made.where == "made by the page's script at app.js:3"
    assert made.open_at == ("app.js", 3)
