"""An archive (or a folder's files) read in as a new project's files and history.

Import trusts nothing in the archive.  Every entry name goes through
:func:`wiggum.project.archive.refusal` (zip-slip ``..``, absolute paths, drive
letters, backslashes, NUL and control characters, Windows device names),
symlinks and devices are refused from the zip's ``external_attr``; refused
entries are listed with their reason, the rest are imported.

What it decides beyond that:

- names are decoded as real tools do (:mod:`wiggum.project.zipnames`);
- the site's root: when everything is in one folder (GitHub's "Download
  ZIP" puts it all in ``<repo>-main/``, a folder zipped from outside), that
  folder's content becomes the project's top, and :attr:`ImportResult.top_folder`
  says so; ``__MACOSX/`` (Finder's metadata) is left out;
- ``.git/`` at the top is the project's history; a ``.git`` anywhere else (a
  nested repository, a ``.git`` file pointing elsewhere) is refused, since
  git would not take it into a checkpoint or show it;
- the limits hold for the working files (count, size of one, size in all);
  the history has a limit of its own, and a history over it is refused
  with the offer to import without it (:class:`HistoryTooLarge`).

Limits are checked on the declared sizes first and again on the bytes
actually inflated, so an archive that lies about its sizes stops at the
limit too.  Python's ``zipfile`` does the format; only the rules are here.
"""

from __future__ import annotations

import stat
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field

from wiggum.fs.sizes import format_size

from .archive import refusal
from .zipnames import entry_name, open_zip

__all__ = [
    "MAX_FILES",
    "MAX_FILE_BYTES",
    "MAX_HISTORY_BYTES",
    "MAX_TOTAL_BYTES",
    "ArchiveError",
    "HistoryTooLarge",
    "ImportResult",
    "Refused",
    "read_entries",
    "read_zip",
]

#: Limits on the working files.  Chosen so the whole project still fits
#: comfortably in a browser's IndexedDB quota and in Pyodide's memory (the
#: archive and its contents are held at once): 2,000 files, 10 MB a file, 50 MB.
MAX_FILES = 2000
MAX_FILE_BYTES = 10 * 1024 * 1024
MAX_TOTAL_BYTES = 50 * 1024 * 1024
#: The history's own limits (``.git/``: packs, loose objects, refs).
MAX_HISTORY_BYTES = 100 * 1024 * 1024
MAX_HISTORY_FILES = 20_000

_FIX = "Leave out large files (build output, videos, node_modules) and import again."
_MACOS = "__MACOSX"
_HISTORY = ".git"


class ArchiveError(Exception):
    """The archive as a whole cannot be imported (not a zip, over a limit)."""


class HistoryTooLarge(ArchiveError):
    """The archive's history is over its limit; the files alone may be imported."""


@dataclass(frozen=True, slots=True)
class Refused:
    name: str
    reason: str


@dataclass(slots=True)
class ImportResult:
    #: path -> bytes: the working files and, when it came along, ``.git/``.
    files: dict[str, bytes] = field(default_factory=dict)
    refused: list[Refused] = field(default_factory=list)
    #: The one folder everything was in, whose content became the project's top.
    top_folder: str | None = None
    #: Why an archive's ``.git/`` was not imported, a sentence (``None``: it came, or
    #: there was none).
    history_left_out: str | None = None
    #: The archive's folders (empty ones too: git needs ``.git/refs/`` to be there).
    folders: list[str] = field(default_factory=list)

    @property
    def working(self) -> dict[str, bytes]:
        return {p: d for p, d in self.files.items() if not _in_history(p)}

    @property
    def total_bytes(self) -> int:
        """The working files' bytes (the history's are not the site's)."""
        return sum(len(d) for p, d in self.files.items() if not _in_history(p))

    @property
    def has_history(self) -> bool:
        return any(_in_history(p) for p in self.files)


def _in_history(path: str) -> bool:
    return path == _HISTORY or path.startswith(_HISTORY + "/")


def _clean(name: str) -> str:
    return "/".join(p for p in name.split("/") if p not in ("", "."))


