"""Opening a repository from the simulated GitHub: every object rebuilt with git's own id
(checked with the git CLI), the depth chosen, the site root found, no token for a public
repository and a token for a private one."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.deploy.publishing import client
from wiggum.deploy.errors import GitHubError
from wiggum.deploy.opening import open_repository, parse_address
from wiggum.project.gitfolder import git_folder


def _history(gh_sim, name: str, commits: int, *, timezone: int = 0) -> list[str]:
    gh_sim.add_repo(name, files={"index.html": b"<h1>0</h1>", "run.sh": b"#!/bin/sh\n"},
                    modes={"run.sh": "100755"})  # fmt: skip
    gh_sim.timezone = timezone
    for i in range(1, commits):
        gh_sim.clock.now += 3600
        files = {"index.html": f"<h1>{i}</h1>".encode(), "run.sh": b"#!/bin/sh\n",
                 "docs/a/b.txt": f"{i % 3}\n".encode()}  # fmt: skip
        gh_sim.push(name, files, message=f"Change {i}")
    gh_sim.timezone = 0
    return gh_sim.commits(name)


def _write(tmp: Path, files: dict[str, bytes]) -> Path:
    for path, data in files.items():
        target = tmp / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return tmp


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                          text=True).stdout  # fmt: skip


@pytest.mark.parametrize("text", ["octo/site", "https://github.com/octo/site",
                                  "github.com/octo/site.git", "git@github.com:octo/site.git",
                                  "https://github.com/octo/site/tree/main/docs"])  # fmt: skip
def test_an_address_is_owner_and_name(text) -> None:
    assert parse_address(text) == ("octo", "site")


@pytest.mark.parametrize("text", ["", "site", "https://gitlab.com/octo/site", "octo/..", "a b/c"])
def test_what_is_no_address(text) -> None:
    assert parse_address(text) is None


async def test_a_history_rebuilds_with_githubs_ids_and_git_reads_it(
    gh_sim, transport, gh_clock, tmp_path
) -> None:
    ids = _history(gh_sim, "site", 5, timezone=120)  # a zone the API does not say
    gh = client(gh_sim, transport, gh_clock, token="")
    opened = await open_repository(gh, "octo/site")
    assert opened.rebuilt == [] and opened.local_head == ids[0] == opened.head
    assert opened.shallow == [] and opened.commits == 5
    assert opened.files["index.html"] == b"<h1>4</h1>"
    assert not any(a[2].get("authorization") for a in gh_sim.log)  # no token sent
    folder = git_folder(opened.objects.values(), opened.branch, opened.local_head,
                        opened.shallow, "https://github.com/octo/site.git")  # fmt: skip
    repo = _write(tmp_path, {**folder, **opened.files})
    _git(repo, "fsck", "--strict")
    assert _git(repo, "rev-list", "HEAD").split() == ids
    assert _git(repo, "log", "-1", "--format=%ai").strip().endswith("+0200")
    assert _git(repo, "ls-tree", ids[-1], "run.sh").startswith("100755")  # the mode kept


async def test_the_depth_chosen_is_the_history_read_and_its_edge_is_shallow(
    gh_sim, transport, gh_clock, tmp_path
) -> None:
    ids = _history(gh_sim, "site", 6)
    gh = client(gh_sim, transport, gh_clock, token="")
    opened = await open_repository(gh, "octo/site", depth=2)
    assert opened.commits == 2 and opened.shallow == [ids[1]]
    folder = git_folder(opened.objects.values(), opened.branch, opened.local_head,
                        opened.shallow, "https://github.com/octo/site.git")  # fmt: skip
    repo = _write(tmp_path, folder)
    _git(repo, "fsck", "--strict")
    assert _git(repo, "rev-list", "HEAD").split() == ids[:2]


async def test_a_private_repository_needs_a_token(gh_sim, transport, gh_clock) -> None:
    gh_sim.add_repo("secret", private=True, files={"index.html": b"<p>private</p>"})
    anonymous = client(gh_sim, transport, gh_clock, token="")
    with pytest.raises(GitHubError) as err:
        await open_repository(anonymous, "octo/secret")
    assert err.value.kind == "not_found" and "without a token" in err.value.message
    opened = await open_repository(client(gh_sim, transport, gh_clock), "octo/secret")
    assert opened.files == {"index.html": b"<p>private</p>"} and opened.repo.private


async def test_the_site_root_is_pages_folder_then_top_then_docs(gh_sim, transport, gh_clock):
    gh = client(gh_sim, transport, gh_clock)
    gh_sim.add_repo("top", files={"index.html": b"t", "docs/index.html": b"d"})
    gh_sim.add_repo("docs", files={"README.md": b"r", "docs/index.html": b"d"})
    gh_sim.add_repo("paged", files={"index.html": b"t", "docs/index.html": b"d"})
    gh_sim.enable_pages("paged", path="/docs")
    assert (await open_repository(gh, "octo/top")).site_root == ""
    assert (await open_repository(gh, "octo/docs")).site_root == "docs/"
    assert (await open_repository(gh, "octo/paged")).site_root == "docs/"


async def test_a_file_over_a_projects_limit_is_refused_before_reading(gh_sim, transport, gh_clock):
    gh_sim.add_repo(
        "big", files={"index.html": b"<h1>x</h1>", "video.mp4": b"\0" * (10 * 2**20 + 1)}
    )
    with pytest.raises(GitHubError) as err:
        await open_repository(client(gh_sim, transport, gh_clock), "octo/big")
    assert err.value.kind == "too_large" and err.value.message.startswith("video.mp4 is over 10 MB")
    assert not any("/git/blobs/" in path for _, path, _ in gh_sim.log)
