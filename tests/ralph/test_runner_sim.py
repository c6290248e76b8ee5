"""make_runner, and the loop over real HTTP against the provider simulator (all dialects)."""

from __future__ import annotations

import json

import pytest

from tests.ralph.script import PROVIDER, Recorder, Script, completion, transport
from tests.sim import Simulator, ToolCall, Turn
from wiggum.fs import MemoryFileStore
from wiggum.llm import ProviderConfig
from wiggum.llm.httpx_transport import HttpxTransport
from wiggum.ralph import RalphConfig, RalphStatus, RunRequest, make_runner
from wiggum.ralph.gates import EntryPageGate, HtmlParsesGate, LocalRefsGate

SITE = '<!doctype html><link rel="stylesheet" href="style.css"><p>hi</p>'


async def test_make_runner_is_a_ralph_runner():
    s = Script()
    t = transport(
        s.reply("", ("write_file", {"path": "index.html", "content": SITE})),
        s.reply("", ("write_file", {"path": "style.css", "content": "p{}"})),
        s.reply(completion()),
    )
    fs = MemoryFileStore()
    runner = make_runner(PROVIDER, fs, transport=t, config=RalphConfig(max_iterations=2))
    rec = Recorder()
    result = await runner(RunRequest("Build."), rec.callbacks())
    assert result.status is RalphStatus.COMPLETE
    assert rec.of("on_complete")[0][0] is result


@pytest.mark.parametrize("kind", ["openai", "anthropic", "ollama"])
async def test_loop_over_http_with_each_dialect(kind):
    base = {"openai": "/v1", "anthropic": "", "ollama": ""}[kind]
    async with Simulator() as sim:
        sim.script(
            [
                Turn(
                    "Writing the page.",
                    ToolCall("write_file", {"path": "index.html", "content": SITE}),
                    usage=(200, 30),
                ),
                Turn(ToolCall("shell", {"command": "echo 'p { color: red }' > style.css"})),
                Turn(json.dumps({"status": "complete", "summary": "Done."})),
            ]
        )
        provider = ProviderConfig(
            id=kind, kind=kind, base_url=sim.base_url + base, model="test-model", api_key="k"
        )
        fs = MemoryFileStore()
        rec = Recorder()
        runner = make_runner(
            provider,
            fs,
            transport=HttpxTransport(),
            gates=[EntryPageGate(), HtmlParsesGate(), LocalRefsGate()],
        )
        result = await runner(RunRequest("Build a page."), rec.callbacks())
        assert result.status is RalphStatus.COMPLETE, result.error
        assert await fs.read_text("style.css") == "p { color: red }\n"
        assert len(sim.requests) == 3
        # The tool results went back to the provider in its own dialect.
        assert "Created index.html" in json.dumps(sim.requests[1].json)
        assert rec.of("on_intent")[0] == (1, "Writing the page.")
        assert result.usage.prompt_tokens >= 200


def test_a_runner_takes_the_loops_keywords_and_refuses_others_at_once():
    with pytest.raises(TypeError):
        make_runner(PROVIDER, None, confg=RalphConfig())  # a typo fails when the runner is made
    with pytest.raises(TypeError, match="each run"):
        make_runner(PROVIDER, None, callbacks=object())
    assert callable(make_runner(PROVIDER, None, config=RalphConfig(), gates=[]))