def _limit(n: int) -> str:
    """A limit in round units ("50 MB", "10 MB"), as the import hint says them."""
    if n >= 1024 * 1024:
        return f"{n / (1024 * 1024):.0f} MB"
    return f"{n / 1024:.0f} KB" if n >= 1024 else f"{n} bytes"


def _over(what: str, limit: int) -> ArchiveError:
    return ArchiveError(f"{what} is over the import limit of {_limit(limit)}. {_FIX}")


def _git_refusal(path: str) -> str | None:
    """A ``.git`` that is not the project's own history folder."""
    parts = path.split("/")
    for i, part in enumerate(parts):
        if part.lower() != _HISTORY:
            continue
        if i == 0 and part == _HISTORY and len(parts) > 1:
            continue
        if i == 0 and len(parts) == 1:
            return "a .git file pointing to a history elsewhere (not included in the archive)"
        return "a git folder inside the project (another repository's history)"
    return None


@dataclass(slots=True)
class _Entry:
    name: str
    size: int
    read: Callable[[int], bytes]
    directory: bool = False


def _top_folder(entries: list[_Entry]) -> str | None:
    """The one folder every entry is in, or ``None``."""
    tops = {e.name.split("/", 1)[0] for e in entries}
    if len(tops) != 1 or not any(e.directory or "/" in e.name for e in entries):
        return None
    top = tops.pop()
    if top == _HISTORY or all(e.name == top for e in entries):
        return None
    return top


class _Budget:
    def __init__(self, max_files: int, max_file: int, max_total: int) -> None:
        self.max_files, self.max_file, self.max_total = max_files, max_file, max_total
        self.total = self.files = 0
        self.history = self.history_files = 0

    def check_declared(self, entries: list[_Entry], with_history: bool) -> None:
        files = [e for e in entries if not e.directory and not _in_history(e.name)]
        if len(files) > self.max_files:
            raise ArchiveError(
                f"The archive has {len(files)} files; the import limit is {self.max_files} files. "
                f"{_FIX}"
            )
        if sum(e.size for e in files) > self.max_total:
            raise _over("The archive's content", self.max_total)
        history = [e for e in entries if not e.directory and _in_history(e.name)]
        size = sum(e.size for e in history)
        if with_history and (size > MAX_HISTORY_BYTES or len(history) > MAX_HISTORY_FILES):
            raise HistoryTooLarge(
                f"Nothing was imported yet: this project's history (.git/, "
                f"{format_size(size)} in {len(history)} files) is over the "
                f"{_limit(MAX_HISTORY_BYTES)} a project's history may take here. Import it "
                "without its history: its files come in as they are, and a new history starts."
            )

    def room(self, path: str) -> int:
        """The most bytes ``path`` may inflate to."""
        if _in_history(path):
            return MAX_HISTORY_BYTES - self.history
        return min(self.max_file, self.max_total - self.total)

    def take(self, result: ImportResult, path: str, data: bytes) -> None:
        if _in_history(path):
            self.history += len(data)
            if self.history > MAX_HISTORY_BYTES:
                raise _over("The archive's history (.git/)", MAX_HISTORY_BYTES)
            result.files[path] = data
            return
        if len(data) > self.max_file:
            result.refused.append(Refused(path, f"larger than {_limit(self.max_file)}"))
            return
        if self.files >= self.max_files:
            raise ArchiveError(
                f"The archive has more than {self.max_files} files, the import limit. {_FIX}"
            )
        self.total += len(data)
        self.files += 1
        if self.total > self.max_total:
            raise _over("The archive's content", self.max_total)
        result.files[path] = data


