"""The History panel: the project's checkpoints, a diff per file, restore, revert.

Everything shown goes through ``textContent`` (file names, messages and diffs
are the model's or the person's text).  Reverting asks for a second click
("Revert to this checkpoint?" -> "Yes, revert") rather than a browser dialog;
nothing is lost either way, a revert being a new checkpoint.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from ...dom import Listeners, closest_action, h, spawn

__all__ = ["HistoryPanel", "mount_history"]

#: Checkpoints listed (newest first).
LIMIT = 50


def _when(t: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(t))


class HistoryPanel:
    def __init__(self, container: Any, service: Callable[[], Any]) -> None:
        self._service = service
        self.listeners = Listeners()
        self._gen = 0
        self._unsub: Any = None
        self._bound: Any = None
        self.list_el = h("ol", {"class": "history-list", "data-testid": "history-list"})
        self.status = h("p", {"class": "history-status", "data-testid": "history-status"})
        self.diff_head = h("div", {"class": "history-diff-head"})
        self.diff_body = h("pre", {"class": "history-diff-body", "data-testid": "history-diff"})
        self.diff = h(
            "section",
            {"class": "history-diff", "hidden": True, "aria-label": "Changes in one file"},
            self.diff_head,
            self.diff_body,
        )
        summary = h("summary", {"class": "history-title", "text": "History"})
        self.el = h(
            "details",
            {"class": "history", "data-testid": "history"},
            summary,
            h(
                "p",
                {
                    "class": "history-help",
                    "text": "A checkpoint after each of Ralph's iterations and each of your "
                    "saves. Reverting makes a new checkpoint, so nothing is lost; Chief's "
                    "and Ralph's notes (.chief/, .ralph/) stay as they are.",
                },
            ),
            self.status,
            self.list_el,
            self.diff,
        )
        container.appendChild(self.el)
        self.listeners.on(self.el, "toggle", lambda _e: self.refresh() if self.el.open else None)
        self.listeners.on(self.el, "click", self._on_click)

    # ------------------------------------------------------------ public

    def refresh(self) -> asyncio.Task:
        return spawn(self._refresh(), what="history refresh")

    def set_fs(self, _fs: Any) -> asyncio.Task:
        """The project changed (the service is read again from the app)."""
        self.diff.hidden = True
        return self.refresh()

    def close(self) -> None:
        self._gen += 1
        if self._unsub is not None:
            self._unsub()
        self.listeners.close()
        self.el.remove()

    # ------------------------------------------------------------ list

    def _bind(self, service: Any) -> None:
        if service is self._bound:
            return
        if self._unsub is not None:
            self._unsub()
        self._bound = service
        self._unsub = service.subscribe(lambda _cp: self.refresh() if self.el.open else None)

    async def _refresh(self) -> None:
        self._gen += 1
        gen = self._gen
        service = self._service()
        if service is None:
            self.status.textContent = "No project is open."
            return
        self._bind(service)
        self.status.textContent = "Loading history…"
        try:
            history = await service.history()
            checkpoints = await history.list(LIMIT)
        except Exception as exc:
            if gen == self._gen:
                self.status.textContent = (
                    # A paused tab cannot start a project's history: another tab owns it.
                    f"History could not be read. {exc}"
                    if type(exc).__name__ == "ProjectPaused"
                    else f"History could not be read ({type(exc).__name__}). Your files are "
                    "untouched; reload the page to try again."
                )
            return
        if gen != self._gen:
            return
        self.status.textContent = (
            f"{len(checkpoints)} checkpoint{'s' if len(checkpoints) != 1 else ''}"
            if checkpoints
            else "No checkpoints yet: one is made when Ralph changes files or you save."
        )
        self.list_el.replaceChildren(*[self._item(cp, i == 0) for i, cp in enumerate(checkpoints)])

    def _item(self, cp: Any, latest: bool) -> Any:
        files = []
        for f in cp.files:
            counts = (
                h("span", {"class": "history-binary", "text": "binary"})
                if f.binary
                else [
                    h("span", {"class": "history-add", "text": f"+{f.added}"}),
                    h("span", {"class": "history-del", "text": f"−{f.removed}"}),
                ]
            )
            files.append(
                h(
                    "li",
                    None,
                    h(
                        "button",
                        {
                            "type": "button",
                            "class": f"history-file history-{f.kind}",
                            "data-testid": "history-file",
                            "data-action": "history-diff",
                            "data-id": cp.id,
                            "data-path": f.path,
                            "title": f"{f.kind}: {f.path} (show the changes)",
                        },
                        h("span", {"class": "history-path", "text": f.path}),
                        counts,
                    ),
                )
            )
        revert = (
            []
            if latest
            else [
                h(
                    "button",
                    {
                        "type": "button",
                        "class": "history-revert",
                        "data-testid": "history-revert",
                        "data-action": "history-revert",
                        "data-id": cp.id,
                        "text": "Revert project to here",
                    },
                )
            ]
        )
        return h(
            "li",
            {"class": "history-item", "data-testid": "history-item", "data-id": cp.id},
            h(
                "div",
                {"class": "history-meta"},
                h("strong", {"class": "history-author", "text": cp.author}),
                h("time", {"class": "history-time", "text": _when(cp.time)}),
            ),
            # Ralph's checkpoint without words of his is named by its author alone.
            h(
                "div",
                {"class": "history-message", "text": cp.message, "hidden": cp.message == cp.author},
            ),
            h("ul", {"class": "history-files", "role": "list"}, files),
            revert,
        )

    # ------------------------------------------------------------ actions

    def _on_click(self, event: Any) -> None:
        target = closest_action(event)
        if target is None:
            return
        action = str(target.getAttribute("data-action"))
        cid = str(target.getAttribute("data-id") or "")
        if action == "history-diff":
            spawn(self._show_diff(cid, str(target.getAttribute("data-path"))), what="diff")
        elif action == "history-revert":
            if target.getAttribute("data-confirm") != "yes":
                target.setAttribute("data-confirm", "yes")
                target.textContent = "Yes, revert the whole project"
                return
            spawn(
                self._act(lambda s: s.revert(cid), "Reverted: a new checkpoint was made."),
                what="revert",
            )
        elif action == "history-restore":
            path = str(target.getAttribute("data-path"))
            spawn(
                self._act(lambda s: s.restore_file(cid, path), f"Restored {path}."),
                what="restore",
            )
        elif action == "history-close-diff":
            self.diff.hidden = True

    async def _show_diff(self, cid: str, path: str) -> None:
        service = self._service()
        if service is None:
            return
        history = await service.history()
        try:
            text = await history.diff(cid, path)
        except Exception as exc:
            text = f"The changes could not be read ({type(exc).__name__})."
        lines = []
        for line in text.splitlines(keepends=True):
            cls = (
                "diff-add"
                if line.startswith("+") and not line.startswith("+++")
                else "diff-del"
                if line.startswith("-") and not line.startswith("---")
                else "diff-hunk"
                if line.startswith("@@")
                else "diff-ctx"
            )
            lines.append(h("span", {"class": cls, "text": line}))
        self.diff_body.replaceChildren(*lines)
        self.diff_head.replaceChildren(
            h("strong", {"class": "history-path", "text": f"{path} @ {cid[:7]}"}),
            h(
                "button",
                {
                    "type": "button",
                    "class": "history-restore",
                    "data-testid": "history-restore",
                    "data-action": "history-restore",
                    "data-id": cid,
                    "data-path": path,
                    "title": f"Put {path} back as it was in this checkpoint",
                    "text": "Restore this file",
                },
            ),
            h(
                "button",
                {
                    "type": "button",
                    "class": "history-close",
                    "data-action": "history-close-diff",
                    "aria-label": "Close the changes",
                    "text": "×",
                },
            ),
        )
        self.diff.hidden = False

    async def _act(self, fn: Callable[[Any], Any], done: str) -> None:
        service = self._service()
        if service is None:
            return
        try:
            await fn(service)
        except Exception as exc:
            said = ("NothingToRevert", "ProjectPaused")  # their words say what to do
            reason = str(exc) if type(exc).__name__ in said else type(exc).__name__
            self.status.textContent = f"Not done: {reason}. Your files are as they were."
            return
        self.diff.hidden = True
        await self._refresh()
        self.status.textContent = done


def mount_history(container: Any, service: Callable[[], Any]) -> HistoryPanel:
    panel = HistoryPanel(container, service)
    return panel
