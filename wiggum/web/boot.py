"""Boot of the Wiggum page, in two steps.

Runs in Pyodide on the page's main thread: index.html -> PyScript ->
``from wiggum.web.boot import main; main()``.  By then Pyodide has installed
the ``wiggum`` package alone (see build.py and pyscript.toml); nothing here
touches the network but the vendored files.

1. The first screen (``wiggum.web.shell``): header, tabs, Chief's stored
   conversation and the composer, built without pydantic.  Then
   ``[data-testid="app-ready"]`` is added and the progress bar goes away: the
   person can read, type and switch tabs.
2. Right after: pydantic & co. (pyscript.toml's ``after_ready``) are installed
   (the boot module requested them when the runtime had arrived, so they are
   usually in the HTTP cache by now) and ``wiggum.web.app`` attaches the rest
   of the app to the shell; a message
   sent meanwhile waits for it.  The app-ready marker then gets
   ``data-loaded="true"`` (and the pydantic versions).  A failure here shows in
   the boot box, like a failed start.

Every import made before app-ready delays it.  Extra vendored packages
(anything in build_lock.json that is not preloaded, e.g. ``jiter``) are
installed on demand with ``await load_packages("jiter")``.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Coroutine
from typing import Any

import js  # type: ignore[import-not-found]  # Pyodide's JavaScript globals

from .packages import load_packages

_tasks: set[asyncio.Future] = set()


def _boot() -> Any:
    return js.wiggumBoot


def stage(name: str, label: str | None = None) -> None:
    """Advance the boot progress bar (runtime, python, packages, app)."""
    _boot().stage(name, label)


def _spawn(work: Coroutine[Any, Any, None]) -> None:
    """Run ``work`` in the background, kept alive until done."""

    async def run() -> None:
        try:
            await work
        except Exception as exc:  # report, never take the page down
            js.console.error(f"wiggum boot: {exc!r}")

    task = asyncio.ensure_future(run())
    _tasks.add(task)
    task.add_done_callback(_tasks.discard)


def _marker() -> Any:
    return js.document.querySelector('[data-testid="app-ready"]')


def _mark_ready(info: dict[str, str]) -> None:
    """The first screen is up: add ``[data-testid="app-ready"]``, hide the boot bar."""
    from wiggum.ui.markup.shell import ready_marker

    from .dom import mount  # loaded already: the first screen is built with it

    status = js.document.getElementById("app-status")
    status.textContent = f"v{info['wiggum']}"
    status.append(mount(ready_marker(info)).el)
    _boot().ready(js.JSON.parse(json.dumps(info)))


def _set_info(marker: Any, info: dict[str, str]) -> None:
    for key, value in info.items():
        marker.setAttribute(f"data-{key.replace('_', '-')}", value)


def _mark_loaded(info: dict[str, str]) -> None:
    """The whole app is attached: ``data-loaded="true"`` on the app-ready marker."""
    marker = _marker()
    _set_info(marker, info)
    marker.setAttribute("data-loaded", "true")
    _boot().mark("loaded")


def _fail(exc: BaseException) -> None:
    import traceback

    # shown even after app-ready: the app behind the first screen did not arrive
    _boot().fail("".join(traceback.format_exception(exc)), True)


def _check_pydantic() -> dict[str, str]:
    """Prove the compiled validator runs; the versions for the app-ready marker."""
    # `import pydantic` is lazy; pydantic_core is the compiled (wasm) extension.
    import pydantic
    import pydantic_core
    from pydantic_core import core_schema as cs

    validator = pydantic_core.SchemaValidator(
        cs.typed_dict_schema({"n": cs.typed_dict_field(cs.int_schema())})
    )
    if validator.validate_json('{"n": "1"}') != {"n": 1}:
        raise RuntimeError("pydantic_core validation is broken")
    return {"pydantic": pydantic.VERSION, "pydantic_core": pydantic_core.__version__}


def _later_stdlib() -> tuple[Any, Any]:
    """The finder for the standard library modules that load after the app (see
    wiggum.web.stdlib_later), installed now, and the manifest's entry for them."""
    from .stdlib_later import install

    entry = getattr(_boot().manifest, "stdlib_later", None)
    later = entry.to_py() if entry is not None else None
    return install(later), later


async def _mount_app(root: Any, info: dict[str, str], later: tuple[Any, Any]) -> None:
    """First screen, app-ready, then the rest of the app (or a visible failure)."""
    try:
        from wiggum.web.shell import open_shell

        shell = await open_shell(root)
    except Exception as exc:  # shown in the boot box; the page has nothing else to offer
        _fail(exc)
        return
    _mark_ready(info)
    try:
        await load_packages(*_boot().manifest.after_ready.to_py())
        _boot().mark("loaded:packages")
        versions = _check_pydantic()
        from wiggum.web import app

        _boot().mark("loaded:imports")
        await app.mount(shell)
    except Exception as exc:
        _fail(exc)
        return
    _mark_loaded(versions)
    finder, entry = later
    if finder is not None:
        from .stdlib_later import load_later

        _spawn(load_later(finder, entry))
    from .markdown_view import prefetch_highlighter

    prefetch_highlighter(js.document)  # code highlighting, while the page is idle


def main() -> None:
    try:
        stage("app")
        later = _later_stdlib()
        import wiggum

        info = {
            "python": ".".join(map(str, sys.version_info[:3])),
            "wiggum": getattr(wiggum, "__version__", "0"),
        }
        root = js.document.getElementById("app-root")
    except BaseException as exc:
        _fail(exc)
        raise

    _spawn(_mount_app(root, info, later))