def _read_all(
    entries: list[_Entry],
    budget: _Budget,
    *,
    with_history: bool,
    refused: list[Refused],
) -> ImportResult:
    result = ImportResult(refused=refused)
    entries = [e for e in entries if e.name.split("/", 1)[0] != _MACOS]
    top = _top_folder(entries)
    if top is not None:
        result.top_folder = top
        entries = [e for e in entries if e.name != top]
        for e in entries:
            e.name = e.name[len(top) + 1 :]
    budget.check_declared(entries, with_history)
    for e in entries:
        if not e.name:
            continue
        reason = _git_refusal(e.name)
        if e.directory:
            if reason is None and (with_history or not _in_history(e.name)):
                result.folders.append(e.name)
            continue
        if reason is not None:
            result.refused.append(Refused(e.name, reason))
            continue
        if _in_history(e.name) and not with_history:
            result.history_left_out = "Its history was left out, as you asked: a new one starts."
            continue
        if not _in_history(e.name) and e.size > budget.max_file:
            result.refused.append(Refused(e.name, f"larger than {_limit(budget.max_file)}"))
            continue
        room = budget.room(e.name)
        try:
            # One byte past the room, so a size that lies is caught.
            body = e.read(room + 1)
        except (zipfile.BadZipFile, NotImplementedError, RuntimeError, OSError, EOFError) as exc:
            result.refused.append(Refused(e.name, f"cannot be read ({exc})"))
            continue
        except zlib.error as exc:
            result.refused.append(Refused(e.name, f"cannot be read (damaged: {exc})"))
            continue
        if len(body) > room and not _in_history(e.name) and room < budget.max_file:
            raise _over("The archive's content", budget.max_total)
        budget.take(result, e.name, body)
    return result


def _zip_entry(zf: zipfile.ZipFile, info: zipfile.ZipInfo) -> _Entry | Refused:
    name = entry_name(info)
    reason = refusal(name)
    mode = info.external_attr >> 16
    if reason is None and stat.S_ISLNK(mode):
        reason = "symbolic link"
    elif reason is None and stat.S_IFMT(mode) and not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        reason = "not a regular file (device, pipe or socket)"
    if reason is None and info.flag_bits & 0x1:
        reason = "encrypted"
    if reason is not None:
        return Refused(name, reason)

    def read(limit: int) -> bytes:
        with zf.open(info) as fh:
            return fh.read(limit)

    return _Entry(_clean(name), info.file_size, read, directory=info.is_dir())


def read_zip(
    data: bytes,
    *,
    with_history: bool = True,
    max_files: int = MAX_FILES,
    max_file_bytes: int = MAX_FILE_BYTES,
    max_total_bytes: int = MAX_TOTAL_BYTES,
) -> ImportResult:
    """The files of a zip, with every refused entry and its reason."""
    try:
        zf = open_zip(data)
    except (zipfile.BadZipFile, OSError, EOFError, ValueError) as exc:
        raise ArchiveError(
            f"This file is not a zip archive that can be read ({exc}). Choose a .zip, or "
            "import a folder."
        ) from None
    except NotImplementedError as exc:
        raise ArchiveError(f"This zip uses a format Wiggum cannot read ({exc}).") from None
    refused: list[Refused] = []
    entries: list[_Entry] = []
    for info in zf.infolist():
        found = _zip_entry(zf, info)
        if isinstance(found, Refused):
            refused.append(found)
        elif found.name:
            entries.append(found)
    budget = _Budget(max_files, max_file_bytes, max_total_bytes)
    return _read_all(entries, budget, with_history=with_history, refused=refused)


def read_entries(
    entries: list[tuple[str, bytes]],
    *,
    with_history: bool = True,
    max_files: int = MAX_FILES,
    max_file_bytes: int = MAX_FILE_BYTES,
    max_total_bytes: int = MAX_TOTAL_BYTES,
) -> ImportResult:
    """Files from a folder picker or a drop (relative name, bytes), same rules as a zip.

    A folder picker names every file under the folder's own name
    (``site/index.html``); that folder is the one picked, so it is dropped
    without a word, and the rules above apply to what is inside it.
    """
    refused: list[Refused] = []
    tops = {n.split("/", 1)[0] for n, _ in entries}
    picked = len(tops) == 1 and all("/" in n for n, _ in entries)
    found: list[_Entry] = []
    for name, data in entries:
        reason = refusal(name)
        if reason is not None:
            refused.append(Refused(name, reason))
            continue
        path = _clean(name.split("/", 1)[1] if picked else name)
        if path:
            found.append(_Entry(path, len(data), lambda limit, d=data: d[:limit]))
    budget = _Budget(max_files, max_file_bytes, max_total_bytes)
    return _read_all(found, budget, with_history=with_history, refused=refused)
