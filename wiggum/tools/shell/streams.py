"""Where a command's output goes: the terminal, a pipe, a file, nowhere.

Commands run one after another (a pipeline's stages too, each reading the
whole output of the previous one), so a sink is a buffer.  The terminal sink
is shared by stdout and stderr and keeps their interleaving as written.
"""

from __future__ import annotations

__all__ = ["BufferSink", "FileSink", "NullSink", "OutputLimitExceeded", "Sink", "Source"]


class OutputLimitExceeded(Exception):
    """A sink would hold more than its byte limit."""


class Sink:
    #: The file this sink is written to, if it is one (``FileSink``).
    path: str | None = None

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


class Source:
    """A command's standard input, shared by the commands of a loop or group.

    ``read`` takes one line at a time; any other command that reads its
    input takes all that is left, as it would from a real pipe.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def read_all(self) -> str:
        rest = self.text[self.pos :]
        self.pos = len(self.text)
        return rest

    def read_until(self, delimiter: str, limit: int | None = None) -> tuple[str, bool] | None:
        """The text up to ``delimiter`` (not included) or ``limit`` characters,
        and whether it ended there rather than at the end of the input; None
        when nothing is left."""
        if self.pos >= len(self.text):
            return None
        end = self.text.find(delimiter, self.pos)
        stop = len(self.text) if limit is None else min(len(self.text), self.pos + limit)
        if end != -1 and end < stop:
            chunk = self.text[self.pos : end]
            self.pos = end + len(delimiter)
            return chunk, True
        chunk = self.text[self.pos : stop]
        self.pos = stop
        return chunk, stop < len(self.text) or (limit is not None and len(chunk) == limit)
