"""The publish flow against the faithful GitHub simulator over real HTTP: what goes, in
how few requests, and what is remembered."""

from __future__ import annotations

import subprocess

from tests.deploy.publishing import PNG, SITE, TOKEN, Said, client
from wiggum.deploy.gitid import blob_id
from wiggum.deploy.publish import (
    PublishState,
    added_by_wiggum,
    blob_sha,
    repo_name,
    site_files,
    summary,
    whole_files,
)


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


def test_a_nested_git_folder_is_never_published(tmp_path) -> None:
    """A library copied with its history (lib/.git/...) would make GitHub refuse the
    whole commit; git itself refuses such a path, which is what this checks against."""
    site = {
        "index.html": b"<h1>Hi</h1>",
        "lib/x.js": b"1",
        "lib/.git/config": b"[core]\n",
        "lib/.GIT/HEAD": b"ref: refs/heads/main\n",
        "a.git/b": b"kept",
        ".gitignore": b"x",
    }
    published = site_files(site)
    assert sorted(published) == [".gitignore", ".nojekyll", "a.git/b", "index.html", "lib/x.js"]
    assert sorted(whole_files(site)) == [".gitignore", "a.git/b", "index.html", "lib/x.js"]
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    blob = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"
    for path, refused in (("lib/.git/config", True), ("lib/.GIT/HEAD", True), ("a.git/b", False)):
        done = subprocess.run(
            [
                "git",
                "-C",
                str(tmp_path),
                "update-index",
                "--add",
                "--cacheinfo",
                f"100644,{blob},{path}",
            ],
            capture_output=True,
            text=True,
        )
        assert (done.returncode != 0) == refused, (path, done.stderr)


def creating(sim, since: int = 0) -> list[tuple[str, str]]:
    return [(a.method, a.path) for a in sim.answers[since:] if a.method != "GET"]


async def test_first_publish_creates_repo_one_commit_and_pages(gh_sim, go) -> None:
    said = Said()
    result, state = await go(said=said)
    assert gh_sim.files("my-site") == site_files(SITE)  # byte for byte, binary included
    commits = gh_sim.commits("my-site")
    assert len(commits) == 2  # GitHub's auto_init commit, then the site's one commit
    assert result.commit == commits[0] == state.commit
    assert result.status == "built" and result.differences == [] and result.changed
    assert result.url == "https://octo.github.io/my-site/"
    assert gh_sim.repo("my-site").pages["source"] == {"branch": "main", "path": "/"}
    assert (state.owner, state.repo, state.branch) == ("octo", "my-site", "main")
    assert said.steps[0][0] == "account" and said.steps[-1][0] == "build"
    # Text goes inline in the tree; only the binary file is a blob of its own.
    assert creating(gh_sim) == [
        ("POST", "/user/repos"),
        ("POST", "/repos/octo/my-site/git/blobs"),
        ("POST", "/repos/octo/my-site/git/trees"),
        ("POST", "/repos/octo/my-site/git/commits"),
        ("PATCH", "/repos/octo/my-site/git/refs/heads/main"),
        ("POST", "/repos/octo/my-site/pages"),
    ]


async def test_republish_sends_only_what_changed_and_deletes_what_went(gh_sim, go) -> None:
    _, state = await go()
    first = gh_sim.commits("my-site")
    since = len(gh_sim.answers)
    edited = dict(SITE, **{"style.css": b"h1{color:blue}"})
    del edited["img/logo.png"]
    result, state = await go(edited, state)
    commits = gh_sim.commits("my-site")
    assert commits[1:] == first and len(commits) == len(first) + 1
    assert gh_sim.files("my-site") == site_files(edited)
    assert creating(gh_sim, since) == [
        ("POST", "/repos/octo/my-site/git/trees"),
        ("POST", "/repos/octo/my-site/git/commits"),
        ("PATCH", "/repos/octo/my-site/git/refs/heads/main"),
    ]
    tree = [r for r in gh_sim.log if r[1].endswith("/git/trees") and r[0] == "POST"]
    assert len(tree) == 2 and len(gh_sim.repos) == 1
    assert result.status == "built"


async def test_an_unchanged_republish_writes_nothing(gh_sim, go) -> None:
    _, state = await go()
    since, head = len(gh_sim.answers), gh_sim.commits("my-site")[0]
    result, _ = await go(state=state)
    assert creating(gh_sim, since) == [] and gh_sim.commits("my-site")[0] == head
    assert not result.changed and result.commit == head and result.status == "built"


