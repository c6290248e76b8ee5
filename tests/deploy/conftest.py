"""Publishing's tests share a GitHub simulator on a clock they move, and one way to publish.

``clock`` is the simulator's and the publisher's time (rate-limit waits and
build polls move it; no test sleeps); ``gh_sim`` checks each of its answers
against GitHub's REST description as it goes; ``go`` publishes and hands back
the result and the state.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.deploy.publishing import SITE, TOKEN, client
from tests.sim.github import Clock, GitHubSim
from wiggum.deploy.publish import PublishResult, PublishState, publish


@pytest.fixture
def clock() -> Clock:
    return Clock(1_800_000_000.0)


@pytest.fixture
def gh_sim(clock) -> Iterator[GitHubSim]:
    with GitHubSim(token=TOKEN, clock=clock) as s:
        yield s


@pytest.fixture
def go(gh_sim, transport, clock):
    async def run(
        files=SITE, state=None, name="my-site", token=TOKEN, said=None, gh=None
    ) -> tuple[PublishResult, PublishState]:
        state = state if state is not None else PublishState()
        gh = gh or client(gh_sim, transport, clock, token)
        result = await publish(gh, files, state, name, progress=said)
        return result, state

    return run
