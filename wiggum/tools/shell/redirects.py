"""Redirections of one command: ``<``, ``>``, ``>>``, ``&>``, ``2>&1``, here-documents.

Files a command writes are buffered in a :class:`FileSink` and written when
the command is done (:meth:`Redirections.flush`), through the write policy
like every other write; ``>`` truncates when it opens, as POSIX says, so
``sort f > f`` reads an empty ``f`` as in a real shell.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from wiggum.fs import FileStore, FileStoreError, PathError, join_path

from ..command import DEV_NULL
from ..ops import files
from ..policy import WritePolicy
from . import nodes
from .context import ShellLimits, ShellState
from .expand import Expander
from .streams import FileSink, NullSink, Sink, Source

__all__ = ["IO", "RedirectError", "Redirections", "resolve"]


@dataclass
class IO:
    """A command's standard streams."""

    stdin: Source | None
    stdout: Sink
    stderr: Sink


class RedirectError(Exception):
    """A redirection that cannot be made; the command does not run."""


def resolve(state: ShellState, target: str) -> str:
    return join_path(state.cwd, target, allow_root=False)


class Redirections:
    def __init__(self, fs: FileStore, policy: WritePolicy, limits: ShellLimits) -> None:
        self.fs = fs
        self.policy = policy
        self.limits = limits

    async def open(
        self,
        redirects: list[nodes.Redirect],
        make_expander: Callable[[], Expander],
        state: ShellState,
        io: IO,
    ) -> tuple[IO, list[FileSink]]:
        """The command's streams with ``redirects`` applied, and the files it writes
        (flushed by :meth:`flush` when the command is done)."""
        if not redirects:
            return io, []
        expander = make_expander()
        stdin = io.stdin
        fds: dict[int, Sink] = {1: io.stdout, 2: io.stderr}
        sinks: list[FileSink] = []
        for r in redirects:
            if r.op in ("<<", "<<-"):
                assert r.heredoc is not None
                heredoc = r.heredoc
                text = await expander.text(heredoc.word) if heredoc.word else heredoc.body
                if r.fd == 0:
                    stdin = Source(text)
                continue
            assert r.target is not None
            target = await self._target(expander, r)
            if r.op == "<<<":
                if r.fd == 0:
                    stdin = Source(target + "\n")
            elif r.op == "<":
                text = await self._read_redirect(target, state)
                if r.fd == 0:
                    stdin = Source(text)
            elif r.op in (">&", "<&") and (target.isdigit() or target == "-"):
                if target == "-":
                    fds[r.fd] = NullSink()
                elif int(target) in fds:
                    fds[r.fd] = fds[int(target)]
                elif int(target) != 0:
                    raise RedirectError(f"{target}: Bad file descriptor")
            else:
                sink = await self._open_sink(target, r.op in (">>", "&>>"), state, fds)
                if isinstance(sink, FileSink):
                    sinks.append(sink)
                if r.op in ("&>", "&>>") or (r.op == ">&" and r.fd == 1):
                    fds[1] = fds[2] = sink
                else:
                    fds[r.fd] = sink
        return IO(stdin, fds[1], fds[2]), sinks

    async def _target(self, expander: Expander, r: nodes.Redirect) -> str:
        assert r.target is not None
        if r.op == "<<<":
            return await expander.text(r.target)
        words = await expander.words([r.target])
        if len(words) != 1:
            raise RedirectError(f"{r.target.raw}: ambiguous redirect")
        return words[0]

    async def _read_redirect(self, target: str, state: ShellState) -> str:
        if target == DEV_NULL:
            return ""
        try:
            return await self.fs.read_text(resolve(state, target))
        except FileStoreError as err:
            raise RedirectError(f"{target}: {err.reason}") from None
        except PathError as err:
            raise RedirectError(str(err)) from None

    async def _open_sink(
        self, target: str, append: bool, state: ShellState, fds: dict[int, Sink]
    ) -> Sink:
        if target == DEV_NULL:
            return NullSink()
        if target in ("/dev/stdout", "/dev/stderr"):
            return fds[1 if target == "/dev/stdout" else 2]
        try:
            path = resolve(state, target)
            self.policy.check_write(path)
        except PathError as err:
            raise RedirectError(str(err)) from None
        if await self.fs.is_dir(path):
            raise RedirectError(f"{target}: Is a directory")
        if not append:
            # POSIX truncates when the redirection opens, before the command
            # runs: `sort f > f` reads an empty f, as in a real shell.
            try:
                await files.write_text(self.fs, self.policy, path, "")
            except FileStoreError as err:
                raise RedirectError(f"{target}: {err.reason}") from None
        return FileSink(path, append, self.limits.max_buffer_chars)

    async def flush(self, sinks: list[FileSink], stderr: Sink) -> None:
        seen: set[int] = set()
        for sink in sinks:
            if id(sink) in seen:
                continue
            seen.add(id(sink))
            try:
                await files.write_text(
                    self.fs, self.policy, sink.path, sink.text(), append=sink.append
                )
            except FileStoreError as err:
                stderr.write(f"sh: {sink.path}: {err.reason}\n")
            except PathError as err:
                stderr.write(f"sh: {err}\n")
