"""The History panel: the project's checkpoints, a diff per file, restore, revert.

A pane of Ralph's workspace (``views.workspace.layout`` says when it is
shown); it reads the history when it is shown and, while it is, at each new
checkpoint.  It draws what :mod:`wiggum.session.history` reads and says, in the markup of
:mod:`wiggum.ui.markup.history` (text nodes only).  Reverting
asks for a second click rather than a browser dialog; nothing is lost either
way, a revert being a new checkpoint.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from wiggum.session.history import (
    HistorySource,
    list_checkpoints,
    read_diff,
    restore,
    revert,
)
from wiggum.ui.history import LOADING, REVERT_ASK, relative_time
from wiggum.ui.markup import history as markup

from ...dom import Listeners, mount, mount_all, on_action, spawn

__all__ = ["HistoryPanel"]

#: The project's history service now (``None``: no project open); read at each use.
SourceOf = Callable[[], HistorySource | None]


class HistoryPanel:
    """The History panel in ``container``; ``source()`` is the open project's service."""

    def __init__(self, container: Any, source: SourceOf) -> None:
        self._source = source
        self.listeners = Listeners()
        self._gen = 0
        self._unsub: Callable[[], None] | None = None
        self._bound: HistorySource | None = None
        self.shown = False
        #: The listed checkpoints by id (a diff's head says whose and when).
        self._listed: dict[str, Any] = {}
        parts = mount(markup.panel())
        self.el, self.list_el, self.status = parts.el, parts.list, parts.status
        self.diff, self.diff_head, self.diff_body = parts.diff, parts.diff_head, parts.diff_body
        container.appendChild(self.el)
        self._actions = {
            "history-diff": self._on_diff,
            "history-revert": self._on_revert,
            "history-restore": self._on_restore,
            "history-close-diff": lambda _target: setattr(self.diff, "hidden", True),
        }
        self.listeners.on(self.el, "click", lambda event: on_action(event, self._actions))

    # ------------------------------------------------------------ public

    def refresh(self) -> asyncio.Task:
        return spawn(self._refresh(), what="history refresh")

    def set_shown(self, shown: bool) -> None:
        """The pane is in front (``True``: the list is read again) or not."""
        was, self.shown = self.shown, shown
        if shown and not was:
            self.refresh()

    def set_fs(self, _fs: object) -> asyncio.Task:
        """The project changed (its history service is read again)."""
        self.diff.hidden = True
        return self.refresh()

    def close(self) -> None:
        self._gen += 1
        if self._unsub is not None:
            self._unsub()
        self.listeners.close()
        self.el.remove()

    # ------------------------------------------------------------ list

    def _refresh_if_open(self) -> None:
        if self.shown:
            self.refresh()

    def _bind(self, source: HistorySource) -> None:
        """Follow ``source``'s new checkpoints (once per service)."""
        if source is not self._bound:
            if self._unsub is not None:
                self._unsub()
            self._bound = source
            self._unsub = source.subscribe(lambda _cp: self._refresh_if_open())

    async def _refresh(self) -> None:
        self._gen += 1
        gen = self._gen
        source = self._source()
        if source is not None:
            self._bind(source)
            self.status.textContent = LOADING
        listing = await list_checkpoints(source)
        if gen != self._gen:
            return
        self.status.textContent = listing.status
        if listing.checkpoints is not None:
            cps = list(listing.checkpoints)
            self._listed = {cp.id: cp for cp in cps}
            known = {cp.id[:7]: cp.message or cp.author for cp in cps}
            now = time.time()
            trees = (
                markup.checkpoint(cp, latest=i == 0, now=now, known=known)
                for i, cp in enumerate(cps)
            )
            self.list_el.replaceChildren(*mount_all(trees))

    # ------------------------------------------------------------ actions

    def _on_diff(self, target: Any) -> None:
        cid, path = _id_path(target)
        spawn(self._show_diff(cid, path), what="diff")

    def _on_revert(self, target: Any) -> None:
        if target.getAttribute("data-confirm") != "yes":
            target.setAttribute("data-confirm", "yes")
            target.textContent = REVERT_ASK
            return
        cid = _id_path(target)[0]
        spawn(self._act(lambda s: revert(s, cid)), what="revert")

    def _on_restore(self, target: Any) -> None:
        cid, path = _id_path(target)
        spawn(self._act(lambda s: restore(s, cid, path)), what="restore")

    async def _show_diff(self, cid: str, path: str) -> None:
        source = self._source()
        if source is None:
            return
        text = await read_diff(source, cid, path)
        self.diff_body.replaceChildren(*mount_all(markup.diff_lines(text)))
        cp = self._listed.get(cid)
        author, when = (cp.author, relative_time(cp.time, time.time())) if cp else ("", "")
        self.diff_head.replaceChildren(*mount_all(markup.diff_head(cid, path, author, when)))
        self.diff.hidden = False

    async def _act(self, work: Callable[[HistorySource], Any]) -> None:
        source = self._source()
        if source is None:
            return
        acted = await work(source)
        if acted.done:
            self.diff.hidden = True
            await self._refresh()
        self.status.textContent = acted.status


def _id_path(target: Any) -> tuple[str, str]:
    return str(target.getAttribute("data-id") or ""), str(target.getAttribute("data-path"))
