"""A local GitHub REST API for tests: the endpoints Wiggum's publish uses.

Real HTTP on 127.0.0.1 (a ``ThreadingHTTPServer`` in a thread) with token auth,
CORS (preflight included) and GitHub's behaviour where it matters: an empty
repository refuses the Git Data API with 409 ("Git Repository is empty."),
``auto_init`` writes a first commit, object ids are real git SHA-1s, a ref only
moves fast-forward unless forced, and Pages builds after a ref moves.

Faults: ``sim.fail(method, path_prefix, status, body, headers, times)`` makes
matching requests fail; ``sim.drop(method, path_prefix, times)`` cuts the
connection halfway through the answer, without doing the request;
``sim.pages_error = "..."`` makes builds error.
Everything is in memory and inspectable: ``sim.repos[(owner, name)]``,
``sim.files(owner, name)`` (the files at the branch head), ``sim.log``.
"""

from __future__ import annotations

import base64
import hashlib
import json
import socket
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def _sha(kind: str, data: bytes) -> str:
    return hashlib.sha1(f"{kind} {len(data)}\0".encode() + data).hexdigest()


@dataclass
class SimRepo:
    owner: str
    name: str
    default_branch: str = "main"
    objects: dict[str, tuple[str, Any]] = field(default_factory=dict)
    refs: dict[str, str] = field(default_factory=dict)
    pages: dict[str, Any] | None = None
    builds: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Fault:
    method: str
    prefix: str
    status: int = 0  # 0: drop the connection
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    times: int = 1


