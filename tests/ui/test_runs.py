"""Ralph's run list from his transcript events, and what a row says."""

from __future__ import annotations

import time

from wiggum.ralph.transcript import parse_event
from wiggum.ui.runs import RunRow, clock_time, row_text, run_rows


def tool(i, name, args, error=False):
    return {"kind": "tool", "i": i, "name": name, "args": args, "output": "", "error": error}


def usage(i, total, cost):
    return {"kind": "usage", "i": i, "call": {"total_tokens": total, "cost": cost}, "total": {}}


def events(*records):
    """The typed events of stored records (as a transcript reads them)."""
    return [parse_event(r) for r in records]


EVENTS = events(
    {"kind": "run", "resumed": False, "t": 100.0},
    {"kind": "iteration", "i": 1, "max": 20},
    tool(1, "shell", {"command": "cat > index.html <<'EOF'\n<p>hi</p>\nEOF"}),
    tool(1, "write_file", {"path": "style.css", "content": "x"}),
    tool(1, "write_file", {"path": "broken.css"}, error=True),
    usage(1, 1000, 0.01),
    {"kind": "iteration", "i": 2, "max": 20},
    usage(2, 500, 0.005),
    {"kind": "result", "status": "cancelled", "error": None, "iterations": 2},
    {"kind": "run", "resumed": True, "t": 150.0},
    {"kind": "iteration", "i": 3, "max": 20},
    tool(3, "edit_file", {"path": "index.html"}),
    {"kind": "result", "status": "complete", "error": None, "iterations": 3, "files": ["app.js"]},
    {"kind": "run", "resumed": False, "t": 200.0},
    {"kind": "iteration", "i": 1, "max": 20},
)


def test_one_row_per_run_newest_first_a_resume_continues_its_row():
    rows = run_rows(EVENTS)
    assert [r.started for r in rows] == [200.0, 100.0]
    second, first = rows
    assert first.outcome == "complete" and first.resumes == 1 and first.iterations == 3
    assert first.files == ["index.html", "style.css", "app.js"]
    assert first.tokens == 1500 and abs(first.cost - 0.015) < 1e-12
    assert second.outcome == "interrupted" and second.iterations == 1 and second.cost is None


def test_the_newest_unended_run_is_running_when_one_is_going():
    assert run_rows(EVENTS, running=True)[0].outcome == "running"


def test_events_before_run_records_still_make_a_row():
    rows = run_rows(events({"kind": "iteration", "i": 1}, {"kind": "result", "status": "error"}))
    assert len(rows) == 1 and rows[0].outcome == "error" and rows[0].started is None


def test_tokens_count_prompt_and_completion_when_the_total_is_not_reported():
    rows = run_rows(
        events(
            {"kind": "run", "t": 1.0},
            {
                "kind": "usage",
                "i": 1,
                "call": {"prompt_tokens": 30, "completion_tokens": 12},
                "total": {},
            },
        )
    )
    assert rows[0].tokens == 42 and rows[0].cost is None


def row(started=None, *, iterations=0, files=(), tokens=0, cost=None, outcome="complete"):
    r = RunRow(started)
    r.iterations, r.files, r.tokens, r.cost, r.outcome = (
        iterations,
        list(files),
        tokens,
        cost,
        outcome,
    )
    return r


def test_a_row_says_how_it_went_and_what_it_changed_and_cost():
    text = row(iterations=1, files=["index.html"], tokens=1240, cost=0.0002)
    t = row_text(text)
    assert t.when == "earlier" and t.outcome == "Finished"
    assert t.meta == "1 iteration · 1 file changed · 1,240 tokens · $0.0002"
    assert t.files == "index.html"


def test_a_row_without_usage_says_so_and_plural_counts():
    t = row_text(row(iterations=2, files=["a", "b"], outcome="cancelled"))
    assert t.meta == "2 iterations · 2 files changed · no usage" and t.outcome == "Stopped"
    assert row_text(row(cost=0.5)).meta.endswith("· $0.5000")  # a cost without tokens


def test_a_row_names_six_files_then_counts_the_rest():
    t = row_text(row(files=[f"f{i}" for i in range(8)]))
    assert t.files == "f0, f1, f2, f3, f4, f5 +2"
    assert row_text(row(files=[f"f{i}" for i in range(6)])).files == "f0, f1, f2, f3, f4, f5"


def test_running_and_interrupted_rows_and_an_unknown_outcome():
    assert row_text(row(outcome="running")).outcome == "Running"
    assert row_text(row(outcome="interrupted")).outcome == "Interrupted"
    assert row_text(row(outcome="ended")).outcome == "ended"


def test_a_run_of_today_shows_the_time_an_older_one_the_day_too():
    now = time.mktime((2026, 11, 25, 18, 0, 0, 0, 0, -1))
    today = time.mktime((2026, 11, 25, 14, 5, 0, 0, 0, -1))
    earlier = time.mktime((2026, 11, 24, 14, 5, 0, 0, 0, -1))
    assert clock_time(today, now) == "14:05"
    assert clock_time(earlier, now) == "24 Nov 14:05"
    assert row_text(row(today), now).when == "14:05"


def test_each_iteration_sits_beside_its_checkpoint_even_when_it_lands_late():
    from wiggum.ui.runs import step_counts, steps_by_checkpoint

    rows = run_rows(
        events(
            {"kind": "run", "resumed": False, "t": 100.0},
            {"kind": "iteration", "i": 1, "max": 20},
            {"kind": "intent", "i": 1, "text": "Write the page.\nThen style it."},
            {"kind": "iteration", "i": 2, "max": 20},
            # Iteration 1's checkpoint is taken when iteration 2 starts.
            {"kind": "checkpoint", "i": 1, "id": "a" * 40, "added": ["index.html", "s.css"]},
            {"kind": "intent", "i": 2, "text": "Read it back."},
            {"kind": "result", "status": "complete", "iterations": 3},
            # The last one after the run's end is written.
            {"kind": "checkpoint", "i": 3, "id": "b" * 40, "changed": ["a"], "removed": ["b"]},
        )
    )
    steps = rows[0].steps
    assert sorted(steps) == [1, 2, 3]
    assert steps[1].intent == "Write the page.\nThen style it." and steps[1].checkpoint == "a" * 40
    assert step_counts(steps[1]) == "2 added"
    assert steps[2].checkpoint == "" and step_counts(steps[2]) == "no files changed"
    assert step_counts(steps[3]) == "1 changed · 1 removed"
    assert steps_by_checkpoint(rows) == {"a" * 40: steps[1], "b" * 40: steps[3]}
    # A checkpoint of his notes alone (the agents' memory is left out of the lists).
    notes = run_rows(events({"kind": "checkpoint", "i": 1, "id": "c" * 40}))[0].steps[1]
    assert step_counts(notes) == "only his notes changed"
