"""What Ralph's transcript says for each of his events."""

from __future__ import annotations

from wiggum.llm.types import UsageData
from wiggum.ralph.transcript import (
    GatesEvent,
    IterationEvent,
    PressureEvent,
    ResultEvent,
    RunEvent,
    StallEvent,
    ToolEvent,
    UsageEvent,
)
from wiggum.ralph.types import GateResult
from wiggum.ui.ralph_transcript import (
    GateLine,
    IterationTally,
    gates_text,
    iteration_title,
    key_args,
    pressure_note,
    refusal_text,
    result_text,
    run_line,
    short,
    stall_text,
    tool_text,
    total_text,
)


def test_short_puts_text_on_one_line_and_cuts_it():
    assert short("a\n  b\tc") == "a b c"
    assert short("x" * 80) == "x" * 80
    assert short("x" * 81) == "x" * 79 + "…"


def test_key_args_names_what_the_call_did():
    assert key_args({"path": "index.html", "content": "…"}) == "index.html"
    assert key_args({"command": "cat > a <<EOF\nhi\nEOF"}) == "cat > a <<EOF …"
    assert key_args({"pattern": "TODO", "path": "src"}) == "src"  # path before pattern
    assert key_args({"query": "q"}) == "q"
    assert key_args({"n": 1}) == '{"n": 1}'
    assert key_args({"path": "p" * 70}) == "p" * 59 + "…"


def test_a_tool_calls_summary_and_detail():
    event = ToolEvent(
        iteration=1,
        name="write_file",
        args={"path": "index.html", "content": "<h1>é</h1>"},
        output="Created\nindex.html",
    )
    t = tool_text(event)
    assert (t.name, t.args, t.result) == ("write_file", "index.html", "→ Created index.html")
    assert t.detail == '{\n  "path": "index.html",\n  "content": "<h1>é</h1>"\n}'
    assert t.output == "Created\nindex.html" and not t.is_error


def test_a_shell_command_is_shown_as_written_and_no_arguments_show_no_detail():
    t = tool_text(ToolEvent(iteration=1, name="shell", args={"command": "ls\npwd"}, is_error=True))
    assert t.detail == "ls\npwd" and t.is_error and t.result == "→ "
    assert tool_text(ToolEvent(iteration=1, name="", args={})).detail == ""
    assert tool_text(ToolEvent(iteration=1, name="", args={})).name == "?"


def test_a_command_with_other_arguments_shows_them_all():
    t = tool_text(ToolEvent(iteration=1, name="shell", args={"command": "ls", "cwd": "src"}))
    assert t.detail == '{\n  "command": "ls",\n  "cwd": "src"\n}' and t.args == "ls"


def test_the_checks_say_which_failed_and_why():
    g = gates_text(
        GatesEvent(
            iteration=1,
            results=[
                GateResult(gate="html_parses", passed=True),
                GateResult(gate="local_refs", passed=False, message="missing.js"),
            ],
        )
    )
    assert not g.passed and g.title == "Checks failed"
    assert g.lines == (
        GateLine("html_parses", True, "✓ html_parses"),
        GateLine("local_refs", False, "✗ local_refs: missing.js"),
    )
    ok = gates_text(GatesEvent(iteration=1, results=[GateResult(gate="a", passed=True)]))
    assert ok.passed and ok.title == "Checks passed"


def test_a_finished_run_is_summed_up():
    r = result_text(
        ResultEvent(
            status="complete",
            summary="Built the page.",
            iterations=1,
            usage=UsageData(total_tokens=1240, cost=0.0002),
            files=["index.html", "style.css"],
            error="Built the page.",  # the same words: said once
        )
    )
    # the card says what he built, the run's line how it ended: neither says "Ralph finished"
    # (the tab's status line does, once)
    assert r.label == "What Ralph built" and r.summary == "Built the page." and r.error == ""
    assert r.files == "Files: index.html, style.css"
    assert r.meta == "1 iteration · 1,240 tokens · $0.0002"
    assert r.end_line == "Run complete after 1 iteration."
    assert "Ralph finished" not in r.label + r.end_line


def test_a_run_that_failed_before_a_result_says_its_error():
    r = result_text(ResultEvent(status="error", error="The key was refused."))
    assert r.label == "Ralph's work so far" and r.error == "The key was refused."
    assert r.meta == "iterations: ?" and r.files == "" and r.summary == ""
    assert r.end_line == "Run ended by an error."
    odd = result_text(ResultEvent(status="odd", iterations=3))
    assert (
        odd.label == "Ralph's work so far" and odd.end_line == "Run ended (odd) after 3 iterations."
    )


def test_a_stopped_run_says_it_was_stopped_once_per_place():
    from wiggum.coordinator.state import CoordinatorState
    from wiggum.ui.ralph_tab import tab_state

    r = result_text(ResultEvent(status="cancelled", summary="Half a page.", iterations=2))
    from wiggum.ralph.types import RalphStatus

    state = CoordinatorState(
        status=RalphStatus.CANCELLED, iteration=2, max_iterations=8, resumable=True
    )
    shown = tab_state(state, elsewhere=False)
    assert shown.resume is not None
    texts = [shown.status_line, shown.resume.text, r.label, r.end_line]
    # the status line says it; the run's line says how (by you); the card and the offer don't
    assert sum("was stopped" in t for t in texts) == 1, texts
    assert r.end_line == "Run stopped by you after 2 iterations."
    assert result_text(ResultEvent(status="odd", iterations=3)).meta == "3 iterations"


def test_lines_for_runs_iterations_stalls_pressure_and_a_refusal():
    assert run_line(RunEvent()) == "Started a new run."
    assert run_line(RunEvent(resumed=True)) == "Resumed the run."
    assert iteration_title(3, 8) == "Iteration 3/8" and iteration_title(3, None) == "Iteration 3/20"
    assert stall_text(StallEvent(count=3)) == "Stall: the same tool calls 3 times in a row."
    assert pressure_note(
        PressureEvent(iteration=1, estimated=120000, window=128000, headroom=0.0625)
    ) == (
        "Context nearly full: about 120,000 of 128,000 tokens (6% left). "
        "Older tool output may be shortened."
    )
    assert "(0% left)" in pressure_note(PressureEvent(headroom=-0.2))
    assert (
        refusal_text(OSError("Storage is full."))
        == "Ralph's transcript is not saved. Storage is full."
    )


def test_the_total_follows_usage_then_the_runs_end():
    usage = UsageEvent(
        iteration=1,
        call=UsageData(total_tokens=5),
        total=UsageData(total_tokens=1240, cost=0.0002),
    )
    assert total_text(usage) == "This run: 1,240 tokens · $0.0002"
    end = ResultEvent(status="complete", usage=UsageData(total_tokens=7, cost=0))
    assert total_text(end) == "This run: 7 tokens · free"
    assert total_text(ResultEvent(status="error")) is None
    assert total_text(IterationEvent(iteration=1)) is None
    # a new run's line starts empty (not the run before's); a resumed run keeps its own
    assert total_text(RunEvent()) == ""
    assert total_text(RunEvent(resumed=True)) is None


def test_an_iterations_usage_sums_its_calls():
    tally = IterationTally()
    assert tally.add(UsageData(prompt_tokens=500, completion_tokens=100)) == (
        "600 tokens · cost unknown"
    )
    assert tally.add(UsageData(prompt_tokens=600, completion_tokens=40, cost=0.0001)) == (
        "1,240 tokens · $0.0001"
    )
    assert tally.add(UsageData(prompt_tokens=10, completion_tokens=0, cost=0.0001)) == (
        "1,250 tokens · $0.0002"
    )