class GitHubSim:
    def __init__(self, token: str = "github_pat_test", login: str = "octo") -> None:
        self.token = token
        self.login = login
        self.repos: dict[tuple[str, str], SimRepo] = {}
        self.faults: list[Fault] = []
        self.log: list[tuple[str, str, dict[str, str]]] = []
        self.pages_error: str | None = None
        self.lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None

    # -- lifecycle -------------------------------------------------------
    def __enter__(self) -> GitHubSim:
        sim = self

        class Handler(_Handler):
            pass

        Handler.sim = sim
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._server:
            self._server.shutdown()
            self._server.server_close()

    @property
    def base_url(self) -> str:
        assert self._server
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    # -- faults and inspection ------------------------------------------
    def fail(self, method, prefix, status, body=None, headers=None, times=1) -> None:
        self.faults.append(Fault(method, prefix, status, body, headers or {}, times))

    def drop(self, method: str, prefix: str, times: int = 1) -> None:
        self.faults.append(Fault(method, prefix, 0, times=times))

    def repo(self, name: str, owner: str | None = None) -> SimRepo:
        return self.repos[(owner or self.login, name)]

    def commits(self, name: str, branch: str = "main") -> list[str]:
        """Commit ids on ``branch``, newest first (first parents)."""
        r = self.repo(name)
        out, sha = [], r.refs.get(branch)
        while sha:
            out.append(sha)
            parents = r.objects[sha][1]["parents"]
            sha = parents[0] if parents else None
        return out

    def files(self, name: str, branch: str = "main") -> dict[str, bytes]:
        r = self.repo(name)
        commit = r.objects[r.refs[branch]][1]
        return {e["path"]: r.objects[e["sha"]][1] for e in r.objects[commit["tree"]][1]}

    def add_repo(self, name: str, *, empty: bool = False) -> SimRepo:
        r = SimRepo(self.login, name)
        self.repos[(self.login, name)] = r
        if not empty:
            self._init(r)
        return r

    def _init(self, r: SimRepo) -> None:
        blob = self._put(r, "blob", b"# " + r.name.encode() + b"\n")
        tree = self._tree(r, [{"path": "README.md", "sha": blob}])
        r.refs[r.default_branch] = self._commit(r, "Initial commit", tree, [])

    def _put(self, r: SimRepo, kind: str, data: bytes, value: Any = None) -> str:
        sha = _sha(kind, data)
        r.objects[sha] = (kind, data if value is None else value)
        return sha

    def _tree(self, r: SimRepo, entries: list[dict[str, Any]]) -> str:
        entries = sorted(
            (
                {"path": e["path"], "mode": "100644", "type": "blob", "sha": e["sha"]}
                for e in entries
            ),
            key=lambda e: e["path"],
        )
        return self._put(r, "tree", json.dumps(entries).encode(), entries)

    def _commit(self, r: SimRepo, message: str, tree: str, parents: list[str]) -> str:
        value = {"message": message, "tree": tree, "parents": parents}
        return self._put(r, "commit", json.dumps(value).encode(), value)

    # -- the API ---------------------------------------------------------
    def handle(self, method: str, path: str, body: Any) -> tuple[int, Any, dict[str, str]]:
        parts = [p for p in path.split("?")[0].split("/") if p]
        if parts == ["user"] and method == "GET":
            return 200, {"login": self.login}, {}
        if parts == ["user", "repos"] and method == "POST":
            name = (body or {}).get("name", "")
            if (self.login, name) in self.repos:
                return (
                    422,
                    {
                        "message": "Repository creation failed.",
                        "errors": [
                            {
                                "resource": "Repository",
                                "field": "name",
                                "message": "name already exists on this account",
                            }
                        ],
                    },
                    {},
                )
            r = self.add_repo(name, empty=not body.get("auto_init"))
            return 201, self._repo_json(r), {}
        if len(parts) < 3 or parts[0] != "repos":
            return 404, {"message": "Not Found"}, {}
        r = self.repos.get((parts[1], parts[2]))
        if r is None:
            return 404, {"message": "Not Found"}, {}
        rest = parts[3:]
        if not rest and method == "GET":
            return 200, self._repo_json(r), {}
        if rest[:1] == ["git"]:
            if not r.refs:
                return 409, {"message": "Git Repository is empty."}, {}
            return self._git(r, method, rest[1:], body, "recursive" in path)
        if rest[:1] == ["contents"] and method == "PUT":
            return self._put_contents(r, "/".join(rest[1:]), body)
        if rest[:1] == ["pages"]:
            return self._pages(r, method, rest[1:], body)
        return 404, {"message": "Not Found"}, {}

    def _repo_json(self, r: SimRepo) -> dict[str, Any]:
        return {
            "name": r.name,
            "full_name": f"{r.owner}/{r.name}",
            "owner": {"login": r.owner},
            "default_branch": r.default_branch,
            "html_url": f"https://github.com/{r.owner}/{r.name}",
        }

    def _git(self, r, method, rest, body, recursive):
        kind = rest[0] if rest else ""
        if kind == "blobs" and method == "POST":
            data = (
                base64.b64decode(body["content"])
                if body.get("encoding") == "base64"
                else body["content"].encode()
            )
            return 201, {"sha": self._put(r, "blob", data)}, {}
        if kind == "trees" and method == "POST":
            for e in body["tree"]:
                if r.objects.get(e["sha"], ("",))[0] != "blob":
                    return 422, {"message": f"Invalid tree info: {e['path']}"}, {}
            return 201, {"sha": self._tree(r, body["tree"])}, {}
        if kind == "trees" and method == "GET":
            obj = r.objects.get(rest[1])
            if not obj or obj[0] != "tree":
                return 404, {"message": "Not Found"}, {}
            return 200, {"sha": rest[1], "tree": obj[1], "truncated": False}, {}
        if kind == "commits" and method == "POST":
            if r.objects.get(body["tree"], ("",))[0] != "tree":
                return 422, {"message": "Tree SHA does not exist"}, {}
            return 201, {"sha": self._commit(r, body["message"], body["tree"], body["parents"])}, {}
        if kind == "commits" and method == "GET":
            obj = r.objects.get(rest[1])
            if not obj or obj[0] != "commit":
                return 404, {"message": "Not Found"}, {}
            return (
                200,
                {
                    "sha": rest[1],
                    "tree": {"sha": obj[1]["tree"]},
                    "parents": [{"sha": p} for p in obj[1]["parents"]],
                },
                {},
            )
        if kind == "ref" and method == "GET":
            branch = "/".join(rest[2:])
            if branch not in r.refs:
                return 404, {"message": "Not Found"}, {}
            return 200, {"ref": f"refs/heads/{branch}", "object": {"sha": r.refs[branch]}}, {}
        if kind == "refs" and method == "POST":
            branch = body["ref"].removeprefix("refs/heads/")
            if branch in r.refs:
                return 422, {"message": "Reference already exists"}, {}
            r.refs[branch] = body["sha"]
            self._build(r)
            return 201, {"ref": body["ref"], "object": {"sha": body["sha"]}}, {}
        if kind == "refs" and method == "PATCH":
            branch = "/".join(rest[2:])
            if branch not in r.refs:
                return 422, {"message": "Reference does not exist"}, {}
            new = body["sha"]
            if not body.get("force") and r.refs[branch] not in self._ancestors(r, new):
                return 422, {"message": "Update is not a fast forward"}, {}
            r.refs[branch] = new
            self._build(r)
            return 200, {"ref": f"refs/heads/{branch}", "object": {"sha": new}}, {}
        return 404, {"message": "Not Found"}, {}

    def _put_contents(self, r: SimRepo, path: str, body: Any):
        # Only what publish needs: a new file, which also works on an empty repo.
        branch = body.get("branch") or r.default_branch
        blob = self._put(r, "blob", base64.b64decode(body["content"]))
        entries, parents = [], []
        if branch in r.refs:
            parents = [r.refs[branch]]
            tree = r.objects[r.objects[parents[0]][1]["tree"]][1]
            entries = [e for e in tree if e["path"] != path]
        tree_sha = self._tree(r, [*entries, {"path": path, "sha": blob}])
        sha = self._commit(r, body["message"], tree_sha, parents)
        r.refs[branch] = sha
        return 201, {"content": {"path": path, "sha": blob}, "commit": {"sha": sha}}, {}

    def _ancestors(self, r: SimRepo, sha: str) -> set[str]:
        seen, todo = set(), [sha]
        while todo:
            s = todo.pop()
            if s in seen or s not in r.objects:
                continue
            seen.add(s)
            todo.extend(r.objects[s][1]["parents"])
        return seen

    def _build(self, r: SimRepo) -> None:
        if r.pages is None:
            return
        if self.pages_error:
            r.builds.append({"status": "errored", "error": {"message": self.pages_error}})
        else:
            r.builds.append({"status": "built", "error": {"message": None}})

    def _pages(self, r, method, rest, body):
        if not rest and method == "GET":
            if r.pages is None:
                return 404, {"message": "Not Found"}, {}
            return 200, r.pages, {}
        if not rest and method == "POST":
            if r.pages is not None:
                return 409, {"message": "GitHub Pages is already enabled."}, {}
            src = body["source"]
            if src["branch"] not in r.refs:
                return 422, {"message": "The branch does not exist"}, {}
            r.pages = {
                "url": f"/repos/{r.owner}/{r.name}/pages",
                "status": "built",
                "html_url": f"https://{r.owner}.github.io/{r.name}/",
                "source": src,
            }
            self._build(r)
            return 201, r.pages, {}
        if rest == ["builds", "latest"] and method == "GET":
            if not r.builds:
                return 404, {"message": "Not Found"}, {}
            return 200, r.builds[-1], {}
        return 404, {"message": "Not Found"}, {}


