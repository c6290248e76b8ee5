"""What only the browser can do, as the session layer asks for it.

The session layer decides; some of what it decides needs the page: run a task
in the background (and show it if it fails), install a vendored package on
first use, check JavaScript with the browser's own engine, know the page's
origin, whether the tab is shown, the clock.  :class:`Host` names exactly that,
the way httpx's ``BaseTransport`` names its one I/O method: ``wiggum.web.host``
is the page's, and ``tests/session/fakes.py`` has a ``FakeHost`` that runs the
same decisions under CPython with a clock the test moves.

Storage is not here: it has its own seam (:class:`wiggum.persist.AppStorage`),
handed to whoever needs it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

__all__ = ["Checkers", "Host"]

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Checkers:
    """The browser's checks of Ralph's site, for his gates (``wiggum.ralph.gates``).

    ``js(path, source)`` parses JavaScript with the page's engine and returns
    the syntax error or ``None``; ``preview(fs)`` loads the site's entry page in
    a sandboxed frame and returns the errors it reported; ``audit(html, width)``
    loads a page the site checks made in such a frame ``width`` px wide and
    returns what its audit script found and the errors it threw
    (``wiggum.ralph.site_checks.PageAudit``)."""

    js: Callable[[str, str], Awaitable[str | None]]
    preview: Callable[[Any], Awaitable[list[str]]]
    audit: Callable[[str, int], Awaitable[tuple[Any, list[str]]]] | None = None


class Host(Protocol):
    """The browser's services to the session layer."""

    @property
    def origin(self) -> str:
        """The page's origin (``http://127.0.0.1:8000``): what a local server must allow."""
        ...

    def spawn(self, coro: Coroutine[Any, Any, T], *, what: str) -> asyncio.Task[T]:
        """Run ``coro`` in the background; a failure is logged and shown as ``what`` failing."""
        ...

    async def load_packages(self, *names: str) -> None:
        """Install vendored packages (``dulwich``) on first use; raises ``ImportError``."""
        ...

    def checkers(self) -> Checkers | None:
        """The browser's checks for Ralph's gates; ``None`` where there are none."""
        ...

    def visible(self) -> bool:
        """Whether the tab is shown (a hidden tab follows another tab's writes later)."""
        ...

    def now(self) -> float:
        """Seconds since the epoch."""
        ...

    def sleep(self, seconds: float) -> Awaitable[None]:
        """Wait ``seconds`` (the fake host's clock moves instead)."""
        ...
