"""Ask the person before Ralph deletes or overwrites more than N of their files.

Ralph's tools reach the project through a FileStore; this one
(:class:`ApprovalGate`) sits in front of it for his run and counts the files
that were there before the run and that a write would delete or overwrite
(the same bytes written again, a file he created in this run, and his own
``.ralph/`` notes do not count).  The first change beyond the allowance
pauses the tool call until the person answers (:data:`Approver`, the page's
Approve / Refuse):

- **Approve**: the change goes ahead, and the allowance starts again;
- **Refuse**: the change is not made (the tool answers Ralph with an error
  that says the person refused and the file stays), and that file is refused
  without asking again for the rest of the run.

Counting at the store, not per tool, covers every way to change a file:
``write_file``, ``delete_file``, the shell's ``rm``, ``mv``, ``sed -i`` and
redirections alike.  The changes within the allowance are made without
asking; History keeps every checkpoint to take them back.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field

from wiggum.fs import FileNotFound, FileStore, FileStoreError
from wiggum.fs.paths import normalize_path
from wiggum.fs.read_through import ReadThrough

from .state import RALPH_DIR

__all__ = ["ApprovalGate", "ApprovalRequest", "Approver", "ChangeRefused", "gated", "refusal_text"]


@dataclass(frozen=True, slots=True)
class ApprovalRequest:
    """What Ralph is about to do: the files he has changed beyond the allowance
    and the one change waiting (``path``)."""

    #: ``"delete"`` or ``"overwrite"``: what would happen to ``path``.
    action: str
    path: str
    #: The files already deleted or overwritten without asking (the allowance).
    before: tuple[str, ...]
    limit: int

    @property
    def files(self) -> tuple[str, ...]:
        return (*self.before, self.path)


#: The person's answer: ``True`` approves.  Awaited while the run waits.
Approver = Callable[[ApprovalRequest], Awaitable[bool]]


class ChangeRefused(FileStoreError):
    """The person refused a deletion or overwrite; the file is as it was."""


def refusal_text(action: str, path: str) -> str:
    return (
        f"{path}: the person refused to let you {action} this file, so it stays as it is. "
        "Do not try again; build around it, and note the refusal in .ralph/progress.md."
    )


@dataclass(eq=False)
class ApprovalGate(ReadThrough):
    """A FileStore that asks before the ``limit``-th-plus-one change of the person's files."""

    inner: FileStore
    limit: int
    approve: Approver
    #: Files this run changed without asking (since the last approval).
    changed: list[str] = field(default_factory=list)
    #: Files this run created: his own, free to change again.
    created: set[str] = field(default_factory=set)
    #: Files the person refused to let go.
    refused: set[str] = field(default_factory=set)

    # ------------------------------------------------------------ the decision

    @staticmethod
    def _counts(path: str) -> bool:
        return not (path == RALPH_DIR or path.startswith(RALPH_DIR + "/"))

    async def _gate(self, action: str, path: str) -> None:
        """Let the change of ``path`` happen, or raise :class:`ChangeRefused`."""
        if not self._counts(path) or path in self.created or path in self.changed:
            return
        if path in self.refused:
            raise ChangeRefused(refusal_text(action, path))
        if len(self.changed) < self.limit:
            self.changed.append(path)
            return
        request = ApprovalRequest(action, path, tuple(self.changed), self.limit)
        if await self.approve(request):
            self.changed = [path]
            return
        self.refused.add(path)
        raise ChangeRefused(refusal_text(action, path))

    async def _before_write(self, path: str, data: bytes | None) -> None:
        p = normalize_path(path)
        try:
            old = await self.inner.read_bytes(p)
        except (FileNotFound, FileStoreError):
            self.created.add(p)
            return
        if data is not None and old == data:
            return
        await self._gate("overwrite", p)

    async def _before_remove(self, path: str, recursive: bool) -> None:
        p = normalize_path(path)
        if await self.inner.is_dir(p):
            files = await self.inner.list(p, recursive=True) if recursive else []
        else:
            files = [p] if await self.inner.exists(p) else []
        for f in files:
            await self._gate("delete", f)

    # ------------------------------------------------------------ writes, gated

    async def write_bytes(self, path: str, data: bytes) -> None:
        await self._before_write(path, data)
        await self.inner.write_bytes(path, data)

    async def write_text(self, path: str, text: str) -> None:
        await self._before_write(path, text.encode("utf-8"))
        await self.inner.write_text(path, text)

    async def write_many(self, items: dict[str, bytes], *, remove: Iterable[str] = ()) -> None:
        remove = list(remove)
        for path in remove:
            await self._before_remove(path, False)
        for path, data in items.items():
            await self._before_write(path, data)
        await self.inner.write_many(items, remove=remove)

    async def remove(self, path: str, recursive: bool = False) -> None:
        await self._before_remove(path, recursive)
        await self.inner.remove(path, recursive)

    async def rename(self, src: str, dst: str) -> None:
        # The moved file lives on at ``dst``; a file it replaces there does not.
        if await self.inner.exists(dst) and not await self.inner.is_dir(dst):
            await self._before_write(dst, None)
        await self.inner.rename(src, dst)
        s, d = normalize_path(src), normalize_path(dst)
        if s in self.created:
            self.created.add(d)

    async def mkdir(self, path: str, parents: bool = True) -> None:
        await self.inner.mkdir(path, parents)


def gated(fs: FileStore, limit: int | None, approve: Approver | None) -> FileStore:
    """``fs`` behind an :class:`ApprovalGate`, or as it is when nobody asked to be asked."""
    if limit is None or approve is None:
        return fs
    return ApprovalGate(fs, max(limit, 0), approve)
