"""What the projects dialog says: each project's row, the browser's storage, an import's outcome.

Pure and light (the dialog is built with the first screen): the browser's
answers come in as plain values, a date is formatted by the caller (the
page uses the browser's locale).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from wiggum.fs.sizes import format_size

if TYPE_CHECKING:
    from wiggum.project.importing import ImportResult

__all__ = [
    "QUOTA_WARN",
    "RowAction",
    "StorageEstimate",
    "StorageView",
    "delete_question",
    "files_text",
    "import_hint",
    "imported_text",
    "not_done",
    "row_actions",
    "row_meta",
    "storage_view",
]

#: Warn when the origin uses this share of its quota.
QUOTA_WARN = 0.8


@dataclass(frozen=True, slots=True)
class StorageEstimate:
    """``navigator.storage``'s answers: bytes used and allowed, persisted or not (unknown)."""

    usage: int
    quota: int
    persisted: bool | None

    @property
    def near_quota(self) -> bool:
        return self.quota > 0 and self.usage >= QUOTA_WARN * self.quota


@dataclass(frozen=True, slots=True)
class StorageView:
    usage: str
    #: Whether the browser said anything of its storage (else only ``usage`` is news).
    known: bool = True
    #: Whether the browser keeps the storage (``None``: it does not say; the line is hidden).
    persisted: bool | None = None
    persist: str = ""
    #: Said when storage is nearly full (``None``: hidden).
    warning: str | None = None


def storage_view(est: StorageEstimate | None) -> StorageView:
    if est is None:
        return StorageView("This browser does not say how much storage it allows.", known=False)
    persist = {
        True: "Storage is persistent: the browser will not evict your projects.",
        False: "Storage is not persistent: the browser may clear it under storage "
        "pressure. Download projects to keep them.",
        None: "",
    }[est.persisted]
    warning = None
    if est.near_quota:
        warning = (
            f"Storage is almost full ({est.usage * 100 // max(est.quota, 1)}% used). "
            "New files may not be saved: download and delete projects you no longer "
            "need, or allow this site more storage in the browser's settings."
        )
    usage = f"Using {format_size(est.usage)} of {format_size(est.quota)} this browser allows."
    return StorageView(usage, True, est.persisted, persist, warning)


def files_text(n: int) -> str:
    return "1 file" if n == 1 else f"{n} files"


def row_meta(
    size: int, count: int, stamp: float, date: Callable[[float], str], stored: int = 0
) -> str:
    """``"3 files · 28.2 KB (41.0 KB with its history) · changed <date>"``: the
    site's files and bytes, then what the project takes in the browser when
    its history and the agents' notes make it more; ``stamp`` in seconds, 0 for never."""
    changed = f"changed {date(stamp)}" if stamp else "never changed"
    kept = f" ({format_size(stored)} with its history)" if stored > size else ""
    return f"{files_text(count)} · {format_size(size)}{kept} · {changed}"


@dataclass(frozen=True, slots=True)
class RowAction:
    action: str
    label: str
    disabled: bool = False


def row_actions(current: bool) -> list[RowAction]:
    """A row's buttons; the open project cannot be opened again."""
    return [
        RowAction("open", "Open (current)" if current else "Open", disabled=current),
        RowAction("download", "Download"),
        RowAction("rename", "Rename"),
        RowAction("duplicate", "Duplicate"),
        RowAction("delete", "Delete"),
    ]


def delete_question(name: str) -> str:
    return (
        f"Delete “{name}” with its files, history and conversations? This cannot be undone; "
        "download it first to keep a copy."
    )


def import_hint(max_files: int, max_file_bytes: int, max_total_bytes: int) -> str:
    return (
        f"or drop them here · up to {max_files} files, "
        f"{max_file_bytes // 2**20} MB a file, {max_total_bytes // 2**20} MB in all"
    )


def imported_text(name: str, result: ImportResult) -> str:
    """The line for an import that made the project ``name``: its files (the
    site's, not the history's), whether its history came (only when it was read),
    and what was done to the archive's layout."""
    history = " with its history" if result.has_history else ""
    text = (
        f"Imported {files_text(len(result.working))} "
        f"({format_size(result.total_bytes)}){history} as the new project “{name}”."
    )
    if result.history_left_out:
        text += f" {result.history_left_out}"
    if result.top_folder:
        text += (
            f" Everything was in one folder, “{result.top_folder}/”: its content is the "
            "project's top level."
        )
    return text


def not_done(what: str, exc: BaseException) -> str:
    """A failed action, with the exception's reason (its kind when it gives none)."""
    return f"{what} {str(exc) or type(exc).__name__}"
