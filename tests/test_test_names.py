"""Every test module has a basename of its own.

pytest imports test files as top-level modules named by their basename (the
rootdir layout, no ``__init__.py`` in the test folders), so a second
``test_x.py`` in another folder stops the whole run at collection, as
tests/e2e/test_attachments.py did beside tests/chief/test_attachments.py."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def test_no_two_test_modules_share_a_basename():
    where: dict[str, list[str]] = defaultdict(list)
    for path in TESTS.rglob("test_*.py"):
        where[path.name].append(str(path.relative_to(TESTS)))
    shared = {name: paths for name, paths in where.items() if len(paths) > 1}
    assert not shared, f"rename one of each (e2e ones end in _page.py): {shared}"
