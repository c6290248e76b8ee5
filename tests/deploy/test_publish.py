"""The publish flow against the GitHub simulator over real HTTP, each fault included."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from tests.sim.github import GitHubSim
from wiggum.deploy.github import GitHub, GitHubError
from wiggum.deploy.publish import (
    PublishState,
    added_by_wiggum,
    blob_sha,
    publish,
    repo_name,
    site_files,
    summary,
)

TOKEN = "github_pat_11SECRETSECRET"
PNG = bytes(range(256)) * 4 + b"\x89PNG\r\n\x1a\n\x00\xff"

SITE = {
    "index.html": b"<!doctype html><h1>Hi</h1>",
    "style.css": b"h1{color:red}",
    "img/logo.png": PNG,
    ".ralph/PROMPT.md": b"memory",
    ".chief/notes.md": b"plan",
    ".git/HEAD": b"ref: refs/heads/main",
}


@pytest.fixture
def gh_sim() -> Iterator[GitHubSim]:
    with GitHubSim(token=TOKEN) as s:
        yield s


def client(sim: GitHubSim, transport, token: str = TOKEN) -> GitHub:
    return GitHub(transport, token, sim.base_url)


async def go(sim, transport, files=SITE, state=None, name="my-site", token=TOKEN, steps=None):
    state = state if state is not None else PublishState()

    def progress(step: str, text: str) -> None:
        if steps is not None:
            steps.append(step)

    result = await publish(
        client(sim, transport, token), files, state, name, progress=progress, poll_interval=0
    )
    return result, state


def test_site_files_leave_out_wiggums_folders() -> None:
    assert list(site_files(SITE)) == [".nojekyll", "img/logo.png", "index.html", "style.css"]
    assert summary(SITE)[:2] == [(".nojekyll", 0), ("img/logo.png", len(PNG))]
    assert blob_sha(b"") == "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"  # git's empty blob
    assert repo_name("My Cool Site!") == "My-Cool-Site"


def test_nojekyll_unless_the_project_uses_jekyll() -> None:
    """GitHub Pages runs Jekyll without .nojekyll and drops `_`-named files then."""
    site = dict(SITE, **{"_assets/app.js": b"1", "index.html": b"<h1>Hi</h1>"})
    published = site_files(site)
    assert published[".nojekyll"] == b"" and published["_assets/app.js"] == b"1"
    assert added_by_wiggum(".nojekyll", site) and not added_by_wiggum("index.html", site)
    jekyll = dict(site, **{"_config.yml": b"theme: minima\n"})
    assert ".nojekyll" not in site_files(jekyll)
    own = dict(site, **{".nojekyll": b"mine"})
    assert site_files(own)[".nojekyll"] == b"mine" and not added_by_wiggum(".nojekyll", own)
    assert site_files({".ralph/plan.md": b"x"}) == {}  # nothing to publish stays nothing


async def test_first_publish_creates_repo_one_commit_and_pages(gh_sim, transport) -> None:
    steps: list[str] = []
    result, state = await go(gh_sim, transport, steps=steps)
    assert gh_sim.files("my-site") == site_files(SITE)  # byte for byte, binary included
    assert gh_sim.files("my-site")[".nojekyll"] == b""
    commits = gh_sim.commits("my-site")
    assert len(commits) == 2  # GitHub's auto_init commit, then the site's one commit
    assert result.commit == commits[0] == state.commit
    assert result.status == "built"
    assert result.url == "https://octo.github.io/my-site/"
    assert gh_sim.repo("my-site").pages["source"] == {"branch": "main", "path": "/"}
    assert (state.owner, state.repo, state.branch) == ("octo", "my-site", "main")
    assert steps[0] == "account" and steps[-1] == "build"


async def test_republish_adds_one_commit_to_same_repo_and_uploads_only_changes(
    gh_sim, transport
) -> None:
    _, state = await go(gh_sim, transport)
    first = gh_sim.commits("my-site")
    gh_sim.log.clear()
    edited = dict(SITE, **{"style.css": b"h1{color:blue}"})
    del edited["img/logo.png"]
    _, state = await go(gh_sim, transport, edited, state)
    commits = gh_sim.commits("my-site")
    assert commits[1:] == first and len(commits) == len(first) + 1
    assert gh_sim.files("my-site") == site_files(edited)
    blobs = [p for m, p, _ in gh_sim.log if p.endswith("/git/blobs")]
    assert len(blobs) == 1  # only the changed file
    assert not any(m == "POST" and p == "/user/repos" for m, p, _ in gh_sim.log)
    assert len(gh_sim.repos) == 1


async def test_bad_token(gh_sim, transport) -> None:
    with pytest.raises(GitHubError) as err:
        await go(gh_sim, transport, token="github_pat_wrong")
    assert err.value.kind == "bad_token" and "new fine-grained token" in err.value.message
    assert not gh_sim.repos


async def test_missing_scope(gh_sim, transport) -> None:
    gh_sim.fail(
        "POST", "/user/repos", 403, {"message": "Resource not accessible by personal access token"}
    )
    with pytest.raises(GitHubError) as err:
        await go(gh_sim, transport)
    assert err.value.kind == "scope" and "Administration" in err.value.message


async def test_repo_name_taken(gh_sim, transport) -> None:
    gh_sim.add_repo("my-site")
    with pytest.raises(GitHubError) as err:
        await go(gh_sim, transport)
    assert err.value.kind == "name_taken" and "another name" in err.value.message
    assert gh_sim.files("my-site") == {"README.md": b"# my-site\n"}  # untouched


async def test_create_refused_422_is_name_taken(gh_sim, transport) -> None:
    # Taken between the lookup and the create (e.g. another tab): GitHub's 422.
    gh_sim.fail(
        "POST",
        "/user/repos",
        422,
        {
            "message": "Repository creation failed.",
            "errors": [{"message": "name already exists on this account"}],
        },
    )
    with pytest.raises(GitHubError) as err:
        await go(gh_sim, transport)
    assert err.value.kind == "name_taken"


@pytest.mark.parametrize("status", [403, 429])
async def test_rate_limit_says_when(gh_sim, transport, status) -> None:
    reset = int(time.time()) + 1800
    gh_sim.fail(
        "POST",
        "/repos/octo/my-site/git/blobs",
        status,
        {"message": "API rate limit exceeded"},
        {"x-ratelimit-remaining": "0", "x-ratelimit-reset": str(reset)},
    )
    state = PublishState()
    with pytest.raises(GitHubError) as err:
        await go(gh_sim, transport, state=state)
    assert err.value.kind == "rate_limit" and err.value.retry_at == reset
    assert time.strftime("%H:%M UTC", time.gmtime(reset)) in err.value.message
    await go(gh_sim, transport, state=state)  # later: continues
    assert gh_sim.files("my-site") == site_files(SITE)


async def test_network_drop_halfway_is_not_done_and_retry_continues(gh_sim, transport) -> None:
    state = PublishState()
    gh_sim.drop("POST", "/repos/octo/my-site/git/commits")
    with pytest.raises(GitHubError) as err:
        await go(gh_sim, transport, state=state)
    assert err.value.kind == "network" and "publish again" in err.value.message
    assert state.commit == "" and len(state.uploaded) == 4  # .nojekyll too
    assert gh_sim.files("my-site") == {"README.md": b"# my-site\n"}  # the branch did not move
    gh_sim.log.clear()
    result, state = await go(gh_sim, transport, state=state)
    assert not [p for _, p, _ in gh_sim.log if p.endswith("/git/blobs")]  # blobs reused
    assert gh_sim.files("my-site") == site_files(SITE)
    assert len(gh_sim.commits("my-site")) == 2 and result.status == "built"


async def test_pages_build_failure_shows_githubs_message(gh_sim, transport) -> None:
    gh_sim.pages_error = "Page build failed: a file named index.html is missing."
    result, state = await go(gh_sim, transport)
    assert result.status == "errored" and result.message == gh_sim.pages_error
    assert state.commit  # the commit is in; only the build failed


async def test_token_never_in_messages_or_reprs(gh_sim, transport) -> None:
    gh = client(gh_sim, transport)
    assert TOKEN not in repr(gh)
    gh_sim.drop("GET", "/user")
    with pytest.raises(GitHubError) as err:
        await gh.user()
    assert TOKEN not in str(err.value) and TOKEN not in repr(err.value.__cause__)
    _, state = await go(gh_sim, transport)
    assert TOKEN not in state.model_dump_json()
    assert all(h["authorization"] == f"Bearer {TOKEN}" for _, _, h in gh_sim.log[1:])


async def test_empty_repo_refuses_git_data_like_github(gh_sim, transport) -> None:
    gh_sim.add_repo("bare", empty=True)
    gh = client(gh_sim, transport)
    with pytest.raises(GitHubError) as err:
        await gh.call(
            "POST", "/repos/octo/bare/git/blobs", "x", {"content": "", "encoding": "utf-8"}
        )
    assert err.value.status == 409


async def test_no_index_html_refused_before_any_call(gh_sim, transport) -> None:
    with pytest.raises(GitHubError) as err:
        await go(gh_sim, transport, {"about.html": b"x"})
    assert err.value.kind == "no_index" and not gh_sim.log


async def test_publish_into_empty_repo_chosen_before(gh_sim, transport) -> None:
    gh_sim.add_repo("bare", empty=True)
    state = PublishState(owner="octo", repo="bare")
    result, state = await go(gh_sim, transport, state=state, name="bare")
    assert gh_sim.files("bare") == site_files(SITE)
    assert len(gh_sim.commits("bare")) == 2 and result.status == "built"


def test_token_stored_like_provider_keys_and_only_there() -> None:
    from wiggum.ui.settings import Settings

    s = Settings(github_token=TOKEN)
    assert TOKEN not in repr(s) and TOKEN not in s.model_dump_json()
    record = s.to_storage()
    assert record["github_token"] == TOKEN
    assert Settings.from_storage(record).github_token.get_secret_value() == TOKEN


async def test_another_name_publishes_to_a_new_repo(gh_sim, transport) -> None:
    _, state = await go(gh_sim, transport)
    _, state = await go(gh_sim, transport, state=state, name="other-site")
    assert (state.owner, state.repo) == ("octo", "other-site")
    assert gh_sim.files("other-site") == site_files(SITE)
    assert len(gh_sim.commits("my-site")) == 2  # the first one untouched


async def test_a_refused_name_does_not_forget_the_repo_chosen_before(gh_sim, transport) -> None:
    _, state = await go(gh_sim, transport)
    gh_sim.add_repo("taken")
    with pytest.raises(GitHubError) as err:
        await go(gh_sim, transport, state=state, name="taken")
    assert err.value.kind == "name_taken"
    assert (state.owner, state.repo) == ("octo", "my-site")
    await go(gh_sim, transport, state=state)
    assert len(gh_sim.commits("my-site")) == 3
