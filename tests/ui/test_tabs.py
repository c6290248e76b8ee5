"""The tab list's keyboard: arrows go round, Home and End to the ends, other keys pass."""

from __future__ import annotations

import pytest

from wiggum.ui.tabs import tab_after, tab_attrs

TABS = ("chief", "ralph")


@pytest.mark.parametrize(
    ("key", "active", "target"),
    [
        ("ArrowRight", "chief", "ralph"),
        ("ArrowRight", "ralph", "chief"),
        ("ArrowLeft", "chief", "ralph"),
        ("ArrowLeft", "ralph", "chief"),
        ("Home", "ralph", "chief"),
        ("End", "chief", "ralph"),
        ("Enter", "chief", None),
        ("ArrowDown", "ralph", None),
    ],
)
def test_the_key_moves_to_the_tab(key, active, target):
    assert tab_after(key, active, TABS) == target


def test_the_arrows_go_one_step_in_a_longer_list():
    tabs = ("a", "b", "c")
    assert tab_after("ArrowRight", "a", tabs) == "b"
    assert tab_after("ArrowLeft", "b", tabs) == "a"
    assert tab_after("End", "a", tabs) == "c"


def test_only_the_tab_in_front_is_selected_and_reached_by_tab():
    assert [tab_attrs(name, "ralph") for name in TABS] == [
        {"aria-selected": "false", "tabindex": "-1"},
        {"aria-selected": "true", "tabindex": "0"},
    ]
