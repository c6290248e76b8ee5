"""A run is done only when every acceptance probe passes, or Ralph says why one
cannot: scripted runs over real HTTP against the provider simulator."""

from __future__ import annotations

import html
import json
import re
from typing import Any

from tests.sim import Simulator, ToolCall, Turn
from wiggum.fs import FileStore, MemoryFileStore
from wiggum.llm import ProviderConfig
from wiggum.llm.httpx_transport import HttpxTransport
from wiggum.ralph import RalphConfig, RalphStatus, RunRequest, make_runner
from wiggum.ralph.acceptance import ACCEPTANCE, run_probes
from wiggum.ralph.gates import EntryPageGate, HtmlParsesGate
from wiggum.ralph.probes import Seen
from wiggum.ralph.site_checks import SiteReport, run_site_checks

CRITERION = "The page greets the visitor with Hello"
PROBE = json.dumps(
    {"criterion": CRITERION, "steps": [{"expect_text": "Hello"}, {"no_errors": True}]}
)
HI = '<!doctype html><html lang="en"><title>Hi</title><h1>Hi there</h1></html>'
HELLO = HI.replace("Hi there", "Hello there")


class FilePage:
    """A fake page whose text is its HTML file's, tags stripped."""

    def __init__(self, fs: FileStore) -> None:
        self.fs, self.text = fs, ""

    async def open(self, page: str) -> str | None:
        try:
            source = await self.fs.read_text(page)
        except Exception:
            return f"{page} is not in the project"
        self.text = html.unescape(re.sub(r"<[^>]+>", " ", source))
        return None

    async def do(self, step: dict[str, Any]) -> Seen:
        return Seen(page_text=" ".join(self.text.split()))

    def close(self) -> None:
        pass


def write(path: str, content: str) -> ToolCall:
    return ToolCall("write_file", {"path": path, "content": content})


def done(**extra: Any) -> Turn:
    return Turn(json.dumps({"status": "complete", "summary": "Built.", **extra}))


def fail_then_fix() -> list[Turn]:
    """Ralph writes a page and its probe and says he is done; the probe fails;
    he fixes the page and says so again."""
    return [
        Turn(write("index.html", HI), write(".ralph/checks/greet.json", PROBE)),
        done(),
        Turn(write("index.html", HELLO)),
        done(),
    ]


async def run(turns: list[Turn], acceptance: list[str], iterations: int = 4):
    fs = MemoryFileStore()
    rounds: list[SiteReport] = []

    async def site_checks(fs: FileStore) -> SiteReport:
        async def probes(fs: FileStore):
            return await run_probes(fs, lambda: FilePage(fs))

        report = await run_site_checks(fs, [], probes=probes)
        rounds.append(report)
        return report

    async with Simulator() as sim:
        sim.script(turns)
        provider = ProviderConfig(
            id="openai", kind="openai", base_url=sim.base_url + "/v1", model="m", api_key="k"
        )
        runner = make_runner(
            provider,
            fs,
            transport=HttpxTransport(),
            gates=[EntryPageGate(), HtmlParsesGate()],
            site_checks=site_checks,
            config=RalphConfig(max_iterations=iterations),
        )
        result = await runner(RunRequest("Build a greeting page.", acceptance=acceptance), None)
        sent = [json.dumps(r.json) for r in sim.requests]
    return result, rounds, sent, fs


async def test_a_run_whose_probe_fails_keeps_going_and_ends_done_when_it_passes():
    result, rounds, sent, fs = await run(
        fail_then_fix(),
        [CRITERION],
    )
    assert result.status is RalphStatus.COMPLETE and result.iterations == 2
    # The criterion reached Ralph with the task, and is kept beside it.
    assert CRITERION in sent[0] and "## Acceptance criteria" in sent[0]
    assert json.loads(await fs.read_text(ACCEPTANCE)) == [CRITERION]
    # His first claim was refused: the failing step and what was seen came back to him.
    assert "Acceptance probes failed: the run is not done" in sent[2]
    assert 'step 1 (expect the page to say \\"Hello\\")' in sent[2]
    assert "Hi there" in sent[2]
    assert [r.probes[0].passed for r in rounds] == [False, True]


async def test_a_criterion_without_a_probe_keeps_the_run_going():
    result, _, sent, _ = await run(
        [Turn(write("index.html", HELLO)), done(), done()], [CRITERION], iterations=2
    )
    assert result.status is RalphStatus.MAX_ITERATIONS
    assert f"no probe for: {CRITERION}" in sent[2]


async def test_ralph_saying_why_a_criterion_cannot_be_probed_ends_the_run_done():
    reason = "the greeting needs the visitor's name from a server"
    result, _, _, fs = await run(
        [
            Turn(write("index.html", HI), write(".ralph/checks/greet.json", PROBE)),
            done(unprobed=[{"criterion": CRITERION, "reason": reason}]),
        ],
        [CRITERION],
    )
    assert result.status is RalphStatus.COMPLETE and result.iterations == 1
    assert result.completion.unprobed[0].reason == reason
    summary = await fs.read_text(".ralph/summary.md")
    assert f"## Not probed (no probe can check these)\n\n- {CRITERION}: {reason}" in summary


async def test_probes_written_without_criteria_still_decide_done():
    result, _, _, _ = await run(
        fail_then_fix(),
        [],
    )
    assert result.status is RalphStatus.COMPLETE and result.iterations == 2
