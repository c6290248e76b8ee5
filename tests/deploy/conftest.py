"""Publishing's tests publish one way: ``go``, on the simulator's clock (``gh_sim`` and
``gh_clock`` are tests/conftest.py's), handing back the result and the state."""

from __future__ import annotations

import pytest

from tests.deploy.publishing import SITE, TOKEN, client
from wiggum.deploy.publish import PublishResult, PublishState, publish


@pytest.fixture
def go(gh_sim, transport, gh_clock):
    async def run(
        files=SITE, state=None, name="my-site", token=TOKEN, said=None, gh=None
    ) -> tuple[PublishResult, PublishState]:
        state = state if state is not None else PublishState()
        gh = gh or client(gh_sim, transport, gh_clock, token)
        result = await publish(gh, files, state, name, progress=said)
        return result, state

    return run
