"""One person turn = one Chief block: its usage line and round summaries."""

from __future__ import annotations

import pytest

from wiggum.chief.chat import ChatRecord
from wiggum.llm import ParsedToolCall, UsageData
from wiggum.ui.format import usage_line
from wiggum.ui.stored_chat import StoredToolCall
from wiggum.ui.turns import (
    AltNav,
    alt_nav,
    brief_args,
    countdown,
    plan_text,
    redraw_from,
    result_brief,
    round_summary,
    status_label,
    trimmed_text,
    turn_line,
    turn_status,
    turn_usage,
)


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


# ---------------------------------------------------------------- redraw_from


def _conversation() -> list[ChatRecord]:
    """A fresh copy each call (``created`` fixed, so copies are equal)."""
    return [
        ChatRecord(seq=1, role="user", content="a page", created=1.0),
        ChatRecord(seq=2, role="assistant", content="here it is", created=2.0),
        ChatRecord(seq=3, role="user", content="Ralph finished", note=True, created=3.0),
        ChatRecord(seq=4, role="user", content="make it blue", created=4.0),
        ChatRecord(seq=5, role="assistant", status="streaming", created=5.0),
    ]


def test_redraw_from_nothing_changed_is_none():
    shown = _conversation()
    assert redraw_from(shown, _conversation()) is None  # equal, not the same objects


def test_redraw_from_the_turn_whose_reply_grew():
    shown, now = _conversation(), _conversation()
    now[4] = now[4].model_copy(update={"content": "Blue it is"})
    assert redraw_from(shown, now) == 3  # the person's message of that turn


def test_redraw_from_a_note_is_not_a_turns_start():
    shown, now = _conversation()[:3], _conversation()[:3]
    now.append(now[2].model_copy(update={"seq": 9, "content": "another note"}))
    assert redraw_from(shown, now) == 0  # back to the turn the note follows


def test_redraw_from_a_new_message_redraws_the_turn_before_it():
    shown, now = _conversation(), _conversation()
    now.append(ChatRecord(seq=6, role="user", content="and bigger", created=6.0))
    assert redraw_from(shown, now) == 3


def test_redraw_from_a_superseded_message_is_skipped():
    # An edit superseded the last turn (not shown); the edited message comes.
    shown = [r.model_copy(update={"superseded": r.seq > 3}) for r in _conversation()]
    now = [*shown, ChatRecord(seq=6, role="user", content="make it red", created=6.0)]
    assert redraw_from(shown, now) == 0  # not the superseded message, never drawn


def test_redraw_from_shorter_records():
    shown = _conversation()
    assert redraw_from(shown, shown[:4]) == 3  # the last turn lost its reply
    assert redraw_from(shown, shown[:2]) == 0
    assert redraw_from([], shown) == 0


def test_the_retry_countdown_says_why_and_how_long():
    from wiggum.ui.turns import wait_text

    assert wait_text("RateLimitError", 3) == (
        "The provider asked Chief to slow down: trying again in 3 s…"
    )
    assert wait_text("TimeoutError", 1) == "The provider did not answer: trying again in 1 s…"
    # a provider that answered with an error (a 500) did answer
    assert wait_text("ProviderError", 2) == (
        "The provider answered with an error on its side: trying again in 2 s…"
    )
    assert wait_text("StreamIncompleteError", 1).startswith("The provider's answer broke off")
    assert wait_text("NetworkError", 1).startswith("The provider could not be reached")


def test_the_block_says_how_a_turn_ended_only_when_it_did_not_end_well():
    assert [status_label(s) for s in ("complete", "streaming", "stopped", "error")] == [
        "",
        "",
        "stopped",
        "failed",
    ]
    assert status_label("streaming", elsewhere=True) == "writing in another tab"
    assert status_label("complete", elsewhere=True) == ""


def test_an_ended_turn_without_usage_says_so_and_one_still_going_says_nothing():
    usage = {"prompt_tokens": 1, "completion_tokens": 1, "cost": 0.0}
    assert turn_line([usage, None], "complete") == "2 tokens · free"
    assert turn_line([None], "stopped") == "tokens not reported · cost unknown"
    assert turn_line([None], "streaming") == turn_line([None], "error") == ""


def test_a_tool_call_and_its_result_fit_on_one_line():
    assert brief_args({"path": "index.html"}) == " path=index.html"
    long = brief_args({"a": "x" * 50, "b": "two\n  lines", "c": 3, "d": 4})
    assert long == " a=" + "x" * 40 + "…, b=two lines, c=3"
    assert brief_args({}) == brief_args(None) == ""
    assert result_brief("Created  a.html\n(1 line)") == " → Created a.html (1 line)"
    assert result_brief("y" * 80) == " → " + "y" * 69 + "…"


def test_only_a_written_plan_with_words_is_shown():
    call = ParsedToolCall(id="1", name="write_plan", args={"content": "# Plan"})
    assert plan_text(call) == "# Plan"
    assert plan_text(ParsedToolCall(id="2", name="write_plan", args={"content": "  "})) is None
    assert plan_text(ParsedToolCall(id="3", name="read_file", args={"content": "x"})) is None


def test_a_trimmed_request_says_how_many_messages_it_left_out():
    assert trimmed_text(1).startswith("1 earlier message was left out")
    assert trimmed_text(2).startswith("2 earlier messages were left out")


def test_the_versions_switch_goes_to_the_neighbours_and_hides_without_two():
    assert alt_nav([4, 9, 12], 9) == AltNav("4", "12", "2/3")
    assert alt_nav([4, 9], 4) == AltNav("", "9", "1/2")
    assert alt_nav([4, 9], 9) == AltNav("4", "", "2/2")
    assert alt_nav([4], 4) is None and alt_nav([4, 9], 7) is None


def test_the_countdown_shows_whole_seconds_and_ticks_when_one_goes():
    assert countdown(2.4) == (3, pytest.approx(0.4))  # "3 s" until 2 are left
    assert countdown(2.0) == (2, 1.0)
    assert countdown(0.01) == (1, 0.05)  # never a busy loop
    assert countdown(-0.3)[0] == 0  # over: it shows 0 (and stops)
