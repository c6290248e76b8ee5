"""Where a project's history points: ``HEAD``, its branch, packed refs, a shallow edge.

``HEAD`` names the branch checkpoints go to, whatever its name (``main``,
``master``, ``gh-pages``), or a commit when it is detached; a branch is a
loose ref (``.git/refs/heads/<name>``) or a line of ``.git/packed-refs`` (a
clone, ``git gc``).  A checkpoint moves the branch by writing its loose ref,
which git reads before ``packed-refs``; tags and other branches are never
touched.  A shallow clone's oldest commits (``.git/shallow``) are listed as
having no parent.  Whether a repository is one Wiggum can read at all
(SHA-1 object names, refs in files) is :func:`unreadable_reason`'s.

dulwich reads the formats (``read_packed_refs_with_peeled``,
``check_ref_format``, ``ConfigFile``); its ``RefsContainer`` reads and writes
through ``os``, which the async FileStore is not, hence this module.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from dulwich.objects import valid_hexsha
from dulwich.refs import check_ref_format, read_packed_refs_with_peeled

from wiggum.fs.errors import FileNotFound, FileStoreError
from wiggum.fs.store import FileStore

from .history_errors import unreadable

__all__ = ["DEFAULT_BRANCH", "GIT", "Head", "read_head", "read_shallow", "unreadable_reason"]

GIT = ".git"
DEFAULT_BRANCH = "refs/heads/main"
_SYMREF = b"ref: "


@dataclass(frozen=True, slots=True)
class Head:
    """What ``HEAD`` points at: a branch (``ref``; ``None`` when detached) and the
    commit it is at (``None`` before the first checkpoint)."""

    ref: str | None
    sha: bytes | None
    #: Whether ``.git/HEAD`` exists (a new project's is written with its first checkpoint).
    stored: bool = True

    def moved(self, sha: bytes) -> dict[str, bytes]:
        """The file to write (path -> bytes) so that ``HEAD`` is at ``sha``."""
        path = f"{GIT}/{self.ref}" if self.ref else f"{GIT}/HEAD"
        return {path: sha + b"\n"}

    @property
    def branch(self) -> str:
        """The branch's short name (``main``), or ``HEAD`` when detached."""
        return self.ref.removeprefix("refs/heads/") if self.ref else "HEAD"


async def _read(fs: FileStore, path: str) -> bytes | None:
    try:
        return await fs.read_bytes(path)
    except FileNotFound:
        return None
    except FileStoreError:  # a directory where a file should be
        return None


async def _packed(fs: FileStore) -> dict[str, bytes]:
    raw = await _read(fs, f"{GIT}/packed-refs")
    if not raw:
        return {}
    try:
        rows = list(read_packed_refs_with_peeled(io.BytesIO(raw)))
    except Exception:
        raise unreadable(".git/packed-refs is damaged") from None
    return {name.decode("utf-8", "replace"): sha for sha, name, _peeled in rows}


async def _resolve(fs: FileStore, ref: str) -> tuple[str, bytes | None]:
    """The branch ``ref`` finally names (following symbolic refs) and its commit."""
    for _ in range(5):
        if not ref.startswith("refs/") or not check_ref_format(ref.encode()):
            raise unreadable(f"HEAD names “{ref}”, which is not a branch")
        raw = await _read(fs, f"{GIT}/{ref}")
        if raw is None:
            return ref, (await _packed(fs)).get(ref)
        value = raw.strip()
        if value.startswith(_SYMREF):
            ref = value[len(_SYMREF) :].decode("utf-8", "replace").strip()
            continue
        if not valid_hexsha(value) or len(value) != 40:
            raise unreadable(f"the branch {ref} does not hold a commit id")
        return ref, value
    raise unreadable("HEAD's branch points at itself")


async def read_head(fs: FileStore) -> Head:
    """Where ``HEAD`` points; a project without ``.git/HEAD`` is on ``main``, empty."""
    raw = await _read(fs, f"{GIT}/HEAD")
    if raw is None:
        return Head(DEFAULT_BRANCH, None, stored=False)
    value = raw.strip()
    if value.startswith(_SYMREF):
        ref, sha = await _resolve(fs, value[len(_SYMREF) :].decode("utf-8", "replace").strip())
        return Head(ref, sha)
    if valid_hexsha(value) and len(value) == 40:
        return Head(None, value)
    raise unreadable(".git/HEAD is neither a branch nor a commit id")


async def read_shallow(fs: FileStore) -> frozenset[bytes]:
    """The commits whose parents a shallow clone left out."""
    raw = await _read(fs, f"{GIT}/shallow")
    return frozenset(line.strip() for line in (raw or b"").splitlines() if line.strip())


def unreadable_reason(config: bytes | None, *, alternates: bool) -> str | None:
    """Why a repository with this ``.git/config`` cannot be read here, or ``None``."""
    if alternates:
        return (
            "its objects are kept in another repository on the computer it came from "
            "(.git/objects/info/alternates)"
        )
    if not config:
        return None
    from dulwich.config import ConfigFile

    try:
        cfg = ConfigFile.from_file(io.BytesIO(config))
    except Exception:
        return ".git/config cannot be read"

    def get(section: bytes, name: bytes) -> bytes:
        try:
            return cfg.get(section, name).lower()
        except KeyError:
            return b""

    if get(b"extensions", b"objectformat") not in (b"", b"sha1"):
        return "it uses SHA-256 object names, which Wiggum does not read yet"
    if get(b"extensions", b"refstorage") not in (b"", b"files"):
        return "its branches are kept in a reftable, which Wiggum does not read yet"
    return None
