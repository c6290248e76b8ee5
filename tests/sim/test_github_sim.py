"""The GitHub simulator is faithful: git's ids (checked with the git CLI), modes, nested
trees, rate limits, Pages and workflow runs, and every answer as GitHub documents it."""

from __future__ import annotations

import base64
import subprocess
from pathlib import Path

import httpx
import pytest

from tests.sim.github import TOKEN, GitHubSim
from tests.sim.github_openapi import Undocumented, description

H = {"Authorization": f"Bearer {TOKEN}", "Accept": "application/vnd.github+json"}


CLIENT = httpx.Client()


def call(sim: GitHubSim, method: str, path: str, body=None, token: str = TOKEN) -> httpx.Response:
    headers = dict(H, Authorization=f"Bearer {token}")
    return CLIENT.request(method, sim.base_url + path, json=body, headers=headers)


def git(repo: Path, *args: str, data: bytes | None = None) -> str:
    out = subprocess.run(["git", *args], cwd=repo, input=data, capture_output=True, check=True)
    return out.stdout.decode().strip()


def test_blob_tree_and_commit_ids_are_gits_own(gh_sim, tmp_path) -> None:
    r = gh_sim.add_repo("ids", files={"README.md": b"# ids\n"})
    base = gh_sim.tree_of("ids")
    tool = b"#!/bin/sh\necho hi\n"
    entries = [
        {"path": "site/index.html", "mode": "100644", "type": "blob", "content": "<h1>é</h1>\n"},
        {"path": "site/deep/er/a.txt", "mode": "100644", "type": "blob", "content": "a"},
        {"path": "bin/run", "mode": "100755", "type": "blob",
         "sha": call(gh_sim, "POST", "/repos/octo/ids/git/blobs",
                     {"content": base64.b64encode(tool).decode(), "encoding": "base64"}).json()["sha"]},
        {"path": "link", "mode": "120000", "type": "blob", "content": "site/index.html"},
    ]  # fmt: skip
    tree = call(gh_sim, "POST", "/repos/octo/ids/git/trees", {"base_tree": base, "tree": entries})
    assert tree.status_code == 201 and tree.headers["location"].endswith(tree.json()["sha"])
    commit = call(
        gh_sim,
        "POST",
        "/repos/octo/ids/git/commits",
        {"message": "Nested\n", "tree": tree.json()["sha"], "parents": [r.refs["main"]]},
    ).json()
    assert commit["author"]["name"] and commit["committer"]["date"].endswith("Z")
    # The same objects written by git itself get the same ids, and fsck finds them sound.
    repo = tmp_path / "check"
    subprocess.run(["git", "init", "-q", "--bare", str(repo)], check=True)
    for sha, obj in r.store.objects.items():
        kind = obj.type_name.decode()
        written = git(repo, "hash-object", "-w", "-t", kind, "--stdin", data=obj.as_raw_string())
        assert written == sha, kind
    assert git(repo, "rev-parse", f"{commit['sha']}^{{tree}}") == tree.json()["sha"]
    listing = git(repo, "ls-tree", "-r", commit["sha"])
    assert "100755 blob" in listing and "120000 blob" in listing
    assert git(repo, "hash-object", "--stdin", data=tool) in listing
    subprocess.run(["git", "fsck", "--strict", "--no-dangling"], cwd=repo, check=True,
                   capture_output=True)  # fmt: skip
    assert r.store.modes(tree.json()["sha"]) == {"README.md": "100644", "bin/run": "100755", "link": "120000",
                               "site/deep/er/a.txt": "100644", "site/index.html": "100644"}  # fmt: skip
    # git mktree agrees on a top-level tree made of the same entries.
    top = r.store.entries(tree.json()["sha"])
    lines = "".join(
        f"{m} {'tree' if m == '040000' else 'blob'} {s}\t{n}\n" for n, (m, s) in top.items()
    )
    assert git(repo, "mktree", data=lines.encode()) == tree.json()["sha"]


