"""GitHub's rate limits: kept under while publishing, and waited out with a countdown the
person sees when hit (the gh_clock is the test's: no test waits)."""

from __future__ import annotations

import re

import pytest

from tests.deploy.publishing import SITE, Said, client
from wiggum.deploy.errors import GitHubError
from wiggum.deploy.limits import Pacer, retry_after
from wiggum.deploy.publish import PublishState, site_files

PICTURES = {f"img/{i:03}.png": b"\x89PNG\x00" + bytes([i % 256]) * (i + 1) for i in range(120)}
MANY = {"index.html": b"<h1>gallery</h1>", **PICTURES}


WAIT = re.compile(r"continuing in (?:(\d+) min )?(\d+) s$")


def countdown(said: Said) -> list[int]:
    """The seconds left, as each line of the countdown said them."""
    found = [WAIT.search(t) for t in said.texts()]
    return [int(m.group(1) or 0) * 60 + int(m.group(2)) for m in found if m]


@pytest.mark.parametrize("status", [403, 429])
async def test_a_secondary_limit_waits_retry_after_and_counts_it_down(
    gh_sim, go, gh_clock, status
) -> None:
    gh_sim.fail(
        "POST",
        "/repos/octo/my-site/git/trees",
        status,
        {"message": "You have exceeded a secondary rate limit."},
        {"retry-after": "60"},
    )
    said = Said()
    start = gh_clock()
    result, _ = await go(said=said)
    assert result.status == "built" and gh_sim.files("my-site") == site_files(SITE)
    assert countdown(said)[:60] == list(range(60, 0, -1))  # every second, from 60
    assert "GitHub asked to slow down" in said.texts("commit")[1]
    refused = next(a for a in gh_sim.answers if a.status == status)
    again = next(a for a in gh_sim.answers if a.path == refused.path and a.status == 201)
    assert again.at - refused.at == 60 and gh_clock() - start >= 60


async def test_a_secondary_limit_without_retry_after_waits_a_minute(gh_sim, go, gh_clock) -> None:
    gh_sim.fail("POST", "/repos/octo/my-site/git/commits", 403,
                {"message": "You have exceeded a secondary rate limit."})  # fmt: skip
    said = Said()
    await go(said=said)
    assert countdown(said)[0] == 60


async def test_a_primary_limit_resetting_soon_is_waited_for(gh_sim, go, gh_clock) -> None:
    reset = int(gh_clock()) + 180
    gh_sim.fail("GET", "/user", 403, {"message": "API rate limit exceeded for user ID 1."},
                {"x-ratelimit-remaining": "0", "x-ratelimit-reset": str(reset)})  # fmt: skip
    said = Said()
    result, _ = await go(said=said)
    assert result.status == "built" and countdown(said)[:2] == [180, 179]
    assert said.texts("account")[1].endswith("continuing in 3 min 00 s")


@pytest.mark.parametrize("status", [403, 429])
async def test_a_primary_limit_far_away_stops_and_says_when(gh_sim, go, gh_clock, status) -> None:
    reset = int(gh_clock()) + 1800
    gh_sim.fail("POST", "/repos/octo/my-site/git/blobs", status,
                {"message": "API rate limit exceeded for user ID 1."},
                {"x-ratelimit-remaining": "0", "x-ratelimit-reset": str(reset)})  # fmt: skip
    state = PublishState()
    with pytest.raises(GitHubError) as err:
        await go(state=state)
    assert err.value.kind == "rate_limit" and err.value.retry_at == reset
    assert "after 08:30 UTC (in 30 minutes)" in err.value.message
    assert "nothing was lost" in err.value.message and ".." not in err.value.message
    await go(state=state)  # later: continues
    assert gh_sim.files("my-site") == site_files(SITE)


async def test_an_empty_primary_limit_seen_in_the_headers_waits_before_the_next_request(
    gh_sim, transport, gh_clock
) -> None:
    gh = client(gh_sim, transport, gh_clock)
    gh_sim.limits.window = gh_clock() - 3000  # the hour resets in 10 minutes
    gh_sim.limits.used = gh_sim.limits.primary - 1
    await gh.user()  # the last request of the hour: remaining 0 comes back
    before = gh_clock()
    await gh.user()
    assert gh_clock() - before >= 600  # waited for the reset instead of being refused
    assert all(a.status == 200 for a in gh_sim.answers)


async def test_many_binary_files_are_paced_under_80_a_minute(gh_sim, go, gh_clock) -> None:
    said = Said()
    start = gh_clock()
    result, _ = await go(MANY, said=said)
    assert result.status == "built" and gh_sim.files("my-site") == site_files(MANY)
    created = [a.at for a in gh_sim.created()]
    assert len(created) == 120 + 5  # the blobs, repo, tree, commit, ref, pages
    assert max(sum(1 for t in created if s <= t < s + 60) for s in created) <= 80
    assert not [a for a in gh_sim.answers if a.status in (403, 429)]  # never refused
    assert any("Keeping under GitHub's limit" in t for t in said.texts("files"))
    assert gh_clock() - start >= 60


async def test_more_than_an_hours_worth_stops_with_when_and_continues_after(
    gh_sim, transport, gh_clock, go
) -> None:
    gh = client(gh_sim, transport, gh_clock, per_hour=100, max_wait=600)
    gh_sim.limits.per_hour = 100
    state = PublishState()
    with pytest.raises(GitHubError) as err:
        await go(MANY, state=state, gh=gh)
    assert err.value.kind == "rate_limit" and "Publish again after" in err.value.message
    assert 90 <= len(state.uploaded) < 120  # what went up is remembered
    gh_clock.now += 3600
    await go(MANY, state=state, gh=client(gh_sim, transport, gh_clock, per_hour=100))
    assert gh_sim.files("my-site") == site_files(MANY)


def test_retry_after_reads_githubs_headers() -> None:
    assert retry_after(403, {"retry-after": "7"}, 0) == 7
    assert retry_after(429, {}, 0) == 60
    assert retry_after(403, {"x-ratelimit-remaining": "0", "x-ratelimit-reset": "100"}, 40) == 60
    assert retry_after(403, {}, 0, "Resource not accessible by personal access token") is None
    assert retry_after(404, {"retry-after": "7"}, 0) is None


async def test_the_pacer_counts_down_whole_seconds() -> None:
    from tests.sim.github import Clock

    clock = Clock(0.0)
    told: list[int] = []
    pacer = Pacer(clock=clock, sleep=clock.sleep)
    pacer.on_wait = lambda left, why: told.append(left)
    await pacer.wait(3.5, "why")
    assert told == [4, 3, 2, 1, 0] and clock() == 3.5
