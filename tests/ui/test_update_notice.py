"""Reload of a new version never cuts Ralph or a reply short (wiggum.ui.update)."""

from __future__ import annotations

import pytest

from wiggum.ui.update import Busy, reload_refusal


def test_reload_when_nothing_runs():
    assert reload_refusal(Busy()) is None


@pytest.mark.parametrize(
    ("busy", "words"),
    [
        (Busy(ralph_running=True), ("Ralph is building", "Stop")),
        (Busy(chief_busy=True), ("Chief is replying", "Stop")),
        (Busy(ralph_running=True, chief_busy=True), ("Ralph is building",)),
    ],
)
def test_reload_refused_while_something_runs(busy, words):
    refusal = reload_refusal(busy)
    assert refusal is not None
    for w in words:
        assert w in refusal