def test_trees_answer_nested_and_recursive_and_delete_with_null(gh_sim) -> None:
    gh_sim.add_repo("t", files={"a/b/c.txt": b"c", "a/d.txt": b"d", "e.txt": b"e"})
    flat = call(gh_sim, "GET", f"/repos/octo/t/git/trees/{gh_sim.tree_of('t')}").json()
    assert [(e["path"], e["type"], e["mode"]) for e in flat["tree"]] == [
        ("a", "tree", "040000"),
        ("e.txt", "blob", "100644"),
    ]
    deep = call(gh_sim, "GET", f"/repos/octo/t/git/trees/{gh_sim.tree_of('t')}?recursive=1").json()
    assert [e["path"] for e in deep["tree"]] == ["a", "a/b", "a/b/c.txt", "a/d.txt", "e.txt"]
    assert deep["truncated"] is False
    base = gh_sim.tree_of("t")
    gone = call(
        gh_sim,
        "POST",
        "/repos/octo/t/git/trees",
        {"base_tree": base, "tree": [{"path": "a/b/c.txt", "mode": "100644", "type": "blob",
                                      "sha": None}]},
    )  # fmt: skip
    paths = [e["path"] for e in call(gh_sim, "GET", f"/repos/octo/t/git/trees/{gone.json()['sha']}?recursive=1").json()["tree"]]  # fmt: skip
    assert paths == ["a", "a/d.txt", "e.txt"]  # an emptied folder goes too, as in git
    refused = call(
        gh_sim,
        "POST",
        "/repos/octo/t/git/trees",
        {"tree": [{"path": "x", "mode": "100644", "type": "blob", "sha": "0" * 40}]},
    )
    assert refused.status_code == 422


def test_every_answer_carries_rate_limit_headers_and_the_primary_limit_counts(gh_sim) -> None:
    first = call(gh_sim, "GET", "/user")
    second = call(gh_sim, "GET", "/user")
    assert int(first.headers["x-ratelimit-remaining"]) == 4999
    assert int(second.headers["x-ratelimit-remaining"]) == 4998
    assert second.headers["x-ratelimit-resource"] == "core"
    gh_sim.limits.used = gh_sim.limits.primary
    out = call(gh_sim, "GET", "/user")
    assert out.status_code == 403 and out.headers["x-ratelimit-remaining"] == "0"
    assert int(out.headers["x-ratelimit-reset"]) == int(gh_sim.limits.window + 3600)


def test_content_creation_past_80_a_minute_is_a_secondary_limit_with_retry_after(gh_sim, gh_clock):
    gh_sim.add_repo("s")
    for i in range(80):
        gh_clock.now += 0.5
        assert (
            call(gh_sim, "POST", "/repos/octo/s/git/blobs", {"content": str(i)}).status_code == 201
        )
    refused = call(gh_sim, "POST", "/repos/octo/s/git/blobs", {"content": "one more"})
    assert refused.status_code == 403 and "secondary rate limit" in refused.json()["message"]
    assert refused.headers["retry-after"] == "21"  # the first of the 80 leaves the minute then
    assert call(gh_sim, "GET", "/user").status_code == 200  # reading is not creating
    gh_clock.now += 21
    assert call(gh_sim, "POST", "/repos/octo/s/git/blobs", {"content": "now"}).status_code == 201


def test_the_hourly_content_limit(gh_sim, gh_clock) -> None:
    gh_sim.add_repo("h")
    gh_sim.limits.per_minute = 10_000
    for _ in range(499):
        gh_clock.now += 1
        gh_sim.limits.created_one("POST", gh_clock.now)
    gh_clock.now += 1
    assert call(gh_sim, "POST", "/repos/octo/h/git/blobs", {"content": "500th"}).status_code == 201
    refused = call(gh_sim, "POST", "/repos/octo/h/git/blobs", {"content": "x"})
    assert refused.status_code == 403 and int(refused.headers["retry-after"]) == 3101


def test_a_legacy_pages_build_shows_late_then_progresses(gh_sim, gh_clock) -> None:
    gh_sim.add_repo("p")
    assert call(gh_sim, "GET", "/repos/octo/p/pages").status_code == 404
    made = call(
        gh_sim, "POST", "/repos/octo/p/pages", {"source": {"branch": "main", "path": "/docs"}}
    )
    assert made.status_code == 201 and made.json()["build_type"] == "legacy"
    assert made.json()["source"] == {"branch": "main", "path": "/docs"}
    assert call(gh_sim, "GET", "/repos/octo/p/pages/builds/latest").status_code == 404  # not yet
    seen = []
    for _ in range(12):
        gh_clock.now += 1
        seen.append(call(gh_sim, "GET", "/repos/octo/p/pages/builds/latest").json()["status"])
    assert seen[0] == "queued" and "building" in seen and seen[-1] == "built"
    assert call(gh_sim, "GET", "/repos/octo/p/pages").json()["status"] == "built"


