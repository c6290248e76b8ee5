#!/usr/bin/env python3
"""Markdown rendering under CPython: a 36 KB reply streamed in 200-byte chunks.

    python bench/markdown.py

Prints markdown-it-py parsing the whole reply once (the reference), the
element tree at once, and ``MarkdownStream.feed`` per 200-byte chunk
(median, p95, max, total).  The page's figures (Pyodide, with the DOM) come
from bench/browser_markdown.py.  No assertions.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "e2e"), str(ROOT / "bench")]

from markdown_inpage import run  # noqa: E402
from markdown_reply import markdown_reply  # noqa: E402


def main() -> int:
    text = markdown_reply()
    fig = run(text, 200, dom=False)
    pc = fig["per_chunk"]
    print(f"reply: {len(text)} chars, {pc['n']} chunks of 200 (CPython {sys.version.split()[0]})")
    print(f"  markdown-it-py parse, whole reply once : {fig['markdown_it_parse_ms']:7.1f} ms")
    print(f"  element tree, whole reply once         : {fig['tree_at_once_ms']:7.1f} ms")
    print(
        f"  streaming, per chunk: median {pc['median']:.2f} ms, p95 {pc['p95']:.2f} ms, "
        f"max {pc['max']:.2f} ms, total {pc['total']:.0f} ms"
    )
    print(f"  slowest chunks (ms, index): {fig['slowest']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
