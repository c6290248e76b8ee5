"""FileStore errors.  ``str(err)`` reads like a shell's: ``path: reason``.

Tools and shell commands prefix the message with their own name
(``cat: a.txt: No such file or directory``), so each error carries the path and
a short reason rather than a sentence.
"""

from __future__ import annotations

from .sizes import format_size

__all__ = [
    "DirectoryNotEmpty",
    "FileExists",
    "FileNotFound",
    "FileStoreError",
    "IsADirectory",
    "NotADirectory",
    "NotText",
    "StorageFull",
    "is_quota_name",
    "quota_in_text",
    "quota_message",
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


# -- the browser's storage quota ------------------------------------------------

#: The ``DOMException`` names a browser uses for a write refused for space
#: (``QuotaExceededError`` everywhere today; Firefox once used the other).
QUOTA_NAMES = ("QuotaExceededError", "NS_ERROR_DOM_QUOTA_REACHED")


def is_quota_name(name: object) -> bool:
    """Whether a ``DOMException`` name means the storage quota was reached."""
    return str(name or "") in QUOTA_NAMES


def quota_in_text(text: str) -> bool:
    """Whether an error's text names the quota error.

    A ``DOMException`` thrown synchronously (by ``IDBObjectStore.put``) reaches
    Python as a ``JsException`` whose name is lost when the thrown object has
    no ``stack``: Pyodide wraps it in an ``Error`` whose message quotes it
    (``... gives \"\"\"QuotaExceededError: ...\"\"\"``).  Its text starts with the
    name otherwise (``QuotaExceededError: ...``).
    """
    text = str(text)
    return any(text.startswith(f"{n}:") or f'"""{n}:' in text for n in QUOTA_NAMES)


def quota_message(usage: int | None = None, quota: int | None = None) -> str:
    """What the person reads when the browser refused a write for space."""
    used = ""
    if usage is not None and quota:
        used = f" ({format_size(usage)} of {format_size(quota)} used)"
    return (
        f"The browser's storage for this page is full{used}. Delete or download old "
        "projects in \u2630 Projects, then try again. Nothing already saved was lost."
    )


class StorageFull(FileStoreError):
    """The browser refused a write for lack of storage space (``QuotaExceededError``).

    Raised by the page's stores for every write (files, history, conversations),
    so every caller that already reports a ``FileStoreError`` reports this too;
    ``str(err)`` is the whole sentence for the person (no ``path:`` prefix,
    since nothing about that path is wrong).  The write was all-or-nothing:
    what was saved before it is intact.
    """

    def __init__(self, path: str = "", usage: int | None = None, quota: int | None = None):
        self.usage, self.quota = usage, quota
        self.reason = quota_message(usage, quota)
        Exception.__init__(self, self.reason)
        self.path = path