def test_a_workflow_site_builds_in_a_workflow_run(gh_sim, gh_clock) -> None:
    gh_sim.add_repo("w")
    made = call(gh_sim, "POST", "/repos/octo/w/pages", {"build_type": "workflow"})
    assert made.json()["build_type"] == "workflow"
    sha = gh_sim.push("w", {"index.html": b"<h1>w</h1>"})
    gh_clock.now += 1
    runs = call(gh_sim, "GET", f"/repos/octo/w/actions/runs?head_sha={sha}").json()
    assert runs["total_count"] == 1 and runs["workflow_runs"][0]["status"] == "queued"
    gh_clock.now += 10
    run = call(gh_sim, "GET", f"/repos/octo/w/actions/runs?head_sha={sha}").json()["workflow_runs"][
        0
    ]
    assert (run["status"], run["conclusion"]) == ("completed", "success")
    assert call(gh_sim, "GET", "/repos/octo/w/pages/builds/latest").status_code == 404


def test_a_renamed_repository_redirects_like_github(gh_sim) -> None:
    r = gh_sim.add_repo("old")
    gh_sim.rename("old", "new")
    moved = call(gh_sim, "GET", "/repos/octo/old")
    assert moved.status_code == 301
    assert moved.headers["location"] == f"{gh_sim.base_url}/repositories/{r.id}"
    assert call(gh_sim, "GET", f"/repositories/{r.id}").json()["full_name"] == "octo/new"
    post = call(gh_sim, "POST", "/repos/octo/old/git/blobs", {"content": "x"})
    assert post.status_code == 307


def test_a_missing_permission_names_itself(gh_sim) -> None:
    gh_sim.add_repo("perm")
    del gh_sim.permissions["pages"]
    out = call(gh_sim, "GET", "/repos/octo/perm/pages")
    assert out.status_code == 403
    assert out.headers["x-accepted-github-permissions"] == "pages=read"


def test_a_private_repository_on_a_plan_without_pages(gh_sim) -> None:
    gh_sim.add_repo("priv", private=True)
    gh_sim.plan_has_pages = False
    out = call(gh_sim, "POST", "/repos/octo/priv/pages", {"source": {"branch": "main"}})
    assert out.status_code == 422 and "plan does not support GitHub Pages" in out.json()["message"]


COMMIT_WITHOUT_AUTHOR = {
    "sha": "a", "node_id": "n", "url": "u", "html_url": "h", "message": "m", "parents": [],
    "committer": {"name": "n", "email": "e", "date": "2026-01-01T00:00:00Z"},
    "tree": {"sha": "b", "url": "u"},
    "verification": {"verified": False, "reason": "unsigned", "signature": None,
                     "payload": None, "verified_at": None},
}  # fmt: skip


def test_an_undocumented_answer_fails_the_test(gh_clock) -> None:
    """The check is real: an answer GitHub would not send is caught at once."""
    d = description()
    headers = {h: "1" for h in ("x-ratelimit-limit", "x-ratelimit-remaining",
                                "x-ratelimit-reset", "x-ratelimit-used", "x-ratelimit-resource")}  # fmt: skip
    with pytest.raises(Undocumented, match="Location"):
        d.check_response("POST", "/repos/o/r/git/blobs", 201, {"sha": "a" * 40}, headers)
    with pytest.raises(Undocumented, match="url"):
        d.check_response("POST", "/repos/o/r/git/blobs", 201, {"sha": "a"}, {**headers,
                         "Location": "x"})  # fmt: skip
    with pytest.raises(Undocumented, match="does not document"):
        d.check_response("PATCH", "/repos/o/r/git/refs/heads/main", 201, {}, headers)
    with pytest.raises(Undocumented, match="x-ratelimit"):
        d.check_response("GET", "/user", 401, {"message": "Bad credentials"}, {})
    with pytest.raises(Undocumented, match="author"):
        d.check_response("POST", "/repos/o/r/git/commits", 201, COMMIT_WITHOUT_AUTHOR,
                         {**headers, "Location": "x"})  # fmt: skip
    with pytest.raises(Undocumented, match="mode"):
        d.check_request("POST", "/repos/o/r/git/trees", {"tree": [{"path": "a", "mode": "644"}]})
    # ... and the simulator's own check fails the test that saw one.
    with (
        pytest.raises(AssertionError, match="outside GitHub's REST description"),
        GitHubSim(token=TOKEN, clock=gh_clock) as s,
    ):
        s.add_repo("r")
        s.fail("GET", "/repos/octo/r/git/ref/heads/main", 418, {"message": "teapot"})
        call(s, "GET", "/repos/octo/r/git/ref/heads/main")
