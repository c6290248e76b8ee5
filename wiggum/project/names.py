"""Which names may become a file of the project: from a zip, and from a checkpoint.

One set of rules for everything that arrives from outside and is written
into the project's files: a zip's entries (``wiggum.project.archive``) and a
checkpoint's tree on revert or restore (``wiggum.project.history``): a name
must stay inside the project, be one the person's computer can unpack, and
never be git's own folder (``.git`` in any of the spellings git itself
refuses on checkout, so a downloaded project's git cannot be made to run a
command by a file a checkpoint put there).

Each rule answers with the reason in the person's words, or ``None``.
"""

from __future__ import annotations

import functools

from wiggum.fs.paths import CONTROL_CHARS, DRIVE, WINDOWS_DEVICE_NAMES, PathError, normalize_path

__all__ = ["git_name_refusal", "refusal", "tree_refusal"]

FILE_MODES = (0o100644, 0o100755)
TREE_MODE = 0o040000
LINK_MODE = 0o120000
GITLINK_MODE = 0o160000


def refusal(name: str) -> str | None:
    """Why the entry ``name`` may not be imported, or ``None`` when it may."""
    if not name:
        return "empty name"
    if "\x00" in name:
        return "contains a NUL character"
    if CONTROL_CHARS.search(name):
        return "contains a control character"
    if "\\" in name:
        return "contains a backslash (a Windows path)"
    if name.startswith("/") or DRIVE.match(name):
        return "absolute path"
    parts = name.rstrip("/").split("/")
    if ".." in parts:
        return "climbs out of the project (..)"
    for part in parts:
        stem = part.split(".")[0].rstrip(" ").lower()
        if stem in WINDOWS_DEVICE_NAMES:
            return f"reserved device name ({part})"
        if part.endswith((" ", ".")) and part not in (".",):
            return "name ends with a space or dot"
    if len(name.encode("utf-8")) > 1024:
        return "name too long"
    return None


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
