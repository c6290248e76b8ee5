"""The first screen's ways in, the browser's half: Connect with OpenRouter
(``wiggum.session.openrouter_oauth`` decides every step and says every
failure) and the model servers on this computer
(``wiggum.session.local_servers`` decides what to ask and what an answer
means; only the ``no-cors`` request it needs is made here).

:func:`begin` keeps a fresh verifier in ``sessionStorage`` (this tab only) and
sends the tab to the sign-in; :func:`returned` runs once the app has loaded,
and when this load is the callback takes the code off the address first (a
reload must not spend it again), then trades it for the key.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import js  # type: ignore[import-not-found]
from pyodide.ffi import to_js  # type: ignore[import-not-found]

from wiggum.session import local_servers as local
from wiggum.session import openrouter_oauth as oauth
from wiggum.ui.settings import ProviderSettings

__all__ = ["FirstVisit", "begin", "returned"]


class FirstVisit:
    """What the first screen's quick ways in ask of the browser
    (``wiggum.session.onboarding.QuickStart``)."""

    def __init__(self, origin: str, demo: Callable[[], None]) -> None:
        self.origin = origin
        self.demo = demo

    def connect_openrouter(self) -> None:
        begin()

    def find_local(self) -> Awaitable[list[local.Found]]:
        extra = local.extra_servers(js.window.localStorage.getItem(local.EXTRA_PORTS_KEY))
        return local.find_local_servers(self.origin, reachable, servers=local.SERVERS + extra)


async def reachable(url: str) -> bool:
    """Whether anything answers at ``url``: a ``no-cors`` request, which needs no
    permission from the server (its answer is opaque, but it is an answer)."""
    request = js.fetch(url, to_js({"mode": "no-cors"}, dict_converter=js.Object.fromEntries))
    try:
        await asyncio.wait_for(request, local.PROBE_TIMEOUT)
    except Exception:  # refused, or no answer in time: nobody there
        return False
    return True


def begin() -> None:
    """Off to the sign-in; the page comes back to itself with ``?code=``."""
    base = oauth.auth_base(js.window.localStorage.getItem(oauth.AUTH_BASE_KEY))
    verifier = oauth.new_verifier()
    js.window.sessionStorage.setItem(oauth.VERIFIER_KEY, verifier)
    js.location.assign(oauth.auth_url(str(js.location.href), verifier, base))


async def returned(
    keep: Callable[[ProviderSettings], Awaitable[None]], say: Callable[[str, str], None]
) -> None:
    """If this load is the sign-in's callback: the key kept (``keep``), and either
    way ``say(title, text)`` what happened."""
    url = str(js.location.href)
    code = oauth.callback_code(url)
    if code is None:
        return
    js.history.replaceState(None, "", oauth.without_code(url))
    verifier = js.window.sessionStorage.getItem(oauth.VERIFIER_KEY)
    js.window.sessionStorage.removeItem(oauth.VERIFIER_KEY)
    base = oauth.auth_base(js.window.localStorage.getItem(oauth.AUTH_BASE_KEY))
    outcome = await oauth.connect(code, verifier or None, base=base)
    if isinstance(outcome, str):
        say("Connect with OpenRouter", outcome)
        return
    await keep(outcome)
    say("Connect with OpenRouter", oauth.CONNECTED)
