#!/usr/bin/env python3
"""Markdown rendering in the page: a 36 KB reply streamed in 200-byte chunks.

    python bench/browser_markdown.py

Boots the built site in Debian's Chromium (offline), waits for Pygments, then in
the page's Pyodide: markdown-it-py parsing the whole reply once (the
reference), the element tree at once, the DOM at once, and
``StreamingMarkdown.update`` per 200-byte chunk (median, p95, max, total).
No assertions.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "e2e")]

from markdown_reply import markdown_reply  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402
from wiggum_e2e import CHROMIUM, CHROMIUM_ARGS, SiteServer, open_app  # noqa: E402


def main() -> int:
    text = markdown_reply()
    src = (ROOT / "bench" / "markdown_inpage.py").read_text()
    server = SiteServer(ROOT)
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page()
            open_app(page, server.url)
            page.wait_for_function(  # Pygments & common lexers load while idle after boot
                """() => wiggumBoot.pyodide.runPython(
                    "import sys; m = sys.modules.get('wiggum.ui.highlight'); "
                    + "bool(m) and {'python', 'sh'} <= set(m._LEXERS)")""",
                timeout=60_000,
                polling=500,
            )
            page.evaluate("t => { window.__reply = t; window.__src = t; }", text)
            page.evaluate("s => { window.__bench = s; }", src)
            out = page.evaluate(
                """async () => await wiggumBoot.pyodide.runPythonAsync(`
import js, json, types
mod = types.ModuleType("markdown_inpage")
exec(js.window.__bench, mod.__dict__)
json.dumps(mod.run(js.window.__reply, 200, dom=True))
`)"""
            )
            browser.close()
    finally:
        server.close()
    fig = json.loads(out)
    pc = fig["per_chunk"]
    print(f"reply: {len(text)} chars, {pc['n']} chunks of 200")
    print(f"  building the parser (first use)        : {fig['parser_ms']:7.1f} ms")
    print(f"  markdown-it-py parse, whole reply once : {fig['markdown_it_parse_ms']:7.1f} ms")
    print(f"  element tree, whole reply once         : {fig['tree_at_once_ms']:7.1f} ms")
    print(f"  DOM, whole reply once                  : {fig['dom_at_once_ms']:7.1f} ms")
    print(
        f"  streaming, per chunk: median {pc['median']:.2f} ms, p95 {pc['p95']:.2f} ms, "
        f"max {pc['max']:.2f} ms, total {pc['total']:.0f} ms"
    )
    print(f"  slowest chunks (ms, index): {fig['slowest']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
