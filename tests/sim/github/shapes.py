"""The JSON the simulated GitHub answers with, in the shapes GitHub's description gives.

Every field an answer's schema requires is here (``tests/sim/github_openapi.py``
checks each answer), with values made from the simulated state: URLs under the
simulator's own address, ``html_url`` on ``https://github.com``.
"""

from __future__ import annotations

import base64
import time
from typing import Any

HTML = "https://github.com"
DOCS = "https://docs.github.com/rest"


def iso(ts: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ts))


def error(message: str, status: int, doc: str = "") -> dict[str, Any]:
    return {"message": message, "documentation_url": f"{DOCS}{doc}", "status": str(status)}


def invalid(message: str, field: str = "", code: str = "custom") -> dict[str, Any]:
    body: dict[str, Any] = error(message, 422)
    if field:
        body["errors"] = [{"resource": "Repository", "field": field, "code": code}]
    return body


def user(api: str, login: str, uid: int) -> dict[str, Any]:
    """A ``simple-user``."""
    base = f"{api}/users/{login}"
    return {
        "login": login,
        "id": uid,
        "node_id": f"U_{uid}",
        "avatar_url": f"https://avatars.githubusercontent.com/u/{uid}",
        "gravatar_id": "",
        "url": base,
        "html_url": f"{HTML}/{login}",
        "followers_url": f"{base}/followers",
        "following_url": f"{base}/following{{/other_user}}",
        "gists_url": f"{base}/gists{{/gist_id}}",
        "starred_url": f"{base}/starred{{/owner}}{{/repo}}",
        "subscriptions_url": f"{base}/subscriptions",
        "organizations_url": f"{base}/orgs",
        "repos_url": f"{base}/repos",
        "events_url": f"{base}/events{{/privacy}}",
        "received_events_url": f"{base}/received_events",
        "type": "User",
        "site_admin": False,
        "user_view_type": "public",
    }


def private_user(api: str, login: str, uid: int, created: float) -> dict[str, Any]:
    """``GET /user``: the ``private-user`` the token belongs to."""
    out = user(api, login, uid)
    out.update(
        user_view_type="private",
        name=None,
        company=None,
        blog="",
        location=None,
        email=None,
        hireable=None,
        bio=None,
        public_repos=0,
        public_gists=0,
        followers=0,
        following=0,
        created_at=iso(created),
        updated_at=iso(created),
        private_gists=0,
        total_private_repos=0,
        owned_private_repos=0,
        disk_usage=0,
        collaborators=0,
        two_factor_authentication=True,
    )
    return out


_REPO_URLS = {
    "archive_url": "/{archive_format}{/ref}",
    "assignees_url": "/assignees{/user}",
    "blobs_url": "/git/blobs{/sha}",
    "branches_url": "/branches{/branch}",
    "collaborators_url": "/collaborators{/collaborator}",
    "comments_url": "/comments{/number}",
    "commits_url": "/commits{/sha}",
    "compare_url": "/compare/{base}...{head}",
    "contents_url": "/contents/{+path}",
    "contributors_url": "/contributors",
    "deployments_url": "/deployments",
    "downloads_url": "/downloads",
    "events_url": "/events",
    "forks_url": "/forks",
    "git_commits_url": "/git/commits{/sha}",
    "git_refs_url": "/git/refs{/sha}",
    "git_tags_url": "/git/tags{/sha}",
    "hooks_url": "/hooks",
    "issue_comment_url": "/issues/comments{/number}",
    "issue_events_url": "/issues/events{/number}",
    "issues_url": "/issues{/number}",
    "keys_url": "/keys{/key_id}",
    "labels_url": "/labels{/name}",
    "languages_url": "/languages",
    "merges_url": "/merges",
    "milestones_url": "/milestones{/number}",
    "notifications_url": "/notifications{?since,all,participating}",
    "pulls_url": "/pulls{/number}",
    "releases_url": "/releases{/id}",
    "stargazers_url": "/stargazers",
    "statuses_url": "/statuses/{sha}",
    "subscribers_url": "/subscribers",
    "subscription_url": "/subscription",
    "tags_url": "/tags",
    "teams_url": "/teams",
    "trees_url": "/git/trees{/sha}",
}


