"""A piece of async work done while holding a Web Lock, across this origin's tabs.

``navigator.locks.request(name, callback)`` holds the lock until the promise
the callback returns settles.  :func:`exclusively` returns such a promise,
awaits the work in Python, then resolves it.  Without the API (an old
browser, some private modes) the work runs unlocked, and the log says so:
nothing a person asked for is refused for want of a lock.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import js  # type: ignore[import-not-found]
from pyodide.ffi import JsException, create_once_callable, create_proxy  # type: ignore[import-not-found]

from .dom import is_null

__all__ = ["exclusively", "web_locks"]

log = logging.getLogger("wiggum.web.web_lock")

T = TypeVar("T")


def web_locks() -> Any:
    """``navigator.locks``, or ``None`` when this browser has no Web Locks API."""
    locks = getattr(js.navigator, "locks", None)
    if locks is None or is_null(locks) or not hasattr(locks, "request"):
        return None
    return locks


async def exclusively(name: str, work: Callable[[], Awaitable[T]]) -> T:
    """``await work()`` while this tab holds the exclusive lock ``name``."""
    locks = web_locks()
    if locks is None:
        log.info("no Web Locks in this browser: %s runs without one", name)
        return await work()
    loop = asyncio.get_running_loop()
    granted: asyncio.Future[None] = loop.create_future()
    release: list[Any] = []

    def hold(resolve: Any, _reject: Any) -> None:
        release.append(resolve)

    def on_grant(_lock: Any) -> Any:
        if not granted.done():
            granted.set_result(None)
        return js.Promise.new(create_once_callable(hold))

    callback = create_proxy(on_grant)
    request = asyncio.ensure_future(_settled(locks.request(name, callback)))
    await asyncio.wait([granted, request], return_when=asyncio.FIRST_COMPLETED)
    if not granted.done():  # the browser refused the request
        callback.destroy()
        log.warning("Web Lock %s refused (%s): running without it", name, request.result())
        return await work()
    try:
        return await work()
    finally:
        for resolve in release:
            resolve()
        await request
        callback.destroy()  # the browser calls it once, and it has


async def _settled(promise: Any) -> str | None:
    """``None`` once ``promise`` resolves, or the name of its error."""
    try:
        await promise
    except JsException as exc:
        return exc.name
    return None
