"""What the site checks add to each of Ralph's iterations, for a 10-file site.

Prints the time of one round of the checks read from the files (HTML parse,
links and files, page basics: ``wiggum.ralph.site_checks``) under CPython,
beside the reference of reading the same files once; the browser's audit
(one load of the entry page at 390 px) is timed in the page by
``tests/e2e/test_site_preview.py``'s flow and is not included here.
"""

from __future__ import annotations

import asyncio
import statistics
import time

from wiggum.fs import MemoryFileStore
from wiggum.ralph.site_checks import run_site_checks, site_check_gates

PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Page {n}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="style.css"></head>
<body><nav>{links}</nav><main><h1>Page {n}</h1>{body}
<img src="img/photo.png" alt="A photo"></main><script src="app.js"></script></body></html>
"""


async def site() -> MemoryFileStore:
    fs = MemoryFileStore()
    links = "".join(f'<a href="page{k}.html">Page {k}</a>' for k in range(6))
    for n in range(6):
        body = "<section><p>Some text of the page.</p></section>" * 40
        await fs.write_text(f"page{n}.html", PAGE.format(n=n, links=links, body=body))
    await fs.write_text("index.html", PAGE.format(n="home", links=links, body=""))
    await fs.write_text("style.css", "body { margin: 0 }\n" * 200)
    await fs.write_text("app.js", "console.log('hi');\n" * 200)
    await fs.write_bytes("img/photo.png", b"\x89PNG" + bytes(2048))
    return fs


async def main(rounds: int = 30) -> None:
    fs = await site()
    files = await fs.list("", recursive=True)
    checks, reads = [], []
    for _ in range(rounds):
        report = await run_site_checks(fs, site_check_gates())
        checks.append(report.seconds)
        start = time.perf_counter()
        for path in files:
            if not await fs.is_dir(path):
                await fs.read_bytes(path)
        reads.append(time.perf_counter() - start)
    print(f"site: {len([f for f in files if '.' in f])} files; {rounds} rounds (median)")
    print(f"  site checks per iteration:   {statistics.median(checks) * 1000:7.2f} ms")
    print(f"  reference, read every file:  {statistics.median(reads) * 1000:7.2f} ms")


if __name__ == "__main__":
    asyncio.run(main())
