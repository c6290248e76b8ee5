"""Connect with OpenRouter: a key without pasting one (OAuth with PKCE, from
the static page itself).

The page sends the person to OpenRouter's ``/auth`` with a ``callback_url``
(this very page: its folder and file, no query, so a GitHub Pages subpath
comes back to itself) and the S256 challenge of a one-time verifier it keeps in
``sessionStorage`` (the tab, not the browser: the verifier must not outlive the
sign-in).  OpenRouter sends the person back with ``?code=…``; the page trades
the code and the verifier for a key at ``/api/v1/auth/keys`` (a browser call
OpenRouter allows) and keeps that key like a pasted one.  No client id, no
secret, no backend: the challenge is the proof.

Everything here is pure but the one request (through the transport seam, so
the tests run it against ``tests/sim/openrouter_auth.py``).  The sign-in
server is OpenRouter unless ``localStorage["wiggum.openrouter.auth"]`` names
another http(s) origin (:func:`auth_base`): the e2e tests point it at the
simulator, as ``wiggum.wheels`` and ``wiggum.sw`` switch the page's start.
"""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from wiggum.llm.http_types import HttpRequest
from wiggum.llm.transport import Transport, get_default_transport
from wiggum.ui.settings import ProviderSettings

__all__ = [
    "CONNECTED",
    "OPENROUTER",
    "OAuthError",
    "auth_base",
    "auth_url",
    "callback_code",
    "callback_url",
    "challenge",
    "connect",
    "exchange",
    "new_verifier",
    "provider",
    "without_code",
]

OPENROUTER = "https://openrouter.ai"
#: Where the verifier waits while the person is at OpenRouter (sessionStorage).
VERIFIER_KEY = "wiggum.openrouter.verifier"
#: Another sign-in server than OpenRouter's (localStorage): a local simulator.
AUTH_BASE_KEY = "wiggum.openrouter.auth"
#: Said once the key is kept.
CONNECTED = (
    "Connected with OpenRouter. The key is kept in this browser like a pasted one "
    "(Settings shows it); choose another model there or above the chat."
)


def auth_base(stored: str | None) -> str:
    """The sign-in server: OpenRouter, or the http(s) origin stored in its place."""
    parts = urlsplit((stored or "").strip())
    if parts.scheme in ("http", "https") and parts.netloc:
        return f"{parts.scheme}://{parts.netloc}"
    return OPENROUTER


class OAuthError(Exception):
    """The sign-in did not give a key: what happened and what to do, in words."""


def new_verifier(token: bytes | None = None) -> str:
    """A one-time PKCE verifier: 32 random bytes, base64url without padding (RFC 7636)."""
    return _b64url(token if token is not None else secrets.token_bytes(32))


def challenge(verifier: str) -> str:
    """The S256 challenge of ``verifier``."""
    return _b64url(hashlib.sha256(verifier.encode("ascii")).digest())


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def callback_url(page_url: str) -> str:
    """This page as OpenRouter should send the person back to it: no query, no
    fragment (``?wheels=xz``, an old ``?code=``), the path kept as it is."""
    parts = urlsplit(page_url)
    return urlunsplit((parts.scheme, parts.netloc, parts.path or "/", "", ""))


def auth_url(page_url: str, verifier: str, base: str = OPENROUTER) -> str:
    """Where Connect with OpenRouter sends the person."""
    query = urlencode(
        {
            "callback_url": callback_url(page_url),
            "code_challenge": challenge(verifier),
            "code_challenge_method": "S256",
        }
    )
    return f"{base}/auth?{query}"


def callback_code(page_url: str) -> str | None:
    """The ``code`` OpenRouter came back with, if this page load is its callback."""
    return dict(parse_qsl(urlsplit(page_url).query)).get("code") or None


def without_code(page_url: str) -> str:
    """The page's address once the code is used (for ``history.replaceState``):
    a reload or a bookmark must not try the spent code again."""
    parts = urlsplit(page_url)
    query = urlencode([(k, v) for k, v in parse_qsl(parts.query) if k != "code"])
    return urlunsplit((parts.scheme, parts.netloc, parts.path, query, parts.fragment))


#: What each failed sign-in says, with what to do.
NO_VERIFIER = (
    "This page was not the one that started the sign-in (it was opened in "
    "another tab, or the tab was closed meanwhile). Press Connect with OpenRouter again."
)
REFUSED = (
    "OpenRouter did not accept this sign-in: the code was used already or has "
    "expired. Press Connect with OpenRouter again."
)
UNREACHABLE = (
    "OpenRouter could not be reached to finish the sign-in. Check the "
    "connection, then press Connect with OpenRouter again."
)
NO_KEY = (
    "OpenRouter's answer held no key. Press Connect with OpenRouter again, "
    "or paste a key from openrouter.ai/keys."
)


async def exchange(
    code: str,
    verifier: str | None,
    transport: Transport | None = None,
    *,
    base: str = OPENROUTER,
    timeout: float = 30.0,
) -> str:
    """Trade the callback's ``code`` and this tab's ``verifier`` for a key.
    Raises :class:`OAuthError` with what to do."""
    if not verifier:
        raise OAuthError(NO_VERIFIER)
    body = {"code": code, "code_verifier": verifier, "code_challenge_method": "S256"}
    request = HttpRequest(
        "POST",
        f"{base}/api/v1/auth/keys",
        {"Content-Type": "application/json", "Accept": "application/json"},
        json.dumps(body).encode(),
        timeout,
    )
    transport = transport or get_default_transport()
    try:
        response = await transport.send(request)
        data = await response.aread()
    except Exception as exc:  # the transport's network errors, whichever the runtime
        raise OAuthError(UNREACHABLE) from exc
    if response.status in (400, 401, 403, 404, 409):
        raise OAuthError(REFUSED)
    if response.status >= 300:
        raise OAuthError(UNREACHABLE)
    try:
        key = json.loads(data).get("key")
    except (ValueError, AttributeError):
        key = None
    if not isinstance(key, str) or not key:
        raise OAuthError(NO_KEY)
    return key


def provider(key: str, base: str = OPENROUTER) -> ProviderSettings:
    """The provider the key sets up: OpenRouter's preset, its key kept like a pasted
    one (a sign-in server standing in for OpenRouter stands in for its API too)."""
    if base == OPENROUTER:
        return ProviderSettings.from_preset("openrouter", api_key=key)
    return ProviderSettings.from_preset("openrouter", api_key=key, base_url=f"{base}/api/v1")


async def connect(
    code: str,
    verifier: str | None,
    transport: Transport | None = None,
    *,
    base: str = OPENROUTER,
) -> ProviderSettings | str:
    """The callback's code traded for OpenRouter's provider with its key, or what
    went wrong and what to do (the person's words)."""
    try:
        return provider(await exchange(code, verifier, transport, base=base), base)
    except OAuthError as exc:
        return str(exc)
