#!/usr/bin/env python3
"""Which imports the page makes between Python's start and the whole app, and what
each costs, in the page itself (``python -X importtime``, but in Pyodide):

    python bench/boot_imports.py [--top 30] [--second]

Opens the built page in Debian's Chromium (offline, as bench/browser_boot.py)
and, the moment the boot module hands over the Pyodide instance (a setter on
``wiggumBoot.pyodide``, so the product carries no profiling code), wraps
``builtins.__import__`` to time every first import of a module; then waits for
the whole app (``[data-loaded=true]``) and prints the slowest imports with
their own and cumulative time, grouped by top-level package.  ``--second``
reports the reload (everything from the HTTP cache).  No assertions.
"""

from __future__ import annotations

import argparse
import collections
import importlib.util
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _boot_bench():
    spec = importlib.util.spec_from_file_location(
        "browser_boot", ROOT / "bench" / "browser_boot.py"
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


#: Runs before the page's own scripts: time imports as soon as Python exists.
HOOK_JS = r"""
(() => {
  const TIMER = `
import builtins, importlib, importlib.util, sys, time
_orig = builtins.__import__
_orig_module = importlib.import_module
_stack = []
_log = []
def _run(key, call):
    if key in sys.modules:
        return call()
    before = len(sys.modules)
    _stack.append(0.0)
    t0 = time.perf_counter()
    try:
        return call()
    finally:
        total = time.perf_counter() - t0
        inner = _stack.pop()
        if _stack:
            _stack[-1] += total
        if len(sys.modules) > before:
            _log.append((key, total - inner, total))
def _timed(name, globals=None, locals=None, fromlist=(), level=0):
    key = name
    if level:
        try:
            pkg = (globals or {}).get("__package__") or ""
            key = importlib.util.resolve_name("." * level + name, pkg)
        except Exception:
            key = "." * level + name
    return _run(key, lambda: _orig(name, globals, locals, fromlist, level))
def _timed_module(name, package=None):
    key = importlib.util.resolve_name(name, package) if name.startswith(".") else name
    return _run(key, lambda: _orig_module(name, package))
builtins.__import__ = _timed
importlib.import_module = _timed_module
sys.modules["__wiggum_import_log__"] = _log
`;
  let value = null;
  const install = (py) => {
    try { py.runPython(TIMER); globalThis.__importTimerAt = performance.now(); }
    catch (e) { console.error("import timer:", e); }
  };
  const hook = (boot) => {
    Object.defineProperty(boot, "pyodide", {
      configurable: true,
      get() { return value; },
      set(py) { if (py && !value) install(py); value = py; },
    });
  };
  let boot;
  Object.defineProperty(globalThis, "wiggumBoot", {
    configurable: true,
    get() { return boot; },
    set(b) { boot = b; hook(b); },
  });
})();
"""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--second", action="store_true", help="profile the reload")
    ap.add_argument("--top", type=int, default=30)
    args = ap.parse_args(argv)

    boot = _boot_bench()
    build = boot.load_build()
    import subprocess

    subprocess.run(
        [sys.executable, str(ROOT / "build.py")], cwd=ROOT, check=True, stdout=subprocess.DEVNULL
    )
    server = build.make_server("127.0.0.1", 0, quiet=True)
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = base

    from playwright.sync_api import sync_playwright

    try:
        with sync_playwright() as pw, tempfile.TemporaryDirectory() as profile:
            ctx = pw.chromium.launch_persistent_context(
                profile, executable_path=boot.CHROMIUM, args=boot.ARGS, headless=True
            )
            ctx.add_init_script(HOOK_JS)
            page = ctx.pages[0] if ctx.pages else ctx.new_page()
            page.goto(url, wait_until="commit")
            page.wait_for_selector(boot.LOADED, state="attached", timeout=180_000)
            if args.second:
                page.reload(wait_until="commit")
                page.wait_for_selector(boot.LOADED, state="attached", timeout=180_000)
            marks = page.evaluate("wiggumBoot.marks")
            wheels = page.evaluate("wiggumBoot.wheels")
            log = page.evaluate(
                "wiggumBoot.pyodide.runPython("
                "'import sys; [list(e) for e in sys.modules[\"__wiggum_import_log__\"]]').toJs()"
            )
            ctx.close()
    finally:
        server.shutdown()
        server.server_close()

    load = "second" if args.second else "first"
    print(f"{load} load, wheels: {wheels}; marks (ms): ", end="")
    print(", ".join(f"{k}={v:.0f}" for k, v in sorted(marks.items(), key=lambda kv: kv[1])))
    own_total = sum(own for _, own, _ in log)
    print(f"{len(log)} modules imported after Python started, {own_total * 1000:.0f} ms in all")
    by_pkg: collections.Counter[str] = collections.Counter()
    for name, own, _ in log:
        by_pkg[name.lstrip(".").split(".")[0] or name] += own
    print("\nown time by top-level package (ms):")
    for pkg, t in by_pkg.most_common(15):
        print(f"  {pkg:<30}{t * 1000:>8.0f}")
    print(f"\nslowest {args.top} imports (ms): own, cumulative")
    for name, own, total in sorted(log, key=lambda e: -e[1])[: args.top]:
        print(f"  {name:<50}{own * 1000:>8.1f}{total * 1000:>10.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
