"""The browser's implementations of the gates' injected checkers (``wiggum.ralph.gates``).

``browser_js_checker(path, source) -> str | None`` (a ``JsSyntaxChecker``)
    Parses ``source`` with the page's own JavaScript engine and never runs it.
    Decision: one mechanism for classic scripts and modules, in a throwaway
    ``<iframe sandbox="allow-scripts">`` (opaque origin, so even a mistake could
    not touch Wiggum's storage), loading the code as a ``data:`` URL script:

    * classic: the code is prefixed (on its first line, so line numbers stay
      right) with ``throw "<sentinel>";``.  A classic script is parsed as a
      whole before any of it runs, so a syntax error is reported as such, and a
      valid script stops at the sentinel before its first statement.
    * module (``.mjs``, or ``import``/``export`` statements at the start of a
      line, or the classic parse says "Cannot use import statement outside a
      module"): the code is prefixed with ``import "<bare specifier>";``.  A
      module is parsed first; then, before anything is fetched or evaluated,
      its specifiers are resolved; the bare sentinel cannot resolve, so a valid
      module fails to link and nothing of it (or its imports) runs.

    The iframe's first error event says which: a ``SyntaxError`` is the answer
    (``"SyntaxError: ... (line N)"``), anything else means the code parsed.
    This is exact where ``new Function(source)`` is not (it accepts a
    top-level ``return``, cannot parse modules, and gives no line numbers).

``browser_preview_checker(fs) -> list[str]`` (a ``PreviewChecker``)
    Bundles the project's entry page (``wiggum.preview.entry_page``: index.html,
    else the one page the entry-page gate accepts), loads it in a hidden
    sandboxed iframe, and collects the uncaught errors and unhandled rejections
    it reports until :data:`SETTLE_SECONDS` after its load event.
"""

from __future__ import annotations

import asyncio
import base64
import re
from typing import Any

import js  # type: ignore[import-not-found]

from wiggum.fs import FileStore
from wiggum.preview import ERROR_MESSAGE, bundle_entry_page

from .dom import Listeners, is_null
from .preview_host import host_frame, is_from, show_page

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

_CHECK_MESSAGE = "wiggum-js-check"
_CLASSIC_SENTINEL = "__wiggum_parsed_ok__"
_MODULE_SENTINEL = "wiggum-parse-only-never-resolves"
_USE_STRICT = re.compile(r"""[ \t]*(["'])use strict\1[ \t]*;?""")
_MODULE_SYNTAX = re.compile(r"^\s*(?:import\s*[\w*{\"']|export\s)", re.M)

_REPORTER = """<!DOCTYPE html><meta charset="utf-8"><script>
var first = null;
addEventListener("error", function (e) {
  if (first !== null) return;
  var err = e.error, name = err && err.name ? String(err.name) : "";
  first = {message: String(e.message || ""), name: name, line: e.lineno | 0};
}, true);
addEventListener("load", function () {
  parent.postMessage({type: "%s", error: first}, "*");
});
</script>"""


def _with_prefix(source: str, prefix: str) -> str:
    """``prefix`` put before the code without moving any line: after a hashbang
    line and after a leading ``"use strict"`` directive (which must stay first)."""
    start = 0
    if source.startswith("#!"):
        newline = source.find("\n")
        if newline < 0:
            return source
        start = newline + 1
    m = _USE_STRICT.match(source, start)
    if m:
        start = m.end()
        if not m.group().rstrip().endswith(";"):
            prefix = ";" + prefix
    return source[:start] + prefix + source[start:]


def looks_like_module(path: str, source: str) -> bool:
    return path.endswith(".mjs") or bool(_MODULE_SYNTAX.search(source))


def _hidden_frame() -> Any:
    # On our host page, not srcdoc: srcdoc would inherit Wiggum's CSP, under
    # which neither the reporter nor the code (a data: URL script) would run.
    frame = host_frame(
        {
            "sandbox": "allow-scripts",
            "aria-hidden": "true",
            "tabindex": "-1",
            "data-wiggum-checker": "true",
        },
    )
    style = frame.style
    style.position = "fixed"
    style.left = "-10000px"
    style.top = "0"
    style.width = "1024px"
    style.height = "768px"
    style.visibility = "hidden"
    style.pointerEvents = "none"
    return frame


