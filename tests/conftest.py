"""Test-suite wide ordering: end-to-end tests run last, and a crashed renderer is retried.

The e2e fixtures drive Chromium through Playwright's sync API, which keeps an
event loop running on the main thread for as long as the session-scoped
browser lives; any asyncio test collected after them could not start its
own loop.  So everything under ``tests/e2e`` is marked ``e2e`` and moved to
the end, and ``pytest -m "not e2e"`` runs the fast suite alone.

Chromium's renderer very rarely dies while the page boots Pyodide (seen once
in CI, as "Target crashed" in the first e2e test, with the renderer at
~400 MB; never reproduced in 25 fresh boots plus several full e2e runs here).
That is the browser failing, not the app misbehaving, so an e2e test that
fails with exactly that error runs again on a fresh page (pytest-rerunfailures
reports it as ``R``/"rerun").  Any other failure fails the test at once.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from tests.sim import Simulator
from tests.sim.github import TOKEN as GITHUB_TOKEN
from tests.sim.github import Clock, GitHubSim
from wiggum.llm.httpx_transport import HttpxTransport

E2E_DIR = Path(__file__).parent / "e2e"

#: Failures worth a rerun: the browser's renderer or the whole browser died.
BROWSER_CRASHES = [r"Target crashed", r"Target page, context or browser has been closed"]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if E2E_DIR in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.e2e)
            item.add_marker(pytest.mark.flaky(reruns=2, only_rerun=BROWSER_CRASHES))
    items.sort(key=lambda item: item.get_closest_marker("e2e") is not None)


# Shared by the CPython tests that talk to the provider simulator over real HTTP
# (the e2e modules define their own, longer-lived ``sim``).
@pytest.fixture
def sim() -> Iterator[Simulator]:
    with Simulator() as s:
        yield s


@pytest.fixture
async def transport() -> AsyncIterator[HttpxTransport]:
    t = HttpxTransport()
    yield t
    await t.aclose()


# The GitHub simulator and the publisher share a clock the test moves: rate-limit
# waits and build polls take no wall time.
@pytest.fixture
def gh_clock() -> Clock:
    return Clock(1_800_000_000.0)


@pytest.fixture
def gh_sim(gh_clock) -> Iterator[GitHubSim]:
    with GitHubSim(token=GITHUB_TOKEN, clock=gh_clock) as s:
        yield s
