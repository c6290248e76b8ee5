"""References in a project's files: what they point at, and what they become.

A reference is resolved relative to the file it is written in (``./``, ``../``,
``/`` = project root; query strings and fragments are ignored for the lookup)
and never outside the project.  Local files are embedded as ``data:`` URLs with
the MIME type of their extension.
"""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass
from urllib.parse import unquote

from wiggum.fs.paths import PathError, join_path, normalize_path

__all__ = ["IMAGE_EXTS", "Missing", "Target", "data_url", "file_ext", "mime_type", "resolve_ref"]

_MIME = {
    "html": "text/html",
    "htm": "text/html",
    "css": "text/css",
    "js": "text/javascript",
    "mjs": "text/javascript",
    "cjs": "text/javascript",
    "json": "application/json",
    "map": "application/json",
    "txt": "text/plain",
    "md": "text/markdown",
    "csv": "text/csv",
    "xml": "application/xml",
    "vtt": "text/vtt",
    "png": "image/png",
    "jpg": "image/jpeg",
    "jpeg": "image/jpeg",
    "gif": "image/gif",
    "webp": "image/webp",
    "avif": "image/avif",
    "bmp": "image/bmp",
    "ico": "image/x-icon",
    "svg": "image/svg+xml",
    "woff": "font/woff",
    "woff2": "font/woff2",
    "ttf": "font/ttf",
    "otf": "font/otf",
    "eot": "application/vnd.ms-fontobject",
    "mp3": "audio/mpeg",
    "wav": "audio/wav",
    "ogg": "audio/ogg",
    "oga": "audio/ogg",
    "m4a": "audio/mp4",
    "flac": "audio/flac",
    "mp4": "video/mp4",
    "webm": "video/webm",
    "ogv": "video/ogg",
    "pdf": "application/pdf",
    "wasm": "application/wasm",
}
IMAGE_EXTS = frozenset({"png", "jpg", "jpeg", "gif", "webp", "avif", "bmp", "ico", "svg"})

_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def mime_type(path: str) -> str:
    """The MIME type of ``path``'s extension (``application/octet-stream`` if unknown)."""
    ext = path.rsplit(".", 1)[-1].lower() if "." in path.rsplit("/", 1)[-1] else ""
    return _MIME.get(ext, "application/octet-stream")


def file_ext(path: str) -> str:
    name = path.rsplit("/", 1)[-1]
    return name.rsplit(".", 1)[-1].lower() if "." in name else ""


def data_url(data: bytes, mime: str) -> str:
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"


@dataclass(frozen=True, slots=True)
class Target:
    """What a reference points at.

    ``kind``: ``local`` (``path`` in the project), ``fragment`` (same page),
    ``external`` (a URL with a scheme or ``//host``), ``empty``, or ``outside``
    (climbs above the project root, or not a valid project path).
    """

    kind: str
    path: str = ""
    fragment: str = ""
    trailing_slash: bool = False


def resolve_ref(ref: str, base_dir: str) -> Target:
    """Resolve ``ref`` as written in a file of the directory ``base_dir``."""
    ref = ref.strip()
    if not ref:
        return Target("empty")
    if ref.startswith("#"):
        return Target("fragment", fragment=unquote(ref[1:]))
    if ref.startswith("//") or _SCHEME.match(ref):
        return Target("external")
    path, _, fragment = ref.partition("#")
    path = path.split("?", 1)[0]
    if not path:  # "?q" alone: the page itself
        return Target("fragment", fragment=unquote(fragment))
    path = unquote(path)
    try:
        if path.startswith("/"):
            resolved = normalize_path(path.lstrip("/"))
        else:
            resolved = join_path(base_dir, path)
    except PathError:
        return Target("outside")
    return Target("local", resolved, unquote(fragment), path.endswith("/"))


@dataclass(frozen=True, slots=True)
class Missing:
    """A reference the bundle left as written."""

    #: The file the reference is written in.
    source: str
    #: The reference as written.
    ref: str
    reason: str = "not found"

    def __str__(self) -> str:
        return f"{self.source}: {self.ref} ({self.reason})"
