"""Publish a project's site to GitHub Pages as one commit per publish.

The steps follow GitHub: the token -> the repository (a renamed one
followed) -> where Pages builds from (its branch and folder, or a workflow on
the default branch) -> the files -> one commit -> the branch moved -> Pages on
-> what GitHub holds read back and compared -> the build followed to its end.

Files travel in as few requests as GitHub allows: the new tree is written on
the branch's tree (``base_tree``) with only what changed, text files inline as
``content``, and only binary files uploaded as blobs, paced under GitHub's
limits on new content (``wiggum.deploy.limits``).  The branch moves only at
the very end, so a publish that stops halfway leaves the live site as it was
and is never reported as done; publishing again reuses the blobs already
uploaded (``PublishState.uploaded``).  Nothing changed: no commit at all.

Pure apart from the :class:`~wiggum.deploy.github.GitHub` calls: files come in
as ``{path: bytes}`` and progress goes out through a callback.
"""

from __future__ import annotations

import asyncio
import base64
import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, Field, field_validator

from .errors import GitHubError
from .github import GitHub, Repo
from .gitid import blob_id, is_text, tree_id_of
from .links import pages_url, safe_url
from .pages import PagesSite, enable_pages, read_pages, wait_for_build
from .verify import kept, read_tree, verify

__all__ = [
    "PRIVATE_DIRS",
    "STEPS",
    "PublishResult",
    "PublishState",
    "added_by_wiggum",
    "blob_sha",
    "is_private",
    "pages_url",
    "publish",
    "repo_name",
    "site_files",
    "summary",
    "whole_files",
]

#: Wiggum's own folders: memory and history, not the site.
PRIVATE_DIRS = (".ralph/", ".chief/", ".git/")
#: What a repository holds that a project cannot (links, submodules): never deleted.
HELD_ONLY = ("120000", "160000")

STEPS = ("account", "repository", "files", "commit", "pages", "verify", "build")

blob_sha = blob_id


class PublishState(BaseModel):
    """What is remembered per project between publishes (no token in here)."""

    owner: str = ""
    repo: str = ""
    #: GitHub's id of the repository: the same one after a rename.
    repo_id: int = 0
    branch: str = ""
    url: str = ""
    commit: str = ""
    uploaded: list[str] = Field(default_factory=list)
    #: The project is the repository as a whole (opened from GitHub): its files go
    #: where they are in the project, whatever folder Pages serves.
    whole: bool = False
    #: Where the site's index.html is in the project ("" or "docs/").
    root: str = ""

    @field_validator("url", mode="before")
    @classmethod
    def _safe(cls, value: Any) -> str:
        # A stored address is shown as a link on every later open: https only.
        return safe_url(value)


@dataclass
class PublishResult:
    url: str
    commit: str
    repo_url: str
    status: str  # "built", "building", "errored"
    message: str = ""
    files: list[str] = field(default_factory=list)
    #: Where to read about the build (a workflow run), https only.
    link: str = ""
    #: "owner/name" when the repository had been renamed on GitHub.
    renamed: str = ""
    build_type: str = "legacy"
    branch: str = ""
    folder: str = "/"
    #: False when the last publish's files were all on GitHub already.
    changed: bool = True
    #: Paths (of the site) GitHub holds differently from the project; empty when equal.
    differences: list[str] = field(default_factory=list)
    #: Another commit on the branch since this one (someone pushed).
    moved_on: bool = False


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
    site = {p: files[p] for p in files if not is_private(p)}
    if site and JEKYLL_CONFIG not in site and NOJEKYLL not in site:
        site[NOJEKYLL] = b""
    return dict(sorted(site.items()))


def whole_files(files: Mapping[str, bytes]) -> dict[str, bytes]:
    """A project that is a repository as a whole: its files as they are, nothing added."""
    return dict(sorted((p, b) for p, b in files.items() if not is_private(p)))


