#!/usr/bin/env python3
"""Wiggum in the browser, measured in one run of Debian's Chromium.

    python bench/browser.py [--repeat 3]

Prints, side by side with a reference in the same run:

* boot: time to ``app-ready`` beside a bare ``loadPyodide()`` of the same
  vendored files, bytes transferred on the first load, the second load's time
  (from ``bench/browser_boot.py``);
* streaming: one long OpenAI-style reply (the >= 2 MB transcript of
  ``bench/stream_throughput.py``) served by the provider simulator on
  127.0.0.1 and read in the app's page twice — by ``wiggum.llm.stream()`` over
  the fetch transport with every delta consumed, and by a plain-JS
  ``getReader()`` loop that splits events and ``JSON.parse``s each;
* the delay from a chunk's arrival in the page to its text in the chat's DOM,
  through the real app when its chat UI is present.

Nothing here asserts a time; this is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


boot = _load("browser_boot", ROOT / "bench" / "browser_boot.py")
throughput = _load("stream_throughput", ROOT / "bench" / "stream_throughput.py")

JS_READER = """async url => {
  const t0 = performance.now();
  const res = await fetch(url, {method: "POST", headers: {"content-type": "application/json"},
                                body: JSON.stringify({model: "m", stream: true, messages: []})});
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buf = "", events = 0, bytes = 0, text = 0;
  for (;;) {
    const {value, done} = await reader.read();
    if (done) break;
    bytes += value.length;
    buf += decoder.decode(value, {stream: true});
    const parts = buf.split("\\n\\n");
    buf = parts.pop();
    for (const part of parts) {
      if (!part.startsWith("data: ") || part === "data: [DONE]") continue;
      const obj = JSON.parse(part.slice(6));
      const c = obj.choices && obj.choices[0] && obj.choices[0].delta;
      if (c && c.content) text += c.content.length;
      events++;
    }
  }
  return {ms: performance.now() - t0, bytes, events, text};
}"""

PY_READER = """
import time
from wiggum.llm import Message, ProviderConfig, stream
from wiggum.web.fetch_transport import install
install()
provider = ProviderConfig(
    id="bench", kind="openai", base_url={base!r}, model="gpt-4o", api_key="sk-bench"
)
t0 = time.perf_counter()
result = await stream(provider, [Message.user("hi")])
n = text = 0
async for d in result.deltas:
    n += 1
    if d.type == "content":
        text += len(d.text)
r = await result.response
json.dumps({{"ms": (time.perf_counter() - t0) * 1000, "deltas": n, "text": text,
            "calls": len(r.tool_calls)}})
