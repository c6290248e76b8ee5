"""The markup builder: attributes as the DOM has them, no inline handlers, refs."""

from __future__ import annotations

import pytest

from wiggum.ui.markdown import El
from wiggum.ui.tree import REF, btn, e, refs, walk


def test_attributes_are_strings_as_in_the_dom():
    node = e("input", "field", testid="f", hidden=True, disabled=False, rows=3, aria_label="Name")
    assert node.attrs == {
        "class": "field",
        "data-testid": "f",
        "hidden": "",
        "rows": "3",
        "aria-label": "Name",
    }


def test_a_trailing_underscore_names_a_python_keyword():
    assert e("label", for_="x").attrs == {"for": "x"}


def test_children_flatten_and_skip_nothing():
    node = e("div", None, "a", None, [e("b"), ["c", False]], text="d")
    assert [c if isinstance(c, str) else c.tag for c in node.children] == ["a", "b", "c", "d"]


def test_anything_else_as_a_child_is_a_mistake():
    with pytest.raises(TypeError):
        e("div", None, 3)


def test_no_inline_handler_can_be_written():
    with pytest.raises(ValueError):
        e("button", onclick="alert(1)")


def test_a_button_is_a_button_unless_it_says_submit():
    assert btn("Go", action="go").attrs == {
        "class": "btn",
        "data-action": "go",
        "type": "button",
    }
    assert btn("Go", type="submit").attrs["type"] == "submit"


def test_refs_name_elements_once():
    tree = e("div", None, e("p", ref="a"), e("span", None, e("i", ref="b")))
    assert {k: v.tag for k, v in refs(tree).items()} == {"a": "p", "b": "i"}
    assert all(REF not in n.attrs or n.attrs[REF] in "ab" for n in walk(tree))
    with pytest.raises(ValueError):
        refs(e("div", None, e("p", ref="a"), e("p", ref="a")))


def test_walk_goes_in_document_order():
    tree = e("a", None, e("b", None, e("c")), "text", e("d"))
    assert [n.tag for n in walk(tree)] == ["a", "b", "c", "d"]
    assert isinstance(tree, El)
