"""An opened repository publishes back where it came from: its files where they are, modes
kept, nothing added, and never over changes made on GitHub since it was opened."""

from __future__ import annotations

import pytest

from tests.github_open.conftest import SITE, history
from wiggum.deploy.errors import GitHubError
from wiggum.deploy.publish import PublishState, publish


async def _files(project) -> dict[str, bytes]:
    fs = project.files
    return {p: await fs.read_bytes(p) for p in await fs.list("") if not p.startswith(".git/")}


async def test_an_opened_repository_publishes_its_files_where_they_are(
    gh_sim, gh, open_project
) -> None:
    ids = history(gh_sim, "site", 2)
    gh_sim.push("site", {**SITE, "index.html": b"<h1>1</h1>\n", "docs/index.html": b"d\n"})
    gh_sim.enable_pages("site", path="/docs")
    got = await open_project("octo/site")
    state = PublishState.model_validate(await got.record())
    assert state.root == "docs/"
    files = {**await _files(got), "docs/index.html": b"<p>edited</p>\n"}
    result = await publish(gh, files, state, "site")
    on_github = gh_sim.files("site")
    assert on_github == files  # no .nojekyll added, nothing moved into docs/docs/
    assert gh_sim.modes("site")["run.sh"] == "100755"
    assert result.differences == [] and gh_sim.commits("site")[2:] == ids


async def test_publishing_over_changes_made_on_github_is_refused(gh_sim, gh, open_project):
    history(gh_sim, "site", 2)
    got = await open_project("octo/site")
    theirs = gh_sim.push("site", {**SITE, "index.html": b"<h1>theirs</h1>\n"})
    state = PublishState.model_validate(await got.record())
    files = {**await _files(got), "index.html": b"<h1>mine</h1>\n"}
    with pytest.raises(GitHubError) as err:
        await publish(gh, files, state, "site")
    assert err.value.kind == "behind" and "pull them first" in err.value.message
    assert gh_sim.commits("site")[0] == theirs
