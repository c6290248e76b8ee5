"""Publish a project's site to GitHub Pages as one commit per publish.

The steps follow GitHub's Git Data API: blobs -> tree -> commit -> move the
branch.  The branch moves only at the very end, so a publish that stops
halfway (network, rate limit) leaves the live site as it was and is never
reported as done; publishing again reuses the blobs already uploaded
(``PublishState.uploaded``) and those already in the branch's tree.

Pure apart from the :class:`~wiggum.deploy.github.GitHub` calls: files come
in as ``{path: bytes}`` and progress goes out through a callback.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field

from pydantic import BaseModel, Field

from .github import GitHub, GitHubError, Repo

#: Wiggum's own folders: memory and history, not the site.
PRIVATE_DIRS = (".ralph/", ".chief/", ".git/")

STEPS = ("account", "repository", "files", "commit", "pages", "build")


class PublishState(BaseModel):
    """What is remembered per project between publishes (no token in here)."""

    owner: str = ""
    repo: str = ""
    branch: str = ""
    url: str = ""
    commit: str = ""
    uploaded: list[str] = Field(default_factory=list)


@dataclass
class PublishResult:
    url: str
    commit: str
    repo_url: str
    status: str  # "built", "building", "errored"
    message: str = ""
    files: list[str] = field(default_factory=list)


Progress = Callable[[str, str], Awaitable[None] | None]


#: GitHub Pages builds a branch with Jekyll unless it holds ``.nojekyll``, and
#: Jekyll leaves out every file and folder whose name starts with ``_`` (and
#: rewrites Markdown and Liquid): a static site wants it served as it is.  A
#: project with its own ``_config.yml`` asked for Jekyll, so it gets none.
NOJEKYLL = ".nojekyll"
JEKYLL_CONFIG = "_config.yml"


def site_files(files: Mapping[str, bytes]) -> dict[str, bytes]:
    """The files that make up the site: everything but Wiggum's own folders,
    and an empty ``.nojekyll`` unless the project uses Jekyll (``_config.yml``)."""
    site = {
        p: files[p]
        for p in files
        if not any(p.startswith(d) or p == d.rstrip("/") for d in PRIVATE_DIRS)
    }
    if site and JEKYLL_CONFIG not in site and NOJEKYLL not in site:
        site[NOJEKYLL] = b""
    return dict(sorted(site.items()))


def added_by_wiggum(path: str, files: Mapping[str, bytes]) -> bool:
    """Whether ``path`` is published without being one of the project's files."""
    return path == NOJEKYLL and path not in files


def summary(files: Mapping[str, bytes]) -> list[tuple[str, int]]:
    """The last-chance list shown before the person confirms: (path, bytes)."""
    return [(p, len(b)) for p, b in site_files(files).items()]


