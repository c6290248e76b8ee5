"""A local GitHub REST API for tests, faithful where Wiggum's publishing meets it.

Real HTTP on 127.0.0.1 (``server.py``) with token auth and GitHub's CORS.  What
it keeps, and how it answers, follows GitHub:

- git objects are real git objects with git's ids (``objects.py``, dulwich):
  nested trees, modes as given, ``base_tree``, inline ``content`` and
  ``sha: null`` deletions; an empty repository refuses the Git Data API (409)
  until the contents API writes its first commit; ``auto_init`` writes a
  README; a ref moves fast-forward unless forced;
- every answer has the shape GitHub's description gives (``shapes.py``) and
  is checked against it as it is sent (``tests/sim/github_openapi.py``):
  anything undocumented is kept in ``sim.violations`` and fails the test when
  the simulator closes;
- the ``x-ratelimit-*`` headers on every answer, the primary limit
  (``sim.limits.used``), the secondary limit on content creation (80 a
  minute, 500 an hour: 403 with ``retry-after``), and a fine-grained token's
  permissions (``sim.permissions``: 403 "Resource not accessible by personal
  access token" with ``x-accepted-github-permissions``), all on ``sim.clock``;
- a request without a token reads a public repository (a private one is 404,
  anything else 401), 60 an hour (``sim.anonymous_limits``); blobs are read back base64 (``GET /git/blobs``); commits
  made on GitHub keep ``sim.timezone`` while the API says their dates in UTC;
- a renamed repository (``sim.rename``) answers 301 (GET) or 307 to
  ``/repositories/{id}``; a private repository on a plan without Pages is
  refused Pages (422);
- Pages (``sim.enable_pages``): the source branch and folder, ``build_type``
  legacy or workflow; a push to the source branch queues a build that shows
  after ``build_delay`` and goes queued -> building -> built (or errored with
  ``sim.pages_error``) over ``build_seconds``; with a workflow, a push to the
  default branch starts a workflow run instead (``/actions/runs``), beside
  another workflow's run when ``repo.ci_fails`` is set.

Faults: ``sim.fail(method, path_prefix, status, body, headers, times)`` answers
matching requests so; ``sim.drop(method, path_prefix, times)`` cuts the
connection halfway through the answer; ``sim.on_push`` runs once right after a
ref moves (someone else pushing just then); ``sim.push`` is a commit made on
GitHub.  Inspect ``sim.repos``,
``sim.files(name)``, ``sim.modes(name)``, ``sim.commits(name)``, ``sim.log``
(method, path, headers) and ``sim.answers`` (time, method, path, status).
"""

from __future__ import annotations

import base64
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import shapes
from .limits import ALL, Clock, Limits, missing, needs
from .objects import Refused, Store, apply
from .server import Answer, Fault, serve

__all__ = ["TOKEN", "Clock", "GitHubSim", "SimRepo"]

#: The token the tests' simulators accept (shaped like a fine-grained one).
TOKEN = "github_pat_11SIMULATEDSECRETTOKEN0123"

Result = tuple[int, Any, dict[str, str]]
NOT_FOUND = "Not Found"


@dataclass
class Build:
    id: int
    commit: str
    at: float
    queue: float
    seconds: float
    error: str | None

    def status(self, now: float) -> str:
        if now < self.at + self.queue:
            return "queued"
        if now < self.at + self.queue + self.seconds:
            return "building"
        return "errored" if self.error else "built"


@dataclass
class Run:
    id: int
    commit: str
    branch: str
    at: float
    queue: float
    seconds: float
    failed: bool
    name: str = "Deploy to GitHub Pages"
    path: str = ".github/workflows/pages.yml"

    def state(self, now: float) -> tuple[str, str | None]:
        if now < self.at + self.queue:
            return "queued", None
        if now < self.at + self.queue + self.seconds:
            return "in_progress", None
        return "completed", "failure" if self.failed else "success"


