"""GitHub Pages as the repository has it: where it builds from, and the build itself.

- :func:`read_pages`: the Pages site's settings (``None``: Pages is off).  A
  ``legacy`` site builds a branch and folder (``/`` or ``/docs``); a
  ``workflow`` site is built by a GitHub Actions workflow, on a push to the
  default branch.
- :func:`enable_pages`: Pages turned on from a branch's top folder.
- :func:`wait_for_build`: the build of one commit, followed to its end: for a
  legacy site the latest Pages build once it is this commit's (right after a
  push GitHub still reports the previous one, or 404 before the first), for a
  workflow site this commit's workflow run.  Waiting has a limit; a build
  still running then is reported as building, never as built.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from .errors import PERMISSION_NAMES, GitHubError, sentence
from .github import GitHub, Repo
from .links import pages_url, safe_url

__all__ = ["Build", "PagesSite", "enable_pages", "read_pages", "wait_for_build"]

Say = Callable[[str], Awaitable[None] | None]


@dataclass(frozen=True)
class PagesSite:
    build_type: str  # "legacy" or "workflow"
    branch: str
    #: "/" or "/docs": the folder of ``branch`` that is the site (legacy).
    folder: str
    url: str

    @property
    def prefix(self) -> str:
        """What the site's paths start with in the repository ("" or "docs/")."""
        return "" if self.folder in ("", "/") else self.folder.strip("/") + "/"


@dataclass(frozen=True)
class Build:
    status: str  # "built", "building" or "errored"
    message: str = ""
    #: Where the person reads more (a workflow run), https only.
    link: str = ""


def _site(data: dict[str, Any], repo: Repo) -> PagesSite:
    source = data.get("source") or {}
    build_type = "workflow" if data.get("build_type") == "workflow" else "legacy"
    branch = str(source.get("branch") or repo.default_branch)
    if build_type == "workflow":
        branch = repo.default_branch  # the workflow runs on a push there
    folder = str(source.get("path") or "/")
    return PagesSite(
        build_type,
        branch,
        folder if folder in ("/", "/docs") else "/",
        pages_url(repo.owner, repo.name, data.get("html_url")),
    )


async def read_pages(gh: GitHub, repo: Repo) -> PagesSite | None:
    data = await gh.find(f"/repos/{repo.full_name}/pages", "reading the Pages settings", "pages")
    return None if data is None else _site(data, repo)


async def enable_pages(gh: GitHub, repo: Repo, branch: str, folder: str = "/") -> PagesSite:
    base = f"/repos/{repo.full_name}/pages"
    source = {"source": {"branch": branch, "path": folder}}
    try:
        data = await gh.call("POST", base, "turning on GitHub Pages", source, need="pages")
        return _site(data or {}, repo)
    except GitHubError as err:
        if err.status != 409:  # 409: Pages is already on (a race with another tab)
            raise
    site = await read_pages(gh, repo)
    assert site is not None
    return site


async def wait_for_build(
    gh: GitHub,
    repo: Repo,
    site: PagesSite,
    commit: str,
    say: Say,
    *,
    limit: float = 600.0,
    interval: float = 3.0,
) -> Build:
    """Follow the build of ``commit`` until it ends or ``limit`` seconds pass."""
    pacer = gh.pacer
    start = pacer.clock()
    follow = _workflow if site.build_type == "workflow" else _legacy
    while True:
        build = await follow(gh, repo, commit, pacer.clock() - start, limit)
        if isinstance(build, Build):
            return build
        await _tell(say, build)
        if pacer.clock() - start >= limit:
            return Build("building", "")
        await pacer.sleep(interval)


async def _legacy(gh: GitHub, repo: Repo, commit: str, spent: float, limit: float):
    path = f"/repos/{repo.full_name}/pages/builds/latest"
    try:
        build = await gh.call("GET", path, "checking the Pages build", need="pages") or {}
    except GitHubError as err:
        if err.kind == "not_found":  # nothing built yet: the first build is on its way
            return "Waiting for GitHub Pages to start the build"
        raise
    if build.get("commit") != commit:  # still the build before this commit
        return "Waiting for GitHub Pages to start building this commit"
    status = build.get("status")
    if status == "built":
        return Build("built")
    if status == "errored":
        said = (build.get("error") or {}).get("message") or ""
        return Build("errored", gh.mask(str(said)))
    return f"GitHub Pages is building the site ({_clock(spent)})"


def _pages_run(runs: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The Pages workflow's run among a commit's runs (another workflow may run too)."""
    for run in runs:
        named = f"{run.get('name', '')} {run.get('path', '')}".lower()
        if "pages" in named:
            return run
    return runs[0] if runs else None


async def _workflow(gh: GitHub, repo: Repo, commit: str, spent: float, limit: float):
    path = f"/repos/{repo.full_name}/actions/runs?head_sha={commit}"
    try:
        data = await gh.call("GET", path, "checking the Pages workflow", need="actions") or {}
    except GitHubError as err:
        if err.kind != "scope":
            raise
        return Build(
            "building",
            f"A GitHub Actions workflow builds this site; to follow it here, give the token "
            f"the permission {PERMISSION_NAMES['actions']}.",
        )
    run = _pages_run(list(data.get("workflow_runs") or []))
    if run is None:
        if spent >= min(limit, 120):
            return Build(
                "building",
                f"No workflow run started for this commit. Check that the repository's Pages "
                f"workflow runs on a push to {repo.default_branch} (its Actions tab on GitHub).",
            )
        return "Waiting for the Pages workflow to start"
    link = safe_url(run.get("html_url"))
    if run.get("status") == "completed":
        conclusion = run.get("conclusion") or ""
        if conclusion == "success":
            return Build("built", link=link)
        said = sentence(f"The Pages workflow ended with {conclusion or 'no result'}")
        return Build("errored", f"{said} Its log on GitHub says why.", link)
    return f"The Pages workflow is building the site ({_clock(spent)})"


def _clock(seconds: float) -> str:
    s = max(0, int(seconds))
    return f"{s // 60}:{s % 60:02d}"


async def _tell(say: Say, text: str) -> None:
    said = say(text)
    if asyncio.iscoroutine(said):
        await said
