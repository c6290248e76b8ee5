"""A provider on loopback that misbehaves on purpose: one asyncio server, raw HTTP/1.1.

The fault matrix (``test_fault_matrix.py``) and ``bench/faults.py`` point a
client at ``http://127.0.0.1:PORT/<case>/<fault>/<dialect>``; the server reads
the request, counts it under ``<case>`` (so a test sees how many attempts a
client made, and with which headers), and answers as the fault says, in the
dialect's wire format (``fault_wire.py``), a stream or one JSON body as the
request's ``"stream"`` asked.

It writes raw bytes, not through an HTTP library, so it can do what real
servers and proxies do wrong: never answer, reset the connection, stop in
the middle, drip, lie about the content type, compress.  Every wait it makes
ends by itself (``MAX_STALL``), so a client that hangs cannot hang the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import struct
import time
import zlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from email.utils import formatdate

from tests.llm.fault_wire import WIRES, Wire

#: The longest any fault keeps a connection waiting, in seconds.
MAX_STALL = 10.0


@dataclass
class Seen:
    """One request as the server read it."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes

    @property
    def stream(self) -> bool:
        try:
            return bool(json.loads(self.body or b"{}").get("stream"))
        except ValueError:
            return False


@dataclass
class Ctx:
    """What a fault's handler has: the request, its wire, its connection."""

    seen: Seen
    wire: Wire
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    server: FaultServer
    attempt: int  # 1 for the first request of this case
    rest: str  # the path after /<case>/<fault>/<dialect>

    async def send(self, data: bytes, *, pause: float = 0.0) -> None:
        self.writer.write(data)
        await self.writer.drain()
        if pause:
            await asyncio.sleep(pause)

    async def head(
        self, status: int = 200, content_type: str | None = None, extra: dict | None = None
    ) -> None:
        """A status line and headers, the body delimited by closing the connection."""
        reason = {200: "OK", 307: "Temporary Redirect", 429: "Too Many Requests"}.get(status, "X")
        lines = [f"HTTP/1.1 {status} {reason}", "Connection: close"]
        if content_type is not None:
            lines.append(f"Content-Type: {content_type}")
        lines += [f"{k}: {v}" for k, v in (extra or {}).items()]
        await self.send(("\r\n".join(lines) + "\r\n\r\n").encode())

    async def answer(
        self, body: bytes, status: int = 200, content_type: str = "application/json", **extra
    ) -> None:
        """A whole answer with its length."""
        await self.head(status, content_type, {"Content-Length": str(len(body)), **extra})
        await self.send(body)

    async def stall(self) -> None:
        """Wait until the client goes away (or ``MAX_STALL``)."""
        with contextlib.suppress(TimeoutError, ConnectionError):
            await asyncio.wait_for(self.reader.read(), MAX_STALL)

    def reset(self) -> None:
        """Close with a TCP reset (SO_LINGER 0), not a clean FIN."""
        sock = self.writer.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.writer.transport.abort()

    # -- the reply, in the dialect's shape, as the request asked

    @property
    def stream(self) -> bool:
        return self.seen.stream

    @property
    def content_type(self) -> str:
        return self.wire.content_type if self.stream else "application/json"

    def reply(self, *texts: bytes) -> bytes:
        return self.wire.stream(*texts) if self.stream else self.wire.body(b"".join(texts))


Handler = Callable[[Ctx], Awaitable[None]]


@dataclass
class FaultServer:
    """``async with FaultServer() as server``: listening on ``server.port``."""

    faults: dict[str, Handler]
    port: int = 0
    seen: dict[str, list[Seen]] = field(default_factory=dict)
    _server: asyncio.AbstractServer | None = None
    _tasks: set[asyncio.Task] = field(default_factory=set)

    async def __aenter__(self) -> FaultServer:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._server is not None
        self._server.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def base_url(self, case: str, fault: str, dialect: str, *, host: str = "127.0.0.1") -> str:
        url = f"http://{host}:{self.port}/{case}/{fault}/{dialect}"
        return url + "/v1" if dialect == "openai" else url

    def requests(self, case: str) -> list[Seen]:
        return self.seen.get(case, [])

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:  # cancelled on exit, whatever it is waiting for
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            first, *lines = head.decode("latin-1").split("\r\n")
            method, path, _ = first.split(" ", 2)
            headers = {}
            for line in lines:
                if ":" in line:
                    name, value = line.split(":", 1)
                    headers[name.strip().lower()] = value.strip()
            body = await reader.readexactly(int(headers.get("content-length", "0")))
            seen = Seen(method, path, headers, body)
            _, case, fault, dialect, *rest = path.split("/")
            log = self.seen.setdefault(case, [])
            log.append(seen)
            ctx = Ctx(seen, WIRES[dialect], reader, writer, self, len(log), "/".join(rest))
            await self.faults[fault](ctx)
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            pass
        finally:
            with contextlib.suppress(Exception):
                writer.close()


def http_date(seconds_from_now: float) -> str:
    return formatdate(time.time() + seconds_from_now, usegmt=True)


def gzip_stream(pieces: list[bytes]) -> list[bytes]:
    """``pieces`` gzip-compressed, each flushed on its own (a stream a client
    can decode as it arrives)."""
    z = zlib.compressobj(wbits=31)
    out = [z.compress(p) + z.flush(zlib.Z_SYNC_FLUSH) for p in pieces]
    out.append(z.flush())
    return out


def refused_port() -> int:
    """A loopback port nothing listens on (connecting is refused)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
