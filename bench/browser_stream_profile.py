#!/usr/bin/env python3
"""Where the main thread's time goes while a 36 KB reply streams into the chat.

    python bench/browser_stream_profile.py [CHUNK_BYTES]

Boots the built site in Debian's Chromium (offline) against the provider
simulator, waits for the idle prefetch, then wraps (in the page's Pyodide, for
this run only) what runs per chunk or per render slice with timers: the chat's
listeners, the reply view, the render slices and their steps by kind (parse,
DOM build, code colouring), the markdown parse, the autosave, the context
meter.  Streams the reply in 200-byte chunks under a Chromium trace and prints,
per function, n / total / median / p95 / max (ms); then the main thread's tasks
from the trace (count, the ones over 16 ms) and the rendering phases (layout,
paint); then every long task the Long Tasks API reported, with what the trace
saw inside it.  No assertions.
"""

from __future__ import annotations

import json
import sys
import time
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
    wait_reply,
)

from tests.sim import Simulator, Turn  # noqa: E402

PATCH = r"""
import sys, time
import wiggum.chief.records as cr
import wiggum.chief.saver as cs
import wiggum.session.models as sm
import wiggum.ui.markdown_stream as ms
import wiggum.ui.slices as sl
import wiggum.web.app as appm
import wiggum.web.views.chat.scroll as scroll
import wiggum.web.views.chat.turn as turn
import wiggum.web.markdown_view as mv

PROF = {}

def timed(fn, label):
    def w(*a, **k):
        t = time.perf_counter()
        try:
            return fn(*a, **k)
        finally:
            PROF.setdefault(label, []).append((time.perf_counter() - t) * 1000)
    return w

def wrap(owner, name, label):
    setattr(owner, name, timed(getattr(owner, name), label))

wrap(scroll.ScrollFollower, "_follow", "chat view: follow the end (rAF)")
wrap(scroll.ScrollFollower, "_on_scroll", "chat view: scroll event")
wrap(turn.ReplyView, "delta", "reply view: delta")
wrap(mv.StreamingMarkdown, "_slice", "markdown: one render slice")
wrap(ms.MarkdownStream, "feed", "markdown: parse (open block)")
wrap(cs.ChatSaver, "autosave", "chat: autosave (per delta)")
wrap(cr.ChatRecord, "to_storage", "chat: record.to_storage")
wrap(sm.ModelChoice, "update_meter", "context meter (throttled)")
chat = appm.APP.chat
chat._listeners[:] = [
    timed(f, "chat listener: " + getattr(f, "__name__", "?")) for f in chat._listeners
]

def step(queue, _orig=sl.Slices._step):
    code = getattr(queue[0], "gi_code", None)
    t = time.perf_counter()
    try:
        return _orig(queue)
    finally:
        label = f"slice step: {code.co_name if code else '?'}"
        PROF.setdefault(label, []).append((time.perf_counter() - t) * 1000)

sl.Slices._step = staticmethod(step)
sys.modules["__stream_profile__"] = PROF
"""

PREFETCHED = """() => wiggumBoot.pyodide.runPython(
    "import sys; m = sys.modules.get('wiggum.web.markdown_view'); bool(m) and m.prefetched")"""


def main() -> int:
    text = markdown_reply()
    chunk = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    server = SiteServer(ROOT)
    try:
        with sync_playwright() as pw, Simulator() as sim:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            open_app(page, server.url)
            page.wait_for_selector(MOUNTED, timeout=30_000)
            configure(page, sim, "sk-bench")
            page.wait_for_function(PREFETCHED, timeout=60_000, polling=500)
            run_python(page, PATCH)
            sim.script([Turn(text, chunks=len(text) // chunk, delay=0.01)])
            page.evaluate(
                """() => { window.__long = [];
                new PerformanceObserver(l => { for (const e of l.getEntries())
                    window.__long.push([e.startTime, e.duration]); })
                    .observe({type: "longtask"}); }"""
            )
            browser.start_tracing(
                page=page, categories=["toplevel", "devtools.timeline", "blink.user_timing"]
            )
            t0 = time.monotonic()
            send(page, "Write the long plan.")
            wait_reply(page, timeout=120_000)
            page.wait_for_timeout(300)
            trace = json.loads(browser.stop_tracing())["traceEvents"]
            wall = time.monotonic() - t0
            prof = json.loads(
                run_python(page, "import sys, json; json.dumps(sys.modules['__stream_profile__'])")
            )
            longs = page.evaluate("() => window.__long")
            first = page.evaluate(
                "() => performance.getEntriesByName('wiggum:markdown-start')[0]?.startTime ?? 0"
            )
            browser.close()
    finally:
        server.close()
    print(f"reply: {len(text)} chars in chunks of {chunk} bytes; send to complete {wall:.1f} s")
    print(f"{'':36s} {'n':>5s} {'total':>8s} {'median':>7s} {'p95':>7s} {'max':>7s}  (ms)")
    for label, xs in sorted(prof.items(), key=lambda kv: -sum(kv[1])):
        s = sorted(xs)
        print(
            f"{label:36s} {len(s):5d} {sum(s):8.1f} {s[len(s) // 2]:7.2f} "
            f"{s[int(len(s) * 0.95)]:7.2f} {s[-1]:7.1f}"
        )
    names = {
        (e["pid"], e["tid"]): e["args"].get("name") for e in trace if e.get("name") == "thread_name"
    }
    main_ids = {k for k, v in names.items() if v == "CrRendererMain"}
    on_main = [e for e in trace if (e.get("pid"), e.get("tid")) in main_ids and e.get("ph") == "X"]
    tasks = [e for e in on_main if e["name"] == "ThreadControllerImpl::RunTask"]
    busiest = max(
        {(e["pid"], e["tid"]) for e in tasks},
        key=lambda k: sum(1 for e in tasks if (e["pid"], e["tid"]) == k),
    )
    tasks = [e for e in tasks if (e["pid"], e["tid"]) == busiest]
    ds = sorted(e["dur"] / 1000 for e in tasks)
    print(
        f"main thread: {len(ds)} tasks, {sum(ds):.0f} ms busy; over 16 ms: "
        f"{[round(d, 1) for d in ds if d > 16]}"
    )
    for phase in ("UpdateLayoutTree", "Layout", "PrePaint", "Paint", "Layerize"):
        ps = sorted(e["dur"] / 1000 for e in on_main if e["name"] == phase)
        if ps:
            print(
                f"  {phase:16s} n={len(ps):4d} total={sum(ps):6.0f} "
                f"p95={ps[int(len(ps) * 0.95)]:5.1f} max={ps[-1]:5.1f}"
            )
    marks = sorted(e["ts"] for e in trace if e.get("name") == "wiggum:markdown-start")
    print(f"long tasks (Long Tasks API): {len(longs)}")
    if marks and first:
        offset = marks[0] / 1000 - first  # trace µs -> performance.now() ms
        for start, duration in longs:
            t = (start + offset) * 1000
            inside: dict[str, float] = {}
            for e in on_main:
                if t <= e["ts"] <= t + duration * 1000 and e.get("dur", 0) > 1000:
                    inside[e["name"]] = inside.get(e["name"], 0.0) + e["dur"] / 1000
            top = sorted(inside.items(), key=lambda kv: -kv[1])[:6]
            where = "before the first render" if start < first else "during the stream"
            print(f"  {duration:.0f} ms ({where}): {[(k, round(v, 1)) for k, v in top]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
