"""The History panel as markup: the panel (a pane of Ralph's workspace), one
checkpoint with its changed files, the diff of one file and its head.
``wiggum.web.views.workspace.history`` mounts these; the texts and the diff's
colours are :mod:`wiggum.ui.history`'s.

The list and the diff sit side by side when the pane is wide, the diff over
the list when it is not (CSS container queries), so the diff always has the
pane's width or most of it.

A changed file is a button (``data-action="history-diff"``, the checkpoint in
``data-id`` and the file in ``data-path``) that opens its diff; every
checkpoint but the newest offers to revert the project to it.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from ..history import (
    HELP,
    REVERT_LABEL,
    checkpoint_time,
    diff_line_class,
    diff_title,
    files_count,
    readable_message,
    relative_time,
    who,
)
from ..markdown import El
from ..tree import btn, e

__all__ = ["checkpoint", "diff_head", "diff_lines", "panel"]


def panel() -> El:
    """The panel: its title and help, the status line, the list, the diff (hidden until
    asked)."""
    diff = e(
        "section",
        "history-diff",
        e("div", "history-diff-head", ref="diff_head"),
        e("pre", "history-diff-body", testid="history-diff", ref="diff_body"),
        hidden=True,
        aria_label="Changes in one file",
        ref="diff",
    )
    head = e(
        "div",
        "history-head",
        e("h2", "history-title", text="History"),
        e("p", "history-status", testid="history-status", ref="status"),
        e("p", "history-help", text=HELP),
    )
    body = e(
        "div", "history-body", e("ol", "history-list", testid="history-list", ref="list"), diff
    )
    return e("section", "history", head, body, testid="history", aria_label="History")


def _file(cp: Any, change: Any) -> El:
    """A changed file; its line counts only once known (they are made with the diff,
    when asked for, not when the checkpoint is taken)."""
    if getattr(change, "submodule", False):
        counts = [e("span", "history-tag", text="submodule")]
    elif change.binary:
        counts = [e("span", "history-tag", text="binary")]
    elif change.added is None:
        counts = []
    else:
        counts = [
            e("span", "history-add", text=f"+{change.added}"),
            e("span", "history-del", text=f"−{change.removed}"),
        ]
    return btn(
        [e("span", "history-path", text=change.path), counts],
        action="history-diff",
        testid="history-file",
        cls=f"history-file history-{change.kind}",
        data_id=cp.id,
        data_path=change.path,
        title=f"{change.kind}: {change.path} (show the changes)",
    )


def checkpoint(
    cp: Any, *, latest: bool, now: float | None = None, known: Mapping[str, str] | None = None
) -> El:
    """One checkpoint (``wiggum.project.history.Checkpoint``): who, when (relative to
    ``now``), what (History's own hashes told by ``known``'s messages), its files;
    Revert unless it is the ``latest``."""
    revert = None
    if not latest:
        revert = btn(
            REVERT_LABEL,
            action="history-revert",
            testid="history-revert",
            cls="history-revert",
            data_id=cp.id,
        )
    # Ralph's checkpoint without words of his is named by its author alone.
    quiet = cp.message == cp.author
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(cp.time))
    when = relative_time(cp.time, time.time() if now is None else now)
    message = readable_message(cp.message, known or {}) if cp.message else None
    return e(
        "li",
        "history-item",
        e(
            "div",
            "history-meta",
            e("strong", "history-author", text=cp.author),
            e("time", "history-time", text=when, datetime=stamp, title=checkpoint_time(cp.time)),
            e("span", "history-count", text=files_count(len(cp.files))),
        ),
        e("div", "history-message", text=message, hidden=quiet),
        e("ul", "history-files", [e("li", None, _file(cp, f)) for f in cp.files], role="list"),
        revert,
        testid="history-item",
        data_id=cp.id,
        data_who=who(cp.author),
    )


def diff_head(cid: str, path: str, author: str = "", when: str = "") -> list[El]:
    """Which file of which checkpoint (its ``author`` and ``when``), Restore it, close
    the diff."""
    return [
        e(
            "div",
            "history-diff-title",
            e("strong", "history-path", text=path, title=path),
            e("span", "history-diff-who", text=diff_title(author, when) if author else None),
        ),
        btn(
            "Restore this file",
            action="history-restore",
            testid="history-restore",
            cls="history-restore",
            data_id=cid,
            data_path=path,
            title=f"Put {path} back as it was in this checkpoint",
        ),
        btn("×", action="history-close-diff", cls="history-close", aria_label="Close the changes"),
    ]


def diff_lines(text: str) -> list[El]:
    """The diff, a line to a span coloured by what the line is."""
    return [e("span", diff_line_class(line), text=line) for line in text.splitlines(keepends=True)]
