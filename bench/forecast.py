"""Ralph's forecast beside the spend the provider simulator reported, for three scripted runs.

    python bench/forecast.py

Each run goes over real HTTP against ``tests/sim`` with a model the registry
prices (``gpt-4o-mini``).  The simulator reports usage estimated from the sizes
of what was sent and received (no scripted figures), as a provider would count
them; the run's ledger sums that.  The forecast is what the loop told before
its first call (``on_budget``), for the iterations the run was given; the
"per iteration" columns put both on the same footing, since a run that finishes
early spends fewer iterations than it was given.  No asserts: this prints the
figures, and the forecast's constants (``wiggum.ralph.budget``) are tuned from them.
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.sim import Simulator, ToolCall, Turn
from wiggum.fs import MemoryFileStore
from wiggum.llm import ProviderConfig
from wiggum.llm.httpx_transport import HttpxTransport
from wiggum.ralph import RalphCallbacks, RalphConfig, RalphLoop, RunRequest
from wiggum.ralph.budget import CALLS_PER_ITERATION

MODEL = "gpt-4o-mini"
DONE = json.dumps({"status": "complete", "summary": "Done."})
PAGE = "<!doctype html><html lang=en><title>{n}</title><body>" + "<p>text</p>" * 40


def write(path: str, size: int = 1) -> Turn:
    return Turn(ToolCall("write_file", {"path": path, "content": PAGE.format(n=path) * size}))


def small_site() -> list[Turn]:
    """One iteration: a page and its stylesheet, then done."""
    return [write("index.html"), write("style.css"), Turn(DONE)]


def three_pages() -> list[Turn]:
    """Several calls: three pages, a look around, progress notes, done."""
    return [
        write("index.html"),
        write("about.html"),
        Turn(ToolCall("shell", {"command": "ls; wc -c *.html"})),
        write("menu.html", 3),
        Turn(ToolCall("shell", {"command": "echo '- three pages' >> .ralph/progress.md"})),
        Turn(DONE),
    ]


def long_run() -> list[Turn]:
    """Many calls with bulky files (the context grows with each result)."""
    turns = [write(f"page{n}.html", 4) for n in range(10)]
    turns += [Turn(ToolCall("shell", {"command": f"cat page{n}.html | wc -l"})) for n in range(4)]
    return [*turns, Turn(DONE)]


RUNS = {"small site": small_site, "three pages": three_pages, "long run": long_run}
ITERATIONS = 5


async def one(name: str, turns: list[Turn]) -> tuple[str, float | None, int, int, float, int, int]:
    forecast: list[str] = []
    async with Simulator() as sim:
        sim.script(turns)
        provider = ProviderConfig(
            id="sim", kind="openai", base_url=sim.base_url + "/v1", model=MODEL, api_key="k"
        )
        loop = RalphLoop(
            provider,
            MemoryFileStore(),
            config=RalphConfig(max_iterations=ITERATIONS),
            callbacks=RalphCallbacks(on_budget=lambda _b, text: forecast.append(text)),
            transport=HttpxTransport(),
            gates=[],
        )
        result = await loop.run(RunRequest(f"Build the {name}."))
        calls = len(sim.chat_requests)
    text = forecast[0]
    tokens = int(re.search(r"~([\d,]+) tokens", text).group(1).replace(",", ""))
    cost = re.search(r"~\$([\d.]+)", text)
    usage = result.usage
    spent = usage.prompt_tokens + usage.completion_tokens
    money = float(cost.group(1)) if cost else None
    return name, money, tokens, spent, usage.cost or 0.0, max(result.iterations, 1), calls


async def main() -> None:
    print(f"Ralph's forecast vs the simulator's reported spend ({MODEL}, {ITERATIONS} iterations)")
    head = (
        f"{'run':<12} {'calls':>5} {'forecast':>9} {'fc $':>8} {'reported':>9} {'rep $':>8}"
        f" {'fc/call':>8} {'rep/call':>8} {'ratio':>6}"
    )
    print(head)
    print("-" * len(head))
    planned_calls = ITERATIONS * CALLS_PER_ITERATION
    for name, build in RUNS.items():
        name, fc_cost, fc_tokens, spent, cost, _iterations, calls = await one(name, build())
        fc_call, rep_call = fc_tokens / planned_calls, spent / calls
        print(
            f"{name:<12} {calls:>5} {fc_tokens:>9,} {fc_cost or 0:>8.4f} {spent:>9,} {cost:>8.4f}"
            f" {fc_call:>8,.0f} {rep_call:>8,.0f} {fc_call / rep_call:>6.2f}"
        )
    print(
        f"forecast: the whole run as planned ({ITERATIONS} iterations of {CALLS_PER_ITERATION} "
        "calls); reported: what the runs spent (they finish early).\nratio: the forecast per "
        "call over the reported tokens per call (1 = exact; above 1 the forecast is cautious)."
    )


if __name__ == "__main__":
    asyncio.run(main())
