"""One person turn = one Chief block: its usage line and round summaries."""

from __future__ import annotations

from wiggum.llm import ParsedToolCall, UsageData
from wiggum.ui.format import usage_line
from wiggum.ui.stored_chat import StoredToolCall
from wiggum.ui.turns import round_summary, turn_status, turn_usage


def test_usage_adds_up_the_rounds():
    total = turn_usage(
        [
            UsageData(prompt_tokens=100, completion_tokens=10, total_tokens=110, cost=0.001),
            None,
            {"prompt_tokens": 200, "completion_tokens": 20, "total_tokens": 220, "cost": 0.002},
        ]
    )
    assert total["total_tokens"] == 330 and total["prompt_tokens"] == 300
    assert abs(total["cost"] - 0.003) < 1e-12
    assert usage_line(total) == "330 tokens · $0.0030"


def test_one_unpriced_round_makes_the_cost_unknown():
    total = turn_usage(
        [UsageData(prompt_tokens=5, completion_tokens=5, cost=0.1), {"prompt_tokens": 1}]
    )
    assert total["total_tokens"] == 11 and total["cost"] is None
    assert usage_line(total) == "11 tokens · cost unknown"


def test_no_usage_at_all_is_none():
    assert turn_usage([None, None]) is None


def test_round_summary_reads_like_what_was_done():
    calls = [
        ParsedToolCall(id="1", name="read_file", args={"path": "index.html"}),
        StoredToolCall({"id": "2", "name": "write_plan", "args": {"content": "# Plan"}}),
        ParsedToolCall(id="3", name="list_files", args={}),
        ParsedToolCall(id="4", name="list_files", args={}),
        ParsedToolCall(id="5", name="mystery", args={}),
    ]
    assert round_summary(calls) == "Read index.html · saved the plan · listed files · used mystery"


def test_turn_status_is_the_last_rounds():
    assert turn_status(["complete", "complete", "error"]) == "error"
    assert turn_status([]) == "complete"
