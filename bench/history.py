"""Project history in the page (and under CPython): what a checkpoint and the editor cost.

Printed beside a plain FileStore write of the same files in the same run
(IndexedDB in the page, the memory store under CPython), and the IndexedDB
floor (plain JavaScript puts):

- a first checkpoint of 100 new files (goal <= 150 ms in the page);
- one changed line in a 174 KB HTML file, the other 100 files unchanged
  (goal <= 100 ms), with the History of the session (warm, as after a save)
  and with a fresh one (cold, as after a reload);
- opening a 1 MB file in the editor, from the click to the editor ready
  (goal <= 300 ms), the first time (CodeMirror is loaded then) and again.

Plus how long loading dulwich takes in the page.  The page is left a few
seconds to settle after it loaded (the chat's highlighter loads in the
background), and each figure is the median of ``--repeat`` runs.

    python bench/history.py [--repeat 3] [--no-page]
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
BIG_LINE = "<p>" + "Lorem ipsum dolor sit amet, consectetur adipiscing elit. " * 2 + "</p>\n"
BIG_HTML = BIG_LINE * (174 * 1024 // len(BIG_LINE))  # ~174 KB
EDITOR_LINE = "<p>" + "x" * 92 + "</p>\n"
EDITOR_FILE = EDITOR_LINE * 10_486  # 1 MB


def _files() -> dict[str, str]:
    body = "<section><h2>Item {i}</h2><p>Lorem ipsum dolor sit amet.</p></section>\n" * 20
    return {f"pages/p{i:03}.html": body.format(i=i) for i in range(N)}


def _changed(text: str, k: int) -> str:
    """``text`` with one line changed (a different one each run)."""
    lines = text.splitlines(keepends=True)
    at = len(lines) // 2 + k
    lines[at] = f"<p>Changed line {k}</p>\n"
    return "".join(lines)


PAGE_CODE = """
import asyncio, time, json
from wiggum.web.app import APP
from wiggum.web.boot import load_packages
await asyncio.sleep(SETTLE)
t0 = time.perf_counter()
await load_packages("dulwich")
from wiggum.project.history import History
load_ms = (time.perf_counter() - t0) * 1000
files = json.loads(FILES)
big = json.loads(BIG)
out = {"load_ms": load_ms, "floor": [], "write": [], "many": [], "first": [],
       "big_write": [], "big_warm": [], "big_cold": []}
