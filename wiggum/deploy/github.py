"""A small GitHub REST client over Wiggum's ``Transport`` seam.

Hand-written because no GitHub library runs under Pyodide with the browser's
``fetch`` (PyGithub and ghapi sit on ``requests``/``urllib``); the few endpoints
publishing needs are plain JSON.  The base URL is a parameter so GitHub
Enterprise (``https://host/api/v3``) and the test simulator work the same way.

Errors become :class:`GitHubError` whose ``message`` names cause and fix in the
person's words.  The token is never part of any message or ``repr``.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from wiggum.llm.errors import NetworkError, RequestTimeoutError
from wiggum.llm.transport import HttpRequest, Transport

DEFAULT_API = "https://api.github.com"
TOKEN_PAGE = "https://github.com/settings/personal-access-tokens/new"
#: Fine-grained permissions publishing uses (Administration only to create the repository).
PERMISSIONS = "Contents: Read and write, Pages: Read and write, Administration: Read and write"


class GitHubError(Exception):
    """A refusal or failure, worded for the person; ``kind`` is for code."""

    def __init__(self, kind: str, message: str, status: int = 0, retry_at: float | None = None):
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.status = status
        self.retry_at = retry_at


def _clock(ts: float) -> str:
    return time.strftime("%H:%M UTC", time.gmtime(ts))


def explain(status: int, headers: Any, body: Any, what: str) -> GitHubError:
    """Turn one GitHub error response into a message with cause and fix."""
    gh_msg = body.get("message", "") if isinstance(body, dict) else ""
    remaining = headers.get("x-ratelimit-remaining")
    reset = headers.get("x-ratelimit-reset")
    if status == 429 or (status == 403 and (remaining == "0" or "rate limit" in gh_msg.lower())):
        retry_at = float(reset) if reset and reset.isdigit() else None
        when = f" Try again after {_clock(retry_at)}." if retry_at else " Try again in an hour."
        return GitHubError(
            "rate_limit",
            f"GitHub's rate limit for this token is used up while {what}.{when} "
            "Nothing was lost; publishing again continues where it stopped.",
            status,
            retry_at,
        )
    if status == 401:
        return GitHubError(
            "bad_token",
            "GitHub did not accept the token (it is wrong, expired or revoked). "
            "Create a new fine-grained token on GitHub and paste it here.",
            status,
        )
    if status == 403:
        return GitHubError(
            "scope",
            f"The token may not do this ({what}). Give it these permissions on GitHub: "
            f"{PERMISSIONS}, then publish again.",
            status,
        )
    if status == 422 and "name" in json.dumps(body).lower() and "exist" in json.dumps(body).lower():
        return GitHubError(
            "name_taken",
            "You already have a repository with this name. Choose another name "
            "(or rename that repository on GitHub first).",
            status,
        )
    if status == 404:
        return GitHubError(
            "not_found",
            f"GitHub found nothing while {what} (the repository may have been deleted or "
            "renamed, or the token cannot see it). Check the name, or publish to a new one.",
            status,
        )
    detail = f' GitHub said: "{gh_msg}".' if gh_msg else ""
    return GitHubError(
        "http",
        f"GitHub answered {status} while {what}.{detail} Try again in a moment.",
        status,
    )


@dataclass(frozen=True)
class Repo:
    owner: str
    name: str
    default_branch: str
    html_url: str

    @property
    def full_name(self) -> str:
        return f"{self.owner}/{self.name}"


class GitHub:
    """One token, one API base; each method is one REST call."""

    def __init__(self, transport: Transport, token: str, api: str = DEFAULT_API) -> None:
        self._transport = transport
        self._token = token
        self.api = (api or DEFAULT_API).rstrip("/")

    def __repr__(self) -> str:
        return f"GitHub({self.api})"

    async def call(self, method: str, path: str, what: str, body: Any = None) -> Any:
        headers = {
            "Accept": "application/vnd.github+json",
            "Authorization": f"Bearer {self._token}",
            "X-GitHub-Api-Version": "2022-11-28",
        }
        data = b""
        if body is not None:
            headers["Content-Type"] = "application/json"
            data = json.dumps(body).encode()
        request = HttpRequest(method, self.api + path, headers, data, timeout=60)
        try:
            response = await self._transport.send(request)
            raw = await response.aread()
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
        if response.status >= 400:
            raise explain(response.status, response.headers, parsed, what)
        return parsed

    async def user(self) -> str:
        return (await self.call("GET", "/user", "checking the token"))["login"]

    async def get_repo(self, owner: str, name: str) -> Repo | None:
        try:
            data = await self.call("GET", f"/repos/{owner}/{name}", "looking up the repository")
        except GitHubError as err:
            if err.kind == "not_found":
                return None
            raise
        return _repo(data)

    async def create_repo(self, name: str) -> Repo:
        # auto_init: the Git Data API refuses an empty repository (409), so GitHub
        # writes a first commit (a README) that the site's commit builds on.
        body = {"name": name, "auto_init": True, "description": "Built with Wiggum"}
        return _repo(await self.call("POST", "/user/repos", "creating the repository", body))

    async def head(self, repo: Repo, branch: str) -> str | None:
        path = f"/repos/{repo.full_name}/git/ref/heads/{branch}"
        try:
            data = await self.call("GET", path, "reading the branch")
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
        data = await self.call("PUT", path, "preparing the empty repository", body)
        return data["commit"]["sha"]


def _repo(data: dict[str, Any]) -> Repo:
    return Repo(
        owner=data["owner"]["login"],
        name=data["name"],
        default_branch=data.get("default_branch") or "main",
        html_url=data.get("html_url", ""),
    )
