"""A project as a ``.zip``: written for download, read back for import.

Export copies every file of the project's FileStore byte for byte, the
history included: ``.git/`` in the store is already a plain git repository
(see ``wiggum.project.history``), so the unzipped folder is one ``git log``
reads.  Settings and provider keys live in another IndexedDB store, never in
the project's FileStore, so nothing secret can reach the archive.

For git to find the unzipped folder clean (``git status`` empty), the zip
also carries what the files alone do not say: the files git keeps
executable get their mode, and each submodule its (empty) folder, as after a
clone (:class:`ExportLayout`, from ``History.layout``).

Import is :mod:`wiggum.project.importing`; :func:`refusal`, which names an
entry may not have, holds for a checkpoint's files too
(:mod:`wiggum.project.names`).  Python's ``zipfile`` does the format (it runs
as is under Pyodide).
"""

from __future__ import annotations

import io
import stat
import time
import zipfile
from dataclasses import dataclass

from wiggum.fs.paths import CONTROL_CHARS, DRIVE, WINDOWS_DEVICE_NAMES
from wiggum.fs.store import FileStore

__all__ = [
    "AGENT_DIRS",
    "ExportLayout",
    "ProjectSummary",
    "build_zip",
    "copy_project",
    "export_project",
    "project_summary",
    "refusal",
    "write_into",
]

#: Leaving these out gives "just the site": Ralph's and Chief's memory and the history.
AGENT_DIRS = (".ralph", ".chief", ".git")
#: Files written per IndexedDB transaction on import (a loose-object history has thousands).
_BATCH = 200

# A fixed timestamp would make archives reproducible, but the person expects
# the files' dates to be the day they downloaded; zip cannot store before 1980.
_MIN_DATE = (1980, 1, 1, 0, 0, 0)


@dataclass(frozen=True, slots=True)
class ExportLayout:
    """What a zip needs besides the files for git to find it clean: the files
    git keeps executable, the submodules' folders (empty, as after a clone), and
    the symbolic links (path, target) a project here cannot hold as files."""

    executable: frozenset[str] = frozenset()
    submodules: tuple[str, ...] = ()
    links: tuple[tuple[str, bytes], ...] = ()


def _is_internal(path: str) -> bool:
    return any(path == d or path.startswith(d + "/") for d in AGENT_DIRS)


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


def build_zip(
    files: dict[str, bytes],
    *,
    include_internal: bool = True,
    now: float | None = None,
    layout: ExportLayout | None = None,
    folders: list[str] | tuple[str, ...] = (),
) -> bytes:
    """The zip of ``files`` (path -> bytes), deflated, paths sorted, and of the empty
    ``folders``; ``layout``: the executable files and the submodules' folders git
    expects."""
    stamp = time.localtime(time.time() if now is None else now)[:6]
    stamp = max(stamp, _MIN_DATE)
    executable = layout.executable if layout is not None and include_internal else frozenset()
    links = layout.submodules if layout is not None and include_internal else ()
    links = tuple(f for f in links if not any(p.startswith(f + "/") for p in files))
    folders = sorted({*folders, *links})
    # A link is written as Info-ZIP writes one (its target as the content, the
    # mode S_IFLNK), so unzip makes the link git's index expects.
    symlinks = dict(layout.links) if layout is not None and include_internal else {}
    symlinks = {p: t for p, t in symlinks.items() if p not in files}
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for path in sorted([*files, *symlinks, *(f + "/" for f in folders)]):
            if not include_internal and _is_internal(path):
                continue
            info = zipfile.ZipInfo(path, date_time=stamp)
            if path.endswith("/"):
                info.external_attr = (stat.S_IFDIR | 0o755) << 16 | 0x10
                zf.writestr(info, b"")
                continue
            if path in symlinks:
                info.external_attr = (stat.S_IFLNK | 0o777) << 16
                zf.writestr(info, symlinks[path])
                continue
            info.compress_type = zipfile.ZIP_DEFLATED
            mode = 0o755 if path in executable else 0o644
            info.external_attr = (stat.S_IFREG | mode) << 16
            zf.writestr(info, files[path])
    return buf.getvalue()


async def export_project(
    store: FileStore, *, include_internal: bool = True, layout: ExportLayout | None = None
) -> bytes:
    """Every file and empty folder of ``store`` (the raw store: ``.git/`` is not hidden
    from it; git does not take a ``.git/`` without its ``refs/`` folder for one)."""
    paths = await store.list("", recursive=True)
    full = {parent for path in paths for parent in _parents(path)}
    empty = [d for d in await store.list("", recursive=True, dirs=True) if d not in full]
    empty = [d for d in empty if d not in paths]
    files = await store.read_many(paths)
    return build_zip(files, include_internal=include_internal, layout=layout, folders=empty)


def _parents(path: str) -> list[str]:
    parts = path.split("/")[:-1]
    return ["/".join(parts[: i + 1]) for i in range(len(parts))]


async def write_into(
    store: FileStore, files: dict[str, bytes], folders: list[str] | tuple[str, ...] = ()
) -> None:
    """Write imported files (and ``folders``) into a fresh project's raw store
    (``.git/`` included), a few hundred files a transaction."""
    paths = sorted(files)
    for start in range(0, len(paths), _BATCH):
        await store.write_many({p: files[p] for p in paths[start : start + _BATCH]})
    full = {parent for path in paths for parent in _parents(path)}
    for folder in folders:
        if folder not in full and not await store.exists(folder):
            await store.mkdir(folder)


@dataclass(frozen=True, slots=True)
class ProjectSummary:
    """A project's site (its files but the agents' notes and the history), what
    the whole store holds (those included: what counts against the browser's
    quota), and its last change (seconds; 0: never)."""

    site_bytes: int
    site_files: int
    stored_bytes: int
    newest: float


async def project_summary(store: FileStore) -> ProjectSummary:
    """The :class:`ProjectSummary` of a project's raw store."""
    stats = await store.stats()
    site = [st for st in stats if st.path.split("/", 1)[0] not in AGENT_DIRS]
    return ProjectSummary(
        site_bytes=sum(st.size for st in site),
        site_files=len(site),
        stored_bytes=sum(st.size for st in stats),
        newest=max((st.modified for st in stats), default=0.0),
    )


async def copy_project(src: FileStore, dst: FileStore) -> int:
    """Every file of ``src`` into ``dst`` (the history too); returns how many."""
    paths = await src.list("", recursive=True)
    for start in range(0, len(paths), _BATCH):
        await dst.write_many(await src.read_many(paths[start : start + _BATCH]))
    return len(paths)