def is_private(path: str) -> bool:
    """Whether ``path`` stays out of a publish: Wiggum's own folders, and any
    ``.git`` folder, nested ones too (a copied library's history).  Git itself
    refuses a ``.git`` path component in any case of letters, and GitHub
    refuses a tree that holds one, so publishing it would fail the whole commit."""
    if any(path.startswith(d) or path == d.rstrip("/") for d in PRIVATE_DIRS):
        return True
    return any(part.lower() == ".git" for part in path.split("/"))


def added_by_wiggum(path: str, files: Mapping[str, bytes]) -> bool:
    """Whether ``path`` is published without being one of the project's files."""
    return path == NOJEKYLL and path not in files


def summary(files: Mapping[str, bytes], *, whole: bool = False) -> list[tuple[str, int]]:
    """The last-chance list shown before the person confirms: (path, bytes)."""
    return [(p, len(b)) for p, b in (whole_files if whole else site_files)(files).items()]


_NAME = re.compile(r"[^A-Za-z0-9._-]+")


def repo_name(name: str) -> str:
    """A project name made into a valid repository name."""
    cleaned = _NAME.sub("-", name.strip()).strip("-.") or "wiggum-site"
    return cleaned[:100]


class _Run:
    """One publish's progress: the step it is on, and waits said at that step."""

    def __init__(
        self, gh: GitHub, progress: Progress | None, waiting: Callable[[int], None] | None
    ) -> None:
        self.progress = progress
        self.on_wait = waiting
        self.step = "account"
        gh.pacer.on_wait = self.waiting

    async def say(self, step: str, text: str) -> None:
        self.step = step
        if self.progress is not None:
            said = self.progress(step, text)
            if asyncio.iscoroutine(said):
                await said

    async def waiting(self, left: int, why: str) -> None:
        if self.on_wait is not None:
            self.on_wait(left)
        if left > 0:
            await self.say(self.step, f"{why}: continuing in {_seconds(left)}")

    async def note(self, text: str) -> None:
        await self.say(self.step, text)


def _seconds(left: int) -> str:
    return f"{left} s" if left < 60 else f"{left // 60} min {left % 60:02d} s"


async def publish(
    gh: GitHub,
    files: Mapping[str, bytes],
    state: PublishState,
    name: str,
    *,
    progress: Progress | None = None,
    waiting: Callable[[int], None] | None = None,
    message: str = "Publish from Wiggum",
    build_limit: float = 600.0,
    poll_interval: float = 3.0,
) -> PublishResult:
    """Publish ``files``; ``state`` is updated in place as steps succeed.  ``progress``
    hears each step's text, ``waiting`` the seconds left of a rate-limit wait (0: over)."""
    site = whole_files(files) if state.whole else site_files(files)
    if not site:
        raise GitHubError("empty", "There is nothing to publish yet: the project has no files.")
    if state.root + "index.html" not in site:
        raise GitHubError(
            "no_index",
            "The project has no index.html at its top level, so GitHub Pages would show "
            "nothing. Ask Ralph or Chief for one, then publish.",
        )
    run = _Run(gh, progress, waiting)
    await run.say("account", "Checking the token")
    login = await gh.user()

    await run.say("repository", "Finding the repository")
    repo, renamed = await _repository(gh, state, name, login)
    pages = await read_pages(gh, repo)
    branch = _branch(pages, state, repo)
    prefix = pages.prefix if pages and pages.build_type == "legacy" and not state.whole else ""
    state.branch = branch
    base = f"/repos/{repo.full_name}"

    head = await gh.head(repo, branch)
    if state.whole and state.commit and head and head != state.commit:
        raise GitHubError(
            "behind",
            f"{repo.full_name} has changes on GitHub made since this project last published "
            "or pulled. Nothing was overwritten: pull them first (Pull from GitHub), then "
            "publish.",
        )
    held: dict[str, tuple[str, str, str]] = {}
    base_tree = None
    if head:
        commit = await gh.call(
            "GET", f"{base}/git/commits/{head}", "reading the last commit", need="contents"
        )
        base_tree = commit["tree"]["sha"]
        held = await read_tree(gh, repo, base_tree)

    await run.say("files", "Comparing the files with GitHub's")
    entries = await _entries(gh, repo, site, prefix, held, state, run)
    changed = bool(entries) or not head
    if changed:
        await run.say("commit", "Writing one commit")
        expected = _expected(held, entries, site, prefix)
        sha = await _commit(gh, repo, branch, head, base_tree, entries, message, expected)
    else:
        await run.say("files", "No file changed since the last publish")
        sha = head or ""
    state.commit = sha
    state.uploaded = []

    await run.say("pages", "Turning on GitHub Pages" if pages is None else "Reading GitHub Pages")
    if pages is None:
        folder = "/docs" if state.whole and state.root == "docs/" else "/"
        pages = await enable_pages(gh, repo, branch, folder)
    url = pages.url or pages_url(repo.owner, repo.name)
    state.url = url

    await run.say("verify", "Reading back what GitHub holds")
    check = await verify(gh, repo, branch, prefix, site)

    await run.say("build", "Waiting for GitHub Pages to build")
    build = await wait_for_build(
        gh, repo, pages, check.head, run.note, limit=build_limit, interval=poll_interval
    )
    return PublishResult(
        url=url,
        commit=sha,
        repo_url=safe_url(repo.html_url) or f"https://github.com/{repo.full_name}",
        status=build.status,
        message=build.message,
        files=list(site),
        link=build.link,
        renamed=renamed,
        build_type=pages.build_type,
        branch=branch,
        folder=pages.folder if pages.build_type == "legacy" else "/",
        changed=changed,
        differences=sorted(check.different + check.missing + check.extra),
        moved_on=check.head != sha,
    )


