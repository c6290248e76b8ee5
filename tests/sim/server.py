"""The simulator's HTTP/1.1 server: asyncio streams on a private event loop in a daemon thread."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import http
import json
import threading
import time
import traceback
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from .turns import Disconnect, HttpError, Stall, StreamError, Turn, rand_id
from .wire import (
    BODY,
    STREAM,
    Ctx,
    Event,
    dumps,
    error_body,
    model_list,
    nonstream_error_body,
    stream_error_obj,
)

DEFAULT_MODELS = {
    "openai": ["gpt-4o-mini", "gpt-4o", "o3-mini"],
    "anthropic": ["claude-sonnet-4-20250514", "claude-3-5-haiku-20241022"],
    "ollama": ["llama3.2:latest", "qwen3:4b"],
}
EXPOSE_HEADERS = "*, retry-after, x-request-id, request-id, content-type"
GARBAGE = {
    "sse": [": OPENROUTER PROCESSING", "data: : keepalive", "data: this is not json", ":"],
    "ndjson": ["", "this is not json"],
}


@dataclass
class Request:
    """One received request, as recorded on ``Simulator.requests``."""

    method: str
    path: str  # without the query string
    query: dict[str, str]
    headers: dict[str, str]  # lower-cased names
    body: bytes = field(repr=False)
    json: Any = None
    dialect: str | None = None  # "openai" | "anthropic" | "ollama" for chat/model routes
    stream: bool | None = None  # chat requests: did the client ask for a stream
    turn: Turn | None = None  # the turn that answered it
    status: int | None = None
    response_id: str = ""  # chatcmpl-… / msg_01…
    tool_call_ids: list[str] = field(default_factory=list)  # ids sent ("" for Ollama)
    # "pending" → "complete" | "closed_by_server" (a fault) | "client_disconnected"
    #   | "server_stopped" (sim.stop() while answering) | "error" (simulator bug: see body)
    outcome: str = "pending"
    finished: threading.Event = field(default_factory=threading.Event, repr=False)

    def header(self, name: str, default: str | None = None) -> str | None:
        return self.headers.get(name.lower(), default)

    def wait(self, timeout: float = 5.0) -> str:
        """Block until the server has finished answering; returns ``outcome``."""
        if not self.finished.wait(timeout):
            raise TimeoutError(f"request {self.method} {self.path} still {self.outcome}")
        return self.outcome


def _merge(*groups: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """Concatenate header lists; a later header replaces an earlier one of the same name."""
    out: dict[str, tuple[str, str]] = {}
    for group in groups:
        for k, v in group:
            out[k.lower()] = (k, v)
    return list(out.values())


class _Closed(Exception):
    """The server closed (or lost) the connection mid-response."""


class Simulator:
    """A scripted OpenAI / Anthropic / Ollama server on 127.0.0.1 (see package docstring)."""

    def __init__(
        self,
        *,
        cors: bool = True,
        host: str = "127.0.0.1",
        port: int = 0,
        models: Iterable[str | dict] | Mapping[str, Iterable[str | dict]] | None = None,
        default: Turn | None = None,
    ) -> None:
        self.cors = cors
        self.host = host
        self.port = port
        self.models: dict[str, list] = {k: list(v) for k, v in DEFAULT_MODELS.items()}
        if models is not None:
            self.set_models(models)
        self.models_fault: Turn | HttpError | None = None
        self.default = default
        #: Paths answered with a 307 to the given address, whatever the method and
        #: body (a moved endpoint): ``{"/v1/chat/completions": "http://…"}``.
        self.redirects: dict[str, str] = {}
        self._queue: deque[Turn] = deque()
        self._lock = threading.Lock()
        self._cond = threading.Condition(self._lock)
        self._all: list[Request] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task] = set()
        self._writers: set[asyncio.StreamWriter] = set()

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> Simulator:
        if self._thread is not None:
            return self
        ready = threading.Event()
        failure: list[BaseException] = []
        loop = asyncio.new_event_loop()
        self._loop = loop

        def run() -> None:
            asyncio.set_event_loop(loop)
            try:
                self._server = loop.run_until_complete(
                    asyncio.start_server(self._on_connection, self.host, self.port)
                )
                self.port = self._server.sockets[0].getsockname()[1]
            except BaseException as e:
                failure.append(e)
                ready.set()
                loop.close()
                return
            ready.set()
            try:
                loop.run_forever()
            finally:
                loop.run_until_complete(self._shutdown())
                loop.close()

        self._thread = threading.Thread(target=run, name=f"wiggum-sim-{id(self):x}", daemon=True)
        self._thread.start()
        ready.wait(10)
        if failure:
            self._thread = None
            raise failure[0]
        return self

    def stop(self) -> None:
        """Stop the server, dropping any open (e.g. stalled) connections. Idempotent."""
        thread, loop = self._thread, self._loop
        if thread is None or loop is None:
            return
        with contextlib.suppress(RuntimeError):  # loop already closed
            loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        self._thread = None

    async def _shutdown(self) -> None:
        if self._server is not None:
            self._server.close()
        for w in list(self._writers):
            w.transport.abort()
        # Every task of this loop, not only self._tasks: a connection accepted just
        # before the stop has a task that has not run yet (so never added itself).
        # Left pending, it would be destroyed later by the garbage collector in
        # whatever test runs then, and a finaliser running inside ast.parse trips
        # CPython 3.11's "AST constructor recursion depth mismatch" (gh-106905).
        tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for t in tasks:
            t.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=2)

    def __enter__(self) -> Simulator:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    async def __aenter__(self) -> Simulator:
        return self.start()

    async def __aexit__(self, *exc: object) -> None:
        await asyncio.to_thread(self.stop)

    @property
    def base_url(self) -> str:
        if self._thread is None:
            raise RuntimeError("Simulator not started")
        return f"http://{self.host}:{self.port}"

    def url(self, path: str = "") -> str:
        return self.base_url + path

    # ------------------------------------------------------------------ scripting

    def script(self, turns: Turn | Iterable[Turn], *, model: str | None = None) -> Simulator:
        """Append turns to the FIFO queue (optionally keying them all to ``model``)."""
        items = [turns] if isinstance(turns, Turn) else list(turns)
        for t in items:
            if not isinstance(t, Turn):
                raise TypeError(f"expected Turn, got {t!r}")
            if model is not None:
                t.model = model
        with self._lock:
            self._queue.extend(items)
        return self

    @property
    def pending(self) -> list[Turn]:
        """Turns not yet consumed."""
        with self._lock:
            return list(self._queue)

    def drop_pending(self) -> list[Turn]:
        """Forget the unconsumed turns (recorded requests stay); returns them."""
        with self._lock:
            left = list(self._queue)
            self._queue.clear()
        return left

    def set_models(
        self,
        models: Iterable[str | dict] | Mapping[str, Iterable[str | dict]],
        dialect: str | None = None,
    ) -> None:
        """Set the model lists. A plain list sets every dialect (or just ``dialect``); a
        mapping sets per dialect. Dict entries are sent verbatim; strings are dressed up in
        the dialect's shape."""
        if isinstance(models, Mapping):
            for k, v in models.items():
                self.models[k] = list(v)
        elif dialect is not None:
            self.models[dialect] = list(models)
        else:
            for k in DEFAULT_MODELS:
                self.models[k] = list(models)

    def _take(self, model: str | None) -> Turn | None:
        """Next turn keyed to ``model`` if any, else the next unkeyed turn, else ``default``."""
        with self._lock:
            for keyed in (True, False):
                for i, t in enumerate(self._queue):
                    if (t.model is not None and t.model == model) if keyed else t.model is None:
                        del self._queue[i]
                        return t
        return self.default

    # ------------------------------------------------------------------ recording

    @property
    def all_requests(self) -> list[Request]:
        with self._lock:
            return list(self._all)

    @property
    def requests(self) -> list[Request]:
        """Received requests other than CORS preflights, in arrival order."""
        return [r for r in self.all_requests if r.method != "OPTIONS"]

    @property
    def preflights(self) -> list[Request]:
        return [r for r in self.all_requests if r.method == "OPTIONS"]

    @property
    def chat_requests(self) -> list[Request]:
        return [r for r in self.requests if r.stream is not None]

    @property
    def last_request(self) -> Request:
        return self.requests[-1]

    def wait_for_requests(self, n: int, timeout: float = 5.0) -> list[Request]:
        """Block until at least ``n`` non-preflight requests have arrived."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while sum(r.method != "OPTIONS" for r in self._all) < n:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"expected {n} requests, got {len(self.requests)}")
                self._cond.wait(left)
        return self.requests

    async def wait_for_requests_async(self, n: int, timeout: float = 5.0) -> list[Request]:
        return await asyncio.to_thread(self.wait_for_requests, n, timeout)

    def clear(self) -> None:
        """Forget recorded requests and unconsumed turns."""
        with self._lock:
            self._all.clear()
            self._queue.clear()

    def _record(self, req: Request) -> None:
        with self._cond:
            self._all.append(req)
            self._cond.notify_all()

    # ------------------------------------------------------------------ HTTP plumbing

    async def _on_connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        self._writers.add(writer)
        try:
            while True:
                req = await self._read_request(reader, writer)
                if req is None:
                    break
                self._record(req)
                try:
                    keep = await self._dispatch(req, reader, writer)
                    if req.outcome == "pending":
                        req.outcome = "complete"
                except _Closed:
                    keep = False
                    if req.outcome == "pending":
                        req.outcome = "closed_by_server"
                except (ConnectionError, asyncio.IncompleteReadError):
                    req.outcome = "client_disconnected"
                    keep = False
                except asyncio.CancelledError:
                    req.outcome = "server_stopped"
                    raise
                except Exception:
                    req.outcome = "error"
                    keep = False
                    with contextlib.suppress(Exception):
                        tb = traceback.format_exc().encode()
                        await self._simple(writer, req, 500, tb, "text/plain", close=True)
                finally:
                    req.finished.set()
                if not keep:
                    break
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            pass
        except asyncio.CancelledError:
            # Shutdown cancels idle keep-alive connections.  Ending quietly keeps
            # asyncio's stream callback from logging the cancelled task as an error.
            return
        finally:
            self._writers.discard(writer)
            self._tasks.discard(task)
            writer.close()

    async def _read_request(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> Request | None:
        line = await reader.readline()
        while line in (b"\r\n", b"\n"):  # tolerate stray CRLF between requests
            line = await reader.readline()
        if not line:
            return None
        method, target, *_ = [*line.decode("latin-1").split(), "", ""]
        headers: dict[str, str] = {}
        while True:
            h = await reader.readline()
            if h in (b"\r\n", b"\n", b""):
                break
            name, _, value = h.decode("latin-1").partition(":")
            key = name.strip().lower()
            value = value.strip()
            headers[key] = f"{headers[key]}, {value}" if key in headers else value
        if headers.get("expect", "").lower() == "100-continue":
            writer.write(b"HTTP/1.1 100 Continue\r\n\r\n")
        body = b""
        if "chunked" in headers.get("transfer-encoding", "").lower():
            parts = []
            while True:
                size = int((await reader.readline()).split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while (await reader.readline()) not in (b"\r\n", b"\n", b""):
                        pass
                    break
                parts.append(await reader.readexactly(size))
                await reader.readline()
            body = b"".join(parts)
        elif headers.get("content-length"):
            body = await reader.readexactly(int(headers["content-length"]))
        split = urlsplit(target)
        parsed = None
        if body and "json" in headers.get("content-type", "json"):
            with contextlib.suppress(ValueError):
                parsed = json.loads(body)
        return Request(
            method=method.upper(),
            path=split.path,
            query=dict(parse_qsl(split.query)),
            headers=headers,
            body=body,
            json=parsed,
        )

    def _cors_headers(self, req: Request) -> list[tuple[str, str]]:
        if not self.cors:
            return []
        origin = req.header("origin")
        out = [("Access-Control-Allow-Origin", origin or "*")]
        if origin:
            out.append(("Vary", "Origin"))
        out.append(("Access-Control-Expose-Headers", EXPOSE_HEADERS))
        return out

    def _head(
        self,
        req: Request,
        status: int,
        headers: Iterable[tuple[str, str]],
        *,
        length: int | None = None,
        framing: str = "chunked",
        close: bool = False,
    ) -> bytes:
        try:
            phrase = http.HTTPStatus(status).phrase
        except ValueError:
            phrase = {529: "Site Overloaded"}.get(status, "Unknown")
        hs = list(headers)
        names = {k.lower() for k, _ in hs}
        if "x-request-id" not in names:
            hs.append(("x-request-id", rand_id("req_", 24)))
        if req.dialect == "anthropic" and "request-id" not in names:
            hs.append(("request-id", rand_id("req_01", 22)))
        hs.append(("Server", "wiggum-sim"))
        if length is not None:
            hs.append(("Content-Length", str(length)))
        elif framing == "chunked":
            hs.append(("Transfer-Encoding", "chunked"))
        if close or (length is None and framing != "chunked"):
            hs.append(("Connection", "close"))
        else:
            hs.append(("Connection", "keep-alive"))
        hs += self._cors_headers(req)
        lines = [f"HTTP/1.1 {status} {phrase}"] + [f"{k}: {v}" for k, v in hs]
        req.status = status
        return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")

    async def _simple(
        self,
        writer: asyncio.StreamWriter,
        req: Request,
        status: int,
        body: bytes | str | Any,
        content_type: str = "application/json",
        extra: Mapping[str, str] | None = None,
        close: bool = False,
    ) -> bool:
        if isinstance(body, str):
            data = body.encode()
        elif isinstance(body, bytes):
            data = body
        else:
            data = dumps(body).encode()
        hs = _merge([("Content-Type", content_type)], (extra or {}).items())
        writer.write(self._head(req, status, hs, length=len(data), close=close) + data)
        await writer.drain()
        return not close

    # ------------------------------------------------------------------ routing

    async def _dispatch(
        self, req: Request, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> bool:
        keep = req.header("connection", "").lower() != "close"
        path = req.path.rstrip("/")
        if req.method == "OPTIONS":
            return await self._preflight(req, writer) and keep
        if path in self.redirects:
            where = {"Location": self.redirects[path]}
            return await self._simple(writer, req, 307, b"", "text/plain", where) and keep
        if path.endswith("/chat/completions"):
            req.dialect = "openai"
        elif path.endswith("/messages"):
            req.dialect = "anthropic"
        elif path.endswith("/api/chat"):
            req.dialect = "ollama"
        elif path.endswith("/api/tags") or path.endswith("/api/version"):
            req.dialect = "ollama"
            if req.method != "GET":
                return await self._simple(writer, req, 405, {"error": "method not allowed"})
            if path.endswith("/api/version"):
                return await self._simple(writer, req, 200, {"version": "0.9.0"}) and keep
            return await self._models(req, writer) and keep
        elif path.endswith("/models"):
            anthropic = "anthropic-version" in req.headers or "/anthropic/" in path + "/"
            req.dialect = "anthropic" if anthropic else "openai"
            if req.method != "GET":
                return await self._simple(writer, req, 405, {"error": "method not allowed"})
            return await self._models(req, writer) and keep
        else:
            body = {"error": {"message": f"wiggum-sim: no route for {req.method} {req.path}"}}
            return await self._simple(writer, req, 404, body) and keep
        if req.method != "POST":
            return await self._simple(writer, req, 405, {"error": "method not allowed"}) and keep
        return await self._chat(req, reader, writer) and keep

    async def _preflight(self, req: Request, writer: asyncio.StreamWriter) -> bool:
        hs: list[tuple[str, str]] = []
        if self.cors:
            origin = req.header("origin")
            hs = [("Access-Control-Allow-Origin", origin or "*")]
            if origin:
                hs.append(("Vary", "Origin"))
            hs.append(("Access-Control-Allow-Methods", "GET, POST, OPTIONS"))
            hs.append(
                (
                    "Access-Control-Allow-Headers",
                    req.header("access-control-request-headers") or "*",
                )
            )
            hs.append(("Access-Control-Max-Age", "600"))
            if req.header("access-control-request-private-network") == "true":
                hs.append(("Access-Control-Allow-Private-Network", "true"))
        # _head would add the non-preflight CORS headers; build the response by hand
        cors, self.cors = self.cors, False
        try:
            head = self._head(req, 204, hs, length=0)
        finally:
            self.cors = cors
        writer.write(head)
        await writer.drain()
        return True

    async def _models(self, req: Request, writer: asyncio.StreamWriter) -> bool:
        fault = self.models_fault
        if isinstance(fault, Turn):
            fault = fault.fault
        if isinstance(fault, HttpError):
            return await self._http_error(req, writer, fault)
        dialect = req.dialect or "openai"
        return await self._simple(writer, req, 200, model_list(dialect, self.models[dialect]))

    async def _http_error(self, req: Request, writer: asyncio.StreamWriter, err: HttpError) -> bool:
        body = error_body(err, req.dialect or "openai")
        ctype = "application/json"
        if isinstance(body, str | bytes):
            try:
                json.loads(body)
            except ValueError:
                ctype = "text/plain; charset=utf-8"
        return await self._simple(writer, req, err.status, body, ctype, err.headers)

    # ------------------------------------------------------------------ chat

    async def _chat(
        self, req: Request, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> bool:
        dialect = req.dialect
        assert dialect is not None
        body = req.json
        if not isinstance(body, dict):
            err = HttpError(400, message="We could not parse the JSON body of your request.")
            return await self._http_error(req, writer, err)
        stream_flag = body.get("stream")
        req.stream = (stream_flag is not False) if dialect == "ollama" else stream_flag is True
        model = body.get("model") or "sim-model"
        turn = self._take(model)
        if turn is None:
            err = HttpError(
                500,
                message=f"wiggum-sim: no scripted turn left for model {model!r}",
                type="sim_error",
            )
            return await self._http_error(req, writer, err)
        req.turn = turn
        if turn.ttfb:
            await asyncio.sleep(turn.ttfb)
        if turn.raw is not None:
            return await self._raw(req, reader, writer, turn)
        if isinstance(turn.fault, HttpError):
            fault = turn.fault
            if turn.headers:
                fault = dataclasses.replace(fault, headers={**turn.headers, **fault.headers})
            return await self._http_error(req, writer, fault)
        ctx = Ctx(
            dialect=dialect,
            model=model,
            stream=req.stream,
            include_usage=bool((body.get("stream_options") or {}).get("include_usage")),
            prompt_estimate=max(1, len(req.body) // 4),
        )
        try:
            if req.stream:
                return await self._stream(req, reader, writer, turn, ctx)
            return await self._nonstream(req, reader, writer, turn, ctx)
        finally:
            req.response_id = ctx.response_id
            req.tool_call_ids = ctx.tool_call_ids

    def _extra_headers(self, req: Request, turn: Turn, ctype: str) -> list[tuple[str, str]]:
        hs = [("Content-Type", ctype)]
        if req.stream:
            hs.append(("Cache-Control", "no-cache"))
        return _merge(hs, turn.headers.items())

    async def _send(self, writer: asyncio.StreamWriter, data: bytes, chunked: bool) -> None:
        if not data:
            return
        if writer.transport.is_closing():
            raise ConnectionResetError("client went away")
        writer.write(b"%x\r\n%s\r\n" % (len(data), data) if chunked else data)
        await writer.drain()

    async def _end(self, writer: asyncio.StreamWriter, chunked: bool) -> bool:
        if chunked:
            writer.write(b"0\r\n\r\n")
            await writer.drain()
            return True
        return False  # framing=close: the body ends when we close the connection

    async def _stall(self, reader: asyncio.StreamReader, seconds: float | None) -> bool:
        """Hold still; True if the client disconnected meanwhile."""
        deadline = None if seconds is None else time.monotonic() + seconds
        while True:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                return False
            try:
                data = await asyncio.wait_for(reader.read(65536), left)
            except TimeoutError:
                return False
            if not data:
                return True

    async def _stream(
        self,
        req: Request,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        turn: Turn,
        ctx: Ctx,
    ) -> bool:
        events = STREAM[ctx.dialect](turn, ctx)
        sse = ctx.dialect != "ollama"
        le = turn.line_ending
        chunked = turn.framing == "chunked"
        ctype = "text/event-stream; charset=utf-8" if sse else "application/x-ndjson"
        garbage: list[str] = []
        if turn.garbage is True:
            garbage = GARBAGE["sse" if sse else "ndjson"]
        elif turn.garbage:
            garbage = list(turn.garbage)
        sep = le if sse else "\n"

        def encode(ev: Event) -> bytes:
            if not sse:
                return (ev.data + "\n").encode()
            head = f"event: {ev.name}{le}" if ev.name else ""
            return f"{head}data: {ev.data}{le}{le}".encode()

        writer.write(
            self._head(req, 200, self._extra_headers(req, turn, ctype), framing=turn.framing)
        )
        await writer.drain()
        fault = turn.fault
        i = 0
        while True:
            if fault is not None and (fault.after == i or (i == len(events) and fault.after > i)):
                if isinstance(fault, Disconnect):
                    raise _Closed
                if isinstance(fault, StreamError):
                    await self._send(
                        writer, encode(stream_error_obj(fault, ctx.dialect, ctx)), chunked
                    )
                    return await self._end(writer, chunked)
                if isinstance(fault, Stall):
                    if await self._stall(reader, fault.seconds):
                        req.outcome = "client_disconnected"
                        raise _Closed
                    if fault.then == "close":
                        raise _Closed
                fault = None
            if i >= len(events):
                break
            if i > 0 and turn.delay:
                await asyncio.sleep(turn.delay)
            if turn.gate is not None and await turn.gate.admit(reader):
                req.outcome = "client_disconnected"
                raise _Closed
            if garbage:
                junk = garbage[i % len(garbage)]
                await self._send(writer, (junk + sep + (le if sse else "")).encode(), chunked)
            await self._send(writer, encode(events[i]), chunked)
            if reader.at_eof():
                req.outcome = "client_disconnected"
                raise _Closed
            i += 1
        return await self._end(writer, chunked)

    async def _nonstream(
        self,
        req: Request,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        turn: Turn,
        ctx: Ctx,
    ) -> bool:
        fault = turn.fault
        body: Any = BODY[ctx.dialect](turn, ctx)
        if isinstance(fault, StreamError):
            body = nonstream_error_body(fault, ctx.dialect)
        data = dumps(body).encode()
        hs = self._extra_headers(req, turn, "application/json")
        if isinstance(fault, Stall):
            if await self._stall(reader, fault.seconds):
                req.outcome = "client_disconnected"
                raise _Closed
            if fault.then == "close":
                raise _Closed
        if isinstance(fault, Disconnect):
            if fault.after == 0:
                raise _Closed
            writer.write(self._head(req, 200, hs, length=len(data)) + data[: len(data) // 2])
            await writer.drain()
            raise _Closed
        if turn.framing == "close":
            writer.write(self._head(req, 200, hs, framing="close") + data)
            await writer.drain()
            return False
        writer.write(self._head(req, 200, hs, length=len(data)) + data)
        await writer.drain()
        return True

    async def _raw(
        self,
        req: Request,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        turn: Turn,
    ) -> bool:
        r = turn.raw
        assert r is not None
        chunked = turn.framing == "chunked"
        hs = _merge([("Content-Type", r.content_type)], r.headers.items(), turn.headers.items())
        writer.write(self._head(req, r.status, hs, framing=turn.framing))
        await writer.drain()
        first = True
        for item in r.chunks:
            if isinstance(item, int | float):
                await asyncio.sleep(item)
                continue
            if not first and r.delay:
                await asyncio.sleep(r.delay)
            first = False
            await self._send(writer, item.encode() if isinstance(item, str) else item, chunked)
            if reader.at_eof():
                req.outcome = "client_disconnected"
                raise _Closed
        if not r.complete:
            raise _Closed
        return await self._end(writer, chunked)
