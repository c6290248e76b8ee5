"""The page's static structure, checked under CPython: every control a person
uses is labelled, nothing runs inline, each view names what its code finds."""

from __future__ import annotations

import pytest

from wiggum.ui.markdown import El
from wiggum.ui.markup import chat
from wiggum.ui.tree import REF, refs, walk

TREES: dict[str, El | list[El]] = {
    "chat.frame": chat.frame(),
    "chat.banners": chat.banners(),
    "chat.composer": chat.composer(chat.send_hint("Linux x86_64")),
    "chat.chats_bar": chat.chats_bar(),
    "chat.user_message": chat.user_message(3, "Hello", edit=True),
    "chat.note": chat.note("Ralph finished"),
    "chat.turn_block": chat.turn_block(),
    "chat.reply_round": chat.reply_round(4),
    "chat.tool_call": chat.tool_call("read_file", " path=index.html"),
    "chat.edit_box": chat.edit_box("Hello"),
}


def _nodes(tree: El | list[El]) -> list[El]:
    return [n for t in (tree if isinstance(tree, list) else [tree]) for n in walk(t)]


def _text(node: El) -> str:
    return "".join(c if isinstance(c, str) else _text(c) for c in node.children).strip()


@pytest.mark.parametrize("name", TREES)
def test_every_button_says_what_it_does(name):
    for node in _nodes(TREES[name]):
        if node.tag == "button":
            label = node.attrs.get("aria-label") or _text(node)
            assert label and (len(label) > 1 or "aria-label" in node.attrs), node
            assert node.attrs.get("type") in ("button", "submit"), node


@pytest.mark.parametrize("name", TREES)
def test_nothing_runs_inline_and_no_style_attribute(name):
    for node in _nodes(TREES[name]):
        assert not any(k.startswith("on") for k in node.attrs), node
        assert "style" not in node.attrs  # the page's CSP refuses inline style


@pytest.mark.parametrize("name", TREES)
def test_test_ids_and_refs_are_each_used_once(name):
    nodes = _nodes(TREES[name])
    ids = [n.attrs["data-testid"] for n in nodes if "data-testid" in n.attrs]
    assert len(ids) == len(set(ids)) or name in ("chat.frame",), ids
    for tree in TREES[name] if isinstance(TREES[name], list) else [TREES[name]]:
        refs(tree)  # raises on a name used twice


def test_the_ideas_are_the_only_repeated_test_id_of_the_frame():
    ids = [n.attrs.get("data-testid") for n in _nodes(TREES["chat.frame"])]
    assert ids.count("starter") == len(chat.STARTERS)
    assert len({i for i in ids if i and i != "starter"}) == len([i for i in ids if i]) - 3


def test_controls_have_an_accessible_name():
    for name, tree in TREES.items():
        for node in _nodes(tree):
            if node.tag in ("textarea", "select", "input"):
                assert "aria-label" in node.attrs or "id" in node.attrs, (name, node)


@pytest.mark.parametrize(
    ("tree", "names"),
    [
        (chat.frame(), {"setup", "empty", "list", "pill"}),
        (chat.turn_block(), {"box", "alts", "status", "usage", "retry", "cont", "regenerate"}),
        (chat.composer("hint"), {"input", "bar", "hint", "stop", "send"}),
    ],
)
def test_each_view_finds_what_it_drives(tree, names):
    assert set(refs(tree)) >= names


def test_the_send_hint_names_this_machines_key_first():
    assert chat.send_hint("MacIntel").startswith("⌘+Enter")
    assert chat.send_hint("Linux x86_64").startswith("Ctrl+Enter")


def test_a_message_the_person_may_not_edit_hides_edit():
    edit = next(
        n
        for n in walk(chat.user_message(1, "x", edit=False))
        if n.attrs.get("data-action") == "edit"
    )
    assert "hidden" in edit.attrs
    assert REF not in edit.attrs
