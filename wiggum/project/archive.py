"""A project as a ``.zip``: written for download, read back for import.

Export copies every file of the project's FileStore byte for byte, the
history included: ``.git/`` in the store is already a plain git repository
(see ``wiggum.project.history``), so the unzipped folder is one ``git log``
reads.  Settings and provider keys live in another IndexedDB store, never in
the project's FileStore, so nothing secret can reach the archive.

Import trusts nothing in the archive.  Every entry name goes through
``refusal`` (zip-slip ``..``, absolute paths, drive letters, backslashes, NUL
and control characters, Windows device names, symlinks from the zip's
``external_attr``); refused entries are collected with their reason for the
person, the rest are imported.  Size and count limits are checked on the
declared sizes first and again on the bytes actually inflated, so a zip bomb
that lies about its sizes stops at the limit too.

Python's ``zipfile`` does the format (it runs as is under Pyodide); only the
rules are Wiggum's own.
"""

from __future__ import annotations

import io
import stat
import time
import zipfile
from dataclasses import dataclass, field

from wiggum.fs.paths import CONTROL_CHARS, DRIVE, WINDOWS_DEVICE_NAMES
from wiggum.fs.store import FileStore

__all__ = [
    "AGENT_DIRS",
    "MAX_FILES",
    "MAX_FILE_BYTES",
    "MAX_TOTAL_BYTES",
    "ArchiveError",
    "ImportResult",
    "Refused",
    "build_zip",
    "copy_project",
    "export_project",
    "project_summary",
    "read_entries",
    "read_zip",
    "refusal",
    "write_into",
]

#: Leaving these out gives "just the site": Ralph's and Chief's memory and the history.
AGENT_DIRS = (".ralph", ".chief", ".git")
#: Limits on import.  Chosen so the whole project still fits comfortably in a
#: browser's IndexedDB quota and in Pyodide's memory (the archive and its
#: contents are held at once): 2,000 files, 10 MB a file, 50 MB in all.
MAX_FILES = 2000
MAX_FILE_BYTES = 10 * 1024 * 1024
MAX_TOTAL_BYTES = 50 * 1024 * 1024

# A fixed timestamp would make archives reproducible, but the person expects
# the files' dates to be the day they downloaded; zip cannot store before 1980.
_MIN_DATE = (1980, 1, 1, 0, 0, 0)


class ArchiveError(Exception):
    """The archive as a whole cannot be imported (not a zip, over a limit)."""


@dataclass(frozen=True, slots=True)
class Refused:
    name: str
    reason: str


@dataclass(slots=True)
class ImportResult:
    files: dict[str, bytes] = field(default_factory=dict)
    refused: list[Refused] = field(default_factory=list)

    @property
    def total_bytes(self) -> int:
        return sum(len(b) for b in self.files.values())


def _is_internal(path: str) -> bool:
    return any(path == d or path.startswith(d + "/") for d in AGENT_DIRS)


def build_zip(
    files: dict[str, bytes], *, include_internal: bool = True, now: float | None = None
) -> bytes:
    """The zip of ``files`` (path -> bytes), deflated, paths sorted."""
    stamp = time.localtime(time.time() if now is None else now)[:6]
    stamp = max(stamp, _MIN_DATE)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for path in sorted(files):
            if not include_internal and _is_internal(path):
                continue
            info = zipfile.ZipInfo(path, date_time=stamp)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = (stat.S_IFREG | 0o644) << 16
            zf.writestr(info, files[path])
    return buf.getvalue()


async def export_project(store: FileStore, *, include_internal: bool = True) -> bytes:
    """Every file of ``store`` (the raw store: ``.git/`` is not hidden from it)."""
    files = {p: await store.read_bytes(p) for p in await store.list("", recursive=True)}
    return build_zip(files, include_internal=include_internal)


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


def _clean(name: str) -> str:
    parts = [p for p in name.split("/") if p not in ("", ".")]
    return "/".join(parts)


def _over(what: str, limit: int) -> ArchiveError:
    return ArchiveError(f"{what} is over the import limit of {_human(limit)}. {_FIX}")


_FIX = "Leave out large files (build output, videos, node_modules) and import again."


def _human(n: int) -> str:
    if n >= 1024 * 1024:
        return f"{n / (1024 * 1024):.0f} MB"
    if n >= 1024:
        return f"{n / 1024:.0f} KB"
    return f"{n} bytes"


