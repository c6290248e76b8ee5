"""Conversation budget trimming (seed 000 §13, seed 003 trimmer contract)."""

from __future__ import annotations

import logging

from hypothesis import given, settings
from hypothesis import strategies as st

from wiggum.llm.budget import (
    BudgetResult,
    budget_messages,
    trim_note,
    with_trim_note,
)
from wiggum.llm.preflight import estimate_message_tokens, estimate_tokens
from wiggum.llm.types import Message, ParsedToolCall, ToolDefinition


def text(tokens: int) -> str:
    """Content that makes a message of exactly ``tokens`` tokens (16 chars overhead)."""
    return "x" * (4 * tokens - 16)


def user(tokens: int = 100) -> Message:
    return Message.user(text(tokens))


def asst(tokens: int = 100) -> Message:
    return Message.assistant(text(tokens))


def call(*ids: str) -> Message:
    return Message.assistant("", [ParsedToolCall(id=i, name="read", raw_args="{}") for i in ids])


def result(call_id: str, tokens: int = 100) -> Message:
    return Message.tool(call_id, text(tokens))


def check_report(r: BudgetResult, messages, tools=None):
    """The report's numbers add up and match the kept list."""
    rep = r.report
    assert rep.initial_tokens == estimate_tokens(messages, tools)
    assert rep.final_tokens == r.estimated_tokens == estimate_tokens(r.messages, tools)
    assert rep.initial_tokens - rep.evicted_tokens == rep.final_tokens
    assert rep.eviction_count == r.trimmed == len(messages) - len(r.messages)
    assert all(e.tokens == estimate_message_tokens(messages[e.index]) for e in rep.evicted)
    assert all(messages[e.index].role == e.role for e in rep.evicted)
    assert sorted(set(r.kept_indices) | {e.index for e in rep.evicted}) == list(
        range(len(messages))
    )
    assert r.messages == [messages[i] for i in r.kept_indices]
    assert r.over_budget == (rep.final_tokens > rep.budget)


def test_helpers_size_messages_exactly():
    assert estimate_message_tokens(user(100)) == 100
    assert estimate_message_tokens(result("c1", 50)) > 50  # + the call id


def test_fits_unchanged():
    ms = [Message.system("sys"), user(), asst()]
    r = budget_messages(ms, 10_000)
    assert r.messages is ms
    assert r.trimmed == 0 and not r.over_budget
    assert r.report.evicted == ()
    check_report(r, ms)
    assert with_trim_note(r) == ms


def test_drops_oldest_middle_first():
    ms = [Message.system(text(10)), *(user(100) if i % 2 else asst(100) for i in range(10))]
    # 10 + 1000 tokens; a budget of 710 drops exactly the 3 oldest middle messages.
    r = budget_messages(ms, 710, reserve_note=False)
    assert r.trimmed == 3
    assert r.messages == [ms[0], *ms[4:]]
    assert [e.index for e in r.report.evicted] == [1, 2, 3]
    assert {e.reason for e in r.report.evicted} == {"oldest_first"}
    assert r.estimated_tokens == 710 and not r.over_budget
    check_report(r, ms)


def test_reserves_room_for_the_note():
    ms = [Message.system(text(10)), *(user(100) if i % 2 else asst(100) for i in range(10))]
    r = budget_messages(ms, 710)
    assert r.trimmed == 4  # one more, to make room for the note
    noted = with_trim_note(r)
    assert estimate_tokens(noted) <= 710
    assert noted[1] == trim_note(4)
    assert noted[1].content == "[4 earlier messages trimmed for context budget]"


def test_protected_indices_kept():
    ms = [Message.system(text(10)), *(user(100) for _ in range(10))]
    r = budget_messages(ms, 500, protected_indices=(0, 2, -5), reserve_note=False)
    kept = set(r.kept_indices)
    assert {0, 2, 6} <= kept
    assert 1 in {e.index for e in r.report.evicted}
    assert 3 in {e.index for e in r.report.evicted}
    check_report(r, ms)


def test_min_recent_kept_and_over_budget_flag():
    ms = [Message.system(text(10)), *(user(100) for _ in range(10))]
    r = budget_messages(ms, 300, min_recent_messages=6)
    assert r.messages == [ms[0], *ms[-6:]]
    assert r.over_budget  # 610 > 300 with nothing left to drop: sent anyway
    check_report(r, ms)


def test_nothing_droppable_is_over_budget_not_an_error():
    ms = [Message.system(text(500)), user(100)]
    r = budget_messages(ms, 100)
    assert r.trimmed == 0 and r.over_budget and r.messages is ms
    check_report(r, ms)