async def _repository(gh: GitHub, state: PublishState, name: str, login: str) -> tuple[Repo, str]:
    """The repository to publish to, and its new full name when it was renamed."""
    # ``state`` changes only once the target is settled: a mistyped name that
    # is refused must not make Wiggum forget the repository chosen before.
    remembered = bool(state.owner) and state.repo == name
    repo: Repo | None = None
    if remembered:
        repo = await gh.get_repo(state.owner, state.repo)  # a renamed one is followed
    if repo is None:
        existing = await gh.get_repo(login, name)
        ours = existing is not None and state.repo_id and existing.id == state.repo_id
        if existing is not None and not remembered and not ours:
            raise GitHubError(
                "name_taken",
                f"You already have a repository called {name}, not made by this project. "
                "Choose another name (or rename that repository on GitHub first).",
                422,
            )
        repo = existing or await gh.create_repo(name)
    by_id = bool(state.repo_id) and repo.id == state.repo_id
    moved = (repo.owner, repo.name) != (state.owner, state.repo)
    renamed = repo.full_name if moved and (by_id or remembered) else ""
    if moved and not renamed:  # another repository: nothing remembered applies
        for key, value in PublishState().model_dump().items():
            setattr(state, key, value)
    state.owner, state.repo, state.repo_id = repo.owner, repo.name, repo.id
    return repo, renamed


def _branch(pages: PagesSite | None, state: PublishState, repo: Repo) -> str:
    """Where the files go: the branch Pages builds from when Pages is on, or the one a
    whole repository was opened from."""
    if state.whole and state.branch:
        return state.branch
    if pages is not None:
        return pages.branch
    return state.branch or repo.default_branch


