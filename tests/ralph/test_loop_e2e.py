"""The loop end to end with scripted replies: build, fail a gate, fix, complete."""

from __future__ import annotations

import pytest

from tests.ralph.script import PROVIDER, Recorder, Script, completion, sent_messages, transport
from wiggum.fs import MemoryFileStore
from wiggum.ralph import (
    RalphConfig,
    RalphLoop,
    RalphStatus,
    RunRequest,
    default_gates,
    node_syntax_checker,
    parse_status,
)

INDEX = """<!doctype html>
<html>
<head>
  <link rel="stylesheet" href="style.css">
</head>
<body>
  <h1 id="title">Counter</h1>
  <button id="inc">+1</button>
  <img src="img/logo.png" alt="logo">
  <script src="app.js"></script>
</body>
</html>
"""
SHELL_CSS = "cat > style.css <<'EOF'\nbody { background: url(img/bg.png); }\nEOF"


@pytest.fixture
def node():
    checker = node_syntax_checker()
    if checker is None:
        pytest.skip("node is not installed")
    return checker


async def test_build_fail_gate_fix_and_complete(node):
    s = Script()
    t = transport(
        # Iteration 1: plan, files through both the shell and structured tools.
        s.reply(
            "I'll write the plan and the page.",
            ("write_file", {"path": ".ralph/plan.md", "content": "- [ ] page\n- [ ] style\n"}),
            ("write_file", {"path": "index.html", "content": INDEX}),
            reasoning="Start with the plan.",
        ),
        s.reply("", ("shell", {"command": SHELL_CSS})),
        s.reply(
            "",
            (
                "shell",
                {"command": "printf 'let n = 0;\\n' > app.js && mkdir -p img && touch img/bg.png"},
            ),
            ("shell", {"command": "echo '- wrote index, style, app' >> .ralph/progress.md"}),
        ),
        # Claims completion in prose; the loop asks for the structured report.
        s.reply("All done!"),
        s.reply(completion("Counter page.", files_created=["index.html"])),
        # Iteration 2: the gate said img/logo.png is missing; fix it.
        s.reply("Fixing the missing logo.", ("shell", {"command": "touch img/logo.png"})),
        s.reply(completion("Counter page with logo.")),
    )
    fs = MemoryFileStore()
    rec = Recorder()
    loop = RalphLoop(
        PROVIDER,
        fs,
        config=RalphConfig(max_iterations=5),
        callbacks=rec.callbacks(),
        transport=t,
        gates=default_gates(js_checker=node),
    )
    result = await loop.run(RunRequest(task="Build a counter page."))

    assert result.status is RalphStatus.COMPLETE, result.error
    assert result.iterations == 2
    assert result.completion.summary == "Counter page with logo."
    assert all(g.passed for g in result.gate_results)
    assert await fs.read_text("index.html") == INDEX
    assert "url(img/bg.png)" in await fs.read_text("style.css")
    assert await fs.read_text("app.js") == "let n = 0;\n"

    # The first gate run failed on the missing image, and said so in feedback.
    gates = rec.of("on_gates")
    assert [it for it, _ in gates] == [1, 2]
    first = {g.gate: g for g in gates[0][1]}
    assert not first["local_refs"].passed
    assert "img/logo.png" in first["local_refs"].message
    assert first["html_parses"].passed and first["js_syntax"].passed
    # ... and the second iteration's context carried that feedback.
    iteration2 = sent_messages(t, 5)
    assert "img/logo.png" in iteration2[1]["content"]
    assert "Iteration 2 of 5" in iteration2[1]["content"]
    # The structured completion request asked for the schema.
    assert "response_format" in t.requests[4].body.decode()

    # State on disk.
    status = parse_status(await fs.read_text(".ralph/status.txt"))
    assert status.status is RalphStatus.COMPLETE and status.iteration == 2
    assert await fs.read_text(".ralph/feedback.md") == ""
    assert "Counter page with logo." in await fs.read_text(".ralph/summary.md")
    assert "- [ ] page" in await fs.read_text(".ralph/plan.md")
    assert "wrote index" in await fs.read_text(".ralph/progress.md")

    # Usage: 7 calls of 120 tokens, per iteration 5 and 2 calls.
    assert result.usage.total_tokens == 7 * 120
    assert [u.usage.total_tokens for u in result.iteration_usage] == [5 * 120, 2 * 120]
    totals = [total.total_tokens for _, _, total in rec.of("on_usage")]
    assert totals == [120 * k for k in range(1, 8)]

    # Callbacks, in order.
    names = rec.names()
    assert names[0] == "on_status" and rec.of("on_status")[0] == (RalphStatus.RUNNING, 1)
    # The forecast comes before the first iteration (no cap set: an empty one).
    assert names[1] == "on_budget" and rec.of("on_budget")[0][1].startswith("Estimate: ~")
    assert names[2] == "on_iteration_start" and rec.of("on_iteration_start") == [(1, 5), (2, 5)]
    assert rec.of("on_reasoning") == [(1, "Start with the plan.")]
    assert rec.of("on_intent")[0] == (1, "I'll write the plan and the page.")
    assert (1, "All done!") in rec.of("on_intent")
    calls = rec.of("on_tool_call")
    assert [c[1] for c in calls] == ["write_file", "write_file", "shell", "shell", "shell", "shell"]
    assert calls[0][0] == 1 and calls[-1][0] == 2
    assert not any(c[4] for c in calls)
    assert names[-2:] == ["on_status", "on_complete"]
    assert rec.of("on_status")[-1] == (RalphStatus.COMPLETE, 2)
    assert rec.of("on_complete")[0][0] is result
    assert rec.of("on_error") == []
