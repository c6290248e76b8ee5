"""The page's :class:`~wiggum.session.host.Host`: what the session layer asks
of the browser, answered by the browser.

Cheap to build and first-screen safe: the checkers (Ralph's gates) and the
package loader are imported when first asked for.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Coroutine
from typing import Any, TypeVar

import js  # type: ignore[import-not-found]

from wiggum.session.host import Checkers

from .dom import spawn

__all__ = ["WebHost"]

T = TypeVar("T")


class WebHost:
    @property
    def origin(self) -> str:
        return str(js.location.origin)

    def spawn(self, coro: Coroutine[Any, Any, T], *, what: str) -> asyncio.Task[T]:
        return spawn(coro, what=what)

    async def load_packages(self, *names: str) -> None:
        from .packages import load_packages

        await load_packages(*names)

    def checkers(self) -> Checkers | None:
        from .checkers import browser_audit, browser_js_checker, browser_preview_checker

        return Checkers(js=browser_js_checker, preview=browser_preview_checker, audit=browser_audit)

    def visible(self) -> bool:
        return js.document.visibilityState != "hidden"

    def now(self) -> float:
        return time.time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)
