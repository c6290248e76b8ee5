"""Connect with OpenRouter (wiggum.session.openrouter_oauth): the PKCE round trip
against the simulator of OpenRouter's sign-in endpoints over real HTTP, the
callback under a GitHub Pages subpath, and each failure in the person's words."""

from __future__ import annotations

import base64
import hashlib

import httpx
import pytest

from tests.sim.openrouter_auth import OpenRouterAuth
from wiggum.session.openrouter_oauth import (
    OAuthError,
    auth_url,
    callback_code,
    callback_url,
    challenge,
    exchange,
    new_verifier,
    provider,
    without_code,
)

PAGE = "https://someone.github.io/wiggum/?wheels=xz#x"


def test_the_verifier_and_its_s256_challenge():
    verifier = new_verifier()
    assert 43 <= len(verifier) <= 128 and "=" not in verifier
    digest = hashlib.sha256(verifier.encode()).digest()
    assert challenge(verifier) == base64.urlsafe_b64encode(digest).rstrip(b"=").decode()
    assert new_verifier() != verifier


def test_the_callback_is_this_page_under_its_subpath_without_its_query():
    assert callback_url(PAGE) == "https://someone.github.io/wiggum/"
    assert callback_url("https://x.github.io/repo/index.html?code=old") == (
        "https://x.github.io/repo/index.html"
    )
    url = httpx.URL(auth_url(PAGE, "v" * 43))
    assert url.host == "openrouter.ai" and url.path == "/auth"
    assert url.params["callback_url"] == "https://someone.github.io/wiggum/"
    assert url.params["code_challenge"] == challenge("v" * 43)
    assert url.params["code_challenge_method"] == "S256"


def test_the_code_is_read_from_the_callback_and_then_taken_off_the_address():
    back = "https://someone.github.io/wiggum/?wheels=xz&code=abc#x"
    assert callback_code(back) == "abc"
    assert callback_code(PAGE) is None
    assert without_code(back) == "https://someone.github.io/wiggum/?wheels=xz#x"


async def _sign_in(auth: OpenRouterAuth, page: str, verifier: str) -> str:
    """The person at OpenRouter: allow, and come back to the callback."""
    async with httpx.AsyncClient() as client:
        r = await client.get(auth_url(page, verifier, base=auth.base_url))
    assert r.status_code == 302
    back = r.headers["location"]
    assert back.startswith(callback_url(page))
    return back


async def test_the_round_trip_gives_a_key(transport):
    with OpenRouterAuth() as auth:
        verifier = new_verifier()
        back = await _sign_in(auth, PAGE, verifier)
        key = await exchange(callback_code(back), verifier, transport, base=auth.base_url)
    assert key == auth.issued[0] and key.startswith("sk-or-")
    settings = provider(key)
    assert settings.preset == "openrouter" and settings.api_key.get_secret_value() == key
    assert key not in repr(settings)  # kept like a pasted key: never shown in logs


async def test_a_spent_code_or_another_verifier_is_refused_in_words(transport):
    with OpenRouterAuth() as auth:
        verifier = new_verifier()
        code = callback_code(await _sign_in(auth, PAGE, verifier))
        with pytest.raises(OAuthError, match="did not accept this sign-in"):
            await exchange(code, new_verifier(), transport, base=auth.base_url)
        code = callback_code(await _sign_in(auth, PAGE, verifier))
        await exchange(code, verifier, transport, base=auth.base_url)
        with pytest.raises(OAuthError, match="used already or has expired"):
            await exchange(code, verifier, transport, base=auth.base_url)
    assert len(auth.issued) == 1


async def test_a_tab_without_the_verifier_says_to_start_again(transport):
    with pytest.raises(OAuthError, match="Press Connect with OpenRouter again"):
        await exchange("abc", None, transport, base="http://127.0.0.1:9")


async def test_openrouter_out_of_reach_is_said_so(transport):
    with pytest.raises(OAuthError, match="could not be reached"):
        await exchange("abc", new_verifier(), transport, base="http://127.0.0.1:9", timeout=2)


def test_the_sign_in_server_is_openrouter_unless_another_origin_is_stored():
    from wiggum.session.openrouter_oauth import OPENROUTER, auth_base

    assert auth_base(None) == OPENROUTER and auth_base("") == OPENROUTER
    assert auth_base("javascript:alert(1)") == OPENROUTER
    assert auth_base("http://127.0.0.1:9/some/path?x") == "http://127.0.0.1:9"


async def test_connect_gives_the_provider_with_its_key_or_the_words_of_the_failure(transport):
    from wiggum.session.openrouter_oauth import NO_VERIFIER, REFUSED, connect

    with OpenRouterAuth() as auth:
        verifier = new_verifier()
        code = callback_code(await _sign_in(auth, PAGE, verifier))
        kept = await connect(code, verifier, transport, base=auth.base_url)
        assert not isinstance(kept, str) and kept.key == auth.issued[0]
        assert kept.preset == "openrouter" and kept.base_url == auth.base_url + "/api/v1"
        assert provider("k").base_url == "https://openrouter.ai/api/v1"
        again = await connect(code, verifier, transport, base=auth.base_url)
        assert again == REFUSED  # a code is spent once
        assert await connect(code, None, transport, base=auth.base_url) == NO_VERIFIER
