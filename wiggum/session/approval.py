"""The approval pause: Ralph waits while the person says Approve or Refuse.

Ralph's tools ask (``wiggum.ralph.approval.ApprovalGate``) before deleting or
overwriting more than the person's number of their files;
:class:`ApprovalDesk` is who they ask in the page: it shows the question
(:class:`ApprovalShown`, with :func:`approval_view`'s words), waits for the
click, and takes the question down again however the wait ends (an answer,
Stop, another project).  One question at a time: his tools run one by one.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .events import ApprovalShown

__all__ = ["ApprovalDesk", "ApprovalView", "approval_view"]

#: Files named in the question; the rest are counted.
SHOWN_FILES = 8


@dataclass(frozen=True, slots=True)
class ApprovalView:
    """What the question says: a sentence and the files it is about."""

    text: str
    files: tuple[str, ...]
    #: Ralph's status line while he waits.
    status: str = "Waiting for you: Approve or Refuse"


def approval_view(request: Any) -> ApprovalView:
    """The words for ``request`` (``wiggum.ralph.approval.ApprovalRequest``)."""
    verb = "delete" if request.action == "delete" else "overwrite"
    before = len(request.before)
    if before:
        so_far = f"He has deleted or overwritten {before} of your files in this run"
        text = (
            f"Ralph wants to {verb} {request.path}. {so_far} (you asked to be asked after "
            f"{request.limit}). Approve lets him go on; Refuse keeps the file as it is."
        )
    else:
        text = (
            f"Ralph wants to {verb} {request.path}. Approve lets him; Refuse keeps the file "
            "as it is and tells him so."
        )
    files = request.files
    shown = files[-SHOWN_FILES:]
    if len(files) > len(shown):
        shown = (f"… and {len(files) - len(shown)} more", *shown)
    return ApprovalView(text, tuple(shown))


class ApprovalDesk:
    """Asks the person, one question at a time; ``emit`` tells the page."""

    def __init__(self, emit: Callable[[Any], None]) -> None:
        self.emit = emit
        self._answer: asyncio.Future[bool] | None = None

    @property
    def waiting(self) -> bool:
        return self._answer is not None and not self._answer.done()

    async def ask(self, request: Any) -> bool:
        """The person's answer to ``request``: ``True`` approves."""
        answer: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._answer = answer
        self.emit(ApprovalShown(approval_view(request)))
        try:
            return await answer
        finally:
            if self._answer is answer:
                self._answer = None
            self.emit(ApprovalShown(None))

    def answer(self, approved: bool) -> bool:
        """The person clicked Approve (``True``) or Refuse; ``False`` when nothing was asked."""
        if not self.waiting:
            return False
        assert self._answer is not None
        self._answer.set_result(approved)
        return True
