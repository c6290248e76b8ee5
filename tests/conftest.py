"""Test-suite wide ordering: end-to-end tests run last.

The e2e fixtures drive Chromium through Playwright's sync API, which keeps an
event loop running on the main thread for as long as the session-scoped
browser lives; any asyncio test collected after them could not start its
own loop.  So everything under ``tests/e2e`` is marked ``e2e`` and moved to
the end, and ``pytest -m "not e2e"`` runs the fast suite alone.
"""

from __future__ import annotations

from pathlib import Path

import pytest

E2E_DIR = Path(__file__).parent / "e2e"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if E2E_DIR in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.e2e)
    items.sort(key=lambda item: item.get_closest_marker("e2e") is not None)