def minimal_repo(api: str, r: Any, owner: dict[str, Any]) -> dict[str, Any]:
    """A ``minimal-repository`` (what a workflow run names)."""
    url = f"{api}/repos/{r.owner}/{r.name}"
    out: dict[str, Any] = {
        "id": r.id,
        "node_id": f"R_{r.id}",
        "name": r.name,
        "full_name": f"{r.owner}/{r.name}",
        "owner": owner,
        "private": r.private,
        "html_url": f"{HTML}/{r.owner}/{r.name}",
        "description": r.description,
        "fork": False,
        "url": url,
    }
    out.update({k: url + v for k, v in _REPO_URLS.items()})
    return out


def full_repo(api: str, r: Any, owner: dict[str, Any], now: float) -> dict[str, Any]:
    """A ``full-repository``."""
    out = minimal_repo(api, r, owner)
    out.update(
        clone_url=f"{HTML}/{r.owner}/{r.name}.git",
        git_url=f"git://github.com/{r.owner}/{r.name}.git",
        ssh_url=f"git@github.com:{r.owner}/{r.name}.git",
        svn_url=f"{HTML}/{r.owner}/{r.name}",
        mirror_url=None,
        homepage=None,
        language=None,
        forks=0,
        forks_count=0,
        stargazers_count=0,
        watchers_count=0,
        watchers=0,
        size=0,
        default_branch=r.default_branch,
        open_issues=0,
        open_issues_count=0,
        has_issues=True,
        has_projects=True,
        has_wiki=True,
        has_pages=r.pages is not None,
        has_downloads=True,
        has_discussions=False,
        archived=r.archived,
        disabled=False,
        visibility="private" if r.private else "public",
        license=None,
        pushed_at=iso(now),
        created_at=iso(r.created),
        updated_at=iso(now),
        network_count=0,
        subscribers_count=0,
    )
    return out


def blob_created(api: str, full: str, sha: str) -> dict[str, Any]:
    return {"sha": sha, "url": f"{api}/repos/{full}/git/blobs/{sha}"}


def blob(api: str, full: str, sha: str, data: bytes) -> dict[str, Any]:
    """``GET /git/blobs/{sha}``: the content in base64, wrapped as GitHub wraps it."""
    raw = base64.b64encode(data).decode()
    content = "\n".join(raw[i : i + 60] for i in range(0, len(raw), 60)) + "\n"
    return {"sha": sha, "node_id": f"B_{sha[:16]}", "size": len(data),
            "url": f"{api}/repos/{full}/git/blobs/{sha}", "content": content,
            "encoding": "base64"}  # fmt: skip


def tree(api: str, full: str, sha: str, entries: list[dict[str, Any]], truncated: bool):
    return {"sha": sha, "url": f"{api}/repos/{full}/git/trees/{sha}", "tree": entries,
            "truncated": truncated}  # fmt: skip


def tree_entry(api: str, full: str, path: str, mode: str, kind: str, sha: str, size: int | None):
    out: dict[str, Any] = {"path": path, "mode": mode, "type": kind, "sha": sha}
    if kind == "blob":
        out["size"] = size
        out["url"] = f"{api}/repos/{full}/git/blobs/{sha}"
    elif kind == "tree":
        out["url"] = f"{api}/repos/{full}/git/trees/{sha}"
    return out


def person(who: bytes, ts: int) -> dict[str, Any]:
    name, _, email = who.decode().partition(" <")
    return {"name": name, "email": email.rstrip(">"), "date": iso(ts)}


def commit(api: str, full: str, sha: str, c: Any) -> dict[str, Any]:
    """A ``git-commit`` of dulwich's commit ``c``."""
    return {
        "sha": sha,
        "node_id": f"C_{sha[:16]}",
        "url": f"{api}/repos/{full}/git/commits/{sha}",
        "html_url": f"{HTML}/{full}/commit/{sha}",
        "author": person(c.author, c.author_time),
        "committer": person(c.committer, c.commit_time),
        "tree": {"sha": c.tree.decode(), "url": f"{api}/repos/{full}/git/trees/{c.tree.decode()}"},
        "message": c.message.decode(),
        "parents": [
            {
                "sha": p.decode(),
                "url": f"{api}/repos/{full}/git/commits/{p.decode()}",
                "html_url": f"{HTML}/{full}/commit/{p.decode()}",
            }
            for p in c.parents
        ],
        "verification": {
            "verified": False,
            "reason": "unsigned",
            "signature": None,
            "payload": None,
            "verified_at": None,
        },
    }