"""

# Times every chunk the page's readers get, and every change of the reply's text,
# so the delay from arrival to DOM can be read per marker word.
DOM_PROBE = """() => {
  const w = window;
  w.__arrive = {}; w.__shown = {};
  const dec = new TextDecoder();
  const read = ReadableStreamDefaultReader.prototype.read;
  ReadableStreamDefaultReader.prototype.read = async function () {
    const r = await read.call(this);
    if (!r.done && r.value && r.value.length !== undefined) {
      const now = performance.now();
      for (const m of dec.decode(r.value).matchAll(/mk(\\d+)x/g)) w.__arrive[m[1]] ??= now;
    }
    return r;
  };
  new MutationObserver(() => {
    const now = performance.now();
    for (const el of document.querySelectorAll('[data-testid="message-assistant"]'))
      for (const m of el.textContent.matchAll(/mk(\\d+)x/g)) w.__shown[m[1]] ??= now;
  }).observe(document.body, {subtree: true, childList: true, characterData: true});
}"""


def _percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def streaming(page, sim, body: bytes, repeat: int) -> dict:
    from tests.sim import raw

    chunks = [body[i : i + 16384] for i in range(0, len(body), 16384)]
    js_runs, py_runs = [], []
    for _ in range(repeat):
        sim.script([raw(chunks), raw(chunks)])
        js_runs.append(page.evaluate(JS_READER, sim.base_url + "/v1/chat/completions"))
        code = PY_READER.format(base=sim.base_url + "/v1")
        out = page.evaluate(
            "async c => await wiggumBoot.pyodide.runPythonAsync(c)", "import json\n" + code
        )
        py_runs.append(json.loads(out))
    return {"js": js_runs, "py": py_runs, "bytes": len(body)}


def dom_delay(page, sim) -> dict | None:
    """Arrival-to-DOM delay through the app's own chat, when its UI is there."""
    from tests.sim import Turn

    if not page.query_selector('[data-testid="chat-input"]'):
        return None
    page.evaluate(DOM_PROBE)
    words = " ".join(f"mk{k}x" for k in range(40))
    sim.script([Turn(words, chunks=40, delay=0.05)])
    page.click('[data-testid="settings-button"]')
    page.select_option('[data-testid="provider-kind"]', "openai")
    page.fill('[data-testid="provider-base-url"]', sim.base_url + "/v1")
    page.fill('[data-testid="provider-api-key"]', "sk-bench")
    model = page.query_selector('[data-testid="provider-model"]')
    if model and model.evaluate("e => e.tagName") == "INPUT":
        page.fill('[data-testid="provider-model"]', "gpt-4o")
    page.click('[data-testid="settings-save"]')
    page.fill('[data-testid="chat-input"]', "count")
    page.click('[data-testid="send-button"]')
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=\"message-assistant\"]')]"
        ".some(e => e.textContent.includes('mk39x'))",
        timeout=60_000,
    )
    arrive, shown = page.evaluate("[window.__arrive, window.__shown]")
    delays = [shown[k] - arrive[k] for k in arrive if k in shown]
    if not delays:
        return None
    return {
        "n": len(delays),
        "median": statistics.median(delays),
        "p90": _percentile(delays, 0.9),
        "max": max(delays),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "--repeat", type=int, default=3, help="boot runs (medians) and streams (best) each"
    )
    args = ap.parse_args(argv)

    # boot figures: bare loadPyodide() vs app-ready, bytes, 2nd load; the load
    # time of this 2-core machine varies by ~20 % from run to run, hence medians
    code = boot.main(["--runs", str(args.repeat)])
    if code:
        return code

    from playwright.sync_api import sync_playwright

    from tests.sim import Simulator

    build = boot.load_build()
    server = build.make_server("127.0.0.1", 0, quiet=True)
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    body, _ = throughput.build_transcript()
    try:
        with sync_playwright() as pw, Simulator() as sim:
            browser = pw.chromium.launch(executable_path=boot.CHROMIUM, args=boot.ARGS)
            page = browser.new_page()
            page.goto(base)
            page.wait_for_selector(boot.LOADED, state="attached", timeout=180_000)
            results = streaming(page, sim, body, args.repeat)
            delay = dom_delay(page, sim)
            browser.close()
    finally:
        server.shutdown()
        server.server_close()

    mb = results["bytes"] / 1e6
    js_ms = min(r["ms"] for r in results["js"])
    py_ms = min(r["ms"] for r in results["py"])
    print()
    print(f"streaming one {mb:.2f} MB reply in the page (best of {args.repeat}):")
    print(
        f"  {'plain JS getReader + JSON.parse':<34}{js_ms:>8.0f} ms {mb / js_ms * 1000:>7.1f} MB/s"
    )
    print(
        f"  {'wiggum stream() over fetch':<34}{py_ms:>8.0f} ms {mb / py_ms * 1000:>7.1f} MB/s"
        f"   ({py_ms / js_ms:.2f}x JS; {results['py'][0]['deltas']} deltas)"
    )
    if delay:
        print(
            f"chunk arrival -> text in the chat DOM ({delay['n']} chunks): median "
            f"{delay['median']:.1f} ms, p90 {delay['p90']:.1f} ms, max {delay['max']:.1f} ms"
        )
    else:
        print("chunk arrival -> DOM: the chat UI is not in this build")
    return 0


if __name__ == "__main__":
    sys.exit(main())
