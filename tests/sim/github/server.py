"""The simulated GitHub's HTTP side: auth, CORS, faults, rate limits, the check.

One request goes: logged -> the token (401) -> a fault set by the test -> the
primary limit (403, ``x-ratelimit-remaining: 0``) -> the secondary limit on
content creation (403, ``retry-after``) -> the API -> the ``x-ratelimit-*``
headers -> the check against GitHub's description (a mismatch is kept in
``sim.violations``) -> sent.
"""

from __future__ import annotations

import json
import socket
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any

from . import shapes

if TYPE_CHECKING:
    from . import GitHubSim

#: What api.github.com lets a page read of its answers (its CORS headers).
EXPOSED = (
    "ETag, Link, Location, Retry-After, X-GitHub-OTP, X-RateLimit-Limit, "
    "X-RateLimit-Remaining, X-RateLimit-Used, X-RateLimit-Resource, X-RateLimit-Reset, "
    "X-OAuth-Scopes, X-Accepted-OAuth-Scopes, X-Poll-Interval, X-GitHub-Media-Type, "
    "X-GitHub-SSO, X-GitHub-Request-Id, Deprecation, Sunset"
)
SECONDARY = (
    "You have exceeded a secondary rate limit. Please wait a few minutes before you try "
    "again. If you reach out to GitHub Support for help, please include the request ID."
)


@dataclass
class Fault:
    method: str
    prefix: str
    status: int = 0  # 0: drop the connection
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    times: int = 1


@dataclass(frozen=True)
class Answer:
    at: float
    method: str
    path: str
    status: int


def serve(sim: GitHubSim) -> ThreadingHTTPServer:
    class Bound(_Handler):
        pass

    Bound.sim = sim
    server = ThreadingHTTPServer(("127.0.0.1", 0), Bound)
    threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
    return server


def _check(sim: GitHubSim, method: str, path: str, status: int, body: Any, headers) -> None:
    if not sim.check:
        return
    from tests.sim.github_openapi import Undocumented, description

    try:
        description().check_response(method, path, status, body, headers)
    except Undocumented as err:
        sim.violations.append(str(err))


def _check_request(sim: GitHubSim, method: str, path: str, body: Any) -> None:
    if not sim.check:
        return
    from tests.sim.github_openapi import Undocumented, description

    try:
        description().check_request(method, path, body)
    except Undocumented as err:
        sim.violations.append(str(err))


class _Handler(BaseHTTPRequestHandler):
    sim: GitHubSim
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: object) -> None:
        pass

    def setup(self) -> None:
        super().setup()
        # The head and the body go out as two writes: without this, Nagle's algorithm
        # and the client's delayed ACK add 40 ms to every answer.
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def _cors(self) -> list[tuple[str, str]]:
        return [
            ("Access-Control-Allow-Origin", self.headers.get("Origin") or "*"),
            ("Access-Control-Expose-Headers", EXPOSED),
        ]

    def _send(self, status: int, body: Any, headers: dict[str, str]) -> None:
        data = json.dumps(body).encode() if body is not None else b""
        self.send_response(status)
        for k, v in self._cors() + list(headers.items()):
            self.send_header(k, v)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_OPTIONS(self) -> None:
        self.send_response(204)
        for k, v in self._cors():
            self.send_header(k, v)
        self.send_header(
            "Access-Control-Allow-Headers",
            "Authorization, Content-Type, Accept, X-GitHub-Api-Version",
        )
        self.send_header("Access-Control-Allow-Methods", "GET, POST, PATCH, PUT, DELETE")
        self.send_header("Access-Control-Max-Age", "600")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def _drop(self) -> None:
        # Cut mid-answer: a head promising more body than comes. (Closing before
        # any byte is not enough: browsers silently retry that.)
        self.send_response(201)
        for k, v in self._cors():
            self.send_header(k, v)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", "200")
        self.end_headers()
        self.wfile.write(b'{"sha": "')
        self.wfile.flush()
        self.close_connection = True
        self.connection.shutdown(socket.SHUT_RDWR)

    def _any(self) -> None:
        sim = self.sim
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        body = json.loads(raw) if raw else None
        method, path = self.command, self.path
        with sim.lock:
            now = sim.clock()
            sim.log.append((method, path, {k.lower(): v for k, v in self.headers.items()}))
            status, out, headers = self._answer(method, path, body, now)
            if status == 0:
                self._drop()
                return
            limits = sim.anonymous_limits if sim.anonymous else sim.limits
            headers = {**limits.headers(now), **headers}
            sim.answers.append(Answer(now, method, path, status))
            _check(sim, method, path, status, out, headers)
        self._send(status, out, headers)

    def _answer(self, method: str, path: str, body: Any, now: float):
        sim = self.sim
        auth = self.headers.get("Authorization")
        sim.anonymous = auth is None
        if auth is not None and auth != f"Bearer {sim.token}":
            return 401, shapes.error("Bad credentials", 401), {}
        limits = sim.anonymous_limits if sim.anonymous else sim.limits
        if limits.exhausted(now):
            who = "127.0.0.1" if sim.anonymous else f"user ID {sim.uid}"
            message = f"API rate limit exceeded for {who}."
            limits.count(now)
            return 403, shapes.error(message, 403), {"x-ratelimit-remaining": "0"}
        limits.count(now)
        for f in sim.faults:
            if f.times > 0 and f.method == method and path.startswith(f.prefix):
                f.times -= 1
                if f.status == 0:
                    return 0, None, {}
                return f.status, f.body or shapes.error("fault", f.status), f.headers
        wait = sim.limits.secondary_wait(method, now)
        if wait:
            return 403, shapes.error(SECONDARY, 403), {"retry-after": str(wait)}
        _check_request(sim, method, path, body)
        status, out, headers = sim.handle(method, path, body)
        if status < 400:
            sim.limits.created_one(method, now)
        return status, out, headers

    do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = _any
