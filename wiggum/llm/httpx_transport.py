"""The CPython transport, on ``httpx`` (async, streaming)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx

from .errors import NetworkError, RequestTimeoutError
from .http_types import Headers, HttpRequest


class _HttpxResponse:
    __slots__ = ("_response", "headers", "status")

    def __init__(self, response: httpx.Response) -> None:
        self._response = response
        self.status = response.status_code
        self.headers = Headers(response.headers.items())

    async def aiter_bytes(self) -> AsyncIterator[bytes]:
        try:
            async for chunk in self._response.aiter_raw():
                yield chunk
        except httpx.TimeoutException as exc:
            raise RequestTimeoutError(
                f"Timed out reading the response: {type(exc).__name__}"
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
            self._client = httpx.AsyncClient(timeout=None)
        return self._client

    async def send(self, request: HttpRequest) -> _HttpxResponse:
        client = self._get_client()
        timeout = httpx.Timeout(request.timeout) if request.timeout else httpx.Timeout(None)
        req = client.build_request(
            request.method,
            request.url,
            headers=request.headers,
            content=request.body or None,
            timeout=timeout,
        )
        try:
            response = await client.send(req, stream=True)
        except httpx.TimeoutException as exc:
            raise RequestTimeoutError(f"Timed out waiting for {req.url.host}") from exc
        except httpx.HTTPError as exc:
            raise NetworkError(f"Could not reach {req.url.host}: {type(exc).__name__}") from exc
        return _HttpxResponse(response)

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None
