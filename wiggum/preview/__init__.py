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
    no_page_yet,
    resolve_ref,
)
from .entry import INDEX, bundle_entry_page, entry_page, entry_page_among, is_page, site_files

__all__ = [
    "ERROR_MESSAGE",
    "INDEX",
    "NAV_MESSAGE",
    "Bundle",
    "Missing",
    "bundle_entry_page",
    "bundle_page",
    "data_url",
    "entry_page",
    "entry_page_among",
    "is_page",
    "mime_type",
    "no_page_yet",
    "resolve_ref",
    "site_files",
]
