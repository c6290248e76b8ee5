"""The browser's storage manager (``navigator.storage``): how full, and whether kept.

Not IndexedDB itself: what the origin may use and has used (``estimate``),
for the sentence a refused write shows (:class:`wiggum.fs.StorageFull`), and
the request that the browser keep this origin's data under storage pressure.
"""

from __future__ import annotations

import logging

import js  # type: ignore[import-not-found]
from pyodide.ffi import JsException  # type: ignore[import-not-found]

from wiggum.fs.errors import StorageFull
from wiggum.ui.projects import StorageEstimate

__all__ = ["estimate", "request_persistence", "storage_full"]

log = logging.getLogger("wiggum.web")


async def estimate() -> StorageEstimate | None:
    """What the origin uses and may use, and whether it is kept; ``None``: unknown."""
    manager = getattr(js.navigator, "storage", None)
    if manager is None or not hasattr(manager, "estimate"):
        return None
    try:
        est = await manager.estimate()
        persisted = bool(await manager.persisted()) if hasattr(manager, "persisted") else None
    except Exception as exc:  # what depends on it reads well without it
        log.warning("navigator.storage.estimate() failed: %s", exc)
        return None
    return StorageEstimate(int(est.usage or 0), int(est.quota or 0), persisted)


async def storage_full(path: str = "") -> StorageFull:
    """The typed quota error, with the origin's use and quota when the browser says
    (the message reads well without the figures)."""
    est = await estimate()
    return StorageFull(path, *((None, None) if est is None else (est.usage, est.quota)))


async def request_persistence() -> bool:
    """Ask the browser to keep this origin's storage under storage pressure.

    Returns whether storage is persistent (already, or now granted).
    """
    manager = getattr(js.navigator, "storage", None)
    if manager is None or not hasattr(manager, "persist"):
        return False
    try:
        if await manager.persisted():
            return True
        granted = bool(await manager.persist())
    except JsException as exc:
        log.warning("navigator.storage.persist() failed: %s", exc)
        return False
    if not granted:
        log.info("the browser did not grant persistent storage (it may evict under pressure)")
    return granted