@dataclass
class SimRepo:
    owner: str
    name: str
    id: int
    created: float
    default_branch: str = "main"
    private: bool = False
    archived: bool = False
    description: str | None = None
    store: Store = field(default_factory=Store)
    refs: dict[str, str] = field(default_factory=dict)
    pages: dict[str, Any] | None = None
    builds: list[Build] = field(default_factory=list)
    runs: list[Run] = field(default_factory=list)
    #: A Pages workflow in .github/workflows (what a workflow build needs).
    workflow: bool = True
    #: Another workflow (tests, say) that also runs on a push: whether it fails
    #: (``None``: there is none).
    ci_fails: bool | None = None

    @property
    def full_name(self) -> str:
        return f"{self.owner}/{self.name}"


class GitHubSim:
    def __init__(
        self,
        token: str = "github_pat_test",
        login: str = "octo",
        *,
        clock: Callable[[], float] = time.time,
        check: bool = True,
    ) -> None:
        self.token = token
        self.login = login
        self.uid = 583231
        self.clock = clock
        self.started = clock()
        self.repos: dict[tuple[str, str], SimRepo] = {}
        self.moved: dict[tuple[str, str], SimRepo] = {}
        self.faults: list[Fault] = []
        self.log: list[tuple[str, str, dict[str, str]]] = []
        self.answers: list[Answer] = []
        self.violations: list[str] = []
        self.check = check
        self.limits = Limits()
        #: Requests without a token: 60 an hour (GitHub counts them by address).
        self.anonymous_limits = Limits(primary=60)
        self.permissions: dict[str, str] = dict(ALL)
        self.pages_error: str | None = None
        self.plan_has_pages = True
        #: A push's build shows this long after it (until then the last one shows).
        self.build_delay = 1.0
        #: Queued, then building, for this long (seconds on ``clock``).
        self.build_seconds = (2.0, 8.0)
        #: Called once, with the repository and branch, right after a ref moves
        #: (a test's "someone else pushed just then").
        self.on_push: Callable[[SimRepo, str], None] | None = None
        #: The request being answered came without a token (public reads only).
        self.anonymous = False
        #: Minutes east of UTC of the commits made on GitHub (``push``): git keeps the
        #: zone, the API's dates are UTC.
        self.timezone = 0
        self.lock = threading.Lock()
        self._ids = 1000
        self._server: Any = None

    # -- lifecycle -------------------------------------------------------
    def __enter__(self) -> GitHubSim:
        self._server = serve(self)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._server:
            self._server.shutdown()
            self._server.server_close()
        if self.violations and exc[0] is None:
            raise AssertionError(
                "the GitHub simulator answered outside GitHub's REST description: "
                + self.violations[0]
            )

    @property
    def base_url(self) -> str:
        assert self._server
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def next_id(self) -> int:
        self._ids += 1
        return self._ids

    # -- faults and set-up ------------------------------------------------
    def fail(self, method, prefix, status, body=None, headers=None, times=1) -> None:
        self.faults.append(Fault(method, prefix, status, body, headers or {}, times))

    def drop(self, method: str, prefix: str, times: int = 1) -> None:
        self.faults.append(Fault(method, prefix, 0, times=times))

    def add_repo(
        self,
        name: str,
        *,
        empty: bool = False,
        private: bool = False,
        files: dict[str, bytes] | None = None,
        modes: dict[str, str] | None = None,
        branch: str = "main",
    ) -> SimRepo:
        r = SimRepo(self.login, name, self.next_id(), self.clock(), branch, private)
        self.repos[(self.login, name)] = r
        if not empty:
            tree = r.store.write_files(files or {"README.md": b"# " + name.encode() + b"\n"}, modes)
            r.refs[branch] = self._commit(r, "Initial commit", tree, [])
        return r

    def push(
        self,
        name: str,
        files: dict[str, bytes],
        branch: str | None = None,
        message: str = "A change made on GitHub",
    ) -> str:
        """A commit made on GitHub (someone else's push): ``files`` replace the tree, a
        file there before keeping its mode."""
        r = self.repo(name)
        branch = branch or r.default_branch
        parents = [r.refs[branch]] if branch in r.refs else []
        modes = self.modes(name, branch) if parents else {}
        sha = self._commit(r, message, r.store.write_files(files, modes), parents)
        self._moved(r, branch, sha)
        return sha

    def rename(self, name: str, new: str) -> SimRepo:
        r = self.repos.pop((self.login, name))
        r.name = new
        self.repos[(self.login, new)] = r
        self.moved[(self.login, name)] = r
        return r

    def enable_pages(
        self, name: str, *, branch: str | None = None, path: str = "/", build_type="legacy"
    ) -> dict[str, Any]:
        r = self.repo(name)
        source = {"branch": branch or r.default_branch, "path": path}
        r.pages = {"build_type": build_type, "source": source, "html_url": self._pages_url(r)}
        if build_type == "legacy" and source["branch"] in r.refs:
            self._queue_build(r, r.refs[source["branch"]])
        return r.pages

    # -- inspection ------------------------------------------------------
    def repo(self, name: str, owner: str | None = None) -> SimRepo:
        return self.repos[(owner or self.login, name)]

    def commits(self, name: str, branch: str | None = None) -> list[str]:
        """Commit ids on ``branch``, newest first (first parents)."""
        r = self.repo(name)
        out, sha = [], r.refs.get(branch or r.default_branch)
        while sha:
            out.append(sha)
            parents = r.store.get(sha).parents
            sha = parents[0].decode() if parents else None
        return out

    def tree_of(self, name: str, branch: str | None = None) -> str:
        r = self.repo(name)
        return r.store.get(r.refs[branch or r.default_branch]).tree.decode()

    def files(self, name: str, branch: str | None = None) -> dict[str, bytes]:
        return self.repo(name).store.files(self.tree_of(name, branch))

    def modes(self, name: str, branch: str | None = None) -> dict[str, str]:
        return self.repo(name).store.modes(self.tree_of(name, branch))

    def created(self) -> list[Answer]:
        """The content-creating requests GitHub accepted, in order."""
        return [a for a in self.answers if a.method != "GET" and a.status < 400]

    # -- git -------------------------------------------------------------
    def _person(self) -> dict[str, Any]:
        return {"name": "Octo Cat", "email": f"{self.login}@users.noreply.github.com",
                "time": self.clock(), "tz": self.timezone * 60}  # fmt: skip

    def _commit(self, r: SimRepo, message: str, tree: str, parents: list[str]) -> str:
        return r.store.commit(tree, parents, message, self._person(), self._person())

    def _moved(self, r: SimRepo, branch: str, sha: str) -> None:
        r.refs[branch] = sha
        hook, self.on_push = self.on_push, None
        if hook is not None:
            hook(r, branch)
            return
        p = r.pages
        if p is None:
            return
        if p["build_type"] == "legacy" and p["source"]["branch"] == branch:
            self._queue_build(r, sha)
        elif p["build_type"] == "workflow" and branch == r.default_branch and r.workflow:
            queue, seconds = self.build_seconds
            at = self.clock() + self.build_delay
            run = Run(self.next_id(), sha, branch, at, queue, seconds, bool(self.pages_error))
            r.runs.append(run)
            if r.ci_fails is not None:  # started just after, so listed first
                ci = Run(self.next_id(), sha, branch, at, 0.0, 0.5, r.ci_fails, "CI",
                         ".github/workflows/ci.yml")  # fmt: skip
                r.runs.append(ci)

    def _queue_build(self, r: SimRepo, sha: str) -> None:
        queue, seconds = self.build_seconds
        at = self.clock() + self.build_delay
        r.builds.append(Build(self.next_id(), sha, at, queue, seconds, self.pages_error))

    def _pages_url(self, r: SimRepo) -> str:
        if r.name.lower() == f"{r.owner.lower()}.github.io":
            return f"https://{r.owner.lower()}.github.io/"
        return f"https://{r.owner.lower()}.github.io/{r.name}/"

    # -- the API ---------------------------------------------------------
    def handle(self, method: str, path: str, body: Any) -> Result:
        api = self.base_url
        parts = [p for p in path.split("?")[0].split("/") if p]
        query = path.partition("?")[2]
        if self.anonymous and parts[:1] != ["repos"]:
            return 401, shapes.error("Requires authentication", 401), {}
        if parts == ["user"] and method == "GET":
            return 200, shapes.private_user(api, self.login, self.uid, self.started), {}
        if parts == ["user", "repos"] and method == "POST":
            return self._create_repo(body or {})
        if parts[:1] == ["repositories"] and len(parts) >= 2:
            r = next((x for x in self.repos.values() if str(x.id) == parts[1]), None)
            rest = parts[2:]
        elif len(parts) >= 3 and parts[0] == "repos":
            key = (parts[1], parts[2])
            if key in self.moved and key not in self.repos:
                return self._redirect(method, self.moved[key], parts[3:], query)
            r = self.repos.get(key)
            rest = parts[3:]
        else:
            return 404, shapes.error(NOT_FOUND, 404), {}
        if r is None or (self.anonymous and r.private):
            return 404, shapes.error(NOT_FOUND, 404), {}
        if self.anonymous and method != "GET":
            return 401, shapes.error("Requires authentication", 401), {}
        granted = ALL if self.anonymous else self.permissions
        lacking = missing(granted, needs(method, rest))
        if lacking:
            accepted = ",".join(f"{k}={v}" for k, v in lacking.items())
            message = "Resource not accessible by personal access token"
            return 403, shapes.error(message, 403), {"x-accepted-github-permissions": accepted}
        if not rest and method == "GET":
            return 200, shapes.full_repo(api, r, self._owner(), self.clock()), {}
        if r.archived and method != "GET":
            return 403, shapes.error("Repository was archived so is read-only.", 403), {}
        head = rest[0] if rest else ""
        if head == "git":
            if not r.refs:
                return 409, shapes.error("Git Repository is empty.", 409), {}
            return self._git(r, method, rest[1:], body or {}, query)
        if head == "contents" and method == "PUT":
            return self._put_contents(r, "/".join(rest[1:]), body or {})
        if head == "pages":
            return self._pages(r, method, rest[1:], body)
        if rest == ["actions", "runs"] and method == "GET":
            return self._runs(r, query)
        return 404, shapes.error(NOT_FOUND, 404), {}

    def _owner(self) -> dict[str, Any]:
        return shapes.user(self.base_url, self.login, self.uid)

    def _redirect(self, method: str, r: SimRepo, rest: list[str], query: str) -> Result:
        url = f"{self.base_url}/repositories/{r.id}" + "".join("/" + p for p in rest)
        url += f"?{query}" if query else ""
        status = 301 if method == "GET" else 307
        body = shapes.error("Moved Permanently", status)
        body["url"] = url
        return status, body, {"Location": url}

    def _create_repo(self, body: dict[str, Any]) -> Result:
        name = str(body.get("name", ""))
        if (self.login, name) in self.repos:
            refused = shapes.invalid("Repository creation failed.")
            refused["errors"] = [
                {
                    "resource": "Repository",
                    "code": "custom",
                    "field": "name",
                    "message": "name already exists on this account",
                }
            ]
            return 422, refused, {}
        r = self.add_repo(name, empty=not body.get("auto_init"), private=bool(body.get("private")))
        r.description = body.get("description")
        out = shapes.full_repo(self.base_url, r, self._owner(), self.clock())
        return 201, out, {"Location": out["url"]}

    def _git(self, r: SimRepo, method: str, rest: list[str], body: dict, query: str) -> Result:
        api, full = self.base_url, r.full_name
        kind = rest[0] if rest else ""
        if kind == "blobs" and method == "POST":
            content = str(body.get("content", ""))
            encoding = body.get("encoding", "utf-8")
            data = base64.b64decode(content) if encoding == "base64" else content.encode()
            out = shapes.blob_created(api, full, r.store.blob(data))
            return 201, out, {"Location": out["url"]}
        if kind == "blobs" and method == "GET" and len(rest) == 2:
            if r.store.kind(rest[1]) != "blob":
                return 404, shapes.error(NOT_FOUND, 404), {}
            return 200, shapes.blob(api, full, rest[1], r.store.get(rest[1]).as_raw_string()), {}
        if kind == "trees" and method == "POST":
            base = body.get("base_tree")
            try:
                sha = apply(r.store, base, list(body.get("tree") or []))
            except Refused as err:
                return 422, shapes.invalid(str(err)), {}
            out = self._tree_json(r, sha, recursive=False)
            return 201, out, {"Location": out["url"]}
        if kind == "trees" and method == "GET" and len(rest) == 2:
            if r.store.kind(rest[1]) != "tree":
                return 404, shapes.error(NOT_FOUND, 404), {}
            return 200, self._tree_json(r, rest[1], recursive="recursive=" in query), {}
        if kind == "commits" and method == "POST":
            return self._create_commit(r, body)
        if kind == "commits" and method == "GET" and len(rest) == 2:
            if r.store.kind(rest[1]) != "commit":
                return 404, shapes.error(NOT_FOUND, 404), {}
            return 200, shapes.commit(api, full, rest[1], r.store.get(rest[1])), {}
        if kind == "ref" and method == "GET" and rest[1:2] == ["heads"]:
            branch = "/".join(rest[2:])
            if branch not in r.refs:
                return 404, shapes.error(NOT_FOUND, 404), {}
            return 200, shapes.ref(api, full, branch, r.refs[branch]), {}
        if kind == "refs" and method == "POST":
            ref = str(body.get("ref", ""))
            branch = ref.removeprefix("refs/heads/")
            if not ref.startswith("refs/heads/") or not branch:
                return 422, shapes.invalid("Reference name must start with 'refs/'"), {}
            if branch in r.refs:
                return 422, shapes.invalid("Reference already exists"), {}
            if r.store.kind(body.get("sha")) != "commit":
                return 422, shapes.invalid("Object does not exist"), {}
            self._moved(r, branch, body["sha"])
            out = shapes.ref(api, full, branch, body["sha"])
            return 201, out, {"Location": out["url"]}
        if kind == "refs" and method == "PATCH" and rest[1:2] == ["heads"]:
            return self._update_ref(r, "/".join(rest[2:]), body)
        return 404, shapes.error(NOT_FOUND, 404), {}

    def _tree_json(self, r: SimRepo, sha: str, *, recursive: bool) -> dict[str, Any]:
        api, full, store = self.base_url, r.full_name, r.store
        rows = (
            list(store.walk(sha))
            if recursive
            else [(n, m, _kind(m), s) for n, (m, s) in store.entries(sha).items()]
        )
        entries = [
            shapes.tree_entry(
                api,
                full,
                path,
                mode,
                kind,
                s,
                len(store.get(s).as_raw_string()) if kind == "blob" else None,
            )
            for path, mode, kind, s in rows
        ]
        return shapes.tree(api, full, sha, entries, truncated=False)

    def _create_commit(self, r: SimRepo, body: dict[str, Any]) -> Result:
        api, full = self.base_url, r.full_name
        tree = body.get("tree")
        if r.store.kind(tree) != "tree":
            return 422, shapes.invalid("Tree SHA does not exist"), {}
        parents = list(body.get("parents") or [])
        if any(r.store.kind(p) != "commit" for p in parents):
            return 422, shapes.invalid("Parent SHA does not exist or is not a commit object"), {}
        me = self._person()
        author = {**me, **(body.get("author") or {})}
        committer = {**author, **(body.get("committer") or {})}
        sha = r.store.commit(tree, parents, str(body.get("message", "")), author, committer)
        out = shapes.commit(api, full, sha, r.store.get(sha))
        return 201, out, {"Location": out["url"]}

    def _update_ref(self, r: SimRepo, branch: str, body: dict[str, Any]) -> Result:
        if branch not in r.refs:
            return 422, shapes.invalid("Reference does not exist"), {}
        new = str(body.get("sha", ""))
        if r.store.kind(new) != "commit":
            return 422, shapes.invalid("Object does not exist"), {}
        if not body.get("force") and r.refs[branch] not in self._ancestors(r, new):
            return 422, shapes.invalid("Update is not a fast forward"), {}
        self._moved(r, branch, new)
        return 200, shapes.ref(self.base_url, r.full_name, branch, new), {}

    def _ancestors(self, r: SimRepo, sha: str) -> set[str]:
        seen, todo = set(), [sha]
        while todo:
            s = todo.pop()
            if s in seen or r.store.kind(s) != "commit":
                continue
            seen.add(s)
            todo.extend(p.decode() for p in r.store.get(s).parents)
        return seen

    def _put_contents(self, r: SimRepo, path: str, body: dict[str, Any]) -> Result:
        # A new file, which also works on an empty repository (what publish needs).
        branch = body.get("branch") or r.default_branch
        data = base64.b64decode(str(body.get("content", "")))
        blob = r.store.blob(data)
        parents = [r.refs[branch]] if branch in r.refs else []
        base = r.store.get(parents[0]).tree.decode() if parents else None
        entry = {"path": path, "mode": "100644", "type": "blob", "sha": blob}
        try:
            tree = apply(r.store, base, [entry])
        except Refused as err:
            return 422, shapes.invalid(str(err)), {}
        sha = self._commit(r, str(body.get("message", "")), tree, parents)
        self._moved(r, branch, sha)
        c = shapes.commit(self.base_url, r.full_name, sha, r.store.get(sha))
        return 201, shapes.file_commit(self.base_url, r.full_name, path, blob, len(data), c), {}

    def _pages(self, r: SimRepo, method: str, rest: list[str], body: Any) -> Result:
        api = self.base_url
        if not rest and method == "GET":
            if r.pages is None:
                return 404, shapes.error(NOT_FOUND, 404), {}
            return 200, self._page(r), {}
        if not rest and method == "POST":
            if r.pages is not None:
                return 409, shapes.error("GitHub Pages is already enabled.", 409), {}
            if r.private and not self.plan_has_pages:
                message = "Your current plan does not support GitHub Pages for this repository."
                return 422, shapes.invalid(message), {}
            body = body or {}
            build_type = body.get("build_type") or "legacy"
            source = body.get("source")
            if build_type == "legacy":
                source = {"branch": (source or {}).get("branch", ""), "path": "/", **(source or {})}
                if source["branch"] not in r.refs:
                    return 422, shapes.invalid("The branch does not exist."), {}
            self.enable_pages(
                r.name,
                branch=(source or {}).get("branch"),
                path=(source or {}).get("path", "/"),
                build_type=build_type,
            )
            return 201, self._page(r), {}
        if rest == ["builds", "latest"] and method == "GET":
            now = self.clock()
            shown = [b for b in r.builds if b.at <= now]
            if r.pages is None or not shown:
                return 404, shapes.error(NOT_FOUND, 404), {}
            return 200, shapes.page_build(api, r.full_name, shown[-1], self._owner(), now), {}
        return 404, shapes.error(NOT_FOUND, 404), {}

    def _page(self, r: SimRepo) -> dict[str, Any]:
        now = self.clock()
        shown = [b for b in r.builds if b.at <= now]
        assert r.pages is not None
        r.pages["status"] = _page_status(shown[-1].status(now)) if shown else None
        return shapes.page(self.base_url, r)

    def _runs(self, r: SimRepo, query: str) -> Result:
        now = self.clock()
        params = dict(p.partition("=")[::2] for p in query.split("&") if p)
        runs = [x for x in reversed(r.runs) if x.at <= now]
        if "head_sha" in params:
            runs = [x for x in runs if x.commit == params["head_sha"]]
        out = [
            shapes.workflow_run(
                self.base_url,
                r,
                x,
                self._owner(),
                shapes.commit(self.base_url, r.full_name, x.commit, r.store.get(x.commit)),
                now,
            )
            for x in runs
        ]
        return 200, {"total_count": len(out), "workflow_runs": out}, {}


def _kind(mode: str) -> str:
    return "tree" if mode == "040000" else "commit" if mode == "160000" else "blob"


def _page_status(build: str) -> str | None:
    # A page's status is built, building or errored; a queued build counts as building.
    return "building" if build == "queued" else build
