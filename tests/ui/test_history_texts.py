"""What the History panel says (``wiggum.ui.history``)."""

from __future__ import annotations

import time

from wiggum.ui.history import checkpoint_time, count_status, diff_line_class


def test_the_status_line_counts_checkpoints():
    assert count_status(0).startswith("No checkpoints yet")
    assert count_status(1) == "1 checkpoint"
    assert count_status(7) == "7 checkpoints"


def test_checkpoint_time_is_local_to_the_second():
    t = time.mktime((2026, 11, 27, 3, 29, 31, 0, 0, -1))
    assert checkpoint_time(t) == "2026-11-27 03:29:31"


def test_each_diff_line_gets_its_colour():
    lines = ["--- a/x", "+++ b/x", "@@ -1 +1 @@", "-old", "+new", " same", ""]
    assert [diff_line_class(line) for line in lines] == [
        "diff-ctx",
        "diff-ctx",
        "diff-hunk",
        "diff-del",
        "diff-add",
        "diff-ctx",
        "diff-ctx",
    ]


def test_a_checkpoints_time_is_said_relative_to_now():
    from wiggum.ui.history import relative_time

    now = time.mktime((2026, 11, 27, 15, 0, 0, 0, 0, -1))
    assert relative_time(now - 10, now) == "just now"
    assert relative_time(now + 30, now) == "just now"  # a clock a little ahead
    assert relative_time(now - 60, now) == "1 min ago"
    assert relative_time(now - 45 * 60, now) == "45 min ago"
    assert relative_time(now - 3 * 3600, now) == "3 h ago"
    assert relative_time(now - 14 * 3600, now) == "today at 01:00"
    assert relative_time(now - 20 * 3600, now) == "yesterday at 19:00"
    assert relative_time(now - 3 * 86400, now) == "3 days ago"
    assert relative_time(now - 30 * 86400, now) == "2026-10-28"


def test_who_made_a_checkpoint():
    from wiggum.ui.history import who

    assert [who(a) for a in ("Ralph iteration 3", "you", "GitHub", "Wiggum", "Chief")] == [
        "ralph",
        "you",
        "github",
        "wiggum",
        "chief",
    ]
    assert who("Ada Lovelace") == "other"


def test_files_changed_are_counted_in_words():
    from wiggum.ui.history import files_count

    assert [files_count(n) for n in (0, 1, 4)] == [
        "no files changed",
        "1 file changed",
        "4 files changed",
    ]


def test_historys_own_hashes_are_told_as_the_checkpoints_messages():
    from wiggum.ui.history import readable_message

    known = {"62bb9e2": "Guarding the form against an empty name, and saying why."}
    assert readable_message("Revert to 62bb9e2 (Guarding the form agai)", known) == (
        "Revert to “Guarding the form against an empty name, and saying why.”"
    )
    # Not listed: the subject the revert kept, without the hash.
    assert readable_message("Revert to 1234567 (First page)", known) == "Revert to “First page”"
    assert readable_message("Restore a.html from 62bb9e2", known) == (
        "Restore a.html from “Guarding the form against an empty name, and saying why.”"
    )
    assert readable_message("Restore a.html from 1234567", known) == (
        "Restore a.html from an earlier checkpoint"
    )
    # Anyone else's words are shown whole, even when they look alike.
    said = "Revert to the old colours\n\nThe new ones were too pale (see the review)."
    assert readable_message(said, known) == said
