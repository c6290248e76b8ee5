"""What the site checks add to each of Ralph's iterations, for a 10-file site.

Prints the time of one round of the checks read from the files (HTML parse,
links and files, page basics: ``wiggum.ralph.site_checks``, and the site's
reference graph the map is drawn from) under CPython,
beside the reference of reading the same files once.  Then, in the page
(Chromium, the built app), the browser's audit of the same site (one load of
the entry page at 390 px in a sandboxed frame: overflow and errors on load)
without and with axe-core, one after the other in each round, so the median
of their differences is what axe adds per iteration, beside the file-read
checks run there too and the time axe's own ``run`` reported.  Medians of
``--rounds`` (``--no-page``: CPython only).

    python bench/site_checks.py [--rounds 30] [--page-rounds 7] [--no-page]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time

from wiggum.fs import MemoryFileStore
from wiggum.ralph.site_checks import run_site_checks, site_check_gates
from wiggum.ralph.site_graph import build_graph

PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Page {n}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="style.css"></head>
<body><nav>{links}</nav><main><h1>Page {n}</h1>{body}
<img src="img/photo.png" alt="A photo"></main><script src="app.js"></script></body></html>
"""


def site_files() -> dict[str, bytes]:
    """The 10-file site: 7 pages, a stylesheet, a script, an image."""
    links = "".join(f'<a href="page{k}.html">Page {k}</a>' for k in range(6))
    files = {}
    for n in range(6):
        body = "<section><p>Some text of the page.</p></section>" * 40
        files[f"page{n}.html"] = PAGE.format(n=n, links=links, body=body).encode()
    files["index.html"] = PAGE.format(n="home", links=links, body="").encode()
    files["style.css"] = b"body { margin: 0 }\n" * 200
    # 200 lines that run without logging: each console call is a message the
    # audit's frame posts to the app, and 200 of them would time those instead.
    files["app.js"] = b"window.count = (window.count || 0) + 1;\n" * 200
    files["img/photo.png"] = b"\x89PNG" + bytes(2048)
    return files


async def site() -> MemoryFileStore:
    fs = MemoryFileStore()
    for path, data in site_files().items():
        await fs.write_bytes(path, data)
    return fs


async def cpython(rounds: int) -> None:
    fs = await site()
    files = await fs.list("", recursive=True)
    checks, reads, graphs = [], [], []
    for _ in range(rounds):
        report = await run_site_checks(fs, site_check_gates())
        checks.append(report.seconds)
        start = time.perf_counter()
        graph = await build_graph(fs)
        graph.impact("style.css")
        graph.pages()
        graphs.append(time.perf_counter() - start)
        start = time.perf_counter()
        for path in files:
            if not await fs.is_dir(path):
                await fs.read_bytes(path)
        reads.append(time.perf_counter() - start)
    print(f"site: {len([f for f in files if '.' in f])} files; {rounds} rounds (median)")
    print(f"  site checks per iteration:   {statistics.median(checks) * 1000:7.2f} ms")
    graph_ms = statistics.median(graphs) * 1000
    print(f"  of which the reference graph: {graph_ms:6.2f} ms (with an impact)")
    print(f"  reference, read every file:  {statistics.median(reads) * 1000:7.2f} ms")


#: Run in the page: the same site in a memory store, then ROUNDS rounds of the
#: file checks, the audit without axe-core and the audit with it.
PAGE_CODE = """
import time
from wiggum.fs import MemoryFileStore
from wiggum.ralph.site_checks import audit_site, run_site_checks, site_check_gates
from wiggum.web.checkers import browser_audit, browser_checkers
fs = MemoryFileStore()
for path, data in json.loads(FILES).items():
    await fs.write_bytes(path, bytes.fromhex(data))
axe = browser_checkers().axe
axe_ms = []
async def load(html, width):
    found, errors = await browser_audit(html, width)
    if isinstance(found, dict) and "axe_ms" in found:
        axe_ms.append(found["axe_ms"])
    return found, errors
out = {"files": [], "audit": [], "audit_axe": [], "added": [], "axe_run": axe_ms, "axe": axe}
await audit_site(fs, load, axe=axe)  # warm: axe-core's file in the HTTP cache
for _ in range(ROUNDS):
    out["files"].append((await run_site_checks(fs, site_check_gates())).seconds * 1000)
    start = time.perf_counter()
    await audit_site(fs, load)
    out["audit"].append((time.perf_counter() - start) * 1000)
    start = time.perf_counter()
    found = await audit_site(fs, load, axe=axe)
    out["audit_axe"].append((time.perf_counter() - start) * 1000)
    out["added"].append(out["audit_axe"][-1] - out["audit"][-1])
out["issues"] = [[r.gate, r.message[:80]] for r in found if not r.passed or r.message]
out
"""


def page_figures(rounds: int) -> dict:
    from browser_boot import app_page, run_python  # beside this file: the page's helpers

    files = json.dumps({path: data.hex() for path, data in site_files().items()})
    code = PAGE_CODE.replace("FILES", repr(files)).replace("ROUNDS", str(rounds))
    with app_page() as page:
        return run_python(page, code)


def show_page(res: dict, rounds: int) -> None:
    med = {k: statistics.median(v) for k, v in res.items() if isinstance(v, list) and v}
    print(f"page (Chromium, Pyodide; {rounds} rounds, median; axe-core at {res['axe']}):")
    print(f"  file-read checks:                      {med['files']:7.1f} ms")
    print(f"  audit at 390 px, without axe-core:     {med['audit']:7.1f} ms")
    print(f"  audit at 390 px, with axe-core:        {med['audit_axe']:7.1f} ms")
    print(f"  what axe-core adds per iteration:      {med['added']:7.1f} ms  (median of pairs)")
    if "axe_run" in med:
        print(f"    of which axe.run() in the frame:     {med['axe_run']:7.1f} ms")
    for gate, message in res.get("issues", []):
        print(f"  (the site's own findings: {gate}: {message})")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--no-page", action="store_true", help="CPython figures only")
    ap.add_argument("--rounds", type=int, default=30, help="CPython rounds (median)")
    ap.add_argument("--page-rounds", type=int, default=7, help="rounds in the page (median)")
    args = ap.parse_args(argv)
    asyncio.run(cpython(args.rounds))
    if args.no_page:
        return 0
    show_page(page_figures(args.page_rounds), args.page_rounds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
