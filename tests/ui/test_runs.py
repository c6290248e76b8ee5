"""Ralph's run list from his transcript events."""

from __future__ import annotations

from wiggum.ui.runs import run_rows


def tool(i, name, args, error=False):
    return {"kind": "tool", "i": i, "name": name, "args": args, "output": "", "error": error}


def usage(i, total, cost):
    return {"kind": "usage", "i": i, "call": {"total_tokens": total, "cost": cost}, "total": {}}


EVENTS = [
    {"kind": "run", "resumed": False, "t": 100.0},
    {"kind": "iteration", "i": 1, "max": 20},
    tool(1, "shell", {"command": "cat > index.html <<'EOF'\n<p>hi</p>\nEOF"}),
    tool(1, "write_file", {"path": "style.css", "content": "x"}),
    tool(1, "write_file", {"path": "broken.css"}, error=True),
    usage(1, 1000, 0.01),
    {"kind": "iteration", "i": 2, "max": 20},
    usage(2, 500, 0.005),
    {"kind": "result", "status": "cancelled", "iterations": 2},
    {"kind": "run", "resumed": True, "t": 150.0},
    {"kind": "iteration", "i": 3, "max": 20},
    tool(3, "edit_file", {"path": "index.html"}),
    {"kind": "result", "status": "complete", "iterations": 3, "files": ["app.js"]},
    {"kind": "run", "resumed": False, "t": 200.0},
    {"kind": "iteration", "i": 1, "max": 20},
]


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
    rows = run_rows([{"kind": "iteration", "i": 1}, {"kind": "result", "status": "error"}])
    assert len(rows) == 1 and rows[0].outcome == "error" and rows[0].started is None
