"""The ``dom`` fixture: a fresh fake page (``fake_dom``) for one test.

The fake ``js`` and ``pyodide`` modules are in ``sys.modules`` for the test
only; so is every ``wiggum.web`` module the test imports.  At the end the
test fails if the page showed or said that something went wrong that the
test did not expect (a handler's error line, a console error, an error
logged under ``wiggum``): the views' handlers catch their own failures, so
without this a broken handler would pass unseen.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.web.fake_dom import FakeBrowser, install


@pytest.fixture
async def dom() -> AsyncIterator[FakeBrowser]:
    browser = install()
    try:
        yield browser
        problems = browser.problems()
    finally:
        browser.uninstall()
    assert not problems, "the page reported:\n" + "\n".join(problems)