async def _entries(
    gh: GitHub,
    repo: Repo,
    site: Mapping[str, bytes],
    prefix: str,
    held: dict[str, tuple[str, str, str]],
    state: PublishState,
    run: _Run,
) -> list[dict[str, Any]]:
    """The tree entries that turn what the branch holds into the site: deletions
    first (a file may become a folder), then each new or changed file."""
    known = {sha for _, kind, sha in held.values() if kind == "blob"} | set(state.uploaded)
    entries: list[dict[str, Any]] = []
    for path, (mode, kind, _) in sorted(held.items()):
        if kind == "tree" or not path.startswith(prefix) or path[len(prefix) :] in site:
            continue
        if not kept(path, prefix) and mode not in HELD_ONLY:
            entries.append({"path": path, "mode": mode, "type": kind, "sha": None})
    binary = [p for p, b in site.items() if blob_id(b) not in known and not is_text(b)]
    done = 0
    for path, data in site.items():
        full, sha = prefix + path, blob_id(data)
        old = held.get(full)
        if old is not None and old[1] == "blob" and old[2] == sha:
            continue  # unchanged (its mode kept as it is on GitHub)
        # A changed file keeps its mode on GitHub (a script stays executable).
        mode = old[0] if old is not None and old[0] in ("100644", "100755") else "100644"
        entry: dict[str, Any] = {"path": full, "mode": mode, "type": "blob"}
        if sha in known:
            entry["sha"] = sha
        elif is_text(data):
            entry["content"] = data.decode("utf-8")
        else:
            done += 1
            await run.say("files", f"Uploading {path} ({done} of {len(binary)})")
            entry["sha"] = await _upload(gh, repo, path, data, sha)
            known.add(sha)
            state.uploaded.append(sha)
        entries.append(entry)
    return entries


def _expected(
    held: Mapping[str, tuple[str, str, str]],
    entries: list[dict[str, Any]],
    site: Mapping[str, bytes],
    prefix: str,
) -> str:
    """Git's id of the tree ``entries`` make of what the branch holds."""
    leaves = {p: (mode, sha) for p, (mode, kind, sha) in held.items() if kind != "tree"}
    for entry in entries:
        path = entry["path"]
        if "content" not in entry and entry.get("sha") is None:
            leaves.pop(path, None)
        else:
            leaves[path] = (entry["mode"], entry.get("sha") or blob_id(site[path[len(prefix) :]]))
    return tree_id_of(leaves)


async def _upload(gh: GitHub, repo: Repo, path: str, data: bytes, sha: str) -> str:
    body = {"content": base64.b64encode(data).decode(), "encoding": "base64"}
    got = await gh.call(
        "POST", f"/repos/{repo.full_name}/git/blobs", f"uploading {path}", body, need="contents"
    )
    if got["sha"] != sha:
        raise GitHubError(
            "corrupt",
            f"GitHub stored {path} differently from the project's file (another id), so it "
            "was not published. Publish again; if it happens again, the file may be changing "
            "while it is read.",
        )
    return sha


async def _commit(
    gh: GitHub,
    repo: Repo,
    branch: str,
    head: str | None,
    base_tree: str | None,
    entries: list[dict[str, Any]],
    message: str,
    expected: str,
) -> str:
    base = f"/repos/{repo.full_name}"
    body: dict[str, Any] = {"tree": entries}
    if base_tree:
        body["base_tree"] = base_tree
    tree = await gh.call(
        "POST", f"{base}/git/trees", "writing the file list", body, need="contents"
    )
    if tree["sha"] != expected:
        # GitHub wrote other bytes than the project's: the live site is not touched.
        raise GitHubError(
            "corrupt",
            "GitHub stored the files differently from the project's (the tree it wrote is "
            "not the one sent), so the site was left as it was. Publish again.",
        )
    parents = [head] if head else []
    commit = await gh.call(
        "POST",
        f"{base}/git/commits",
        "writing the commit",
        {"message": message, "tree": tree["sha"], "parents": parents},
        need="contents",
    )
    sha = commit["sha"]
    if head:
        await gh.call(
            "PATCH",
            f"{base}/git/refs/heads/{branch}",
            "moving the branch",
            {"sha": sha, "force": False},
            need="contents",
        )
    else:
        await gh.call(
            "POST",
            f"{base}/git/refs",
            "creating the branch",
            {"ref": f"refs/heads/{branch}", "sha": sha},
            need="contents",
        )
    return sha
