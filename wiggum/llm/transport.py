"""The HTTP seam: the client speaks to a ``Transport``, never to a library.

A transport sends one :class:`HttpRequest` and hands back something shaped
like :class:`HttpResponse` as soon as the status line and headers are in;
the body is then pulled chunk by chunk.  Anything of that shape works, so
tests replay recorded bodies with :class:`ReplayResponse`.

Cancellation is task cancellation: a transport must release its connection
(and in the browser, abort its fetch) when the awaiting task is cancelled.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable, Mapping
from typing import Protocol, runtime_checkable

from .http_types import Headers, HttpRequest

__all__ = [
    "Headers",
    "HttpRequest",
    "HttpResponse",
    "ReplayResponse",
    "ReplayTransport",
    "Transport",
    "get_default_transport",
    "set_default_transport",
]


@runtime_checkable
class HttpResponse(Protocol):
    status: int
    headers: Mapping[str, str]

    def aiter_bytes(self) -> AsyncIterator[bytes]: ...

    async def aread(self) -> bytes: ...

    async def aclose(self) -> None: ...


@runtime_checkable
class Transport(Protocol):
    async def send(self, request: HttpRequest) -> HttpResponse: ...


class ReplayResponse:
    """A response whose body is a fixed list of byte chunks (recorded transcripts)."""

    def __init__(
        self,
        chunks: Iterable[bytes] | bytes,
        status: int = 200,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        self.status = status
        self.headers = Headers(headers or {})
        self._chunks = [chunks] if isinstance(chunks, bytes) else list(chunks)
        self.closed = False

    async def aiter_bytes(self) -> AsyncIterator[bytes]:
        for chunk in self._chunks:
            if self.closed:
                return
            yield chunk

    async def aread(self) -> bytes:
        return b"".join(self._chunks)

    async def aclose(self) -> None:
        self.closed = True


class ReplayTransport:
    """Answers each request with the next prepared response; records requests."""

    def __init__(self, *responses: HttpResponse | Exception) -> None:
        self.responses = list(responses)
        self.requests: list[HttpRequest] = []

    async def send(self, request: HttpRequest) -> HttpResponse:
        self.requests.append(request)
        if not self.responses:
            raise AssertionError("ReplayTransport has no response left for this request")
        response = self.responses.pop(0)
        if isinstance(response, Exception):
            raise response
        return response


_default: Transport | None = None


def set_default_transport(transport: Transport | None) -> None:
    """Install the environment's transport (the browser app installs fetch)."""
    global _default
    _default = transport


def get_default_transport() -> Transport:
    """The installed transport, else httpx under CPython."""
    global _default
    if _default is None:
        # Imported on use: httpx exists under CPython only, never in the page.
        from .httpx_transport import HttpxTransport

        _default = HttpxTransport()
    return _default
