"""The CPython transport, on ``httpx`` (async, streaming).

Bodies are read **decoded** (``aiter_bytes``, not ``aiter_raw``): httpx asks
for ``gzip, deflate`` and undoes whatever ``Content-Encoding`` the server
chose, as the browser's ``fetch`` does in the page.  Asking for
``Accept-Encoding: identity`` instead would make the two transports differ
(``fetch`` cannot be stopped from accepting gzip) and forbid a server
compressing a large batch answer; decoding costs nothing when the body is
not encoded, and a stream is decoded chunk by chunk as it arrives.

Redirects follow :mod:`~wiggum.llm.redirects` (within the origin only),
by hand: httpx's own following would cross origins carrying ``x-api-key``.

``HttpRequest.timeout`` bounds connecting and each read, the head's
included (the client bounds the head as a whole besides).
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx

from .errors import MalformedResponseError, NetworkError, RequestTimeoutError
from .http_types import Headers, HttpRequest
from .redirects import next_hop

#: Connecting takes at most this long (when the request's own bound is longer):
#: the SDKs' connect timeout; a server that takes longer to accept is not there.
CONNECT_TIMEOUT = 5.0


class _HttpxResponse:
    __slots__ = ("_response", "_timeout", "headers", "status")

    def __init__(self, response: httpx.Response, timeout: float | None) -> None:
        self._response = response
        self._timeout = timeout
        self.status = response.status_code
        self.headers = Headers(response.headers.items())

    async def aiter_bytes(self) -> AsyncIterator[bytes]:
        try:
            async for chunk in self._response.aiter_bytes():
                yield chunk
        except httpx.TimeoutException as exc:
            raise RequestTimeoutError(
                f"Timed out reading the response: {type(exc).__name__}", seconds=self._timeout
            ) from exc
        except httpx.DecodingError as exc:
            raise MalformedResponseError(
                "The answer's compressed body could not be decoded "
                f"(Content-Encoding: {self.headers.get('content-encoding', '?')})"
            ) from exc
        except httpx.HTTPError as exc:
            raise NetworkError(f"Connection lost while reading: {type(exc).__name__}") from exc

    async def aread(self) -> bytes:
        return b"".join([chunk async for chunk in self.aiter_bytes()])

    async def aclose(self) -> None:
        await self._response.aclose()


class HttpxTransport:
    """One pooled ``httpx.AsyncClient``; connection errors become ``NetworkError``."""

    def __init__(self, client: httpx.AsyncClient | None = None) -> None:
        self._client = client

    def _get_client(self) -> httpx.AsyncClient:
        if self._client is None:
            self._client = httpx.AsyncClient(timeout=None, follow_redirects=False)
        return self._client

    async def send(self, request: HttpRequest) -> _HttpxResponse:
        client = self._get_client()
        seconds = request.timeout
        timeout = (
            httpx.Timeout(seconds, connect=min(seconds, CONNECT_TIMEOUT))
            if seconds
            else httpx.Timeout(None)
        )
        method, url, body = request.method, request.url, request.body
        hops = 0
        while True:
            req = client.build_request(
                method, url, headers=request.headers, content=body or None, timeout=timeout
            )
            try:
                response = await client.send(req, stream=True, follow_redirects=False)
            except httpx.TimeoutException as exc:
                raise RequestTimeoutError(
                    f"Timed out waiting for {req.url.host}", seconds=seconds
                ) from exc
            except httpx.HTTPError as exc:
                raise NetworkError(f"Could not reach {req.url.host}: {type(exc).__name__}") from exc
            try:
                hop = next_hop(
                    method, url, response.status_code, response.headers.get("location"), hops
                )
            except BaseException:
                await response.aclose()
                raise
            if hop is None:
                return _HttpxResponse(response, seconds)
            await response.aclose()
            hops += 1
            method, url, body = hop.method, hop.url, (body if hop.keep_body else b"")

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None
