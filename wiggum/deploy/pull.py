"""What changed on GitHub since the last publish or pull, set against the project's files.

Three versions of each file meet: the one GitHub held at the last publish or
pull (the base, ``PublishState.commit``), GitHub's now, and the project's.
GitHub changed it and the project did not: GitHub's comes in.  The project
changed it and GitHub did not, or both made the same change: the project's
stays.  Both changed it differently: a :class:`Conflict`, which only the
person settles; nothing is written for it until they do.  When the project
changed nothing since the base, the pull is a fast-forward.

Only files are compared (git's object ids, so nothing is read twice): the
branch's whole tree for a project opened from GitHub, else the folder
GitHub Pages serves, which is where publishing put the site.  Reading is all
this does; writing the files and the checkpoint is the caller's.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from dataclasses import dataclass, field

from .errors import GitHubError
from .github import GitHub, Repo
from .gitid import blob_id
from .pages import read_pages
from .publish import HELD_ONLY, PublishState, site_files, whole_files
from .verify import read_tree

__all__ = ["Conflict", "Incoming", "incoming"]

FILES = ("100644", "100755")


@dataclass(frozen=True, slots=True)
class Conflict:
    path: str
    #: The project's version (``None``: the project deleted it).
    mine: bytes | None
    #: GitHub's version (``None``: deleted on GitHub).
    theirs: bytes | None


@dataclass
class Incoming:
    repo: Repo
    #: GitHub's last commit on the branch now.
    head: str
    #: Its message's first line.
    subject: str = ""
    #: Files that come in as they are on GitHub (``None``: deleted there).
    changes: dict[str, bytes | None] = field(default_factory=dict)
    conflicts: list[Conflict] = field(default_factory=list)
    #: The project changed nothing since the base.
    fast_forward: bool = True

    @property
    def nothing_new(self) -> bool:
        return not self.changes and not self.conflicts


async def incoming(gh: GitHub, state: PublishState, files: Mapping[str, bytes]) -> Incoming:
    """What GitHub has that the project has not, and where both changed the same file."""
    if not state.owner or not state.repo:
        raise GitHubError(
            "no_repository",
            "This project has not been published or opened from GitHub yet, so there is "
            "nothing to pull. Publish it first, or open a repository from GitHub.",
        )
    repo = await gh.get_repo(state.owner, state.repo)  # a renamed one is followed
    if repo is None:
        raise GitHubError(
            "not_found",
            f"GitHub shows no repository {state.owner}/{state.repo} to this token: it was "
            "deleted, or the token cannot see it. Give the token access to it on GitHub.",
            404,
        )
    branch = state.branch or repo.default_branch
    base = f"/repos/{repo.full_name}/git"
    ref = await gh.call("GET", f"{base}/ref/heads/{branch}", "reading the branch", need="contents")
    head = str(ref["object"]["sha"])
    found = Incoming(repo, head)
    if head == state.commit:
        return found
    top = await _commit(gh, base, head)
    found.subject = str(top.get("message") or "").split("\n", 1)[0]
    prefix = await _prefix(gh, repo, state)
    theirs = _files(await read_tree(gh, repo, top["tree"]["sha"]), prefix)
    old = await _commit(gh, base, state.commit) if state.commit else None
    was = _files(await read_tree(gh, repo, old["tree"]["sha"]), prefix) if old else {}
    project = whole_files(files) if state.whole else site_files(files)
    mine = {p: blob_id(b) for p, b in project.items()}
    needed: dict[str, str] = {}
    for path in sorted(set(was) | set(theirs) | set(mine)):
        b, t, m = was.get(path), theirs.get(path), mine.get(path)
        if m != b:
            found.fast_forward = False
        if t == b or m == t:
            continue  # GitHub changed nothing here, or made the project's change
        if t is not None:
            needed[path] = t
        if m == b:
            found.changes[path] = None
        else:
            found.conflicts.append(Conflict(path, project.get(path), None))
    data = {sha: await _blob(gh, base, sha, path) for path, sha in needed.items()}
    for path in found.changes:
        found.changes[path] = data.get(theirs.get(path) or "")
    found.conflicts = [
        Conflict(c.path, c.mine, data.get(theirs.get(c.path) or "")) for c in found.conflicts
    ]
    return found


async def _commit(gh: GitHub, base: str, sha: str) -> dict | None:
    try:
        return await gh.call("GET", f"{base}/commits/{sha}", "reading a commit", need="contents")
    except GitHubError as err:
        # The last commit seen is gone (the branch was rewritten): no base, so every
        # file both sides hold differently is the person's to settle.
        if err.kind == "not_found":
            return None
        raise


async def _prefix(gh: GitHub, repo: Repo, state: PublishState) -> str:
    if state.whole:
        return ""
    pages = await read_pages(gh, repo)
    return pages.prefix if pages and pages.build_type == "legacy" else ""


def _files(held: Mapping[str, tuple[str, str, str]], prefix: str) -> dict[str, str]:
    """``{path in the project: blob id}`` of the files below ``prefix``."""
    return {
        path[len(prefix) :]: sha
        for path, (mode, kind, sha) in held.items()
        if kind == "blob" and mode in FILES and mode not in HELD_ONLY and path.startswith(prefix)
    }


async def _blob(gh: GitHub, base: str, sha: str, path: str) -> bytes:
    got = await gh.call("GET", f"{base}/blobs/{sha}", f"reading {path}", need="contents")
    data = base64.b64decode(got.get("content") or "")
    if blob_id(data) != sha:
        raise GitHubError(
            "corrupt",
            f"GitHub sent {path} with other bytes than its id says, so nothing was pulled. "
            "Pull again.",
        )
    return data