def test_latest_user_message_kept():
    # A Ralph-style history: one task, then many tool rounds.
    ms = [Message.system(text(10)), user(50)]
    for i in range(20):
        ms += [call(f"c{i}"), result(f"c{i}", 100)]
    r = budget_messages(ms, 1_000, min_recent_messages=2)
    assert r.messages[:2] == ms[:2]
    assert not r.over_budget
    check_report(r, ms)


def test_bundle_dropped_whole():
    ms = [
        Message.system(text(10)),
        user(),
        call("a", "b"),
        result("a", 200),
        result("b", 200),
        asst(),
        user(),
        asst(),
    ]
    # Dropping the first user alone would not be enough; the bundle goes whole.
    r = budget_messages(ms, 600, min_recent_messages=3, reserve_note=False)
    assert [e.index for e in r.report.evicted] == [1, 2, 3, 4]
    assert [e.reason for e in r.report.evicted] == ["oldest_first", "bundle", "bundle", "bundle"]
    check_report(r, ms)


def test_recent_window_does_not_split_a_bundle():
    ms = [
        Message.system(text(10)),
        user(),
        asst(),
        user(),
        call("a", "b"),
        result("a"),
        result("b"),
    ]
    r = budget_messages(ms, 100, min_recent_messages=1)
    # The window (last message) widens back to the call: 4, 5, 6 all kept.
    assert r.kept_indices == (0, 3, 4, 5, 6)
    assert r.over_budget
    check_report(r, ms)


def test_protected_tool_result_protects_its_call():
    ms = [Message.system(text(10)), call("a"), result("a"), user(), asst(), user(), asst()]
    r = budget_messages(ms, 100, protected_indices=(0, 2), min_recent_messages=1)
    assert {1, 2} <= set(r.kept_indices)
    check_report(r, ms)


def test_interleaved_and_reused_call_ids():
    # Results need not be adjacent; ids reused in a later turn bind to the latest call.
    ms = [
        Message.system(text(10)),
        user(),
        call("c0"),
        asst(10),
        result("c0"),
        user(),
        call("c0"),
        result("c0"),
        user(),
        asst(),
    ]
    r = budget_messages(ms, 450, min_recent_messages=2, reserve_note=False)
    # The first call and its (non-adjacent) result go together; the text
    # between them is a unit of its own and was not needed.
    assert [(e.index, e.reason) for e in r.report.evicted] == [
        (1, "oldest_first"),
        (2, "bundle"),
        (4, "bundle"),
    ]
    check_report(r, ms)
    assert_integrity(r.messages)


def test_orphan_tool_never_first_after_the_cut():
    # The input already holds an orphan tool result (its call is gone).
    ms = [Message.system(text(10)), user(), result("lost", 10), asst(), user(), asst()]
    # 421 tokens: dropping the first user (100) is enough, but the orphan
    # would then come first, so it goes too.
    r = budget_messages(ms, 330, min_recent_messages=2, reserve_note=False)
    assert [(e.index, e.reason) for e in r.report.evicted] == [
        (1, "oldest_first"),
        (2, "orphan_tool"),
    ]
    assert r.messages[1].role == "assistant"
    check_report(r, ms)


def test_tools_count_against_the_budget():
    ms = [Message.system(text(10)), *(user(100) for _ in range(8))]
    tools = [ToolDefinition(name="t", description="d" * 800)]
    without = budget_messages(ms, 700, reserve_note=False)
    with_tools = budget_messages(ms, 700, tools=tools, reserve_note=False)
    assert without.trimmed == 2
    assert with_tools.trimmed == 4 and not with_tools.over_budget
    check_report(with_tools, ms, tools)


def test_logs_counts_only(caplog):
    secret = "hunter2-secret"
    ms = [Message.system(secret), *(Message.user(secret * 40) for _ in range(10))]
    with caplog.at_level(logging.DEBUG, logger="wiggum.llm"):
        r = budget_messages(ms, 500)
    (rec,) = caplog.records
    assert rec.getMessage() == "llm:budget-trim" and rec.levelno == logging.INFO
    assert rec.llm["trimmed"] == r.trimmed > 0
    assert rec.llm["message_count"] == 11
    assert rec.llm["final_tokens"] == r.estimated_tokens
    assert secret not in repr(rec.__dict__)


def test_no_log_when_nothing_trimmed(caplog):
    with caplog.at_level(logging.DEBUG, logger="wiggum.llm"):
        budget_messages([user()], 10_000)
    assert caplog.records == []


def test_trim_note_after_leading_system_messages():
    ms = [Message.system("a"), Message.system("b"), *(user() for _ in range(6))]
    r = budget_messages(ms, 300, protected_indices=(0, 1), min_recent_messages=1)
    noted = with_trim_note(r)
    assert [m.role for m in noted[:3]] == ["system", "system", "system"]
    assert noted[2].content == f"[{r.trimmed} earlier messages trimmed for context budget]"
    assert noted[3:] == r.messages[2:]
    assert trim_note(1).content == "[1 earlier message trimmed for context budget]"


