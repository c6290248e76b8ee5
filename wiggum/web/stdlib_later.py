"""The standard library modules that come after the app (build.py's ``stdlib_split``).

pyscript.toml's ``stdlib_later`` modules (a developer's tools at a terminal, and
what Pyodide cannot run) are not in the standard library zip the page starts
with: about half a megabyte less before the app is up.  They are in a second
zip, which :func:`load_later` fetches once the whole app is up and puts on
``sys.path``.  Until then :class:`LaterStdlib`, first on ``sys.meta_path``,
stands for them: an import of one of them fetches the zip at once,
synchronously (an XMLHttpRequest, the one way to wait inside an ``import``),
so the import works either way; it only waits.

No library does this: Pyodide loads its standard library as one zip.
"""

from __future__ import annotations

import gzip
import importlib
import sys
from collections.abc import Callable, Iterable
from importlib.abc import MetaPathFinder
from typing import Any

__all__ = ["LaterStdlib", "install", "load_later"]

#: Where the second zip goes (beside the first, /lib/python3XY.zip).
ZIP_PATH = "/lib/python_stdlib_later.zip"


class LaterStdlib(MetaPathFinder):
    """Stands for ``modules`` until their zip is on ``sys.path``; ``fetch_sync``
    gives the zip (gzipped) when one is imported before :meth:`mount`."""

    def __init__(
        self, modules: Iterable[str], fetch_sync: Callable[[], bytes], path: str = ZIP_PATH
    ) -> None:
        self.modules = frozenset(modules)
        self.path = path
        self.mounted = False
        self._fetch_sync = fetch_sync

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        if not self.mounted and name.partition(".")[0] in self.modules:
            try:
                gz = self._fetch_sync()
            except Exception as exc:
                raise ModuleNotFoundError(
                    f"{name} is in the part of Python's standard library that loads after "
                    f"the app, and it could not be loaded ({exc}). Reload the page.",
                    name=name,
                ) from exc
            self.mount(gz)
        return None  # the path finder finds it, in the zip now on sys.path

    def mount(self, gz: bytes) -> None:
        """Put the zip (gzipped, as build.py writes it) on ``sys.path``, once."""
        if self.mounted:
            return
        with open(self.path, "wb") as out:
            out.write(gzip.decompress(gz))
        sys.path.append(self.path)
        importlib.invalidate_caches()
        self.mounted = True
        if self in sys.meta_path:
            sys.meta_path.remove(self)


def _url(rel: str) -> str:
    import js  # type: ignore[import-not-found]

    return str(js.URL.new(rel, js.wiggumBoot.base).href)


def _fetch_sync(rel: str) -> bytes:
    import js  # type: ignore[import-not-found]

    xhr = js.XMLHttpRequest.new()
    xhr.open("GET", _url(rel), False)
    # Bytes through a synchronous request: every byte as one character whose low
    # byte is the byte (a binary responseType is refused for synchronous requests).
    xhr.overrideMimeType("text/plain; charset=x-user-defined")
    xhr.send()
    if xhr.status != 200:
        raise OSError(f"HTTP {xhr.status}")
    return str(xhr.responseText).encode("utf-16-le")[::2]


def install(later: Any) -> LaterStdlib | None:
    """Put a :class:`LaterStdlib` for the build manifest's ``stdlib_later`` first on
    ``sys.meta_path`` (nothing for a manifest without one)."""
    if not later or not later.get("modules"):
        return None
    rel = later["url"]
    finder = LaterStdlib(later["modules"], lambda: _fetch_sync(rel))
    sys.meta_path.insert(0, finder)
    return finder


async def load_later(finder: LaterStdlib, later: Any) -> None:
    """Fetch the second zip (its integrity checked) and mount it."""
    import js  # type: ignore[import-not-found]
    from pyodide.ffi import to_js  # type: ignore[import-not-found]

    if finder.mounted:
        return
    init = to_js({"integrity": later["integrity"]}, dict_converter=js.Object.fromEntries)
    response = await js.fetch(_url(later["url"]), init)
    if not response.ok:
        raise OSError(f"{later['url']}: HTTP {response.status}")
    finder.mount((await response.arrayBuffer()).to_bytes())
