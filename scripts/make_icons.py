"""Draw the app's icons (static/icons/icon-192.png, icon-512.png): a blue rounded
square with a white "W", as the header's logo.  Standard library only (zlib
PNG), so the icons are made again the same way by anyone; run it after
changing the drawing and commit the files.  The SVG beside them is the same
drawing for browsers that prefer vectors."""

from __future__ import annotations

import itertools
import struct
import sys
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ACCENT = (0x2F, 0x6F, 0xDE)
WHITE = (0xFF, 0xFF, 0xFF)
#: The W as a polyline in a 0..1 square (the same points as icon.svg).
W_POINTS = [(0.22, 0.3), (0.35, 0.72), (0.5, 0.38), (0.65, 0.72), (0.78, 0.3)]
STROKE = 0.085


def _dist(px: float, py: float, a: tuple, b: tuple) -> float:
    """Distance from a point to a segment (the W's strokes are thick segments)."""
    (ax, ay), (bx, by) = a, b
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    return ((px - ax - t * dx) ** 2 + (py - ay - t * dy) ** 2) ** 0.5


def pixel(x: float, y: float) -> tuple[int, int, int]:
    # Full-bleed square: installed icons are masked by the system ("maskable").
    segments = itertools.pairwise(W_POINTS)
    if min(_dist(x, y, a, b) for a, b in segments) < STROKE / 2:
        return WHITE
    return ACCENT


def png(size: int) -> bytes:
    rows = bytearray()
    for j in range(size):
        rows.append(0)
        for i in range(size):
            rows.extend(pixel((i + 0.5) / size, (j + 0.5) / size))

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    head = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", head)
        + chunk(b"IDAT", zlib.compress(bytes(rows), 9))
        + chunk(b"IEND", b"")
    )


def main() -> int:
    for size in (192, 512):
        (ROOT / "static" / "icons" / f"icon-{size}.png").write_bytes(png(size))
    return 0


if __name__ == "__main__":
    sys.exit(main())