from pyodide.code import run_js
floor = run_js(FLOOR_JS)
def changed(text, k):
    lines = text.splitlines(keepends=True)
    lines[len(lines) // 2 + k] = f"<p>Changed line {k}</p>\\n"
    return "".join(lines)
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
    await fs.write_text("big.html", big)
    await h.commit("you", "big page")
    for k, key in ((1, "big_warm"), (2, "big_cold")):
        text = changed(big, k)
        t0 = time.perf_counter()
        await fs.write_text("big.html", text)
        out["big_write"].append((time.perf_counter() - t0) * 1000)
        history = h if key == "big_warm" else History(fs)  # cold: as after a reload
        t0 = time.perf_counter()
        await history.commit("you", "one line")
        out[key].append((time.perf_counter() - t0) * 1000)
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

# From the click on a file in the tree to its editor ready (CodeMirror showing it).
OPEN_JS = """
async (path) => {
  const sel = `[data-testid="editor"][data-path="${path}"][data-ready="true"]`;
  const entry = document.querySelector(`[data-testid="file-entry"][data-path="${path}"]`);
  const t0 = performance.now();
  entry.click();
  while (!document.querySelector(sel)) await new Promise((r) => setTimeout(r, 1));
  return performance.now() - t0;
}
"""

EDITOR_SETUP = """
import time
from wiggum.web.app import APP
fs = APP.coordinator.fs
await fs.write_text("big-editor.html", BODY)
await fs.write_text("small.html", "<p>small</p>\\n")
APP.refresh_workspace()
t0 = time.perf_counter()
await fs.read_text("big-editor.html")
(time.perf_counter() - t0) * 1000
"""


def cpython(repeat: int) -> dict:
    from wiggum.fs.memory import MemoryFileStore
    from wiggum.project.history import History

    async def run() -> dict:
        out: dict = {"write": [], "first": [], "big_write": [], "big_warm": [], "big_cold": []}
        for _ in range(repeat):
            fs = MemoryFileStore()
            t0 = time.perf_counter()
            for p, text in _files().items():
                await fs.write_text(p, text)
            out["write"].append((time.perf_counter() - t0) * 1000)
            h = History(fs)
            t0 = time.perf_counter()
            await h.commit("Ralph iteration 1", "bench")
            out["first"].append((time.perf_counter() - t0) * 1000)
            await fs.write_text("big.html", BIG_HTML)
            await h.commit("you", "big page")
            for k, key in ((1, "big_warm"), (2, "big_cold")):
                t0 = time.perf_counter()
                await fs.write_text("big.html", _changed(BIG_HTML, k))
                out["big_write"].append((time.perf_counter() - t0) * 1000)
                history = h if key == "big_warm" else History(fs)
                t0 = time.perf_counter()
                await history.commit("you", "one line")
                out[key].append((time.perf_counter() - t0) * 1000)
        return out

    return asyncio.run(run())


def _boot():
    spec = importlib.util.spec_from_file_location(
        "browser_boot", ROOT / "bench" / "browser_boot.py"
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _python(page, code: str):
    body = code.strip().splitlines()
    src = "\n".join(["import json", *body[:-1], f"json.dumps({body[-1]})"])
    return json.loads(page.evaluate("async c => await wiggumBoot.pyodide.runPythonAsync(c)", src))


def _editor_figures(page, repeat: int) -> dict:
    read_ms = _python(page, EDITOR_SETUP.replace("BODY", repr(EDITOR_FILE)))
    page.click('[data-testid="tab-ralph"]')
    files_tab = page.locator('[data-testid="ws-tab-files"]')
    if files_tab.count() and files_tab.is_visible():
        files_tab.click()
    page.wait_for_selector('[data-testid="file-entry"][data-path="big-editor.html"]')
    first = page.evaluate(OPEN_JS, "big-editor.html")
    again = []
    for _ in range(repeat):
        page.evaluate(OPEN_JS, "small.html")
        again.append(page.evaluate(OPEN_JS, "big-editor.html"))
    return {"open_read": [read_ms], "open_first": [first], "open_again": again}


def page_figures(repeat: int, settle: float) -> dict:
    from playwright.sync_api import sync_playwright

    boot = _boot()
    build = boot.load_build()
    server = build.make_server("127.0.0.1", 0, quiet=True)
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    code = (
        PAGE_CODE.replace("FLOOR_JS", repr(FLOOR_JS))
        .replace("FILES", repr(json.dumps(_files())))
        .replace("BIG", repr(json.dumps(BIG_HTML)))
        .replace("REPEAT", str(repeat))
        .replace("SETTLE", str(settle))
    )
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=boot.CHROMIUM, args=boot.ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.goto(base)
            page.wait_for_selector(boot.LOADED, state="attached", timeout=180_000)
            out = _python(page, code)
            out.update(_editor_figures(page, repeat))
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    return out


#: What is printed, a line each: the figure's key | what it is | a note beside it.
ROWS = f"""
floor      | plain JS, {N} puts in 1 transaction       | IndexedDB floor
write      | plain FileStore write of {N} files        | one write each
many       | FileStore write_many of {N} files         | one transaction
first      | checkpoint, {N} new files                 | goal <= 150 ms
big_write  | plain FileStore write of the 174 KB file  |
big_warm   | checkpoint, 1 line of 174 KB changed      | goal <= 100 ms
big_cold   | the same, a fresh History (after reload)  |
open_read  | plain FileStore read of a 1 MB file       |
open_first | open the 1 MB file in the editor, 1st     | CodeMirror loads
open_again | open the 1 MB file in the editor again    | goal <= 300 ms
"""


def _show(label: str, res: dict) -> None:
    med = {k: statistics.median(v) for k, v in res.items() if isinstance(v, list) and v}
    print(f"{label}:")
    for row in ROWS.strip().splitlines():
        key, what, note = (cell.strip() for cell in row.split("|"))
        if key in med:
            print(f"  {what:<42}: {med[key]:8.1f} ms" + (f"  ({note})" if note else ""))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=3, help="runs (medians)")
    ap.add_argument("--settle", type=float, default=5.0, help="seconds the page settles first")
    ap.add_argument("--no-page", action="store_true", help="CPython figures only")
    args = ap.parse_args(argv)
    _show(f"CPython, memory FileStore (median of {args.repeat})", cpython(args.repeat))
    if not args.no_page:
        res = page_figures(args.repeat, args.settle)
        print(f"page: {'loading dulwich (first use)':<38}: {res['load_ms']:8.1f} ms")
        _show(f"page, IndexedDB FileStore (median of {args.repeat})", res)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
