#!/usr/bin/env python3
"""How long the main thread is held while a 36 KB reply streams into Chief's chat.

    python bench/browser_markdown_stream.py [--repeat 3] [--chunk 200]

The page and the stream of tests/e2e/test_markdown_page.py (Debian's Chromium,
offline, the provider simulator; the reply in 200-byte chunks 10 ms apart, after
the idle prefetch of Pygments).  Per reply, from the moment its first text is
in the DOM until its last code block is coloured:

* long tasks (the Long Tasks API: 50 ms or more) and the longest;
* the render slices (``wiggum:markdown`` User Timing entries, one per posted
  task): how many, median, p95 and longest;
* the gaps between animation frames (how long the page went without painting):
  p95 and longest;

beside references measured in the same page right after: the same reply
rendered at once into a detached element (``render_markdown``, one task: what
an unsliced render would hold the main thread for), and the frame gaps of an
idle page over the same time.  Medians over ``--repeat`` replies; the machine
may be shared, so every reply's figures are printed too.  The e2e test counts
what the render does per task (slices, steps, posted tasks); this times it.
No assertions.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "e2e")]

from markdown_reply import markdown_reply  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402
from wiggum_e2e import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    MOUNTED,
    SiteServer,
    configure,
    open_app,
    run_python,
    send,
    tid,
)

from tests.sim import Simulator, Turn  # noqa: E402

PREFETCHED = """() => wiggumBoot.pyodide.runPython(
    "import sys; m = sys.modules.get('wiggum.web.markdown_view'); bool(m) and m.prefetched")"""

#: Long tasks, frame gaps and render slices, recorded from the reply's first text on.
WATCH = """n => { window.__long = []; window.__gaps = []; window.__first = null;
    window.__stop = false;
    new PerformanceObserver(l => { for (const e of l.getEntries())
        window.__long.push([e.startTime, e.duration]); }).observe({type: "longtask"});
    let last = null;
    const tick = t => { if (window.__first !== null) {
                            if (last !== null) window.__gaps.push(t - last); last = t; }
                        if (!window.__stop) requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
    new MutationObserver((_, obs) => {
        const b = document.querySelectorAll('[data-testid="message-assistant"]')[n];
        if (b && b.textContent.length) { window.__first = performance.now(); obs.disconnect(); }
    }).observe(document.body, {subtree: true, childList: true, characterData: true}); }"""

READ = """() => { window.__stop = true;
    const first = window.__first, end = performance.now();
    return {long: window.__long.filter(([s]) => s >= first).map(([, d]) => d),
            gaps: window.__gaps, seconds: (end - first) / 1000,
            slices: performance.getEntriesByName("wiggum:markdown")
                .filter(e => e.startTime >= first).map(e => e.duration)}; }"""

IDLE_GAPS = """ms => new Promise(done => { const gaps = []; let last = null;
    const tick = t => { if (last !== null) gaps.push(t - last); last = t;
        if (gaps.reduce((a, b) => a + b, 0) < ms) requestAnimationFrame(tick); else done(gaps); };
    requestAnimationFrame(tick); })"""

AT_ONCE = """
import js, time
from wiggum.web.dom import render_markdown
d = js.document.createElement('div')
t = time.perf_counter()
d.appendChild(render_markdown(js.window.__reply))
(time.perf_counter() - t) * 1000
"""


def pct(xs: list[float], p: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(len(s) * p))] if s else 0.0


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--chunk", type=int, default=200)
    args = parser.parse_args()
    text = markdown_reply()
    rows = []
    server = SiteServer(ROOT)
    try:
        with sync_playwright() as pw, Simulator() as sim:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            open_app(page, server.url)
            page.wait_for_selector(MOUNTED, timeout=30_000)
            configure(page, sim, "sk-bench")
            page.wait_for_function(PREFETCHED, timeout=60_000, polling=500)
            page.evaluate("t => { window.__reply = t; }", text)
            for n in range(args.repeat):
                page.evaluate("() => performance.clearMeasures('wiggum:markdown')")
                sim.script([Turn(text, chunks=len(text) // args.chunk, delay=0.01)])
                page.evaluate(WATCH, n)
                send(page, f"Write the long plan ({n + 1}).")
                page.wait_for_selector(
                    f'{tid("reply")}[data-status="complete"] >> nth={n}', timeout=120_000
                )
                page.wait_for_selector(
                    f"{tid('message-assistant')}[data-rendering]", state="detached", timeout=30_000
                )
                page.wait_for_timeout(300)  # a long task is reported once it ends
                got = page.evaluate(READ)
                at_once = statistics.median(run_python(page, AT_ONCE) for _ in range(3))
                idle = page.evaluate(IDLE_GAPS, got["seconds"] * 1000)
                rows.append((got, at_once, idle))
            browser.close()
    finally:
        server.close()

    print(f"reply: {len(text)} chars in {args.chunk}-byte chunks, 10 ms apart; all in ms")
    head = (
        f"{'':8}{'long tasks':>11}{'longest':>9}{'slices':>8}{'median':>8}{'p95':>7}"
        f"{'longest':>9}{'frame p95':>11}{'longest':>9}  |  {'at once':>8}"
        f"{'idle frame p95':>16}{'longest':>9}"
    )
    print(head)
    summary = []
    for i, (got, at_once, idle) in enumerate(rows, 1):
        sl, gaps, longs = got["slices"], got["gaps"], got["long"]
        row = [
            len(longs),
            max(longs, default=0.0),
            len(sl),
            statistics.median(sl) if sl else 0.0,
            pct(sl, 0.95),
            max(sl, default=0.0),
            pct(gaps, 0.95),
            max(gaps, default=0.0),
            at_once,
            pct(idle, 0.95),
            max(idle, default=0.0),
        ]
        summary.append(row)
        print(f"{'reply ' + str(i):8}" + fmt(row))
    med = [statistics.median(col) for col in zip(*summary, strict=True)]
    print(f"{'median':8}" + fmt(med))
    return 0


def fmt(row: list[float]) -> str:
    n, longest, slices, median, p95, slowest, gp95, gmax, at_once, ip95, imax = row
    return (
        f"{n:11.0f}{longest:9.0f}{slices:8.0f}{median:8.1f}{p95:7.1f}{slowest:9.1f}"
        f"{gp95:11.0f}{gmax:9.0f}  |  {at_once:8.0f}{ip95:16.0f}{imax:9.0f}"
    )


if __name__ == "__main__":
    sys.exit(main())
