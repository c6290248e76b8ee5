"""Pure decisions of Ralph's workspace files: typed names, uploads, agents' memory,
and what the file-operations toolbar shows (its buttons, the form each opens).

Pane sizes live in ``wiggum.ui.layout``; what an operation does, in
``wiggum.session.workspace``.

The workspace views (``wiggum/web/views/workspace/``) ask these functions and
show their reasons verbatim, so every refusal names its cause and its fix in
the person's words.  Nothing here touches the DOM or the FileStore, so it is
tested under CPython.

Names are checked one path segment at a time, *before* ``normalize_path``:
normalizing resolves ``..`` silently (right for an agent, wrong for a person
typing a new name, who should be told rather than surprised), so the stricter
rule for typed names lives here.
"""

from __future__ import annotations

from dataclasses import dataclass

from wiggum.fs.paths import CONTROL_CHARS, WINDOWS_DEVICE_NAMES, basename
from wiggum.fs.sizes import format_size

__all__ = [
    "AGENT_DIRS",
    "FILE_OPS",
    "MAX_NAME",
    "NEEDS_A_FILE",
    "UPLOAD_LIMIT",
    "OpForm",
    "agent_memory_owner",
    "check_name",
    "check_new_path",
    "check_upload",
    "new_path",
    "op_form",
    "rename_target",
]

#: Largest file a person may upload: the whole project lives in IndexedDB and
#: goes into every preview bundle, so a 5 MB image is already generous.
UPLOAD_LIMIT = 5 * 1024 * 1024

#: Longest single name (most file systems stop at 255 bytes).
MAX_NAME = 255

#: Folders where the agents keep their memory; shown, but marked as theirs.
AGENT_DIRS = {".ralph": "Ralph", ".chief": "Chief"}

_FORBIDDEN = set('<>:"|?*\\')


def check_name(name: str) -> str | None:
    """Why ``name`` cannot be one file or folder name, or ``None`` when it can."""
    if not name or not name.strip():
        return "The name is empty. Type a name such as about.html."
    if "\x00" in name:
        return "The name contains a NUL character. Remove it and try again."
    if CONTROL_CHARS.search(name):
        return "The name contains a control character (such as a tab). Remove it."
    if "/" in name:
        return "A name cannot contain '/'. Create the folder first, then the file inside it."
    if name in (".", ".."):
        return f"'{name}' means a folder itself, not a new name. Choose another name."
    bad = sorted({c for c in name if c in _FORBIDDEN})
    if bad:
        return f"A name cannot contain {' '.join(bad)}. Use letters, digits, '-', '_' or '.'."
    if name != name.strip() or name.endswith("."):
        return "A name cannot start or end with a space, or end with '.'. Remove them."
    if name.split(".", 1)[0].lower() in WINDOWS_DEVICE_NAMES:
        return f"'{name}' is a reserved device name on Windows. Choose another name."
    if len(name.encode("utf-8")) > MAX_NAME:
        return f"The name is longer than {MAX_NAME} bytes. Shorten it."
    return None


def check_new_path(path: str) -> str | None:
    """Why a typed path (``pages/about.html``) cannot be created, or ``None``.

    Folders may be given with ``/``; every segment must be a valid name, so
    ``..``, a leading ``/`` and ``a//b`` are refused rather than resolved.
    """
    if path.startswith("/"):
        return "Paths start at the project's top folder: remove the leading '/'."
    parts = path.split("/")
    for part in parts:
        reason = check_name(part)
        if reason is not None:
            if part == "" and len(parts) > 1:
                return "The path has an empty part ('//' or a trailing '/'). Remove it."
            return reason
    return None


def check_upload(name: str, size: int, *, limit: int = UPLOAD_LIMIT) -> str | None:
    """Why a file of ``size`` bytes named ``name`` cannot be uploaded, or ``None``."""
    reason = check_name(name)
    if reason is not None:
        return reason if repr(name) in reason or name in reason else f"{name!r}: {reason}"
    if size > limit:
        return (
            f"{name} is {format_size(size)}; files up to {format_size(limit)} can be uploaded. "
            "Make it smaller (for an image: resize or compress it) and try again."
        )
    return None


def agent_memory_owner(path: str) -> str | None:
    """``"Ralph"``/``"Chief"`` when ``path`` is in that agent's memory folder."""
    return AGENT_DIRS.get(path.split("/", 1)[0])


def new_path(folder: str, typed: str) -> tuple[str | None, str | None]:
    """The project path for ``typed`` created in ``folder``, or the reason it cannot be.

    ``typed`` may hold folders (``pages/about.html``); ``folder`` is the
    normalized folder the person is in (``""`` for the top).
    """
    typed = typed.strip()
    reason = check_new_path(typed)
    if reason is not None:
        return None, reason
    return (f"{folder}/{typed}" if folder else typed), None


def rename_target(path: str, typed: str) -> tuple[str | None, str | None]:
    """Where renaming ``path`` to the single name ``typed`` leads, or why it cannot."""
    typed = typed.strip()
    reason = check_name(typed)
    if reason is not None:
        return None, reason
    head = path.rpartition("/")[0]
    target = f"{head}/{typed}" if head else typed
    if target == path:
        return None, "That is already its name. Type a different name."
    return target, None


# ------------------------------------------------------------------ the toolbar

#: The toolbar's buttons: (action, label, title).
FILE_OPS = (
    ("new-file", "New file", "Create a file in the open file's folder"),
    ("new-folder", "New folder", "Create a folder in the open file's folder"),
    ("rename", "Rename", "Rename the open file"),
    ("delete", "Delete", "Delete the open file"),
    ("upload", "Upload", f"Add files from your computer (up to {UPLOAD_LIMIT // 2**20} MB each)"),
    ("download", "Download", "Save the open file to your computer"),
)

#: What is said when an action on the open file is chosen with none open.
NEEDS_A_FILE = "Open a file in the tree first, then choose what to do with it."


@dataclass(frozen=True, slots=True)
class OpForm:
    """The inline form an action opens: its label, the name typed into it
    (``None``: no text box, a confirmation) and its OK button's label."""

    mode: str
    label: str
    value: str | None
    ok: str = "OK"


def op_form(action: str, current: str | None, folder: str) -> OpForm | None:
    """The form for ``action`` on the open file ``current`` in ``folder``, if it has one."""
    if action in ("new-file", "new-folder"):
        kind = "file" if action == "new-file" else "folder"
        return OpForm(action, f"New {kind} in {folder or 'the top folder'}:", "")
    if current is None:
        return None
    if action == "rename":
        return OpForm(action, f"Rename {current} to:", basename(current))
    if action == "delete":
        owner = agent_memory_owner(current)
        note = f" It is part of {owner}'s memory." if owner else ""
        return OpForm(
            action, f"Delete {current}?{note} This cannot be undone here.", None, "Delete"
        )
    return None
