"""The script injected first into every bundled page (``injected/*.js``).

``fetch_shim.js`` answers the page's requests for project files from the map
the bundle embeds (``__WIGGUM_PROJECT__``: ``{"page", "files", "over", "cap"}``);
``runtime.js`` reports uncaught errors to Wiggum (``ERROR_MESSAGE``, with the
file and line they came from: ``__WIGGUM_LINES__``), and everything the
preview's console shows (``CONSOLE_MESSAGE``: errors with their stacks mapped
to project files, unhandled rejections, the site's ``console`` calls, resources
that failed to load, CSP violations); it turns clicks on project links, and
forms the site's scripts did not handle, into ``NAV_MESSAGE`` and scrolls to a
fragment (``__WIGGUM_START__``).  In the live preview it also carries the select
mode (``point.js``, given the load's secret: :mod:`wiggum.preview.point`); the
site checks' and probes' frames get a function that does nothing in its place.
The placeholders are identifiers, so both files are plain JavaScript that tools
can check; they are replaced by inert JSON literals (:func:`js_value`).
"""

from __future__ import annotations

import base64
import functools
import html
import json
import re
from importlib import resources
from typing import Any

from .point import INSPECTED, TO_FRAME
from .refs import mime_type

__all__ = [
    "AUDIT_MESSAGE",
    "CONSOLE_MESSAGE",
    "ERROR_MESSAGE",
    "NAV_MESSAGE",
    "audit_script",
    "embedded_file",
    "injected_source",
    "js_value",
    "point_code",
    "runtime_script",
]

NAV_MESSAGE = "wiggum-preview-nav"
ERROR_MESSAGE = "wiggum-preview-error"
CONSOLE_MESSAGE = "wiggum-preview-console"
AUDIT_MESSAGE = "wiggum-preview-audit"

_JS_UNSAFE = str.maketrans(
    {
        "<": "\\u003c",
        ">": "\\u003e",
        "&": "\\u0026",
        "\u2028": "\\u2028",
        "\u2029": "\\u2029",
    }
)
_PLACEHOLDER = re.compile(r"__WIGGUM_(LINES|ERROR|NAV|START|PAGE|CONSOLE|POINTJS|SECRET)__")


@functools.cache
def injected_source(name: str) -> str:
    """The text of ``injected/<name>``."""
    text = resources.files(__package__).joinpath("injected", name).read_text(encoding="utf-8")
    return text.removesuffix("\n")


def js_value(value: Any) -> str:
    """``value`` as a JS literal that is inert inside ``<script>``: no ``<``, ``>``
    or ``&`` (so no ``</script>`` or ``<!--``), no raw line separators."""
    return json.dumps(value, ensure_ascii=False).translate(_JS_UNSAFE)


def embedded_file(path: str, data: bytes) -> list[Any]:
    """A file as the shim's map holds it: ``[path, mime, base64?, data]``: UTF-8
    text as a string, anything else base64."""
    try:
        return [path, mime_type(path), 0, data.decode("utf-8")]
    except UnicodeDecodeError:
        return [path, mime_type(path), 1, base64.b64encode(data).decode("ascii")]


def point_code() -> str:
    """The select mode's function (``injected/point.js``), its constants filled in."""
    return (
        injected_source("point.js")
        .replace("__WIGGUM_INSPECTED__", js_value(list(INSPECTED)))
        .replace("__WIGGUM_TO_FRAME__", TO_FRAME)
    )


def runtime_script(
    fragment: str,
    project: dict[str, Any],
    lines: dict[str, tuple[str, int]] | None = None,
    *,
    point: str | None = None,
) -> str:
    """The ``<script>`` element: the shim over ``project``, then the runtime.

    ``lines``: for each piece of script code, its ``//# sourceURL`` ->
    ``(file, lines before it in the file)``, so an error names the project
    file and its line there.  ``point``: the select channel's secret for this
    load (the select mode is left out without one).
    """
    shim = injected_source("fetch_shim.js").replace("__WIGGUM_PROJECT__", js_value(project))
    values = {
        "LINES": js_value(lines or {}),
        "ERROR": ERROR_MESSAGE,
        "NAV": NAV_MESSAGE,
        "START": js_value(fragment),
        "PAGE": js_value(str(project.get("page") or "")),
        "CONSOLE": CONSOLE_MESSAGE,
        "POINTJS": point_code() if point else "(function () {})",
        "SECRET": js_value(point or ""),
    }
    code = _PLACEHOLDER.sub(lambda m: values[m.group(1)], injected_source("runtime.js"))
    return f'<script data-wiggum-preview="runtime">{shim}\n{code}</script>'


def audit_script(delay_ms: int = 300, axe: str | None = None) -> str:
    """The ``<script>`` elements added after a page's own for the browser's checks
    (``injected/audit.js``): ``delay_ms`` after the page's load event it posts
    ``AUDIT_MESSAGE`` with what overflows the frame's width and, with ``axe``
    (the address of the vendored axe-core, loaded here after the page's own
    scripts), axe-core's violations."""
    code = (
        injected_source("audit.js")
        .replace("__WIGGUM_AUDIT__", AUDIT_MESSAGE)
        .replace("__WIGGUM_DELAY__", str(int(delay_ms)))
        .replace("__WIGGUM_AXE__", "true" if axe else "false")
    )
    loader = f'<script data-wiggum-preview="axe" src="{html.escape(axe)}"></script>' if axe else ""
    return f'{loader}<script data-wiggum-preview="audit">{code}</script>'
