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
    it reports until :data:`SETTLE_SECONDS` after its load event.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Any

import js  # type: ignore[import-not-found]

from wiggum.fs import FileStore
from wiggum.preview import ERROR_MESSAGE, bundle_entry_page
from wiggum.preview.syntax_check import (
    CHECK_MESSAGE,
    looks_like_module,
    parse_document,
    retry_as_module,
    syntax_error,
)
from wiggum.ui.markup.preview import CHECKER_STYLE, checker_frame
from wiggum.ui.preview import keep_error

from .dom import Listeners, is_null, mount
from .preview_host import HOST_URL, message_type, show_page

__all__ = [
    "LOAD_TIMEOUT",
    "SETTLE_SECONDS",
    "browser_js_checker",
    "browser_preview_checker",
    "looks_like_module",
]

#: Seconds the preview checker keeps listening after the page's load event.
SETTLE_SECONDS = 1.5
#: Seconds to wait for a frame's load event.
LOAD_TIMEOUT = 15.0


@contextlib.asynccontextmanager
async def _checked_frame(
    on_message: Callable[[Any, Any], None], on_load: Callable[[Any], None] | None = None
) -> AsyncIterator[Any]:
    """A hidden frame on the host page, in the document for one check:
    ``on_message(type, message)`` hears what its page posts, ``on_load`` its loads."""
    # On our host page, not srcdoc: srcdoc would inherit Wiggum's CSP, under
    # which neither the reporter nor the code (a data: URL script) would run.
    frame = mount(checker_frame(HOST_URL)).el
    frame.style.cssText = CHECKER_STYLE
    listeners = Listeners()
    listeners.on(js.window, "message", lambda event: on_message(*message_type(event, frame)))
    if on_load is not None:
        listeners.on(frame, "load", on_load)
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
        if done.done() or kind != CHECK_MESSAGE:
            return
        err = getattr(data, "error", None)
        if is_null(err) or err is None:
            done.set_result(None)
            return
        name, message = (str(getattr(err, k, "") or "") for k in ("name", "message"))
        done.set_result(syntax_error(name, message, int(getattr(err, "line", 0) or 0)))

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
    errors: list[str] = []
    loop = asyncio.get_running_loop()
    loaded: asyncio.Future[None] = loop.create_future()

    def on_message(kind: Any, data: Any) -> None:
        if kind == ERROR_MESSAGE:
            keep_error(errors, getattr(data, "message", None), once=True)

    loads = [0]

    def on_load(event: Any) -> None:
        # The first load is the host page's, the second the written page's.
        loads[0] += 1
        if loads[0] >= 2 and not loaded.done():
            loaded.set_result(None)

    async with _checked_frame(on_message, on_load) as frame:
        try:
            await show_page(frame, bundle.html, LOAD_TIMEOUT)
            await asyncio.wait_for(loaded, LOAD_TIMEOUT)
        except TimeoutError:
            errors.append(f"the page did not finish loading within {LOAD_TIMEOUT:.0f} s")
        await asyncio.sleep(SETTLE_SECONDS)
    return errors