def test_twenty_thousand_messages_is_linear(monkeypatch):
    """Each message is estimated once, however many are dropped (the seed's loop
    estimated what was left after each drop: minutes at this size); its speed
    beside the seed's: bench/budget.py."""
    import wiggum.llm.budget as budget
    import wiggum.llm.preflight as preflight

    estimated: list[int] = []
    real = budget.estimate_message_tokens

    def counting(message):
        estimated.append(id(message))
        return real(message)

    ms = [Message.system("You are Ralph. " * 100)]
    i = 0
    while len(ms) < 20_000:
        ms += [
            Message.user(f"step {i} " + "q" * 200),
            call(f"c{i}"),
            result(f"c{i}", 120),
            Message.assistant("done " * 30),
        ]
        i += 1
    limit = estimate_tokens(ms) // 3
    monkeypatch.setattr(budget, "estimate_message_tokens", counting)
    monkeypatch.setattr(preflight, "estimate_message_tokens", counting)  # estimate_tokens'
    r = budget_messages(ms, limit, min_recent_messages=6)
    assert r.trimmed > 10_000 and not r.over_budget
    assert sorted(estimated) == sorted(map(id, ms))
    assert_integrity(r.messages)


# ------------------------------------------------------------------ property


def assert_integrity(out: list[Message]) -> None:
    """No tool result without its call, no call without all its results."""
    seen_calls: set[str] = set()
    answered: set[str] = set()
    for m in out:
        if m.role == "assistant":
            seen_calls.update(c.id for c in m.tool_calls)
        elif m.role == "tool":
            assert m.tool_call_id in seen_calls, "tool result whose call is gone"
            answered.add(m.tool_call_id or "")
    assert seen_calls <= answered, "assistant tool call missing a result"


@st.composite
def histories(draw):
    size = st.integers(min_value=1, max_value=300)
    ms = [Message.system(text(draw(size) + 4))]
    for turn in range(draw(st.integers(min_value=0, max_value=25))):
        kind = draw(st.sampled_from(["user", "assistant", "bundle", "bundle"]))
        if kind == "user":
            ms.append(user(draw(size) + 4))
        elif kind == "assistant":
            ms.append(asst(draw(size) + 4))
        else:
            ids = [f"t{turn}_{k}" for k in range(draw(st.integers(1, 3)))]
            ms.append(call(*ids))
            for i in draw(st.permutations(ids)):
                ms.append(result(i, draw(size) + 4))
    return ms


@settings(max_examples=400, deadline=None)
@given(
    histories(),
    st.integers(min_value=0, max_value=3_000),
    st.integers(min_value=0, max_value=8),
    st.booleans(),
    st.sampled_from([(0,), (0, 1), (0, -3), (0, 5)]),
)
def test_property_integrity_and_order(ms, budget, min_recent, reserve_note, protected):
    r = budget_messages(
        ms,
        budget,
        protected_indices=protected,
        min_recent_messages=min_recent,
        reserve_note=reserve_note,
    )
    out = r.messages
    assert_integrity(out)
    # A subsequence of the input, in order, with the same objects.
    assert list(r.kept_indices) == sorted(set(r.kept_indices))
    assert all(out[k] is ms[i] for k, i in enumerate(r.kept_indices))
    # Protected indices, the latest user message, the recent window are kept.
    assert {i % len(ms) for i in protected if -len(ms) <= i < len(ms)} <= set(r.kept_indices)
    users = [i for i, m in enumerate(ms) if m.role == "user"]
    if users:
        assert users[-1] in r.kept_indices
    assert set(range(max(0, len(ms) - min_recent), len(ms))) <= set(r.kept_indices)
    # The first message after the protected prefix is never a tool result.
    if len(out) > 1:
        assert out[1].role != "tool"
    check_report(r, ms)
    if r.trimmed and reserve_note:
        # Room is kept for the note: the same cut as a budget smaller by the
        # note, and the noted list fits unless everything droppable is gone.
        note = estimate_message_tokens(trim_note(1_000_000))
        r2 = budget_messages(
            ms,
            budget - note,
            protected_indices=protected,
            min_recent_messages=min_recent,
            reserve_note=False,
        )
        assert r2.kept_indices == r.kept_indices
        assert estimate_tokens(with_trim_note(r)) <= budget or r2.over_budget
    # Dropping is minimal in units: nothing dropped when it fit.
    if estimate_tokens(ms) <= budget:
        assert r.trimmed == 0
