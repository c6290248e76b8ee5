"""A GitHub repository read as a new project: its files, and its history as git objects.

What the person types is ``owner/repo`` or the repository's address (as
copied from the browser or a clone command).  A public repository is read
without a token; a private one needs a fine-grained token that may read its
contents.  Everything comes through the Git Data API: the branch's head, each
commit (newest first, its parents after it, up to ``depth`` commits), each
commit's tree in one recursive listing, and each blob not read yet.  Every
object is rebuilt and checked against GitHub's id (``wiggum.deploy.rebuild``),
so the history continues where GitHub's is; the commits whose parents were not
read are the history's shallow edge, as in ``git clone --depth``.

The site's root is where GitHub Pages serves from when Pages is on (its
folder), else the repository's top when it holds ``index.html``, else
``docs/`` when that does.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from dulwich.objects import ShaFile

from .errors import GitHubError
from .github import GitHub, Repo
from .pages import read_pages
from .rebuild import Mismatch, blob, commit, trees

__all__ = ["DEFAULT_DEPTH", "MAX_DEPTH", "Opened", "open_repository", "parse_address"]

DEFAULT_DEPTH = 50
MAX_DEPTH = 1000
#: The working files' limits (the same as an import's).
MAX_FILES = 2000
MAX_FILE_BYTES = 10 * 1024 * 1024
MAX_TOTAL_BYTES = 50 * 1024 * 1024

_OWNER = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})"
_NAME = r"[A-Za-z0-9._-]{1,100}"
_ADDRESS = re.compile(
    rf"^(?:(?:https?://)?(?:www\.)?github\.com[/:]|git@github\.com:)?({_OWNER})/({_NAME}?)"
    r"(?:\.git)?(?:[/?#].*)?$"
)

Progress = Callable[[str], Awaitable[None] | None]


def parse_address(text: str) -> tuple[str, str] | None:
    """``(owner, name)`` of ``owner/repo`` or a GitHub address; ``None`` when it is neither."""
    found = _ADDRESS.match(text.strip())
    if found is None:
        return None
    owner, name = found.group(1), found.group(2).removesuffix(".git")
    if name in ("", ".", ".."):
        return None
    return owner, name


@dataclass
class Opened:
    repo: Repo
    branch: str
    #: GitHub's id of the branch's last commit.
    head: str
    #: The branch's files at its last commit (``{path: bytes}``; submodules and
    #: links are in the history only).
    files: dict[str, bytes]
    #: Every object read, by id (blobs, trees, commits).
    objects: dict[str, ShaFile]
    #: The commits whose parents were not read (the history's edge).
    shallow: list[str]
    #: The head as kept here: GitHub's, unless a commit had to be rebuilt.
    local_head: str
    #: ``""`` (the top) or a folder ending in ``/``.
    site_root: str = ""
    commits: int = 0
    #: Commits that could not be rebuilt with GitHub's id (kept under another one).
    rebuilt: list[str] = field(default_factory=list)


async def _said(progress: Progress | None, text: str) -> None:
    if progress is not None:
        said = progress(text)
        if hasattr(said, "__await__"):
            await said


async def open_repository(
    gh: GitHub, full_name: str, *, depth: int = DEFAULT_DEPTH, progress: Progress | None = None
) -> Opened:
    """Read ``owner/name``'s default branch and the last ``depth`` commits of its history."""
    owner, _, name = full_name.partition("/")
    depth = max(1, min(int(depth), MAX_DEPTH))
    await _said(progress, f"Finding {owner}/{name}")
    repo = await gh.get_repo(owner, name)
    if repo is None:
        raise GitHubError(
            "not_found",
            f"GitHub shows no repository {owner}/{name} to "
            + ("this token" if gh.has_token else "anyone without a token")
            + ". Check the name; for a private repository, paste a fine-grained token "
            "that may read its contents (Repository permissions: Contents, read).",
            404,
        )
    branch = repo.default_branch
    base = f"/repos/{repo.full_name}/git"
    try:
        ref = await gh.call(
            "GET", f"{base}/ref/heads/{branch}", "reading the branch", need="contents"
        )
    except GitHubError as err:
        if err.status == 409:
            raise GitHubError(
                "empty",
                f"{repo.full_name} is empty on GitHub: there is nothing to open yet.",
                409,
            ) from None
        raise
    head = str(ref["object"]["sha"])
    reader = _Reader(gh, base, progress)
    taken = await reader.history(head, depth)
    site_root = await _site_root(gh, repo, reader.files)
    return Opened(
        repo=repo,
        branch=branch,
        head=head,
        files=reader.files,
        objects=reader.objects,
        shallow=sorted(reader.local[s] for s in taken if reader.cut(s, taken)),
        local_head=reader.local[head],
        site_root=site_root,
        commits=len(taken),
        rebuilt=[s for s in taken if reader.local[s] != s],
    )


