"""A probe's page in the preview's sandboxed frame: what the frame is handed and
what its messages mean (``injected/probe.js`` does the steps there).

:class:`FramedProbePage` is a :class:`~wiggum.ralph.probes.ProbePage` over a
:class:`ProbeFrame`, the browser's part (``wiggum.web.probe_frame``): load a
document and say when its probe script is ready, post a step and return what
it answered, and hand over every other message the page posts.  Everything
else is decided here, under CPython: each page is bundled with the site's
storage shim seeded with what the probe's earlier pages stored (a probe starts
with empty storage, so "stays after a reload" means stored by this probe), a
link the page follows opens the next page, and the errors the page throws
(``runtime.js`` reports them) count toward ``no_errors``.

The frame is the checkers' (``sandbox="allow-scripts"``, never
``allow-same-origin``); the steps travel by ``postMessage`` and the answers
are accepted only from the frame's own window (the web side checks).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from wiggum.fs import FileStore
from wiggum.preview.bundle import bundle_page
from wiggum.preview.console import read_console_message
from wiggum.preview.runtime import CONSOLE_MESSAGE, ERROR_MESSAGE, NAV_MESSAGE, injected_source
from wiggum.preview.storage import (
    STORAGE_MESSAGE,
    empty_snapshot,
    read_storage_message,
    with_storage,
)

from .acceptance import run_probes
from .impact import first_pages
from .probes import ProbeResult, Seen

__all__ = [
    "READY_MESSAGE",
    "SEEN_MESSAGE",
    "SETTLE_MS",
    "STEP_MESSAGE",
    "FrameFactory",
    "FramedProbePage",
    "ProbeFrame",
    "probe_script",
    "probe_site",
]

READY_MESSAGE = "wiggum-probe-ready"
STEP_MESSAGE = "wiggum-probe-step"
SEEN_MESSAGE = "wiggum-probe-seen"
#: Console entries that count as the page's errors besides thrown ones.
_ALSO_ERRORS = ("console", "resource")
#: Milliseconds the page settles after its load, and after each step.
SETTLE_MS = 60


def probe_script(settle_ms: int = SETTLE_MS) -> str:
    """The ``<script>`` added after a page's own: the probe's hands in the page."""
    code = (
        injected_source("probe.js")
        .replace("__WIGGUM_READY__", READY_MESSAGE)
        .replace("__WIGGUM_STEP__", STEP_MESSAGE)
        .replace("__WIGGUM_SEEN__", SEEN_MESSAGE)
        .replace("__WIGGUM_SETTLE__", str(int(settle_ms)))
    )
    return f'<script data-wiggum-preview="probe">{code}</script>'


class ProbeFrame(Protocol):
    """The browser's frame for one probe (``wiggum.web.probe_frame``)."""

    async def load(self, html: str) -> bool:
        """Show ``html`` in a fresh frame; whether its probe script said ready in time."""
        ...

    async def step(self, step: dict[str, Any]) -> dict[str, Any] | None:
        """Post ``step``; the page's answer (``None``: none in time)."""
        ...

    def close(self) -> None:
        """Take the frame out of the document."""
        ...


#: ``on_message -> frame``: the browser's frame for one probe, which hands
#: ``on_message(type, data)`` each message its page posts but the answers.
FrameFactory = Callable[[Callable[[Any, Any], None]], ProbeFrame]


class FramedProbePage:
    """A probe's page in a frame ``make_frame`` gives (its messages come to :meth:`take`)."""

    def __init__(self, fs: FileStore, make_frame: FrameFactory) -> None:
        self.fs = fs
        self.frame = make_frame(self.take)
        self.storage = empty_snapshot()
        self.errors: list[str] = []
        self.page = ""
        self._nav: str | None = None

    def take(self, kind: Any, data: Any) -> None:
        """A message the page posted (plain JSON): its storage, its errors, a link followed."""
        if not isinstance(data, dict):
            return
        if kind == STORAGE_MESSAGE:
            read = read_storage_message(data.get("area"), data.get("items"))
            if read is not None:
                self.storage[read[0]] = read[1]
        elif kind == ERROR_MESSAGE and data.get("message"):
            self.errors.append(str(data["message"]))
        elif kind == CONSOLE_MESSAGE:
            # console.error and a file that failed to load count too (thrown
            # errors come once, as ERROR_MESSAGE).
            entry = read_console_message(data)
            if entry is not None and entry.level == "error" and entry.kind in _ALSO_ERRORS:
                self.errors.append(entry.text)
        elif kind == NAV_MESSAGE and isinstance(data.get("path"), str):
            self._nav = data["path"]

    async def open(self, page: str) -> str | None:
        bundle = await bundle_page(self.fs, page)
        if not bundle.found:
            return f"{page} is not in the project"
        self.page, self.errors, self._nav = bundle.path, [], None
        html = with_storage(bundle.html, self.storage) + probe_script()
        if not await self.frame.load(html):
            return f"{bundle.path} did not finish loading"
        return None

    async def do(self, step: dict[str, Any]) -> Seen:
        answer = await self.frame.step(step)
        if answer is None:
            return Seen(problem=f"{self.page} did not answer (it may be stuck in a loop)")
        seen = Seen.model_validate(
            {k: v for k, v in answer.items() if k in Seen.model_fields and v is not None}
        )
        if self._nav is not None:  # a link or a form took the visitor to another page
            why = await self.open(self._nav)
            if why is not None:
                seen.problem = why
        seen.errors = list(self.errors)
        return seen

    def close(self) -> None:
        self.frame.close()


async def probe_site(fs: FileStore, make_frame: FrameFactory) -> list[ProbeResult]:
    """Run the site's probes, each in its own frame (the pages ``get_impact``
    named first): a :data:`~wiggum.ralph.site_checks.Probes`."""
    return await run_probes(
        fs, lambda: FramedProbePage(fs, make_frame), first=await first_pages(fs)
    )
