"""The live preview's bundler: a project page as one self-contained HTML document.

Pure Python (runs under CPython and Pyodide alike); the browser side lives in
``wiggum.web.views.preview`` and ``wiggum.web.checkers``.
"""

from .bundle import (
    ERROR_MESSAGE,
    NAV_MESSAGE,
    Bundle,
    Missing,
    bundle_page,
    data_url,
    mime_type,
    resolve_ref,
)

__all__ = [
    "ERROR_MESSAGE",
    "NAV_MESSAGE",
    "Bundle",
    "Missing",
    "bundle_page",
    "data_url",
    "mime_type",
    "resolve_ref",
]