def ref(api: str, full: str, branch: str, sha: str) -> dict[str, Any]:
    return {
        "ref": f"refs/heads/{branch}",
        "node_id": f"REF_{branch}",
        "url": f"{api}/repos/{full}/git/refs/heads/{branch}",
        "object": {"type": "commit", "sha": sha, "url": f"{api}/repos/{full}/git/commits/{sha}"},
    }


def file_commit(api: str, full: str, path: str, blob: str, size: int, commit_json: dict):
    """``PUT /contents/{path}``'s ``file-commit``."""
    return {
        "content": {
            "name": path.rsplit("/", 1)[-1],
            "path": path,
            "sha": blob,
            "size": size,
            "url": f"{api}/repos/{full}/contents/{path}",
            "html_url": f"{HTML}/{full}/blob/HEAD/{path}",
            "git_url": f"{api}/repos/{full}/git/blobs/{blob}",
            "download_url": f"https://raw.githubusercontent.com/{full}/HEAD/{path}",
            "type": "file",
            "_links": {"self": "", "git": "", "html": ""},
        },
        "commit": commit_json,
    }


def page(api: str, r: Any) -> dict[str, Any]:
    """A ``page``: the Pages site of ``r`` (``r.pages`` holds its settings)."""
    p = r.pages
    out: dict[str, Any] = {
        "url": f"{api}/repos/{r.owner}/{r.name}/pages",
        "status": p.get("status"),
        "cname": None,
        "custom_404": False,
        "html_url": p["html_url"],
        "build_type": p["build_type"],
        "public": not r.private,
        "https_enforced": True,
    }
    if p.get("source"):
        out["source"] = dict(p["source"])
    return out


def page_build(api: str, full: str, b: Any, pusher: dict[str, Any], now: float) -> dict:
    status = b.status(now)
    return {
        "url": f"{api}/repos/{full}/pages/builds/{b.id}",
        "status": status,
        "error": {"message": b.error if status == "errored" else None},
        "pusher": pusher,
        "commit": b.commit,
        "duration": int(b.seconds * 1000),
        "created_at": iso(b.at),
        "updated_at": iso(now),
    }


def workflow_run(api: str, r: Any, run: Any, owner: dict, head: dict, now: float) -> dict:
    """A ``workflow-run`` of the repository's Pages workflow."""
    full = f"{r.owner}/{r.name}"
    base = f"{api}/repos/{full}/actions/runs/{run.id}"
    status, conclusion = run.state(now)
    repo = minimal_repo(api, r, owner)
    return {
        "id": run.id,
        "name": run.name,
        "node_id": f"WFR_{run.id}",
        "head_branch": run.branch,
        "head_sha": run.commit,
        "path": run.path,
        "display_title": head["message"].splitlines()[0] if head["message"] else "",
        "run_number": run.id,
        "event": "push",
        "status": status,
        "conclusion": conclusion,
        "workflow_id": 1,
        "url": base,
        "html_url": f"{HTML}/{full}/actions/runs/{run.id}",
        "pull_requests": [],
        "created_at": iso(run.at),
        "updated_at": iso(now),
        "jobs_url": f"{base}/jobs",
        "logs_url": f"{base}/logs",
        "check_suite_url": f"{api}/repos/{full}/check-suites/{run.id}",
        "artifacts_url": f"{base}/artifacts",
        "cancel_url": f"{base}/cancel",
        "rerun_url": f"{base}/rerun",
        "workflow_url": f"{api}/repos/{full}/actions/workflows/1",
        "head_commit": {
            "id": run.commit,
            "tree_id": head["tree"]["sha"],
            "message": head["message"],
            "timestamp": head["committer"]["date"],
            "author": {"name": head["author"]["name"], "email": head["author"]["email"]},
            "committer": {"name": head["committer"]["name"], "email": head["committer"]["email"]},
        },
        "repository": repo,
        "head_repository": repo,
    }
