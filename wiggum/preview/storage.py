"""The site's own storage in the preview: a shim over a snapshot, and the messages it sends.

Why a shim.  The preview's frame is sandboxed without ``allow-same-origin``,
so its origin is opaque: the browser's ``localStorage``, ``sessionStorage``
and ``document.cookie`` throw ``SecurityError`` there, and a site that keeps
its to-dos in ``localStorage`` breaks.  Giving the frame an origin is not an
option on a static host: Wiggum's page has one origin, and any frame at that
origin (``allow-same-origin``, a service worker, a ``blob:`` page) could read
Wiggum's own storage and the person's API keys.  A second origin (previews
served from another site, as some builders do) would need a second host
Wiggum does not have.  So :func:`with_storage` injects a script before every
other script of the bundled page: it answers ``getItem``/``setItem``/... (and
``localStorage.x``, ``Object.keys(localStorage)``, ``document.cookie``)
synchronously from a snapshot of the project's storage embedded in the page,
and posts each changed area whole (``{type: STORAGE_MESSAGE, area, items}``)
to the preview, which checks it (:func:`read_storage_message`: only from its
own frame, only this shape, within the quota) and keeps it with the project
(``wiggum.session.site_storage``).  The site never sees anything but its own
values; Wiggum's storage stays out of its reach.

IndexedDB is not shimmed: it still throws in the preview (an asynchronous
database over a message channel is a project of its own).
"""

from __future__ import annotations

from typing import Any

from .runtime import injected_source, js_value

__all__ = [
    "AREAS",
    "MAX_AREA_CHARS",
    "MAX_KEYS",
    "STORAGE_MESSAGE",
    "empty_snapshot",
    "read_storage_message",
    "storage_script",
    "with_storage",
]

STORAGE_MESSAGE = "wiggum-preview-storage"
#: The areas the shim keeps: localStorage, sessionStorage, document.cookie.
AREAS = ("local", "session", "cookie")
#: Characters (keys and values) one area may hold, as a browser's 5 MB quota.
MAX_AREA_CHARS = 5_000_000
#: Keys one area may hold.
MAX_KEYS = 10_000
_RUNTIME_TAG = '<script data-wiggum-preview="runtime">'


def empty_snapshot() -> dict[str, dict[str, str]]:
    return {area: {} for area in AREAS}


def storage_script(snapshot: dict[str, dict[str, str]]) -> str:
    """The ``<script>`` that gives the page its storage, seeded with ``snapshot``."""
    seed = {area: dict(snapshot.get(area) or {}) for area in AREAS}
    code = (
        injected_source("storage_shim.js")
        .replace("__WIGGUM_STORAGE__", js_value(seed))
        .replace("__WIGGUM_CAP__", str(MAX_AREA_CHARS))
        .replace("__WIGGUM_KIND__", STORAGE_MESSAGE)
    )
    return f'<script data-wiggum-preview="storage">{code}</script>'


def with_storage(html: str, snapshot: dict[str, dict[str, str]]) -> str:
    """The bundled page ``html`` with its storage script first, before the runtime
    (so before any of the site's scripts); a page without the runtime (not one
    of ours) is returned as it is."""
    at = html.find(_RUNTIME_TAG)
    if at < 0:
        return html
    return html[:at] + storage_script(snapshot) + html[at:]


def read_storage_message(area: Any, items: Any) -> tuple[str, dict[str, str]] | None:
    """``(area, items)`` of a storage message in its shape and within the quota,
    else ``None`` (the message is ignored)."""
    if area not in AREAS or not isinstance(items, dict) or len(items) > MAX_KEYS:
        return None
    total = 0
    for key, value in items.items():
        if not isinstance(key, str) or not isinstance(value, str):
            return None
        total += len(key) + len(value)
        if total > MAX_AREA_CHARS:
            return None
    return str(area), dict(items)
