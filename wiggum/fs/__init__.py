"""The FileStore seam: project files as an async store of project-relative paths."""

from .errors import (
    DirectoryNotEmpty,
    FileExists,
    FileNotFound,
    FileStoreError,
    IsADirectory,
    NotADirectory,
    NotText,
    StorageFull,
    is_quota_name,
    quota_message,
)
from .memory import MemoryFileStore
from .paths import ROOT, PathError, basename, dirname, is_within, join_path, normalize_path
from .store import FileStat, FileStore, FileStoreBase, is_binary

__all__ = [
    "ROOT",
    "DirectoryNotEmpty",
    "FileExists",
    "FileNotFound",
    "FileStat",
    "FileStore",
    "FileStoreBase",
    "FileStoreError",
    "IsADirectory",
    "MemoryFileStore",
    "NotADirectory",
    "NotText",
    "PathError",
    "StorageFull",
    "basename",
    "dirname",
    "is_binary",
    "is_quota_name",
    "is_within",
    "join_path",
    "normalize_path",
    "quota_message",
]
