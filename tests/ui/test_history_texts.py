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
