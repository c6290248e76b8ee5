"""The browser's implementations of the gates' injected checkers (``wiggum.ralph.gates``).

``browser_js_checker(path, source) -> str | None`` (a ``JsSyntaxChecker``)
    Parses ``source`` with the page's own JavaScript engine and never runs it:
    the document :func:`wiggum.preview.syntax_check.parse_document` writes (how,
    and why it is exact, is said there) in a throwaway ``<iframe
    sandbox="allow-scripts">`` (opaque origin, so even a mistake could not touch
    Wiggum's storage).  The frame's first error event says which: a
    ``SyntaxError`` is the answer, anything else means the code parsed.

``browser_preview_checker(fs) -> list[str]`` (a ``PreviewChecker``)
    Bundles the project's entry page (``wiggum.preview.entry_page``: index.html,
    else the one page the entry-page gate accepts), loads it in a hidden
    sandboxed iframe, and collects the uncaught errors and unhandled rejections
    it reports until :data:`SETTLE_MS` after its load event (when the audit
    script, added after the page's own, says so: ``browser_audit``).

``browser_audit(html, width) -> (found, errors)`` (a ``PageAudit``)
    Loads a page the site checks made (``wiggum.ralph.site_checks.audit_site``:
    the entry page with the audit script) in such a frame laid out ``width`` px
    wide, and returns what its audit script posted and the errors it threw.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Any

import js  # type: ignore[import-not-found]

from wiggum.fs import FileStore
from wiggum.preview import ERROR_MESSAGE, bundle_entry_page
from wiggum.preview.runtime import AUDIT_MESSAGE, audit_script
from wiggum.preview.syntax_check import (
    CHECK_MESSAGE,
    looks_like_module,
    parse_document,
    read_check,
    retry_as_module,
)
from wiggum.ui.markup.preview import CHECKER_STYLE, checker_frame
from wiggum.ui.preview import keep_error

from .dom import Listeners, mount, plain
from .preview_host import HOST_URL, message_type, show_page

__all__ = [
    "LOAD_TIMEOUT",
    "SETTLE_MS",
    "browser_audit",
    "browser_js_checker",
    "browser_preview_checker",
    "looks_like_module",
]

#: Milliseconds the preview checker keeps listening after the page's load event.
SETTLE_MS = 1500
#: Seconds to wait for a frame's load event.
LOAD_TIMEOUT = 15.0


@contextlib.asynccontextmanager
async def _checked_frame(on_message: Callable[[Any, Any], None]) -> AsyncIterator[Any]:
    """A hidden frame on the host page, in the document for one check:
    ``on_message(type, message)`` hears what its page posts."""
    # On our host page, not srcdoc: srcdoc would inherit Wiggum's CSP, under
    # which neither the reporter nor the code (a data: URL script) would run.
    frame = mount(checker_frame(HOST_URL)).el
    frame.style.cssText = CHECKER_STYLE
    listeners = Listeners()
    listeners.on(js.window, "message", lambda event: on_message(*message_type(event, frame)))
    try:
        js.document.body.appendChild(frame)
        yield frame
    finally:
        listeners.close()
        frame.remove()


async def _parse(source: str, module: bool) -> str | None:
    """The syntax error the engine reports for ``source``, or ``None``."""
    done: asyncio.Future[str | None] = asyncio.get_running_loop().create_future()

    def on_message(kind: Any, data: Any) -> None:
        if kind == CHECK_MESSAGE and not done.done():
            done.set_result(read_check(plain(data)))

    async with _checked_frame(on_message) as frame:
        await show_page(frame, parse_document(source, module), LOAD_TIMEOUT)
        return await asyncio.wait_for(done, LOAD_TIMEOUT)


async def browser_js_checker(path: str, source: str) -> str | None:
    """A ``JsSyntaxChecker``: the engine's syntax error for ``source``, or None."""
    module = looks_like_module(path, source)
    message = await _parse(source, module)
    if retry_as_module(message, module):
        message = await _parse(source, True)
    return message


async def browser_preview_checker(fs: FileStore) -> list[str]:
    """A ``PreviewChecker``: uncaught errors of the entry page within ~1.5 s of loading."""
    bundle = await bundle_entry_page(fs)
    if isinstance(bundle, str):
        return [bundle]
    found, errors = await browser_audit(bundle.html + audit_script(SETTLE_MS), 1024)
    if found is None:
        errors.append(f"the page did not finish loading within {LOAD_TIMEOUT:.0f} s")
    return errors


async def browser_audit(html: str, width: int) -> tuple[Any, list[str]]:
    """A ``PageAudit``: what the audit script of ``html`` posted (``None`` when it
    did not within :data:`LOAD_TIMEOUT`) and the errors the page threw meanwhile."""
    errors: list[str] = []
    done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()

    def on_message(kind: Any, data: Any) -> None:
        if kind == ERROR_MESSAGE:
            keep_error(errors, getattr(data, "message", None), once=True)
        elif kind == AUDIT_MESSAGE and not done.done():
            done.set_result(plain(data))

    async with _checked_frame(on_message) as frame:
        frame.style.width = f"{width}px"  # before the host page lays the site out
        try:
            await show_page(frame, html, LOAD_TIMEOUT)
            return await asyncio.wait_for(done, LOAD_TIMEOUT), errors
        except TimeoutError:
            return None, errors
