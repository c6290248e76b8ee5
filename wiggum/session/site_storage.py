"""The storage the person's site keeps in the preview, one per project.

The preview's shim (``wiggum.preview.storage``) answers the site's
``localStorage``, ``sessionStorage`` and ``document.cookie`` from
:meth:`SiteStorage.snapshot` and posts each change; :meth:`SiteStorage.apply`
takes it.  ``localStorage`` and cookies are kept with the project in the app's
storage (a conversation slot of its own, :data:`SLOT`, so deleting the project
deletes them, and no other project or Wiggum itself ever reads them);
``sessionStorage`` lives as long as this tab, as a browser keeps it.

Writes are queued one after another (the last state wins); a write the tab
may not make (another tab has the project) or the browser refuses is logged
and the values stay in memory for this tab.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from wiggum.preview.storage import AREAS, empty_snapshot, read_storage_message

__all__ = ["SLOT", "SiteStorage", "SiteStorages"]

log = logging.getLogger("wiggum.session")

#: The per-project slot of the app's storage the site's values are kept in.
SLOT = "site"
#: The areas kept across visits (sessionStorage is not).
KEPT = ("local", "cookie")


class SiteStorage:
    """The site storage of project ``project_id`` (``storage=None``: this tab only)."""

    def __init__(self, storage: Any, project_id: str | None) -> None:
        self.storage = storage
        self.project_id = project_id
        self.areas = empty_snapshot()
        self._loaded = False
        self._saving: asyncio.Task[None] | None = None
        self._dirty = False

    async def load(self) -> None:
        """Read what the project kept (once; later calls do nothing)."""
        if self._loaded:
            return
        self._loaded = True
        if self.storage is None or self.project_id is None:
            return
        try:
            records = await self.storage.load_messages(self.project_id, SLOT)
        except Exception:
            log.exception("site storage: could not read the project's")
            return
        record = records[-1] if records else {}
        for area in KEPT:
            checked = read_storage_message(area, record.get(area))
            if checked is not None:
                self.areas[area] = checked[1]

    async def snapshot(self) -> dict[str, dict[str, str]]:
        """Every area as it stands, for the page about to be shown."""
        await self.load()
        return {area: dict(self.areas[area]) for area in AREAS}

    def apply(self, area: Any, items: Any) -> bool:
        """Take a change the site posted; ``False`` (ignored) when it is not one."""
        checked = read_storage_message(area, items)
        if checked is None:
            return False
        name, values = checked
        if self.areas[name] == values:
            return True
        self.areas[name] = values
        if name in KEPT:
            self._dirty = True
            if self._saving is None or self._saving.done():
                self._saving = asyncio.ensure_future(self._save())
        return True

    async def saved(self) -> None:
        """Wait until what was applied so far is written (tests, leaving the project)."""
        while self._saving is not None and not self._saving.done():
            await self._saving

    async def _save(self) -> None:
        while self._dirty:
            self._dirty = False
            if self.storage is None or self.project_id is None:
                return
            record = {area: dict(self.areas[area]) for area in KEPT}
            try:
                await self.storage.put_message(self.project_id, SLOT, 0, record)
            except Exception as exc:
                log.warning("site storage: not kept with the project (%s)", exc)
                return


class SiteStorages:
    """One :class:`SiteStorage` per project, kept for this tab (so a site's
    ``sessionStorage`` lasts as long as the tab, as in a browser)."""

    def __init__(self, storage: Any) -> None:
        self.storage = storage
        self._open: dict[str, SiteStorage] = {}

    def for_project(self, project_id: str) -> SiteStorage:
        if project_id not in self._open:
            self._open[project_id] = SiteStorage(self.storage, project_id)
        return self._open[project_id]
