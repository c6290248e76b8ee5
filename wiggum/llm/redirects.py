"""What a transport does with a redirect: follow it within the origin, refuse it across.

A chat request carries the API key (``Authorization``, ``x-api-key`` or a
vendor's own header) and the whole conversation.  A redirect to the same
origin (scheme, host and port) changes nothing about who reads them, so it
is followed, the way ``fetch`` follows it: 303, and 301/302 after a POST,
turn into a body-less GET; 307 and 308 keep the method and the body.

A redirect to another origin is refused (:class:`RedirectError`) rather than
followed with the credential headers removed: the body (the conversation)
would still go there, the other site would answer a key-less request with a
401 that reads as "your key is wrong", and a provider's API has no reason to
send its callers elsewhere; the person is told where it pointed and can put
that address in Settings if they trust it.  Both transports keep this rule:
``httpx_transport`` reads ``Location``; the page's ``fetch`` (which hides it)
learns where a redirect ends with a request that carries neither key nor body.
"""

from __future__ import annotations

from urllib.parse import urljoin, urlsplit

from .errors import RedirectError

__all__ = ["MAX_REDIRECTS", "REDIRECT_STATUSES", "Hop", "next_hop", "origin", "same_origin"]

REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
#: Redirects one request follows before it is refused (``fetch`` allows 20).
MAX_REDIRECTS = 5
_DEFAULT_PORTS = {"http": 80, "https": 443}


def origin(url: str) -> str:
    """``scheme://host[:port]`` of ``url``, the default port left out."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    if ":" in host:
        host = f"[{host}]"
    try:
        port = parts.port
    except ValueError:  # a port that is not a number: not an origin we can match
        return f"{scheme}://{host}:?"
    if port is None or port == _DEFAULT_PORTS.get(scheme):
        return f"{scheme}://{host}"
    return f"{scheme}://{host}:{port}"


def same_origin(a: str, b: str) -> bool:
    return origin(a) == origin(b)


class Hop:
    """The request a followed redirect makes: where, with which method, and
    whether the body goes along."""

    __slots__ = ("keep_body", "method", "url")

    def __init__(self, method: str, url: str, keep_body: bool) -> None:
        self.method = method
        self.url = url
        self.keep_body = keep_body


def next_hop(method: str, url: str, status: int, location: str | None, hops: int) -> Hop | None:
    """The request to make after ``status`` with ``location`` answered
    ``method url`` (``hops`` redirects followed so far); ``None`` when the
    answer is no redirect to follow (not a redirect status, or no
    ``Location``: it is read as the answer it is).

    Raises :class:`RedirectError` for another origin or too many hops.
    """
    if status not in REDIRECT_STATUSES or not location:
        return None
    target = urljoin(url, location.strip())
    if not same_origin(url, target):
        raise RedirectError(status, origin(target))
    if hops >= MAX_REDIRECTS:
        raise RedirectError(status, f"{origin(target)} (more than {MAX_REDIRECTS} redirects)")
    if status == 303 or (status in (301, 302) and method == "POST"):
        return Hop("GET" if method != "HEAD" else "HEAD", target, keep_body=False)
    return Hop(method, target, keep_body=True)
