"""GitHub's refusals said in the person's words: cause and fix, the token never shown.

:func:`explain` turns one error answer into a :class:`GitHubError` whose
``message`` says what happened and what the person can do; "try again" only
where trying again can help (GitHub's own trouble, a dropped connection).
:func:`mask` hides the token, and anything shaped like a GitHub token, in any
text that came from GitHub (an error body or a Pages build error may echo it).
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping
from typing import Any

__all__ = [
    "PERMISSIONS",
    "PERMISSION_NAMES",
    "GitHubError",
    "explain",
    "mask",
    "sentence",
    "when",
]

#: Fine-grained permissions, as GitHub's token page names them.
PERMISSION_NAMES = {
    "administration": "Administration: Read and write",
    "contents": "Contents: Read and write",
    "pages": "Pages: Read and write",
    "actions": "Actions: Read",
    "metadata": "Metadata: Read",
}
#: What publishing asks of a token (Administration only to create the repository).
PERMISSIONS = ", ".join(PERMISSION_NAMES[p] for p in ("contents", "pages", "administration"))
MASK = "****"
#: GitHub's token formats: classic, OAuth, user-to-server, server-to-server, refresh,
#: fine-grained.
_TOKEN = re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})")


class GitHubError(Exception):
    """A refusal or failure, worded for the person; ``kind`` is for code."""

    def __init__(
        self,
        kind: str,
        message: str,
        status: int = 0,
        retry_at: float | None = None,
        permission: str | None = None,
    ):
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.status = status
        self.retry_at = retry_at
        self.permission = permission


def mask(text: str, secrets: tuple[str, ...] = ()) -> str:
    """``text`` with each secret, and anything shaped like a GitHub token, as ``****``."""
    for secret in sorted((s for s in secrets if s), key=len, reverse=True):
        text = text.replace(secret, MASK)
    return _TOKEN.sub(MASK, text)


def sentence(text: str) -> str:
    """``text`` ending in one full stop (or its own ``!``/``?``), never two."""
    text = text.strip()
    return text if not text or text.endswith((".", "!", "?")) else text + "."


def when(ts: float, now: float) -> str:
    """``14:05 UTC (in 12 minutes)``: a moment the person can plan on."""
    minutes = max(1, round((ts - now) / 60))
    return f"{time.strftime('%H:%M UTC', time.gmtime(ts))} (in {minutes} minute" + (
        "s)" if minutes != 1 else ")"
    )


def _permission(headers: Mapping[str, str], need: str | None) -> str | None:
    """The permission a 403 asks for: GitHub's header where a page may read it, else
    the one the request needs."""
    accepted = headers.get("x-accepted-github-permissions") or ""
    first = accepted.split(";")[0]
    names = [PERMISSION_NAMES.get(p.split("=")[0].strip()) for p in first.split(",") if p]
    named = [n for n in names if n]
    if named:
        return ", ".join(named)
    return PERMISSION_NAMES.get(need or "")


def explain(
    status: int,
    headers: Mapping[str, str],
    body: Any,
    what: str,
    *,
    need: str | None = None,
    secrets: tuple[str, ...] = (),
    now: float | None = None,
) -> GitHubError:
    """One GitHub error answer as cause and fix; ``need`` is the permission the
    request needs (``contents``, ``pages``, ``administration``, ``actions``)."""
    said = body.get("message", "") if isinstance(body, dict) else ""
    said = mask(str(said or ""), secrets)
    low = said.lower()
    now = time.time() if now is None else now
    if status == 401:
        return GitHubError(
            "bad_token",
            "GitHub did not accept the token (it is wrong, expired or revoked). "
            "Make a new fine-grained token on GitHub and paste it here.",
            status,
        )
    if status in (403, 429) and (
        "retry-after" in headers
        or headers.get("x-ratelimit-remaining") == "0"
        or "rate limit" in low
    ):
        reset = headers.get("retry-after")
        at = now + int(reset) if reset and reset.isdigit() else None
        if at is None:
            stamp = headers.get("x-ratelimit-reset") or ""
            at = float(stamp) if stamp.isdigit() else now + 3600
        return GitHubError(
            "rate_limit",
            f"GitHub's limit for this token is used up while {what}. Publish again after "
            f"{when(at, now)}: nothing was lost, and publishing continues where it stopped.",
            status,
            retry_at=at,
        )
    if status == 403 and "x-github-sso" in headers:
        return GitHubError(
            "sso",
            "The repository's organization requires single sign-on for tokens. On GitHub, "
            "open the token's settings, choose Configure SSO and authorize it for the "
            "organization, then publish again.",
            status,
        )
    if status == 403 and "archived" in low:
        return GitHubError(
            "archived",
            "The repository is archived on GitHub, so nothing can be written to it. "
            "Unarchive it in its Settings on GitHub, or publish to a new name.",
            status,
        )
    if status == 403:
        permission = _permission(headers, need)
        needs = f"{permission}" if permission else PERMISSIONS
        return GitHubError(
            "scope",
            f"The token may not do this ({what}): it needs the permission {needs}. Edit the "
            "token on GitHub (Settings, Developer settings, Fine-grained tokens) to add it "
            "and give it access to this repository, then publish again.",
            status,
            permission=permission,
        )
    if status == 422 and "plan" in low and "pages" in low:
        return GitHubError(
            "no_pages_plan",
            "The files are on GitHub, but GitHub Pages is not included in your plan for a "
            "private repository. Make the repository public (its Settings on GitHub, "
            "Danger Zone, Change visibility) or move to a plan with Pages, then publish again.",
            status,
        )
    if status == 422 and "name" in str(body).lower() and "exist" in str(body).lower():
        return GitHubError(
            "name_taken",
            "You already have a repository with this name (perhaps one this token cannot "
            "see). Choose another name, or give the token access to that repository.",
            status,
        )
    if status == 422 and "fast forward" in low:
        return GitHubError(
            "moved",
            "The branch changed on GitHub while this was publishing (someone else pushed). "
            "Nothing was overwritten. Publishing again puts this project's files on top of "
            "that change.",
            status,
        )
    if status == 404:
        return GitHubError(
            "not_found",
            f"GitHub found nothing while {what}: the repository was deleted, or the token "
            "cannot see it (a fine-grained token reaches only the repositories chosen for "
            "it). Give the token access to it on GitHub, or publish to a new name.",
            status,
        )
    detail = f" GitHub said: {sentence(said)}" if said else ""
    if status >= 500:
        return GitHubError(
            "server",
            f"GitHub had a problem ({status}) while {what}.{detail} This is on GitHub's "
            "side: try again in a few minutes.",
            status,
        )
    return GitHubError("http", f"GitHub refused {what} ({status}).{detail}", status)