class _Handler(BaseHTTPRequestHandler):
    sim: GitHubSim
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: object) -> None:
        pass

    def _cors(self) -> list[tuple[str, str]]:
        return [
            ("Access-Control-Allow-Origin", self.headers.get("Origin") or "*"),
            (
                "Access-Control-Allow-Headers",
                "Authorization, Content-Type, Accept, X-GitHub-Api-Version",
            ),
            ("Access-Control-Allow-Methods", "GET, POST, PATCH, PUT, DELETE"),
            (
                "Access-Control-Expose-Headers",
                "x-ratelimit-reset, x-ratelimit-remaining, retry-after",
            ),
        ]

    def _send(self, status: int, body: Any, headers: dict[str, str]) -> None:
        data = json.dumps(body).encode() if body is not None else b""
        self.send_response(status)
        for k, v in self._cors() + list(headers.items()):
            self.send_header(k, v)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_OPTIONS(self) -> None:
        self.send_response(204)
        for k, v in self._cors():
            self.send_header(k, v)
        self.send_header("Access-Control-Max-Age", "600")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def _any(self) -> None:
        sim = self.sim
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        body = json.loads(raw) if raw else None
        method, path = self.command, self.path
        with sim.lock:
            sim.log.append((method, path, {k.lower(): v for k, v in self.headers.items()}))
            if self.headers.get("Authorization") != f"Bearer {sim.token}":
                self._send(401, {"message": "Bad credentials"}, {})
                return
            for f in sim.faults:
                if f.times > 0 and f.method == method and path.startswith(f.prefix):
                    f.times -= 1
                    if f.status == 0:
                        # Cut mid-answer: a head promising more body than comes. (Closing
                        # before any byte is not enough: browsers silently retry that.)
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
                        return
                    self._send(f.status, f.body or {"message": "fault"}, f.headers)
                    return
            status, out, headers = sim.handle(method, path, body)
        self._send(status, out, headers)

    do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = _any
