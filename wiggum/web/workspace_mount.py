"""The workspace in Ralph's tab: the file tree and editor, the live preview and
History, mounted once and pointed at the open project's files.

Refreshes come in bursts (Ralph writes several files, a checkpoint lands):
calls within :data:`REFRESH_AFTER` make one refresh.  A project read again
(``reload``: the same one, after a take-over) keeps the open file's unsaved
edits: its store is the same project's, so the tree only re-lists.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from typing import Any

from wiggum.session.site_panels import SitePanels
from wiggum.ui.markup import workspace as markup

from .dom import mount, spawn

__all__ = ["Workspace"]

log = logging.getLogger("wiggum.web")

#: Seconds a refresh waits for the rest of its burst.
REFRESH_AFTER = 0.3


class Workspace:
    """``history()`` is the open project's History; ``person_changed(paths)``
    hears of the person's own changes (a checkpoint of theirs); ``site`` is what
    the preview keeps beside the site (its storage per project, its console and
    checks: ``wiggum.session.site_panels.SitePanels``)."""

    def __init__(
        self,
        slot: Any,
        ralph_view: Any,
        history: Callable[[], Any],
        person_changed: Callable[[list[str]], None],
        site: SitePanels | None = None,
        point: Callable[[Any, Any, Any], Any] | None = None,
    ) -> None:
        self.slot = slot
        self.ralph_view = ralph_view
        self.history = history
        self.person_changed = person_changed
        self.site = site or SitePanels()
        self.views: dict[str, Any] = {}
        #: ``point(preview, files, layout)`` mounts select mode on the preview (its view).
        self.point = point
        self.point_view: Any = None
        self.layout: Any = None
        self._due = False
        self._preview_due = False

    def show(self, fs: Any, project_id: str, *, reload: bool = False) -> None:
        self.site.open(project_id)
        if self.views:
            self._switch(fs, project_id, reload)
        else:
            self._mount(fs, project_id)

    def _switch(self, fs: Any, project_id: str, reload: bool) -> None:
        for name, view in self.views.items():
            try:
                if reload and name == "files":
                    view.refresh()
                else:
                    view.set_fs(fs)
            except Exception:
                log.exception("workspace: could not switch project")
        if self.layout is not None:
            self.layout.set_project(project_id)
        if self.point_view is not None:
            self.point_view.reset()

    def _mount(self, fs: Any, project_id: str) -> None:
        from .views.files import mount_files
        from .views.preview import mount_preview
        from .views.workspace.history import HistoryPanel

        def history_panel(box: Any, _fs: Any) -> Any:
            return HistoryPanel(box, self.history)

        preview = functools.partial(mount_preview, site=self.site)
        mounts = (("files", mount_files), ("preview", preview), ("history", history_panel))
        for name, mount_view in mounts:
            box = mount(markup.box(name)).el
            self.slot.appendChild(box)
            try:
                self.views[name] = mount_view(box, fs)
            except Exception:
                log.exception("workspace: could not mount %s", name)
        self._extras(project_id)

    def _extras(self, project_id: str) -> None:
        """The panes' layout, the file operations and the preview's toolbar: each
        optional (the views work without them, stacked, plainer)."""
        try:
            from .views.workspace.layout import mount_layout

            self.layout = mount_layout(self.ralph_view, self.views, project_id)
        except Exception:
            log.exception("workspace: could not lay out the panes")
        files = self.views.get("files")
        if files is not None:
            # The editor's saves: a "you" checkpoint in History, the preview refreshed.
            files.on_saved = self.person_changed
            try:
                from .views.workspace.fileops import FileOps

                self.file_ops = FileOps(files, on_changed=self.person_changed)
            except Exception:
                log.exception("workspace: could not mount the file operations")
        preview = self.views.get("preview")
        if preview is not None:
            try:
                from .views.workspace.preview_tools import PreviewTools

                self.preview_tools = PreviewTools(preview)
            except Exception:
                log.exception("workspace: could not mount the preview toolbar")
            if self.point is not None:
                try:
                    self.point_view = self.point(preview, files, self.layout)
                except Exception:
                    log.exception("workspace: could not mount select mode")

    def refresh(self, *, preview: bool = False) -> None:
        """Re-list the files soon (calls in a burst make one refresh)."""
        if preview:
            self._preview_due = True
        if not self._due:
            self._due = True
            spawn(self._refresh(), what="refresh workspace")

    async def _refresh(self) -> None:
        await asyncio.sleep(REFRESH_AFTER)
        self._due = False
        preview, self._preview_due = self._preview_due, False
        files = self.views.get("files")
        if files is not None:
            files.refresh()
        view = self.views.get("preview")
        if preview and view is not None:
            view.refresh(None, if_changed=True)

    def say_refused(self, text: str) -> bool:
        """Say a refused checkpoint in the open editor; ``False`` when none is open."""
        files = self.views.get("files")
        return files is not None and files.say(text, error=True)

    def close(self) -> None:
        for view in self.views.values():
            view.close()
        if self.point_view is not None:
            self.point_view.close()
