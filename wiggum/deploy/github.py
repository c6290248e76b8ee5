"""A small GitHub REST client over Wiggum's ``Transport`` seam.

Hand-written because no GitHub library runs under Pyodide with the browser's
``fetch`` (PyGithub and ghapi sit on ``requests``/``urllib``); the few endpoints
publishing needs are plain JSON.  The base URL is a parameter so GitHub
Enterprise (``https://host/api/v3``) and the test simulator work the same way.

Each call goes through the :class:`~wiggum.deploy.limits.Pacer` (content
creation paced under GitHub's limits; a limit that is hit waited out with a
countdown, then the request sent again), follows a renamed repository's
redirect itself (the browser's ``fetch`` does so on its own; CPython's
transport does not) but only on the API's own origin, since the token goes
with it, and turns an error answer into :class:`GitHubError` words
(``wiggum.deploy.errors``).  The token is never part of a message or ``repr``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin, urlsplit

from wiggum.llm.errors import NetworkError, RedirectError, RequestTimeoutError
from wiggum.llm.transport import HttpRequest, Transport

from .errors import PERMISSIONS, GitHubError, explain, mask
from .limits import LIMITED, Pacer, retry_after

__all__ = ["DEFAULT_API", "PERMISSIONS", "TOKEN_PAGE", "GitHub", "GitHubError", "Repo"]

DEFAULT_API = "https://api.github.com"
TOKEN_PAGE = "https://github.com/settings/personal-access-tokens/new"
REDIRECTS = (301, 302, 307, 308)
#: The answer's headers publishing reads (the browser's Headers cannot be listed).
READ_HEADERS = (
    "location",
    "retry-after",
    "x-ratelimit-remaining",
    "x-ratelimit-reset",
    "x-accepted-github-permissions",
    "x-github-sso",
)
#: A limit answered again after waiting is waited out this many times at most.
LIMIT_RETRIES = 3


@dataclass(frozen=True)
class Repo:
    owner: str
    name: str
    default_branch: str
    html_url: str
    private: bool = False
    id: int = 0

    @property
    def full_name(self) -> str:
        return f"{self.owner}/{self.name}"


class GitHub:
    """One token, one API base; each method is one REST call (plus waits and redirects)."""

    def __init__(
        self,
        transport: Transport,
        token: str,
        api: str = DEFAULT_API,
        pacer: Pacer | None = None,
    ) -> None:
        self._transport = transport
        self._token = token
        self.api = (api or DEFAULT_API).rstrip("/")
        self.pacer = pacer or Pacer()
        #: Requests sent (a bench counts them).
        self.sent = 0

    def __repr__(self) -> str:
        return f"GitHub({self.api})"

    @property
    def has_token(self) -> bool:
        return bool(self._token)

    def mask(self, text: str) -> str:
        """``text`` from GitHub with the token (or any token) hidden."""
        return mask(text, (self._token,))

    async def call(
        self, method: str, path: str, what: str, body: Any = None, *, need: str | None = None
    ) -> Any:
        """One request; ``need`` names the permission it takes, for a 403's words."""
        url = self.api + path
        for _ in range(LIMIT_RETRIES + 1):
            await self.pacer.before(method)
            status, headers, parsed = await self._follow(method, url, body, what)
            self.pacer.seen(headers)
            said = parsed.get("message", "") if isinstance(parsed, dict) else ""
            wait = retry_after(status, headers, self.pacer.clock(), str(said or ""))
            if wait is not None and self.pacer.can_wait(wait):
                await self.pacer.wait(wait, LIMITED)
                continue
            if status >= 400:
                raise explain(
                    status,
                    headers,
                    parsed,
                    what,
                    need=need,
                    secrets=(self._token,),
                    now=self.pacer.clock(),
                )
            return parsed
        raise explain(status, headers, parsed, what, secrets=(self._token,))

    async def _follow(self, method: str, url: str, body: Any, what: str):
        for _ in range(4):
            status, headers, parsed = await self._send(method, url, body, what)
            if status not in REDIRECTS:
                return status, headers, parsed
            target = headers.get("location") or (parsed or {}).get("url") or ""
            target = urljoin(url, str(target))
            if urlsplit(target)[:2] != urlsplit(self.api)[:2]:
                # The token goes with every request: never to another address.
                raise _sent_elsewhere(what, status)
            if status in (301, 302) and method != "GET":
                method, body = "GET", None
            url = target
        raise GitHubError("http", f"GitHub redirected too often while {what}.", status)

    async def _send(self, method: str, url: str, body: Any, what: str):
        headers = {"Accept": "application/vnd.github+json", "X-GitHub-Api-Version": "2022-11-28"}
        if self._token:  # none: a public repository is read anonymously
            headers["Authorization"] = f"Bearer {self._token}"
        data = b""
        if body is not None:
            headers["Content-Type"] = "application/json"
            data = json.dumps(body).encode()
        request = HttpRequest(method, url, headers, data, timeout=60)
        self.sent += 1
        try:
            response = await self._transport.send(request)
            raw = await response.aread()
        except RedirectError as exc:  # the transport refused another origin itself
            raise _sent_elsewhere(what, exc.status) from exc
        except (NetworkError, RequestTimeoutError, OSError) as exc:
            raise GitHubError(
                "network",
                f"The connection to GitHub dropped while {what}. Nothing is reported as "
                "published until the last step is done; check your connection and publish "
                "again to continue.",
            ) from exc
        try:
            parsed = json.loads(raw) if raw else None
        except ValueError:
            parsed = None
        got = {name: response.headers.get(name) for name in READ_HEADERS}
        # Only strings: a header the browser's fetch lacks may come back as JS null.
        return response.status, {k: v for k, v in got.items() if isinstance(v, str)}, parsed

    # ------------------------------------------------------------------ calls

    async def user(self) -> str:
        return (await self.call("GET", "/user", "checking the token"))["login"]

    async def find(self, path: str, what: str, need: str) -> Any:
        """``GET path``, or ``None`` when GitHub has nothing there (404)."""
        try:
            return await self.call("GET", path, what, need=need)
        except GitHubError as err:
            if err.kind == "not_found":
                return None
            raise

    async def get_repo(self, owner: str, name: str) -> Repo | None:
        data = await self.find(f"/repos/{owner}/{name}", "looking up the repository", "metadata")
        return None if data is None else _repo(data)

    async def create_repo(self, name: str) -> Repo:
        # auto_init: the Git Data API refuses an empty repository (409), so GitHub
        # writes a first commit (a README) that the site's commit builds on.
        body = {"name": name, "auto_init": True, "description": "Built with Wiggum"}
        data = await self.call(
            "POST", "/user/repos", "creating the repository", body, need="administration"
        )
        return _repo(data)

    async def head(self, repo: Repo, branch: str) -> str | None:
        path = f"/repos/{repo.full_name}/git/ref/heads/{branch}"
        try:
            data = await self.call("GET", path, "reading the branch", need="contents")
        except GitHubError as err:
            if err.kind == "not_found":
                return None
            if err.status == 409:  # "Git Repository is empty."
                return await self._seed(repo, branch)
            raise
        return data["object"]["sha"]

    async def _seed(self, repo: Repo, branch: str) -> str:
        # GitHub refuses the Git Data API on an empty repository; the contents
        # API still works and makes the first commit, which the site's builds on.
        body = {
            "message": "Start the repository",
            "content": "",  # an empty .nojekyll: serve files as they are
            "branch": branch,
        }
        path = f"/repos/{repo.full_name}/contents/.nojekyll"
        data = await self.call("PUT", path, "preparing the empty repository", body, need="contents")
        return data["commit"]["sha"]


def _repo(data: dict[str, Any]) -> Repo:
    return Repo(
        owner=data["owner"]["login"],
        name=data["name"],
        default_branch=data.get("default_branch") or "main",
        html_url=data.get("html_url", ""),
        private=bool(data.get("private")),
        id=int(data.get("id") or 0),
    )


def _sent_elsewhere(what: str, status: int) -> GitHubError:
    return GitHubError(
        "http",
        f"GitHub sent this request elsewhere while {what}, to an address that is "
        "not the API's; Wiggum did not follow it, so the token stayed here.",
        status,
    )
