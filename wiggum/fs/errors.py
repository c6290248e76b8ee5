"""FileStore errors.  ``str(err)`` reads like a shell's: ``path: reason``.

Tools and shell commands prefix the message with their own name
(``cat: a.txt: No such file or directory``), so each error carries the path and
a short reason rather than a sentence.
"""

from __future__ import annotations

__all__ = [
    "DirectoryNotEmpty",
    "FileExists",
    "FileNotFound",
    "FileStoreError",
    "IsADirectory",
    "NotADirectory",
    "NotText",
]


class FileStoreError(Exception):
    reason = "File store error"

    def __init__(self, path: str, reason: str | None = None) -> None:
        self.path = path
        if reason is not None:
            self.reason = reason
        super().__init__(f"{path or '.'}: {self.reason}")


class FileNotFound(FileStoreError):
    reason = "No such file or directory"


class IsADirectory(FileStoreError):
    reason = "Is a directory"


class NotADirectory(FileStoreError):
    reason = "Not a directory"


class FileExists(FileStoreError):
    reason = "File exists"


class DirectoryNotEmpty(FileStoreError):
    reason = "Directory not empty"


class NotText(FileStoreError):
    """``read_text`` on bytes that are not UTF-8 (an image, a font)."""

    reason = "Not UTF-8 text (binary file?)"
