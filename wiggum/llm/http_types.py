"""The values an HTTP exchange is made of: request and case-insensitive headers.

Below :mod:`wiggum.llm.transport` (the seam and the default transport) so that
the transports it may install, such as :mod:`wiggum.llm.httpx_transport`, can
build on these values without importing the seam that chooses them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

__all__ = ["Headers", "HttpRequest"]


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