class _Budget:
    def __init__(self, max_files: int, max_file: int, max_total: int) -> None:
        self.max_files, self.max_file, self.max_total = max_files, max_file, max_total
        self.total = 0

    def take(self, result: ImportResult, path: str, data: bytes) -> None:
        if len(data) > self.max_file:
            result.refused.append(Refused(path, f"larger than {_human(self.max_file)}"))
            return
        if len(result.files) >= self.max_files:
            raise ArchiveError(
                f"The archive has more than {self.max_files} files, the import limit. {_FIX}"
            )
        self.total += len(data)
        if self.total > self.max_total:
            raise _over("The archive's content", self.max_total)
        result.files[path] = data


def read_zip(
    data: bytes,
    *,
    max_files: int = MAX_FILES,
    max_file_bytes: int = MAX_FILE_BYTES,
    max_total_bytes: int = MAX_TOTAL_BYTES,
) -> ImportResult:
    """The files of a zip, with every refused entry and its reason."""
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile as exc:
        raise ArchiveError(
            f"This file is not a zip archive ({exc}). Choose a .zip, or import a folder."
        ) from None
    result = ImportResult()
    budget = _Budget(max_files, max_file_bytes, max_total_bytes)
    infos = zf.infolist()
    if sum(1 for i in infos if not i.is_dir()) > max_files:
        raise ArchiveError(
            f"The archive has {len(infos)} entries; the import limit is {max_files} files. {_FIX}"
        )
    if sum(i.file_size for i in infos) > max_total_bytes:
        raise _over("The archive's content", max_total_bytes)
    for info in infos:
        name = info.filename
        reason = refusal(name)
        mode = info.external_attr >> 16
        if reason is None and stat.S_ISLNK(mode):
            reason = "symbolic link"
        elif (
            reason is None and stat.S_IFMT(mode) and not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))
        ):
            reason = "not a regular file (device, pipe or socket)"
        if reason is None and info.flag_bits & 0x1:
            reason = "encrypted"
        if reason is not None:
            result.refused.append(Refused(name, reason))
            continue
        if info.is_dir():
            continue
        path = _clean(name)
        if not path:
            continue
        if info.file_size > max_file_bytes:
            result.refused.append(Refused(path, f"larger than {_human(max_file_bytes)}"))
            continue
        try:
            with zf.open(info) as fh:
                # Read one byte past the limits so a size that lies is caught.
                body = fh.read(min(max_file_bytes, max_total_bytes - budget.total) + 1)
        except (zipfile.BadZipFile, NotImplementedError, RuntimeError, OSError) as exc:
            result.refused.append(Refused(path, f"cannot be read ({exc})"))
            continue
        if len(body) > max_total_bytes - budget.total:
            raise _over("The archive's content", max_total_bytes)
        budget.take(result, path, body)
    return result


def read_entries(
    entries: list[tuple[str, bytes]],
    *,
    max_files: int = MAX_FILES,
    max_file_bytes: int = MAX_FILE_BYTES,
    max_total_bytes: int = MAX_TOTAL_BYTES,
) -> ImportResult:
    """Files from a folder picker or a drop (relative name, bytes), same rules as a zip.

    A folder picker names every file under the folder's own name
    (``site/index.html``); that common top folder is dropped so the folder's
    content becomes the project's root, as a zip of the folder would.
    """
    result = ImportResult()
    budget = _Budget(max_files, max_file_bytes, max_total_bytes)
    tops = {n.split("/", 1)[0] for n, _ in entries}
    strip = len(tops) == 1 and all("/" in n for n, _ in entries)
    for name, data in entries:
        reason = refusal(name)
        if reason is not None:
            result.refused.append(Refused(name, reason))
            continue
        path = _clean(name.split("/", 1)[1] if strip else name)
        if path:
            budget.take(result, path, data)
    return result


async def write_into(store: FileStore, files: dict[str, bytes]) -> None:
    """Write imported files into a fresh project's raw store (``.git/`` included)."""
    for path in sorted(files):
        await store.write_bytes(path, files[path])


async def project_summary(store: FileStore) -> tuple[int, int, float]:
    """(bytes, files, last change) of a project's raw store, history included."""
    paths = await store.list("", recursive=True)
    size, newest = 0, 0.0
    for path in paths:
        st = await store.stat(path)
        size += st.size
        newest = max(newest, st.modified)
    return size, len(paths), newest


async def copy_project(src: FileStore, dst: FileStore) -> int:
    """Every file of ``src`` into ``dst`` (the history too); returns how many."""
    paths = await src.list("", recursive=True)
    for path in paths:
        await dst.write_bytes(path, await src.read_bytes(path))
    return len(paths)