async def _parse(source: str, module: bool) -> dict[str, Any] | None:
    """The first error the engine reports for ``source`` (or None: no error at all)."""
    if module:
        code = _with_prefix(source, f'import "{_MODULE_SENTINEL}";')
        tag = "script type=module"
    else:
        code = _with_prefix(source, f'throw "{_CLASSIC_SENTINEL}";')
        tag = "script"
    url = "data:text/javascript;base64," + base64.b64encode(code.encode("utf-8")).decode("ascii")
    doc = _REPORTER % _CHECK_MESSAGE + f'<{tag} src="{url}"></script>'

    loop = asyncio.get_running_loop()
    done: asyncio.Future[Any] = loop.create_future()
    frame = _hidden_frame()
    listeners = Listeners()

    def on_message(event: Any) -> None:
        if done.done() or not is_from(event, frame):
            return
        data = event.data
        if is_null(data) or getattr(data, "type", None) != _CHECK_MESSAGE:
            return
        err = getattr(data, "error", None)
        if is_null(err) or err is None:
            done.set_result(None)
        else:
            done.set_result(
                {
                    "message": str(getattr(err, "message", "") or ""),
                    "name": str(getattr(err, "name", "") or ""),
                    "line": int(getattr(err, "line", 0) or 0),
                }
            )

    listeners.on(js.window, "message", on_message)
    try:
        js.document.body.appendChild(frame)
        await show_page(frame, doc, LOAD_TIMEOUT)
        return await asyncio.wait_for(done, LOAD_TIMEOUT)
    finally:
        listeners.close()
        frame.remove()


def _syntax_error(err: dict[str, Any] | None) -> str | None:
    if err is None:
        return None
    message = err["message"]
    if err["name"] != "SyntaxError" and "SyntaxError" not in message:
        return None
    message = message.removeprefix("Uncaught ").strip()
    if err["line"]:
        message += f" (line {err['line']})"
    return message


async def browser_js_checker(path: str, source: str) -> str | None:
    """A ``JsSyntaxChecker``: the engine's syntax error for ``source``, or None."""
    module = looks_like_module(path, source)
    err = await _parse(source, module)
    message = _syntax_error(err)
    if message is not None and not module and "import statement outside a module" in message:
        message = _syntax_error(await _parse(source, True))
    return message


async def browser_preview_checker(fs: FileStore) -> list[str]:
    """A ``PreviewChecker``: uncaught errors of the entry page within ~1.5 s of loading."""
    bundle = await bundle_entry_page(fs)
    if isinstance(bundle, str):
        return [bundle]
    errors: list[str] = []
    loop = asyncio.get_running_loop()
    loaded: asyncio.Future[None] = loop.create_future()
    frame = _hidden_frame()
    listeners = Listeners()

    def on_message(event: Any) -> None:
        if not is_from(event, frame):
            return
        data = event.data
        if is_null(data) or getattr(data, "type", None) != ERROR_MESSAGE:
            return
        message = getattr(data, "message", None)
        if isinstance(message, str) and message not in errors and len(errors) < 50:
            errors.append(message[:2000])

    loads = [0]

    def on_load(event: Any) -> None:
        # The first load is the host page's, the second the written page's.
        loads[0] += 1
        if loads[0] >= 2 and not loaded.done():
            loaded.set_result(None)

    listeners.on(js.window, "message", on_message)
    listeners.on(frame, "load", on_load)
    try:
        js.document.body.appendChild(frame)
        try:
            await show_page(frame, bundle.html, LOAD_TIMEOUT)
            await asyncio.wait_for(loaded, LOAD_TIMEOUT)
        except TimeoutError:
            errors.append(f"the page did not finish loading within {LOAD_TIMEOUT:.0f} s")
        await asyncio.sleep(SETTLE_SECONDS)
    finally:
        listeners.close()
        frame.remove()
    return errors