def blob_sha(data: bytes) -> str:
    """Git's object id of a blob, so unchanged files are not uploaded again."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


_NAME = re.compile(r"[^A-Za-z0-9._-]+")


def repo_name(name: str) -> str:
    """A project name made into a valid repository name."""
    cleaned = _NAME.sub("-", name.strip()).strip("-.") or "wiggum-site"
    return cleaned[:100]


def pages_url(owner: str, name: str, html_url: str = "") -> str:
    if name.lower() == f"{owner.lower()}.github.io":
        return f"https://{owner.lower()}.github.io/"
    return html_url or f"https://{owner.lower()}.github.io/{name}/"


async def _say(progress: Progress | None, step: str, text: str) -> None:
    if progress is not None:
        result = progress(step, text)
        if asyncio.iscoroutine(result):
            await result


async def publish(
    gh: GitHub,
    files: Mapping[str, bytes],
    state: PublishState,
    name: str,
    *,
    progress: Progress | None = None,
    message: str = "Publish from Wiggum",
    poll_interval: float = 2.0,
    poll_limit: int = 30,
) -> PublishResult:
    """Publish ``files``; ``state`` is updated in place as steps succeed."""
    site = site_files(files)
    if not site:
        raise GitHubError("empty", "There is nothing to publish yet: the project has no files.")
    if "index.html" not in site:
        raise GitHubError(
            "no_index",
            "The project has no index.html at its top level, so GitHub Pages would show "
            "nothing. Ask Ralph or Chief for one, then publish.",
        )

    await _say(progress, "account", "Checking the token")
    login = await gh.user()

    await _say(progress, "repository", "Finding the repository")
    # ``state`` changes only once the target is settled: a mistyped name that
    # is refused must not make Wiggum forget the repository chosen before.
    remembered = bool(state.owner) and state.repo == name
    repo: Repo | None = None
    if remembered:
        repo = await gh.get_repo(state.owner, state.repo)
    if repo is None:
        existing = await gh.get_repo(login, name)
        if existing is not None and not remembered:
            raise GitHubError(
                "name_taken",
                f"You already have a repository called {name}, not made by this project. "
                "Choose another name (or rename that repository on GitHub first).",
                422,
            )
        repo = existing or await gh.create_repo(name)
    if (state.owner, state.repo) != (repo.owner, repo.name):
        for key, value in PublishState().model_dump().items():
            setattr(state, key, value)
    state.owner, state.repo = repo.owner, repo.name
    state.branch = state.branch or repo.default_branch
    branch = state.branch
    base = f"/repos/{repo.full_name}"

    head = await gh.head(repo, branch)
    have: set[str] = set(state.uploaded)
    if head:
        commit = await gh.call("GET", f"{base}/git/commits/{head}", "reading the last commit")
        tree = await gh.call(
            "GET", f"{base}/git/trees/{commit['tree']['sha']}?recursive=1", "reading the files"
        )
        have.update(e["sha"] for e in tree.get("tree", []) if e.get("type") == "blob")

    entries = []
    todo = [(p, b) for p, b in site.items() if blob_sha(b) not in have]
    done = 0
    for path, data in site.items():
        sha = blob_sha(data)
        if sha not in have:
            done += 1
            await _say(progress, "files", f"Uploading {path} ({done} of {len(todo)})")
            body = {"content": base64.b64encode(data).decode(), "encoding": "base64"}
            got = await gh.call("POST", f"{base}/git/blobs", f"uploading {path}", body)
            if got["sha"] != sha:
                raise GitHubError("http", f"GitHub stored {path} differently; publish again.")
            have.add(sha)
            state.uploaded.append(sha)
        entries.append({"path": path, "mode": "100644", "type": "blob", "sha": sha})
    if not todo:
        await _say(progress, "files", "No file changed since the last publish")

    await _say(progress, "commit", "Writing one commit")
    # No base_tree: the commit holds exactly the site, so deleted files go too.
    tree = await gh.call("POST", f"{base}/git/trees", "writing the file list", {"tree": entries})
    body = {"message": message, "tree": tree["sha"], "parents": [head] if head else []}
    commit = await gh.call("POST", f"{base}/git/commits", "writing the commit", body)
    sha = commit["sha"]
    if head:
        await gh.call(
            "PATCH",
            f"{base}/git/refs/heads/{branch}",
            "moving the branch",
            {"sha": sha, "force": False},
        )
    else:
        await gh.call(
            "POST",
            f"{base}/git/refs",
            "creating the branch",
            {"ref": f"refs/heads/{branch}", "sha": sha},
        )
    state.commit = sha
    state.uploaded = []

    await _say(progress, "pages", "Turning on GitHub Pages")
    pages = await _pages(gh, base, branch)
    url = pages.get("html_url") or pages_url(repo.owner, repo.name)
    state.url = url

    await _say(progress, "build", "Waiting for GitHub Pages to build")
    status, gh_message = "building", ""
    for attempt in range(poll_limit):
        build = await gh.call("GET", f"{base}/pages/builds/latest", "checking the Pages build")
        status = (build or {}).get("status") or "building"
        if status in ("built", "errored"):
            gh_message = ((build or {}).get("error") or {}).get("message") or ""
            break
        if attempt + 1 < poll_limit:
            await asyncio.sleep(poll_interval)
    return PublishResult(
        url=url,
        commit=sha,
        repo_url=repo.html_url or f"https://github.com/{repo.full_name}",
        status=status,
        message=gh_message,
        files=list(site),
    )


async def _pages(gh: GitHub, base: str, branch: str) -> dict:
    try:
        return await gh.call("GET", f"{base}/pages", "reading the Pages settings") or {}
    except GitHubError as err:
        if err.kind != "not_found":
            raise
    source = {"source": {"branch": branch, "path": "/"}}
    try:
        return await gh.call("POST", f"{base}/pages", "turning on GitHub Pages", source) or {}
    except GitHubError as err:
        if err.status != 409:  # 409: Pages is already on (a race with another tab)
            raise
    return await gh.call("GET", f"{base}/pages", "reading the Pages settings") or {}
