"""Vendored packages installed after boot, on first use (``dulwich``, ``pygments``, ...).

Its own module, below ``wiggum.web.boot`` (which runs the app) and the views
and app that need a package later, so none of them imports the boot module.
"""

from __future__ import annotations

import js  # type: ignore[import-not-found]  # Pyodide's JavaScript globals

__all__ = ["load_packages"]


async def load_packages(*names: str) -> None:
    """Install vendored packages (by name from build_lock.json) after boot.

    Unlike ``pyodide_js.loadPackage`` this raises if a package did not load.
    """
    py = js.wiggumBoot.pyodide
    await py.loadPackage(list(names))
    loaded = py.loadedPackages
    missing = [n for n in names if not getattr(loaded, n.lower().replace("_", "-"), None)]
    if missing:
        raise ImportError(f"could not load vendored package(s): {', '.join(missing)}")
