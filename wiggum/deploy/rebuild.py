"""Git objects rebuilt from what GitHub's Git Data API says of them, with their own ids.

The API gives a tree's entries and a blob's bytes exactly, so those rebuild
byte for byte.  A commit is harder: the API says its dates in UTC and leaves
out the time zone git keeps in the commit, so the zone is searched for (the
same one for author and committer first, as nearly every commit has, then
each on its own) until the rebuilt commit's id is GitHub's.  A signed commit
comes with the exact text that was signed (``verification.payload``) and the
signature, which together are the commit.  A commit that cannot be rebuilt
with its id (:class:`Mismatch`) is not taken as GitHub's: the caller decides.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from dulwich.objects import Blob, Commit, Tree

__all__ = ["Mismatch", "blob", "commit", "trees"]

#: Time zones in use, in minutes east of UTC (every quarter hour from -12 to +14).
ZONES = sorted(range(-12 * 60, 14 * 60 + 1, 15), key=lambda m: (abs(m), m))


class Mismatch(Exception):
    """GitHub's object could not be rebuilt with GitHub's id."""


def blob(sha: str, data: bytes) -> Blob:
    b = Blob.from_string(data)
    if b.id.decode() != sha:
        raise Mismatch(f"blob {sha[:7]}")
    return b


def trees(root: str, entries: Iterable[Mapping[str, Any]]) -> dict[str, Tree]:
    """Every tree of a recursive listing (``GET /git/trees/{root}?recursive=1``) by id,
    each checked against the id GitHub gave it."""
    folders: dict[str, Tree] = {"": Tree()}
    ids = {"": root}
    rows = list(entries)
    for e in rows:
        if e["type"] == "tree":
            folders[e["path"]] = Tree()
            ids[e["path"]] = e["sha"]
    for e in rows:
        folder, _, name = str(e["path"]).rpartition("/")
        folders[folder].add(name.encode(), int(e["mode"], 8), e["sha"].encode())
    out: dict[str, Tree] = {}
    for path, t in folders.items():
        if t.id.decode() != ids[path]:
            raise Mismatch(f"tree {ids[path][:7]}")
        out[ids[path]] = t
    return out


def _when(date: str) -> tuple[int, int | None]:
    """Seconds since the epoch, and the zone in seconds when the date names one."""
    moment = datetime.fromisoformat(date.replace("Z", "+00:00"))
    offset = moment.utcoffset()
    zone = None if date.endswith("Z") or offset is None else int(offset.total_seconds())
    return int(moment.timestamp()), zone


def _person(p: Mapping[str, Any]) -> bytes:
    return f"{p['name']} <{p['email']}>".encode()


def commit(data: Mapping[str, Any], parents: list[str] | None = None) -> Commit:
    """The commit GitHub describes in ``data`` (``GET /git/commits/{sha}``).

    ``parents`` replaces the parents GitHub names (a parent rebuilt under
    another id); then the commit cannot have GitHub's id and is not checked.
    """
    sha = str(data["sha"])
    signed = _signed(data)
    if signed is not None and parents is None:
        return signed
    c = Commit()
    c.tree = str(data["tree"]["sha"]).encode()
    given = [str(p["sha"]) for p in data.get("parents") or []]
    c.parents = [p.encode() for p in (given if parents is None else parents)]
    c.author, c.committer = _person(data["author"]), _person(data["committer"])
    c.author_time, author_zone = _when(data["author"]["date"])
    c.commit_time, commit_zone = _when(data["committer"]["date"])
    message = str(data.get("message") or "")
    messages = [message] if message.endswith("\n") else [message, message + "\n"]
    c.author_timezone = author_zone or 0
    c.commit_timezone = commit_zone or 0
    if parents is not None:
        c.message = messages[-1].encode()
        return c
    for text in messages:
        c.message = text.encode()
        if _zoned(c, sha, author_zone, commit_zone):
            return c
    raise Mismatch(f"commit {sha[:7]}")


def _zoned(c: Commit, sha: str, author: int | None, committer: int | None) -> bool:
    """Whether some time zone gives ``c`` the id ``sha`` (``c`` is left with it)."""
    a_zones = [author] if author is not None else [m * 60 for m in ZONES]
    c_zones = [committer] if committer is not None else [m * 60 for m in ZONES]
    # Author and committer in one zone first: nearly every commit.
    pairs = [(z, z) for z in a_zones if z in c_zones]
    pairs += [(a, k) for a in a_zones for k in c_zones if a != k]
    for a, k in pairs:
        c.author_timezone, c.commit_timezone = a, k
        if c.id.decode() == sha:
            return True
    return False


def _signed(data: Mapping[str, Any]) -> Commit | None:
    """A signed commit: the signed text with its signature put back, as git stores it."""
    v = data.get("verification") or {}
    payload, signature = v.get("payload"), v.get("signature")
    if not payload or not signature:
        return None
    head, sep, message = str(payload).partition("\n\n")
    lines = str(signature).rstrip("\n").split("\n")
    raw = head + "\ngpgsig " + "\n ".join(lines) + sep + message
    c = Commit.from_string(raw.encode())
    return c if c.id.decode() == data["sha"] else None
