"""Which names a checkpoint may write into the project on revert or restore.

The rules for a zip's entries (:func:`wiggum.project.archive.refusal`) hold
for a checkpoint's tree too (``wiggum.project.history``), with git's own: a
name must stay inside the project, be one the person's computer can unpack,
be a file, and never be git's own folder (``.git`` in any of the spellings
git itself refuses on checkout, so a downloaded project's git cannot be made
to run a command by a file a checkpoint put there).

Each rule answers with the reason in the person's words, or ``None``.
"""

from __future__ import annotations

import functools

from wiggum.fs.paths import PathError, normalize_path

from .archive import refusal

__all__ = ["git_name_refusal", "tree_refusal"]

FILE_MODES = (0o100644, 0o100755)
TREE_MODE = 0o040000
LINK_MODE = 0o120000
GITLINK_MODE = 0o160000


@functools.lru_cache(maxsize=8192)
def git_name_refusal(path: str) -> str | None:
    """Why ``path`` cannot be in a git tree: a part spelled as git's own folder
    (``.git``, ``.GIT``, ``git~1``, ``.git.`` …, as ``git fsck`` refuses them)."""
    from dulwich.index import validate_path_element_hfs, validate_path_element_ntfs

    for part in path.split("/"):
        raw = part.encode("utf-8", "surrogateescape")
        if not (validate_path_element_ntfs(raw) and validate_path_element_hfs(raw)):
            return f"git's own folder (“{part}”)"
    return None


def tree_refusal(path: str, mode: int) -> str | None:
    """Why the checkpoint's entry ``path`` (with its git ``mode``) may not be written
    into the project, or ``None`` when it may."""
    if mode == LINK_MODE:
        return "symbolic link (a project in the browser holds files only)"
    if mode not in FILE_MODES:
        return "not a file"
    reason = refusal(path)
    if reason is None:
        try:
            if normalize_path(path, allow_root=False) != path:
                reason = "not a plain path (empty or “.” parts)"
        except PathError:
            reason = "outside the project"
    return reason or git_name_refusal(path)
