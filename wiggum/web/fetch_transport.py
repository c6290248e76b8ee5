"""The browser transport: ``js.fetch``, streamed through ``ReadableStream.getReader()``.

Each request gets its own ``AbortController``.  Cancelling the Python task
that awaits the fetch or a body read (the Stop button, an ``AbortSignal``,
a task cancel) aborts the fetch, so the browser drops the connection and the
provider stops generating.  A fetch that fails without an HTTP answer is a
``NetworkError``; in a browser that is also what a missing CORS header looks
like, hence ``maybe_cors``.

Bounds: the answer's head waits at most ``HttpRequest.timeout`` (one timer
per request).  Body reads carry no timer of their own: the client bounds
them already (one watch per body, ``wiggum.llm.idle``), and a ``setTimeout``
per read would cost more than the read.

Redirects (``wiggum.llm.redirects``: within the origin only): ``fetch``
would follow any redirect and send ``x-api-key`` along to another origin,
so requests go with ``redirect: "manual"``.  A redirect then comes back
opaque (no status, no ``Location``); where it leads is learned by one probe
of the same address with neither key nor body nor cookies, which the browser
may follow.  If it ends on the same origin, the request is sent there; if it
ends elsewhere (or the probe fails), it is refused with a
``RedirectError`` naming what is known.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from js import AbortController, Object, fetch  # type: ignore[import-not-found]
from pyodide.ffi import JsException, to_js  # type: ignore[import-not-found]

from wiggum.llm.errors import NetworkError, RedirectError, RequestTimeoutError
from wiggum.llm.redirects import MAX_REDIRECTS, origin, same_origin
from wiggum.llm.transport import HttpRequest, set_default_transport


class _JsHeaders:
    """Case-insensitive read access to a JS ``Headers`` object."""

    __slots__ = ("_headers",)

    def __init__(self, headers) -> None:
        self._headers = headers

    def get(self, key: str, default=None):
        value = self._headers.get(key)
        return default if value is None else value

    def __getitem__(self, key: str) -> str:
        value = self._headers.get(key)
        if value is None:
            raise KeyError(key)
        return value

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and bool(self._headers.has(key))


class FetchResponse:
    __slots__ = ("_controller", "_done", "_response", "_timeout", "headers", "status")

    def __init__(self, response, controller, timeout: float | None = None) -> None:
        self._response = response
        self._controller = controller
        #: Bounds ``aread`` as a whole (one timer): callers that read a body at
        #: once (the model list, GitHub's API) have no watch of their own.
        self._timeout = timeout
        self._done = False
        self.status = int(response.status)
        self.headers = _JsHeaders(response.headers)

    async def aiter_bytes(self) -> AsyncIterator[bytes]:
        body = self._response.body
        if body is None:
            self._done = True
            return
        reader = body.getReader()
        try:
            while True:
                try:
                    result = await reader.read()
                except JsException as exc:
                    raise NetworkError(f"Connection lost while reading: {exc.name}") from None
                if result.done:
                    self._done = True
                    return
                yield result.value.to_bytes()
        except (asyncio.CancelledError, GeneratorExit):
            self._controller.abort()
            raise

    async def aread(self) -> bytes:
        try:
            return await asyncio.wait_for(self._all(), self._timeout)
        except TimeoutError:
            self._controller.abort()
            raise RequestTimeoutError(
                f"The answer stopped arriving within {self._timeout:g} s", seconds=self._timeout
            ) from None

    async def _all(self) -> bytes:
        return b"".join([chunk async for chunk in self.aiter_bytes()])

    async def aclose(self) -> None:
        if not self._done:
            self._done = True
            self._controller.abort()


def _init(method: str, headers: dict, body: bytes, signal, **more) -> object:
    init = {
        "method": method,
        "headers": to_js(headers, dict_converter=Object.fromEntries),
        "signal": signal,
        # Providers can take minutes to answer a long prompt; never cache chat calls.
        "cache": "no-store",
        **more,
    }
    if body:
        init["body"] = body.decode("utf-8")
    return to_js(init, dict_converter=Object.fromEntries)


class FetchTransport:
    """``Transport`` over the browser's ``fetch``."""

    async def send(self, request: HttpRequest) -> FetchResponse:
        controller = AbortController.new()
        try:
            if request.timeout:
                return await asyncio.wait_for(self._send(request, controller), request.timeout)
            return await self._send(request, controller)
        except TimeoutError:
            controller.abort()
            raise RequestTimeoutError(
                f"No answer within {request.timeout:g} s", seconds=request.timeout
            ) from None
        except asyncio.CancelledError:
            controller.abort()
            raise

    async def _send(self, request: HttpRequest, controller) -> FetchResponse:
        url = request.url
        for _ in range(MAX_REDIRECTS + 1):
            init = _init(
                request.method, request.headers, request.body, controller.signal, redirect="manual"
            )
            response = await self._fetch(url, init)
            if str(response.type) != "opaqueredirect":
                return FetchResponse(response, controller, request.timeout)
            url = await self._where(request.method, url, controller)
        raise RedirectError(0, f"{origin(url)} (more than {MAX_REDIRECTS} redirects)")

    async def _where(self, method: str, url: str, controller) -> str:
        """Where a redirect of ``url`` ends, if it stays on the origin; else
        ``RedirectError``.  The probe carries no key, no body, no cookies."""
        init = _init(
            method,
            {},
            b"",
            controller.signal,
            redirect="follow",
            credentials="omit",
            referrerPolicy="no-referrer",
        )
        try:
            probe = await fetch(url, init)
        except JsException:
            raise RedirectError(0, "an address the browser does not show") from None
        final = str(probe.url)
        body = probe.body
        if body is not None:  # its answer is not wanted, only its address
            with contextlib.suppress(JsException):
                await body.cancel()
        if final == url or not final:
            raise RedirectError(0, "an address the browser does not show")
        if not same_origin(url, final):
            raise RedirectError(0, origin(final))
        return final

    async def _fetch(self, url: str, init) -> object:
        try:
            return await fetch(url, init)
        except JsException as exc:
            # "TypeError: Failed to fetch": refused, offline, DNS — or CORS, which
            # the browser deliberately makes indistinguishable.
            raise NetworkError(
                f"The browser could not reach the provider ({exc.name})", maybe_cors=True
            ) from None


def install() -> FetchTransport:
    """Make fetch the default transport of ``chat()`` and ``stream()``."""
    transport = FetchTransport()
    set_default_transport(transport)
    return transport
