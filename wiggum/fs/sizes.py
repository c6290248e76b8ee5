"""A byte count in words ("512 B", "28.2 KB", "9.5 MB", "1.2 GB"): one spelling for every
message and view that names a size (tool output, upload limits, storage use, publish summary)."""

from __future__ import annotations

__all__ = ["format_size"]

_UNITS = ((1024**3, "GB"), (1024**2, "MB"), (1024, "KB"))


def format_size(n: int) -> str:
    for scale, unit in _UNITS:
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n} B"
