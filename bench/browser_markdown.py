#!/usr/bin/env python3
"""Markdown rendering in the page: a 36 KB reply streamed in 200-byte chunks.

    python bench/browser_markdown.py

Boots the built site in Debian's Chromium (offline), waits for the idle
prefetch (Pygments, common lexers), then in the page's Pyodide: markdown-it-py
parsing the whole reply once, the element tree at once, the DOM at once; then
per 200-byte chunk, side by side: markdown-it-py alone parsing the text so far
(the reference) and ``StreamingMarkdown`` as the page runs it (the chunk fed,
then time slices until its parse, DOM and code colouring are done), with the
figures of the slices themselves (each is one task in the page).
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
                    "import sys; m = sys.modules.get('wiggum.web.markdown_view'); "
                    + "bool(m) and m.prefetched")""",
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
    pc, ref, sl = fig["per_chunk"], fig["markdown_it_per_chunk"], fig["slices"]

    def row(label: str, st: dict) -> str:
        return (
            f"  {label:40s}: median {st['median']:6.2f} ms, p95 {st['p95']:6.2f} ms, "
            f"max {st['max']:6.2f} ms, total {st['total']:7.0f} ms"
        )

    print(f"reply: {len(text)} chars, {pc['n']} chunks of 200")
    print(f"  building the parser (first use)         : {fig['parser_ms']:7.1f} ms")
    print(f"  markdown-it-py parse, whole reply once  : {fig['markdown_it_parse_ms']:7.1f} ms")
    print(f"  element tree, whole reply once          : {fig['tree_at_once_ms']:7.1f} ms")
    print(f"  DOM, whole reply once                   : {fig['dom_at_once_ms']:7.1f} ms")
    print("per chunk:")
    print(row("markdown-it-py alone, text so far", ref))
    print(row("StreamingMarkdown (parse, DOM, colour)", pc))
    print(f"  in {sl['n']} slices ({fig['renders']} renders), one slice at most:")
    print(row("  slice", sl))
    print(f"  slowest chunks (ms, index): {fig['slowest']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
