"""The browser transport: ``js.fetch``, streamed through ``ReadableStream.getReader()``.

Each request gets its own ``AbortController``.  Cancelling the Python task
that awaits the fetch or a body read (the Stop button, an ``AbortSignal``,
a task cancel) aborts the fetch, so the browser drops the connection and the
provider stops generating.  A fetch that fails without an HTTP answer is a
``NetworkError``; in a browser that is also what a missing CORS header looks
like, hence ``maybe_cors``.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from js import AbortController, Object, fetch  # type: ignore[import-not-found]
from pyodide.ffi import JsException, to_js  # type: ignore[import-not-found]

from wiggum.llm.errors import NetworkError, RequestTimeoutError
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

    def __init__(self, response, controller, timeout: float | None) -> None:
        self._response = response
        self._controller = controller
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
        timeout = self._timeout
        try:
            while True:
                try:
                    if timeout:
                        result = await asyncio.wait_for(reader.read(), timeout)
                    else:
                        result = await reader.read()
                except TimeoutError:
                    self._controller.abort()
                    raise RequestTimeoutError(
                        f"No data for {timeout:g} s: the provider stalled"
                    ) from None
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
        return b"".join([chunk async for chunk in self.aiter_bytes()])

    async def aclose(self) -> None:
        if not self._done:
            self._done = True
            self._controller.abort()


class FetchTransport:
    """``Transport`` over the browser's ``fetch``."""

    async def send(self, request: HttpRequest) -> FetchResponse:
        controller = AbortController.new()
        init = {
            "method": request.method,
            "headers": to_js(request.headers, dict_converter=Object.fromEntries),
            "signal": controller.signal,
            # Providers can take minutes to answer a long prompt; never cache chat calls.
            "cache": "no-store",
        }
        if request.body:
            init["body"] = request.body.decode("utf-8")
        try:
            if request.timeout:
                response = await asyncio.wait_for(
                    fetch(request.url, to_js(init, dict_converter=Object.fromEntries)),
                    request.timeout,
                )
            else:
                response = await fetch(request.url, to_js(init, dict_converter=Object.fromEntries))
        except TimeoutError:
            controller.abort()
            raise RequestTimeoutError(f"No answer within {request.timeout:g} s") from None
        except asyncio.CancelledError:
            controller.abort()
            raise
        except JsException as exc:
            # "TypeError: Failed to fetch": refused, offline, DNS — or CORS, which
            # the browser deliberately makes indistinguishable.
            raise NetworkError(
                f"The browser could not reach the provider ({exc.name})", maybe_cors=True
            ) from None
        return FetchResponse(response, controller, request.timeout)


def install() -> FetchTransport:
    """Make fetch the default transport of ``chat()`` and ``stream()``."""
    transport = FetchTransport()
    set_default_transport(transport)
    return transport