class _Reader:
    def __init__(self, gh: GitHub, base: str, progress: Progress | None) -> None:
        self.gh, self.base, self.progress = gh, base, progress
        self.objects: dict[str, ShaFile] = {}
        self.data: dict[str, dict[str, Any]] = {}
        #: GitHub's commit id -> the id kept here (the same unless rebuilt).
        self.local: dict[str, str] = {}
        self.files: dict[str, bytes] = {}

    async def get(self, path: str, what: str) -> Any:
        return await self.gh.call("GET", f"{self.base}/{path}", what, need="contents")

    async def history(self, head: str, depth: int) -> list[str]:
        """Read ``depth`` commits from ``head``, newest first (breadth first across
        merges); returns their ids."""
        order, queue, seen = [], [head], {head}
        while queue and len(order) < depth:
            sha = queue.pop(0)
            await _said(self.progress, f"Reading commit {len(order) + 1} of up to {depth}")
            data = await self.get(f"commits/{sha}", "reading a commit")
            self.data[sha] = data
            order.append(sha)
            await self._tree(str(data["tree"]["sha"]), files=sha == head)
            for p in data.get("parents") or []:
                if p["sha"] not in seen:
                    seen.add(p["sha"])
                    queue.append(p["sha"])
        # Oldest first, so a parent is rebuilt before its children.
        for sha in reversed(order):
            self._commit(sha)
        return order

    def cut(self, sha: str, taken: list[str]) -> bool:
        parents = [p["sha"] for p in self.data[sha].get("parents") or []]
        return any(p not in taken for p in parents)

    def _commit(self, sha: str) -> None:
        data = self.data[sha]
        # A commit at the edge keeps its parents' ids (git's shallow file says they
        # are absent); only a parent kept under another id changes them.
        given = [str(p["sha"]) for p in data.get("parents") or []]
        if any(self.local.get(p, p) != p for p in given):
            c = commit(data, [self.local.get(p, p) for p in given])
        else:
            try:
                c = commit(data)
            except Mismatch:
                c = commit(data, given)
        self.local[sha] = c.id.decode()
        self.objects[c.id.decode()] = c

    async def _tree(self, root: str, *, files: bool) -> None:
        if root in self.objects and not files:
            return
        listing = await self.get(f"trees/{root}?recursive=1", "reading a file list")
        if listing.get("truncated"):
            raise GitHubError(
                "too_large",
                "The repository has too many files for GitHub to list at once, so it "
                "cannot be opened here. Download it as a zip on GitHub and import that.",
            )
        entries = listing.get("tree") or []
        for sha, t in trees(root, entries).items():
            self.objects[sha] = t
        blobs = [e for e in entries if e["type"] == "blob"]
        if files:
            _check_size(blobs)
        for e in blobs:
            sha = str(e["sha"])
            if sha not in self.objects:
                got = await self.get(f"blobs/{sha}", f"reading {e['path']}")
                self.objects[sha] = blob(sha, base64.b64decode(got.get("content") or ""))
            if files and e["mode"] in ("100644", "100755"):
                self.files[str(e["path"])] = self.objects[sha].as_raw_string()


def _check_size(blobs: list[dict[str, Any]]) -> None:
    """Refused before a byte is read: the branch's files over what a project holds."""
    large = [e["path"] for e in blobs if int(e.get("size") or 0) > MAX_FILE_BYTES]
    if large:
        raise GitHubError(
            "too_large",
            f"{large[0]} is over {MAX_FILE_BYTES // 2**20} MB, more than a project's file can "
            "be here. Remove it from the repository (or keep it in a release), then open it.",
        )
    total = sum(int(e.get("size") or 0) for e in blobs)
    if len(blobs) > MAX_FILES or total > MAX_TOTAL_BYTES:
        raise GitHubError(
            "too_large",
            f"The repository holds {len(blobs)} files ({total // 2**20} MB), over what a "
            f"project can hold here ({MAX_FILES} files, {MAX_TOTAL_BYTES // 2**20} MB).",
        )


async def _site_root(gh: GitHub, repo: Repo, files: dict[str, bytes]) -> str:
    """Where the site's ``index.html`` is: Pages' folder, the top, or ``docs/``."""
    try:
        pages = await read_pages(gh, repo)
    except GitHubError:  # Pages is not readable without a token: the files decide
        pages = None
    if pages is not None and pages.build_type == "legacy" and pages.prefix:
        return pages.prefix
    if "index.html" not in files and "docs/index.html" in files:
        return "docs/"
    return ""
