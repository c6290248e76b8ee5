"""First screen of the Wiggum page.

Runs in Pyodide on the page's main thread: index.html -> PyScript ->
``from wiggum.web.boot import main; main()``.  By then Pyodide has already
installed the ``wiggum`` package and its declared dependencies (pydantic & co.)
from static/vendor (see build.py); nothing here touches the network.

``[data-testid="app-ready"]`` means the app is usable: it is added once
``wiggum.web.app.mount(root)`` has built the shell (the progress bar stays up
until then, at its "Starting Wiggum" stage).  Anything the first screen does not
need belongs after that, in :func:`after_ready`; every import made before it
delays app-ready.

Extra vendored packages (anything in build_lock.json that is not preloaded, e.g.
``jiter``) are installed on demand with ``await load_packages("jiter")``.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Awaitable, Callable
from typing import Any

import js  # type: ignore[import-not-found]  # Pyodide's JavaScript globals

_after_ready: list[Callable[[], Any]] = []
_tasks: set[asyncio.Future] = set()
READY = False


def _boot() -> Any:
    return js.wiggumBoot


def stage(name: str, label: str | None = None) -> None:
    """Advance the boot progress bar (runtime, python, packages, app)."""
    _boot().stage(name, label)


def after_ready(fn: Callable[[], Any | Awaitable[Any]]) -> Callable[[], Any]:
    """Run ``fn`` once the first screen is up (immediately if it already is)."""
    if READY:
        _spawn(fn)
    else:
        _after_ready.append(fn)
    return fn


async def load_packages(*names: str) -> None:
    """Install vendored packages (by name from build_lock.json) after boot.

    Unlike ``pyodide_js.loadPackage`` this raises if a package did not load.
    """
    py = _boot().pyodide
    await py.loadPackage(list(names))
    loaded = py.loadedPackages
    missing = [n for n in names if not getattr(loaded, n.lower().replace("_", "-"), None)]
    if missing:
        raise ImportError(f"could not load vendored package(s): {', '.join(missing)}")


def _spawn(fn: Callable[[], Any]) -> None:
    async def run() -> None:
        try:
            result = fn()
            if asyncio.iscoroutine(result):
                await result
        except Exception as exc:  # report, never take the page down
            js.console.error(f"wiggum after_ready {getattr(fn, '__name__', fn)!r}: {exc!r}")

    task = asyncio.ensure_future(run())
    _tasks.add(task)
    task.add_done_callback(_tasks.discard)


def _mark_ready(info: dict[str, str]) -> None:
    """The app is usable: add ``[data-testid="app-ready"]``, hide the boot bar and
    run what waited for it."""
    global READY
    doc = js.document
    status = doc.getElementById("app-status")
    status.textContent = f"v{info['wiggum']}"
    marker = doc.createElement("span")
    marker.className = "app-ready"
    marker.setAttribute("data-testid", "app-ready")
    for key, value in info.items():
        marker.setAttribute(f"data-{key.replace('_', '-')}", value)
    status.append(marker)
    READY = True
    _boot().ready(js.JSON.parse(json.dumps(info)))
    for fn in _after_ready:
        _spawn(fn)
    _after_ready.clear()


def _fail(exc: BaseException) -> None:
    import traceback

    _boot().fail("".join(traceback.format_exception(exc)))


async def _mount_app(root: Any, info: dict[str, str]) -> None:
    """Mount the app shell; app-ready only once it is usable (or boot fails visibly)."""
    try:
        from wiggum.web import app

        await app.mount(root)
    except Exception as exc:  # shown in the boot box; the page has nothing else to offer
        _fail(exc)
        return
    _mark_ready(info)


def main() -> None:
    try:
        stage("packages", "Loading pydantic")
        # `import pydantic` is lazy; pydantic_core is the compiled (wasm) extension.
        import pydantic
        import pydantic_core

        # prove the compiled validator runs
        validator = pydantic_core.SchemaValidator(
            pydantic_core.core_schema.typed_dict_schema(
                {
                    "n": pydantic_core.core_schema.typed_dict_field(
                        pydantic_core.core_schema.int_schema()
                    )
                }
            )
        )
        if validator.validate_json('{"n": "1"}') != {"n": 1}:
            raise RuntimeError("pydantic_core validation is broken")

        stage("app")
        import wiggum

        info = {
            "python": ".".join(map(str, sys.version_info[:3])),
            "pydantic": pydantic.VERSION,
            "pydantic_core": pydantic_core.__version__,
            "wiggum": getattr(wiggum, "__version__", "0"),
        }
        root = js.document.getElementById("app-root")
    except BaseException as exc:
        _fail(exc)
        raise

    _spawn(lambda: _mount_app(root, info))
