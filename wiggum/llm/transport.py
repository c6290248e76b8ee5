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
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable


class Headers(Mapping[str, str]):
    """Case-insensitive, read-only header mapping."""

    __slots__ = ("_items",)

    def __init__(self, items: Mapping[str, str] | Iterable[tuple[str, str]] = ()) -> None:
        pairs = items.items() if isinstance(items, Mapping) else items
        self._items = {k.lower(): v for k, v in pairs}

    def __getitem__(self, key: str) -> str:
        return self._items[key.lower()]

    def get(self, key: str, default=None):  # type: ignore[override]
        return self._items.get(key.lower(), default)

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and key.lower() in self._items

    def __iter__(self):
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __repr__(self) -> str:
        return f"Headers({sorted(self._items)})"


@dataclass(slots=True)
class HttpRequest:
    method: str
    url: str
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""
    #: Seconds to wait for the response head and between body chunks.
    timeout: float | None = None

    def __repr__(self) -> str:
        # Headers carry keys and the body carries the prompt: never show them.
        return f"HttpRequest({self.method} {self.url}, {len(self.body)} bytes)"


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
        from .httpx_transport import HttpxTransport

        _default = HttpxTransport()
    return _default
