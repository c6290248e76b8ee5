"""Score and time tool-argument repair on the corpus in tests/llm/test_repair.py.

    python bench/json_repair_corpus.py

Prints, per parser (ours, json_repair alone, pydantic_core partial alone),
how many corpus rows come out right, which ones miss, and per-call timings.
"""

from __future__ import annotations

import importlib.util
import json
import pathlib
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _load_tests():
    spec = importlib.util.spec_from_file_location(
        "test_repair", ROOT / "tests" / "llm" / "test_repair.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _time(fn, raw: str, n: int) -> float:
    t = time.perf_counter()
    for _ in range(n):
        fn(raw)
    return (time.perf_counter() - t) / n * 1e6


def main() -> None:
    t = _load_tests()
    parsers = {
        "composed": t._ours,
        "json_repair": t._json_repair_alone,
        "pydantic_core": t._pydantic_alone,
    }
    print(f"corpus: {len(t.CORPUS)} malformed argument strings")
    for name, fn in parsers.items():
        misses = [cid for cid, raw, exp, _ in t.CORPUS if not t._is_right(exp, fn(raw))]
        total_us = sum(_time(fn, raw, 20) for _, raw, _, _ in t.CORPUS)
        print(
            f"  {name:14s} {len(t.CORPUS) - len(misses):3d} right, "
            f"{total_us / len(t.CORPUS):7.1f} µs/case mean"
        )
        if misses:
            print(f"  {'':14s} misses: {', '.join(misses)}")

    valid = json.dumps({"path": "src/app.py", "start_line": 10, "end_line": 40, "flag": True})
    big = json.dumps({"path": "index.html", "content": "<p>hello</p>\n" * 4000})
    inputs = {
        "valid small": valid,
        "valid 52KB": big,
        "python dict": "{'path': 'src/app.py', start_line: 10, 'flag': True,}",
        "missing comma": '{"path": "a" "n": 1}',
        "truncated 26KB": big[: len(big) // 2],
    }
    print("per call (µs):")
    print(f"  {'input':16s} {'composed':>10s} {'json_repair':>12s} {'pydantic':>10s} {'json':>8s}")
    for label, raw in inputs.items():
        n = 2000 if len(raw) < 1000 else 50

        def strict(s: str) -> object:
            try:
                return json.loads(s)
            except ValueError:
                return None

        row = [_time(fn, raw, n) for fn in (*parsers.values(), strict)]
        print(f"  {label:16s} {row[0]:10.1f} {row[1]:12.1f} {row[2]:10.1f} {row[3]:8.1f}")


if __name__ == "__main__":
    main()
