"""What the app decides about projects as wholes: their names, and deleting the open one.

The project switcher and the projects dialog (``wiggum.web.views``) ask
here; decided:

- a name is the typed text with its runs of white space made one space; an
  empty one names nothing (the field asks again);
- an imported project is named after the folder it came from, or the
  ``.zip`` (without the extension); loose files make "Imported project";
  a duplicate is "<name> copy"; a download is ``<name>.zip`` with only
  letters, digits, ``-``, ``_`` and ``.`` in the name;
- deleting the open project first opens the newest other one, or a new
  empty project when it was the last, so a project is always open;
- an import makes a project only of what could be accepted: an archive that
  cannot be read, or nothing acceptable in it, makes none and says why; what
  was refused is listed either way;
- a dropped folder cannot be read in the page (its entries need the
  callback-based FileSystemEntry API): it is left out and the person is
  told to use "Import folder…".

Imports nothing heavy: the switcher is on the first screen.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from wiggum.ui.projects import not_done

if TYPE_CHECKING:
    from wiggum.project.importing import ImportResult

log = logging.getLogger("wiggum.session")

__all__ = [
    "EMPTY_PROJECT",
    "IMPORTED",
    "Imported",
    "NextProject",
    "after_delete",
    "clean_name",
    "copy_name",
    "import_name",
    "import_project",
    "left_out_folders",
    "zip_name",
]

#: The project made when the last one is deleted.
EMPTY_PROJECT = "My project"
#: The name of loose files imported together.
IMPORTED = "Imported project"


def clean_name(raw: str) -> str:
    """The name as typed, its white space made single spaces; ``""`` for none."""
    return " ".join(raw.split())


def copy_name(name: str) -> str:
    return f"{name} copy"


def zip_name(name: str) -> str:
    safe = "".join(c if c.isalnum() or c in "-_." else "-" for c in name).strip("-.")
    return (safe or "project") + ".zip"


def import_name(files: Sequence[tuple[str, str]]) -> str:
    """The new project's name for imported ``files`` (``(name, path in its folder)``)."""
    name, rel = files[0]
    if rel and "/" in rel:
        return rel.split("/", 1)[0]
    if len(files) == 1 and name.lower().endswith(".zip"):
        return name[:-4] or IMPORTED
    return IMPORTED


def left_out_folders(folders: Iterable[str]) -> str:
    """What to say of dropped folders (``""`` when there were none)."""
    names = sorted(folders)
    if not names:
        return ""
    return (
        f"Folders cannot be dropped here ({', '.join(names)}): use “Import folder…” to bring "
        "a whole folder in."
    )


@dataclass(frozen=True, slots=True)
class NextProject:
    """The project to open before the open one is deleted: an existing one, or a new one."""

    open_id: str | None = None
    create: str | None = None


def after_delete(
    deleted: str, open_id: str | None, projects: list[dict[str, Any]]
) -> NextProject | None:
    """What opens when ``deleted`` goes (``None``: the open project stays)."""
    if deleted != open_id:
        return None
    others = [p for p in projects if p["id"] != deleted]
    return NextProject(open_id=others[-1]["id"]) if others else NextProject(create=EMPTY_PROJECT)


@dataclass(frozen=True, slots=True)
class Imported:
    """An import's outcome: the new project, what was read, what went wrong, and
    whether importing the same files without their history is offered."""

    project: dict[str, Any] | None = None
    result: ImportResult | None = None
    error: str | None = None
    offer_without_history: bool = False
    #: What to say instead of the import's own line (a repository opened from GitHub).
    text: str = ""


async def import_project(
    reading: Awaitable[ImportResult],
    name: str,
    create: Callable[[str, ImportResult], Awaitable[dict[str, Any]]],
) -> Imported:
    """Make the project ``name`` of what ``reading`` accepted, through ``create``."""
    from wiggum.project.importing import (  # zipfile: not on the first screen
        ArchiveError,
        HistoryTooLarge,
    )

    try:
        result = await reading
    except HistoryTooLarge as exc:
        return Imported(error=str(exc), offer_without_history=True)
    except ArchiveError as exc:
        return Imported(error=f"Nothing was imported. {exc}")
    except Exception:  # an archive no rule foresaw: said, never silent
        log.exception("import: the archive could not be read")
        return Imported(
            error="Nothing was imported: the archive could not be read (the details are in "
            "the Log). Try a .zip made again, or import the folder."
        )
    if not result.files:
        return Imported(
            result=result, error="Nothing was imported: no file in it could be accepted."
        )
    try:
        project = await create(name, result)
    except Exception as exc:
        return Imported(error=not_done("Nothing was imported.", exc))
    return Imported(project, result)
