"""A failure in one view never blanks the app.

Every event handler the views bind goes through :meth:`wiggum.web.dom.Listeners.on`,
and every background task through :func:`wiggum.web.dom.spawn`; both hand an
exception to this module instead of letting it escape into Pyodide (where an
uncaught error in an event proxy can leave the page half-drawn).  The failure is
logged (the fingers-crossed handler flushes it into the Log panel) and a single
error line at the foot of the page says what failed, links to the Log, and can
be dismissed; the rest of the app keeps working.

Its own few DOM calls build the line from its markup
(:func:`wiggum.ui.markup.shell.failure_line`): ``wiggum.web.dom`` reports here,
so this module cannot use it.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from typing import Any

import js  # type: ignore[import-not-found]

from wiggum.ui.format import failure_text
from wiggum.ui.markdown import El
from wiggum.ui.markup.shell import failure_line

__all__ = ["guarded", "show_failure", "view_failed"]

log = logging.getLogger("wiggum.web")

_LINE_ID = "view-error"


def view_failed(what: str, exc: BaseException) -> None:
    """Log ``exc`` (so the Log panel has the traceback) and show the error line."""
    # The boundary itself must never raise.
    with contextlib.suppress(Exception):
        log.error("%s failed: %s", what, exc, exc_info=exc)
    show_failure(what, exc)


def guarded(fn: Callable[..., Any], what: str) -> Callable[..., Any]:
    """``fn`` wrapped so that an exception it raises becomes :func:`view_failed`."""

    def call(*args: Any) -> Any:
        try:
            return fn(*args)
        except Exception as exc:
            view_failed(what, exc)
            return None

    return call


def show_failure(what: str, exc: BaseException) -> None:
    """Show (or update) the error line; never raises."""
    try:
        _show(what, exc)
    except Exception as inner:
        js.console.error(f"wiggum: could not show an error line: {inner!r}")


def _show(what: str, exc: BaseException) -> None:
    doc = js.document
    line = doc.getElementById(_LINE_ID)
    if _null(line) or not line.isConnected:
        line = _build(doc)
    line.querySelector(".view-error-text").textContent = failure_text(what, exc)
    line.hidden = False


def _null(value: Any) -> bool:
    from pyodide.ffi import jsnull  # type: ignore[import-not-found]

    return value is None or value is jsnull


def _built(doc: Any, node: El) -> Any:
    """The elements of a tree of ``wiggum.ui.markup`` (one without refs, style or SVG)."""
    el = doc.createElement(node.tag)
    for key, value in node.attrs.items():
        el.setAttribute(key, value)
    el.append(*(child if isinstance(child, str) else _built(doc, child) for child in node.children))
    return el


def _build(doc: Any) -> Any:
    # Not dom.mount: dom imports this module (its listeners and tasks report here).
    line = _built(doc, failure_line())
    # One listener for the life of the page: the line is never rebuilt while shown.
    from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

    def on_click(event: Any) -> None:
        target = event.target
        if not _null(target.closest(".view-error-close")):
            line.hidden = True
        elif not _null(target.closest(".view-error-log")):
            line.hidden = True
            button = doc.querySelector('[data-testid="debug-button"]')
            if not _null(button):
                button.click()

    line.addEventListener("click", create_proxy(on_click))
    host = doc.getElementById("app")
    (doc.body if _null(host) else host).append(line)
    return line
