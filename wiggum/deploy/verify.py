"""After publishing: read back what GitHub holds and compare it with the commit.

The branch is read again (someone may have pushed since), then its tree: every
file of the site must be there with the blob id of the project's file, and
nothing else may be in the site's folder but what is kept on purpose
(``.github/``, ``CNAME``).  Git ids are content hashes, so equal ids mean equal
bytes.  A tree too large for one answer (``truncated``) is read folder by
folder.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from .github import GitHub, Repo
from .gitid import blob_id

__all__ = ["KEEP", "Check", "kept", "read_tree", "verify"]

#: Paths of a repository that a publish never deletes: GitHub's own settings
#: (a Pages workflow lives in .github/workflows) and a custom domain's CNAME.
KEEP = (".github/", "CNAME")


def kept(path: str, prefix: str) -> bool:
    """Whether a publish into ``prefix`` leaves ``path`` as it is on GitHub."""
    return path.startswith(KEEP[0]) or path == prefix + KEEP[1]


@dataclass
class Check:
    """What the read-back found."""

    head: str
    #: Site paths whose file on GitHub is not the project's.
    different: list[str] = field(default_factory=list)
    #: Site paths missing on GitHub.
    missing: list[str] = field(default_factory=list)
    #: Paths in the site's folder on GitHub that are not the project's.
    extra: list[str] = field(default_factory=list)

    @property
    def same(self) -> bool:
        return not (self.different or self.missing or self.extra)


async def read_tree(gh: GitHub, repo: Repo, tree: str) -> dict[str, tuple[str, str, str]]:
    """``{path: (mode, type, sha)}`` of every entry below ``tree``."""
    base = f"/repos/{repo.full_name}/git/trees"
    data = await gh.call("GET", f"{base}/{tree}?recursive=1", "reading the files", need="contents")
    if not data.get("truncated"):
        return {e["path"]: (e["mode"], e["type"], e["sha"]) for e in data.get("tree", [])}
    out: dict[str, tuple[str, str, str]] = {}
    todo = [("", tree)]
    while todo:
        prefix, sha = todo.pop()
        level = await gh.call("GET", f"{base}/{sha}", "reading the files", need="contents")
        for e in level.get("tree", []):
            path = prefix + e["path"]
            out[path] = (e["mode"], e["type"], e["sha"])
            if e["type"] == "tree":
                todo.append((path + "/", e["sha"]))
    return out


async def verify(
    gh: GitHub, repo: Repo, branch: str, prefix: str, site: Mapping[str, bytes]
) -> Check:
    """Compare the branch's files in ``prefix`` with ``site`` (paths without prefix)."""
    base = f"/repos/{repo.full_name}"
    ref = await gh.call(
        "GET", f"{base}/git/ref/heads/{branch}", "reading the branch back", need="contents"
    )
    head = ref["object"]["sha"]
    commit = await gh.call(
        "GET", f"{base}/git/commits/{head}", "reading the commit back", need="contents"
    )
    held = await read_tree(gh, repo, commit["tree"]["sha"])
    check = Check(head)
    for path, data in site.items():
        entry = held.get(prefix + path)
        if entry is None:
            check.missing.append(path)
        elif entry[2] != blob_id(data):
            check.different.append(path)
    wanted = {prefix + p for p in site}
    for path, (mode, kind, _) in held.items():
        if kind == "tree" or mode in ("120000", "160000"):  # a project holds neither
            continue
        if not path.startswith(prefix) or path in wanted:
            continue
        if not kept(path, prefix):
            check.extra.append(path[len(prefix) :])
    return check
