"""The workspace's pure decisions: typed names, uploads, agents' memory."""

from __future__ import annotations

import pytest

from wiggum.ui.workspace import (
    UPLOAD_LIMIT,
    agent_memory_owner,
    check_name,
    check_new_path,
    check_upload,
    new_path,
    rename_target,
)


@pytest.mark.parametrize("name", ["index.html", "logo.png", ".ralph", "a-b_c.d.css", "été.md"])
def test_good_names_pass(name):
    assert check_name(name) is None


@pytest.mark.parametrize(
    ("name", "word"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("..", "folder itself"),
        (".", "folder itself"),
        ("a/b", "'/'"),
        ("a\x00b", "NUL"),
        ("a\tb", "control"),
        ("CON", "reserved"),
        ("nul.txt", "reserved"),
        ("lpt1.html", "reserved"),
        ("a:b", ":"),
        ("a\\b", "\\"),
        (" lead", "space"),
        ("trail.", "end with '.'"),
        ("x" * 256, "longer"),
    ],
)
def test_bad_names_say_why(name, word):
    reason = check_name(name)
    assert reason is not None and word in reason


def test_paths_refuse_climbing_and_tricks():
    assert check_new_path("pages/about.html") is None
    assert "'..'" in check_new_path("pages/../../x.html")
    assert "leading '/'" in check_new_path("/etc/passwd")
    assert "empty part" in check_new_path("a//b.html")
    assert "empty part" in check_new_path("a/")
    assert "NUL" in check_new_path("a/b\x00.html")


def test_upload_limit_is_clear():
    assert check_upload("logo.png", UPLOAD_LIMIT) is None
    reason = check_upload("big.png", UPLOAD_LIMIT + 1)
    assert reason is not None and "5.0 MB" in reason and "big.png" in reason
    assert "reserved" in check_upload("con.png", 10)


def test_agent_memory():
    assert agent_memory_owner(".ralph/progress.md") == "Ralph"
    assert agent_memory_owner(".chief") == "Chief"
    assert agent_memory_owner("index.html") is None
    assert agent_memory_owner("x/.ralph/a") is None


def test_new_path_and_rename_target():
    assert new_path("", "about.html") == ("about.html", None)
    assert new_path("pages", " team.html ") == ("pages/team.html", None)
    assert new_path("pages", "x/y.css") == ("pages/x/y.css", None)
    path, reason = new_path("pages", "../../etc")
    assert path is None and "'..'" in reason
    assert rename_target("pages/a.html", "b.html") == ("pages/b.html", None)
    assert rename_target("a.html", "b.html") == ("b.html", None)
    assert rename_target("a.html", "a.html")[1].startswith("That is already")
    assert "'/'" in rename_target("a.html", "x/b.html")[1]


def test_upload_reason_names_the_file_once():
    reason = check_upload("con.html", 1)
    assert reason.count("con.html") == 1
    assert check_upload("a:b.png", 1).startswith("'a:b.png': ")


# ------------------------------------------------------------------ the toolbar


def test_every_toolbar_button_has_a_title():
    from wiggum.ui.workspace import FILE_OPS

    assert [a for a, _, _ in FILE_OPS] == [
        "new-file",
        "new-folder",
        "rename",
        "delete",
        "upload",
        "download",
    ]
    assert all(label and title for _, label, title in FILE_OPS)
    assert "5 MB" in dict((a, t) for a, _, t in FILE_OPS)["upload"]


def test_the_form_each_action_opens():
    from wiggum.ui.workspace import OpForm, op_form

    assert op_form("new-file", None, "") == OpForm("new-file", "New file in the top folder:", "")
    assert op_form("new-folder", "pages/a.html", "pages").label == "New folder in pages:"
    assert op_form("rename", "pages/a.html", "pages") == OpForm(
        "rename", "Rename pages/a.html to:", "a.html"
    )
    delete = op_form("delete", "pages/a.html", "pages")
    assert delete == OpForm(
        "delete", "Delete pages/a.html? This cannot be undone here.", None, "Delete"
    )
    memory = op_form("delete", ".ralph/progress.md", ".ralph")
    assert "It is part of Ralph's memory." in memory.label
    # Actions on the open file have no form while none is open; others never do.
    assert op_form("rename", None, "") is None
    assert op_form("delete", None, "") is None
    assert op_form("upload", "a.html", "") is None