async def test_a_file_becomes_a_folder_and_a_folder_a_file(gh_sim, go) -> None:
    _, state = await go({"index.html": b"i", "about": b"a file", "blog/post.html": b"p"})
    await go({"index.html": b"i", "about/index.html": b"now a folder", "blog": b"a file"}, state)
    assert gh_sim.files("my-site") == {
        ".nojekyll": b"",
        "about/index.html": b"now a folder",
        "blog": b"a file",
        "index.html": b"i",
    }


async def test_modes_and_github_settings_on_the_branch_are_kept(gh_sim, go) -> None:
    """An executable's mode stays when its bytes do; .github/ and CNAME are never deleted."""
    gh_sim.add_repo(
        "kept",
        files={"run.sh": b"#!/bin/sh\n", ".github/workflows/ci.yml": b"on: push\n",
               "CNAME": b"example.org\n", "old.html": b"old"},
        modes={"run.sh": "100755"},
    )  # fmt: skip
    state = PublishState(owner="octo", repo="kept")
    await go({"index.html": b"<h1>k</h1>", "run.sh": b"#!/bin/sh\n"}, state, name="kept")
    assert gh_sim.modes("kept")["run.sh"] == "100755"
    files = gh_sim.files("kept")
    assert "old.html" not in files and files["CNAME"] == b"example.org\n"
    assert files[".github/workflows/ci.yml"] == b"on: push\n"


async def test_text_is_sent_exactly_as_it_is(gh_sim, go) -> None:
    odd = {
        "index.html": "<p>café ✓ 🎉</p>\r\n".encode(),
        "latin1.txt": "café".encode("latin-1"),  # not UTF-8: goes as a blob
        "nul.bin": b"a\x00b",
        "empty.txt": b"",
    }
    await go(odd)
    assert gh_sim.files("my-site") == site_files(odd)


async def test_a_network_drop_halfway_is_not_done_and_publishing_again_continues(
    gh_sim, go
) -> None:
    from wiggum.deploy.github import GitHubError

    state = PublishState()
    gh_sim.drop("POST", "/repos/octo/my-site/git/commits")
    try:
        await go(state=state)
    except GitHubError as err:
        assert err.kind == "network" and "publish again" in err.message
    else:
        raise AssertionError("the drop was not noticed")
    assert state.commit == "" and state.uploaded == [blob_id(PNG)]
    assert gh_sim.files("my-site") == {"README.md": b"# my-site\n"}  # the branch did not move
    since = len(gh_sim.answers)
    result, state = await go(state=state)
    assert ("POST", "/repos/octo/my-site/git/blobs") not in creating(gh_sim, since)
    assert gh_sim.files("my-site") == site_files(SITE)
    assert len(gh_sim.commits("my-site")) == 2 and result.status == "built"


async def test_publish_into_an_empty_repository_chosen_before(gh_sim, go) -> None:
    gh_sim.add_repo("bare", empty=True)
    result, _ = await go(state=PublishState(owner="octo", repo="bare"), name="bare")
    assert gh_sim.files("bare") == site_files(SITE)
    assert len(gh_sim.commits("bare")) == 2 and result.status == "built"


async def test_another_name_publishes_to_a_new_repository(gh_sim, go) -> None:
    _, state = await go()
    _, state = await go(state=state, name="other-site")
    assert (state.owner, state.repo) == ("octo", "other-site")
    assert gh_sim.files("other-site") == site_files(SITE)
    assert len(gh_sim.commits("my-site")) == 2  # the first one untouched


async def test_the_token_is_never_in_the_state_and_only_in_the_authorization(gh_sim, go):
    _, state = await go()
    assert TOKEN not in state.model_dump_json()
    assert all(h["authorization"] == f"Bearer {TOKEN}" for _, _, h in gh_sim.log)


def test_the_token_is_stored_like_provider_keys_and_only_there() -> None:
    from wiggum.ui.settings import Settings

    s = Settings(github_token=TOKEN)
    assert TOKEN not in repr(s) and TOKEN not in s.model_dump_json()
    record = s.to_storage()
    assert record["github_token"] == TOKEN
    assert Settings.from_storage(record).github_token.get_secret_value() == TOKEN


async def test_the_empty_repository_refuses_git_data_like_github(gh_sim, transport, gh_clock):
    from wiggum.deploy.github import GitHubError

    gh_sim.add_repo("bare", empty=True)
    gh = client(gh_sim, transport, gh_clock)
    try:
        await gh.call("POST", "/repos/octo/bare/git/blobs", "x", {"content": ""})
    except GitHubError as err:
        assert err.status == 409
    else:
        raise AssertionError("409 expected")
