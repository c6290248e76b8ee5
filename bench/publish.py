"""Publishing a 500-file site to GitHub Pages: requests, time, and the peak per minute.

Against the GitHub simulator over real HTTP (its description check off), on a
clock that runs with the real one plus the waits the publisher spends pacing
and following the Pages build, so "paced" is the wall time the person would
see against GitHub (less GitHub's own latency) and the per-minute peaks are
what GitHub would count.  The site: 400 text files (HTML, CSS, JS) and 100
binary images.  Printed beside a reference measured in the same run: the same
first publish with every file sent as a blob of its own (no inline text).

    python bench/publish.py
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.sim.github import TOKEN, GitHubSim  # noqa: E402
from wiggum.deploy import publish as publishing  # noqa: E402
from wiggum.deploy.github import GitHub  # noqa: E402
from wiggum.deploy.limits import CREATING, Pacer  # noqa: E402
from wiggum.llm.httpx_transport import HttpxTransport  # noqa: E402

TEXT, BINARY = 400, 100


def site() -> dict[str, bytes]:
    files = {"index.html": b"<!doctype html><h1>Gallery</h1>\n"}
    for i in range(TEXT - 1):
        kind = ("html", "css", "js")[i % 3]
        body = f"/* {kind} file {i} */\n" + "x = 1;\n" * (20 + i % 50)
        files[f"{kind}/f{i:03}.{kind}"] = body.encode()
    for i in range(BINARY):
        files[f"img/p{i:03}.png"] = b"\x89PNG\r\n\x1a\n\x00" + bytes([i]) * (2000 + 37 * i)
    return files


class Clock:
    """Real time, plus every wait the publisher asks for (taken at once)."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset

    async def sleep(self, seconds: float) -> None:
        self.offset += max(0.0, seconds)
        await asyncio.sleep(0)


def peak_per_minute(times: list[float]) -> int:
    return max((sum(1 for t in times if s <= t < s + 60) for s in times), default=0)


async def run(
    sim: GitHubSim, clock: Clock, files, state, transport, max_wait: float = 900
) -> dict[str, float]:
    pacer = Pacer(clock=clock, sleep=clock.sleep, max_wait=max_wait)
    gh = GitHub(transport, TOKEN, sim.base_url, pacer)
    since, offset, start = len(sim.answers), clock.offset, time.perf_counter()
    result = await publishing.publish(gh, files, state, "gallery")
    wall = time.perf_counter() - start
    answers = sim.answers[since:]
    created = [a.at for a in answers if a.method in CREATING]
    assert result.status == "built" and not result.differences, result
    return {
        "requests": gh.sent,
        "creating": len(created),
        "wall": wall,
        "paced": wall + clock.offset - offset,
        "waited": gh.pacer.waited,
        "peak_creating": peak_per_minute(created),
        "peak_all": peak_per_minute([a.at for a in answers]),
    }


def show(label: str, m: dict[str, float]) -> None:
    print(
        f"{label:<44} {m['requests']:>5} requests ({m['creating']:>3} creating)"
        f"  wall {m['wall']:6.2f} s  as paced {m['paced']:7.1f} s"
        f"  peak/min: creating {m['peak_creating']:>3}, all {m['peak_all']:>3}"
    )


async def main() -> None:
    files = site()
    transport = HttpxTransport()
    try:
        for label, inline in (("reference: every file a blob", False), ("", True)):
            clock = Clock()
            with GitHubSim(token=TOKEN, clock=clock, check=False) as sim:
                sim.build_delay, sim.build_seconds = 2.0, (5.0, 20.0)
                real_is_text = publishing.is_text
                if not inline:
                    publishing.is_text = lambda data: False
                try:
                    state = publishing.PublishState()
                    # The reference needs more than 500 new objects: it waits out the hour.
                    wait = 900 if inline else 7200
                    first = await run(sim, clock, files, state, transport, wait)
                    if not inline:
                        show(label + ", first publish", first)
                        continue
                    again = await run(sim, clock, files, state, transport)
                finally:
                    publishing.is_text = real_is_text
            show(f"first publish of {len(files)} files", first)
            show("unchanged republish", again)
    finally:
        await transport.aclose()
    print("GitHub's limits on content creation: 80 a minute, 500 an hour.")


if __name__ == "__main__":
    asyncio.run(main())
