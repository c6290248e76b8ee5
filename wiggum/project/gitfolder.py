"""A ``.git/`` folder made of objects read elsewhere (a repository opened from GitHub).

The objects go in as one pack with its index, as a clone writes them; the
branch, ``HEAD``, the shallow edge (``git clone --depth``) and a config naming
where the repository came from, so ``git`` run on a download of the project
fetches and pushes there as after a clone.
"""

from __future__ import annotations

from collections.abc import Iterable

from dulwich.objects import ShaFile

from .gitrefs import GIT
from .gitstore import write_pack

__all__ = ["git_folder"]


def git_folder(
    objects: Iterable[ShaFile], branch: str, head: str, shallow: Iterable[str], remote: str
) -> dict[str, bytes]:
    """The files of ``.git/`` (``{path: bytes}``) holding ``objects`` on ``branch``."""
    files = write_pack(objects)
    files[f"{GIT}/HEAD"] = f"ref: refs/heads/{branch}\n".encode()
    files[f"{GIT}/refs/heads/{branch}"] = f"{head}\n".encode()
    files[f"{GIT}/refs/remotes/origin/{branch}"] = f"{head}\n".encode()
    edge = sorted(set(shallow))
    if edge:
        files[f"{GIT}/shallow"] = "".join(f"{sha}\n" for sha in edge).encode()
    files[f"{GIT}/config"] = (
        "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n"
        f'[remote "origin"]\n\turl = {remote}\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n'
        f'[branch "{branch}"]\n\tremote = origin\n\tmerge = refs/heads/{branch}\n'
    ).encode()
    return files
