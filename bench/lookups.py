"""Skill search and the model registry's index, each beside a plain reference in the same run.

    python bench/lookups.py [--repeat 5]

* skill search: 50 searches of Chief's design guidance (``SkillLibrary.search``,
  BM25F over the library indexed once at load) beside a plain scan that looks
  for each query word in every skill's text (what a search without an index
  reads, and less than it ranks);
* the model registry: building its lookup tables from the data file
  (``registry._index``, once per process) beside ``json.loads`` of the same
  bytes (the least any load does);
* the same with refreshed model facts laid over it (the page's "Refresh model
  facts", at its worst: a fresh copy of every model), beside the plain build.

Best and median of ``--repeat`` runs, in milliseconds.  The tests check what
keeps these cheap (a search tokenizes only its query; the index is built once
and keeps its rows raw); this prints what it costs.  No assertions.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from budget import best_of  # noqa: E402  (bench/ is this script's folder)

from wiggum.llm import registry  # noqa: E402
from wiggum.skills import SkillLibrary  # noqa: E402

QUERY = "contrast for text on colored buttons"
SEARCHES = 50


def best_and_median(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    best, median = best_of(fn, repeat)
    return best * 1e3, median * 1e3


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    repeat = parser.parse_args().repeat

    library = SkillLibrary.load()
    texts = [skill.text.lower() for skill in library.skills]
    words = QUERY.lower().split()

    def search() -> None:
        for _ in range(SEARCHES):
            library.search(QUERY)

    def scan() -> None:
        for _ in range(SEARCHES):
            [sum(text.count(w) for w in words) for text in texts]

    data = registry._read_data()

    def build_index() -> None:
        registry._index.cache_clear()
        registry._index()

    fresh = json.loads(data)

    def build_with_fresh() -> None:
        registry.use_fresh_facts(fresh)
        registry._index()

    def build_plain() -> None:
        registry.use_fresh_facts(None)
        registry._index()

    rows = [
        (f"skill search x{SEARCHES} ({len(library)} skills)", search, "plain word scan", scan),
        (
            f"registry index ({len(data) // 1024} KB)",
            build_index,
            "json.loads",
            lambda: json.loads(data),
        ),
        ("index with refreshed facts", build_with_fresh, "the plain index", build_plain),
    ]
    print(f"{'':34}{'best ms':>9}{'median':>9}   {'reference':<18}{'best ms':>9}{'median':>9}")
    for label, fn, ref_label, ref in rows:
        fn()  # warm: first imports, compiled patterns
        best, med = best_and_median(fn, repeat)
        ref_best, ref_med = best_and_median(ref, repeat)
        print(
            f"{label:34}{best:9.1f}{med:9.1f}   {ref_label:<18}{ref_best:9.1f}{ref_med:9.1f}"
            f"   ({best / ref_best:.1f}x)"
        )


if __name__ == "__main__":
    main()
