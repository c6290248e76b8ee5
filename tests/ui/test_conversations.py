"""Several conversations per project: the list kept in one meta record."""

from __future__ import annotations

from wiggum.ui.conversations import (
    MAIN,
    add_chat,
    choices,
    delete_question,
    open_chat,
    read_chats,
    remove_chat,
    rename_chat,
    slot,
    title_from,
)


def test_old_projects_have_their_one_conversation_in_the_old_slot():
    data = read_chats(None)
    assert data == {
        "current": MAIN,
        "chats": [{"id": MAIN, "title": "Conversation", "created": 0.0}],
    }
    assert slot(MAIN) == "chief"


def test_new_rename_delete():
    data = add_chat(read_chats(None), now=5.0)
    new = data["current"]
    assert new != MAIN and slot(new) == f"chief:{new}"
    assert [c["id"] for c in data["chats"]] == [MAIN, new]
    data = rename_chat(data, new, "  Cake   shop ")
    assert data["chats"][1]["title"] == "Cake shop"
    assert rename_chat(data, new, "   ")["chats"][1]["title"] == "Cake shop"
    data = remove_chat(data, new)
    assert data["current"] == MAIN and [c["id"] for c in data["chats"]] == [MAIN]
    data = remove_chat(data, MAIN)
    assert data["current"] == MAIN and len(data["chats"]) == 1


def test_a_damaged_record_is_repaired():
    data = read_chats({"current": "gone", "chats": [{"id": "a"}, {"id": "a"}, "junk", {"x": 1}]})
    assert data["current"] == "a" and [c["id"] for c in data["chats"]] == ["a"]


def test_title_from_the_first_message():
    assert title_from("  a   small\n quiz ") == "a small quiz"
    assert title_from("x" * 60).endswith("…") and len(title_from("x" * 60)) == 40


def test_the_open_conversation_is_named_by_its_id_and_title():
    data = rename_chat(add_chat(read_chats(None), now=5.0), MAIN, "Bakery")
    new = data["current"]
    assert choices(data) == [(MAIN, "Bakery"), (new, "New chat")]
    assert open_chat(data) == (new, "New chat")
    assert open_chat({**data, "current": MAIN}) == (MAIN, "Bakery")
    assert open_chat({"chats": []}) is None  # no list read yet: nothing to rename or delete
    assert "“Bakery”" in delete_question("Bakery")
