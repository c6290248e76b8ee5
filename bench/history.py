"""Project history: checkpoint of a 100-file project, in the page and under CPython.

Printed beside a plain FileStore write of the same 100 files in the same run
(IndexedDB in the page, the memory store under CPython), plus how long loading
dulwich takes in the page.  Goal: checkpoint <= 150 ms in the page.

    python bench/history.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

N = 100


def _files() -> dict[str, str]:
    body = "<section><h2>Item {i}</h2><p>Lorem ipsum dolor sit amet.</p></section>\n" * 20
    return {f"pages/p{i:03}.html": body.format(i=i) for i in range(N)}


PAGE_CODE = """
import time, json
from wiggum.web.app import APP
from wiggum.web.boot import load_packages
t0 = time.perf_counter()
await load_packages("dulwich")
from wiggum.project.history import History
load_ms = (time.perf_counter() - t0) * 1000
files = json.loads(FILES)
out = {"load_ms": load_ms, "floor": [], "write": [], "many": [], "first": [], "one": []}
from pyodide.code import run_js
floor = run_js(FLOOR_JS)
for r in range(REPEAT):
    out["floor"].append(await floor([len(t.encode()) for t in files.values()]))
    many = APP.storage.files(f"bench-many-{r}-{time.time()}")
    t0 = time.perf_counter()
    await many.write_many({p: t.encode() for p, t in files.items()})
    out["many"].append((time.perf_counter() - t0) * 1000)
    fs = APP.storage.files(f"bench-history-{r}-{time.time()}")
    t0 = time.perf_counter()
    for p, text in files.items():
        await fs.write_text(p, text)
    out["write"].append((time.perf_counter() - t0) * 1000)
    h = History(fs)
    t0 = time.perf_counter()
    await h.commit("Ralph iteration 1", "bench")
    out["first"].append((time.perf_counter() - t0) * 1000)
    await fs.write_text("pages/p050.html", "changed\\n")
    h = History(fs)  # no warm cache: as after a reload
    t0 = time.perf_counter()
    await h.commit("you", "bench one file")
    out["one"].append((time.perf_counter() - t0) * 1000)
out
"""


# The IndexedDB floor: the same number of records of the same sizes put by
# plain JS in one transaction (a database of its own), timed to its commit.
FLOOR_JS = """
async (sizes) => {
  const db = await new Promise((ok, fail) => {
    const r = indexedDB.open("bench-history-floor", 1);
    r.onupgradeneeded = () => r.result.createObjectStore("f");
    r.onsuccess = () => ok(r.result);
    r.onerror = () => fail(r.error);
  });
  const t0 = performance.now();
  await new Promise((ok, fail) => {
    const tx = db.transaction("f", "readwrite");
    const s = tx.objectStore("f");
    sizes.forEach((n, i) => s.put({data: new Uint8Array(n), size: n}, "p" + i + t0));
    tx.oncomplete = ok;
    tx.onerror = () => fail(tx.error);
  });
  const ms = performance.now() - t0;
  db.close();
  return ms;
}
"""


def cpython(repeat: int) -> dict:
    from wiggum.fs.memory import MemoryFileStore
    from wiggum.project.history import History

    async def run() -> dict:
        out: dict = {"write": [], "first": [], "one": []}
        for _ in range(repeat):
            fs = MemoryFileStore()
            t0 = time.perf_counter()
            for p, text in _files().items():
                await fs.write_text(p, text)
            out["write"].append((time.perf_counter() - t0) * 1000)
            t0 = time.perf_counter()
            await History(fs).commit("Ralph iteration 1", "bench")
            out["first"].append((time.perf_counter() - t0) * 1000)
            await fs.write_text("pages/p050.html", "changed\n")
            t0 = time.perf_counter()
            await History(fs).commit("you", "bench one file")
            out["one"].append((time.perf_counter() - t0) * 1000)
        return out

    return asyncio.run(run())


def _boot():
    spec = importlib.util.spec_from_file_location(
        "browser_boot", ROOT / "bench" / "browser_boot.py"
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def page_figures(repeat: int) -> dict:
    from playwright.sync_api import sync_playwright

    boot = _boot()
    build = boot.load_build()
    server = build.make_server("127.0.0.1", 0, quiet=True)
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    code = (
        PAGE_CODE.replace("FLOOR_JS", repr(FLOOR_JS))
        .replace("FILES", repr(json.dumps(_files())))
        .replace("REPEAT", str(repeat))
    )
    body = code.strip().splitlines()
    src = "\n".join(["import json", *body[:-1], f"json.dumps({body[-1]})"])
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=boot.CHROMIUM, args=boot.ARGS)
            page = browser.new_page()
            page.goto(base)
            page.wait_for_selector(boot.LOADED, state="attached", timeout=180_000)
            out = json.loads(
                page.evaluate("async c => await wiggumBoot.pyodide.runPythonAsync(c)", src)
            )
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    return out


def _show(label: str, res: dict) -> None:
    med = {k: statistics.median(v) for k, v in res.items() if isinstance(v, list)}
    print(f"{label}:")
    if "floor" in med:
        print(f"  plain JS, {N} puts in 1 transaction : {med['floor']:8.1f} ms  (IndexedDB floor)")
    print(f"  plain FileStore write of {N} files : {med['write']:8.1f} ms  (one write_bytes each)")
    if "many" in med:
        print(f"  FileStore write_many of {N} files  : {med['many']:8.1f} ms  (one transaction)")
    print(f"  checkpoint, {N} new files           : {med['first']:8.1f} ms  (goal <= 150 ms)")
    print(f"  checkpoint, 1 of {N} files changed  : {med['one']:8.1f} ms  (cold cache)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=3, help="runs (medians)")
    ap.add_argument("--no-page", action="store_true", help="CPython figures only")
    args = ap.parse_args(argv)
    _show(f"CPython, memory FileStore (median of {args.repeat})", cpython(args.repeat))
    if not args.no_page:
        res = page_figures(args.repeat)
        print(f"page: loading dulwich (first use)   : {res['load_ms']:8.1f} ms")
        _show(f"page, IndexedDB FileStore (median of {args.repeat})", res)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
