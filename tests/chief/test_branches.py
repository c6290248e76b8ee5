"""The conversation tree: regenerate and edit keep what came before as branches."""

from __future__ import annotations

from dataclasses import dataclass, field

from wiggum.chief.branches import alternatives, leaf_under, parent_of, path_to, set_path


@dataclass
class R:
    seq: int
    role: str
    content: str = "x"
    parent: int | None = None
    superseded: bool = False
    status: str = "complete"
    tool_calls: list = field(default_factory=list)


def visible(records):
    return [r.seq for r in records if not r.superseded]


def test_old_records_are_a_line():
    records = [R(0, "user"), R(1, "assistant"), R(2, "user"), R(3, "assistant")]
    assert [parent_of(r) for r in records] == [-1, 0, 1, 2]
    assert path_to(records, 3) == {0, 1, 2, 3}
    assert alternatives(records, 1) == [1]


def test_regenerate_and_flip_back():
    records = [R(0, "user"), R(1, "assistant", "first answer")]
    records.append(R(2, "assistant", "second answer", parent=0))
    assert set_path(records, 2) == [records[1]]
    assert visible(records) == [0, 2]
    assert alternatives(records, 2) == [1, 2]
    # Flip back to the first answer, then forward again.
    set_path(records, leaf_under(records, 1))
    assert visible(records) == [0, 1]
    set_path(records, leaf_under(records, 2))
    assert visible(records) == [0, 2]


def test_edit_keeps_what_followed_as_the_earlier_branch():
    records = [R(0, "user"), R(1, "assistant"), R(2, "user", "old"), R(3, "assistant")]
    records += [R(4, "user", "new", parent=1), R(5, "assistant", parent=4)]
    set_path(records, 5)
    assert visible(records) == [0, 1, 4, 5]
    assert alternatives(records, 4) == [2, 4]
    # Back to the old message: its answer comes back with it.
    set_path(records, leaf_under(records, 2))
    assert visible(records) == [0, 1, 2, 3]
    # Continuing on the old branch, then flipping to the new one keeps both.
    records.append(R(6, "user", "more", parent=3))
    set_path(records, 6)
    assert visible(records) == [0, 1, 2, 3, 6]
    set_path(records, leaf_under(records, 4))
    assert visible(records) == [0, 1, 4, 5]
    assert leaf_under(records, 2) == 6


def test_an_empty_failed_attempt_is_no_alternative():
    records = [R(0, "user"), R(1, "assistant", "", status="error", superseded=True)]
    records.append(R(2, "assistant", "ok", parent=0))
    assert alternatives(records, 2) == [2]


def test_a_new_record_follows_the_last_one_on_the_path():
    from wiggum.chief.branches import leaf

    assert leaf([]) == -1
    records = [R(0, "user"), R(1, "assistant"), R(2, "assistant", parent=0)]
    set_path(records, 1)
    assert leaf(records) == 1  # 2 is off the path
    set_path(records, 2)
    assert leaf(records) == 2


def test_regenerate_answers_the_last_message_on_the_path():
    from wiggum.chief.branches import last_turn_start

    assert last_turn_start([]) is None
    assert last_turn_start([R(0, "assistant")]) is None
    records = [R(0, "user"), R(1, "assistant"), R(2, "user"), R(3, "tool"), R(4, "assistant")]
    assert last_turn_start(records) == 2
    records[2].superseded = records[3].superseded = records[4].superseded = True
    assert last_turn_start(records) == 0


def test_only_the_person_s_own_words_can_be_edited_and_not_into_nothing():
    from wiggum.chief.branches import editable

    @dataclass
    class Note(R):
        note: bool = True

    assert editable(R(0, "user"), "better")
    assert not editable(R(0, "user"), "  \n")
    assert not editable(R(1, "assistant"), "better")
    assert not editable(Note(0, "user"), "better")  # the page wrote it
