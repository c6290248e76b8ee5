"""Where a command's output goes: the terminal, a pipe, a file, nowhere.

Commands run one after another (a pipeline's stages too, each reading the
whole output of the previous one), so a sink is a buffer.  The terminal sink
is shared by stdout and stderr and keeps their interleaving as written.
"""

from __future__ import annotations

__all__ = ["BufferSink", "FileSink", "NullSink", "OutputLimitExceeded", "Sink"]


class OutputLimitExceeded(Exception):
    """A sink would hold more than its byte limit."""


class Sink:
    def write(self, text: str) -> None:
        raise NotImplementedError


class NullSink(Sink):
    def write(self, text: str) -> None:
        pass


class BufferSink(Sink):
    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.size = 0
        self.chunks: list[str] = []

    def write(self, text: str) -> None:
        if not text:
            return
        # Characters, not bytes: cheap, and within a factor of 4 of the bytes.
        self.size += len(text)
        if self.size > self.limit:
            raise OutputLimitExceeded(f"output exceeded {self.limit} characters")
        self.chunks.append(text)

    def text(self) -> str:
        return "".join(self.chunks)


class FileSink(BufferSink):
    """Output redirected to a file; written to the store when the command ends."""

    def __init__(self, path: str, append: bool, limit: int) -> None:
        super().__init__(limit)
        self.path = path
        self.append = append
