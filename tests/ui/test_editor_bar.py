"""What the editor's bar says and which key press saves (``wiggum.ui.editor_buffer``)."""

from __future__ import annotations

import pytest

from wiggum.ui.editor_buffer import CONFLICT_SAID, is_save_key, save_hint, state_text


@pytest.mark.parametrize(
    ("platform", "hint"),
    [
        ("MacIntel", "⌘S"),
        ("iPhone", "⌘S"),
        ("Linux x86_64", "Ctrl+S"),
        ("Win32", "Ctrl+S"),
        ("", "Ctrl+S"),
    ],
)
def test_the_save_shortcut_as_the_platform_spells_it(platform, hint):
    assert save_hint(platform) == hint


def test_state_text():
    assert state_text(True) == "● Unsaved changes"
    assert state_text(False) == "Saved"


def test_only_ctrl_or_cmd_s_alone_saves():
    plain = {"ctrl": False, "meta": False, "alt": False, "shift": False}
    assert is_save_key("s", **{**plain, "ctrl": True})
    assert is_save_key("S", **{**plain, "meta": True})
    assert not is_save_key("s", **plain)
    assert not is_save_key("s", **{**plain, "ctrl": True, "shift": True})
    assert not is_save_key("s", **{**plain, "meta": True, "alt": True})
    assert not is_save_key("a", **{**plain, "ctrl": True})


def test_each_answer_to_a_conflict_says_what_happened():
    assert "save to write it over Ralph's version" in CONFLICT_SAID["mine"]
    assert "Ctrl/Cmd-Z brings yours back" in CONFLICT_SAID["his"]


def test_save_does_something_with_edits_or_with_ralphs_version_under_them():
    from wiggum.ui.editor_buffer import Buffer, can_save, theirs_label

    clean = Buffer("a.html", "x", "x")
    assert not can_save(False, clean)
    assert can_save(True, clean)
    clean.theirs = "his"
    assert can_save(False, clean)
    assert (theirs_label(False), theirs_label(True)) == ("Show his version", "Hide his version")
