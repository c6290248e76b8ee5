"""The finder that stands for the standard library modules loaded after the app
(wiggum/web/stdlib_later.py), with a real zip and real imports under CPython:
mounted by the background load, or fetched at once by an early import, once."""

from __future__ import annotations

import gzip
import io
import sys
import zipfile

import pytest

from wiggum.web.stdlib_later import LaterStdlib

NAME = "wiggum_later_probe"


def _gz_zip() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr(f"{NAME}/__init__.py", "WHERE = 'later'\n")
        zf.writestr(f"{NAME}/sub.py", "VALUE = 42\n")
    return gzip.compress(buf.getvalue())


@pytest.fixture
def finder(tmp_path):
    fetched: list[int] = []

    def fetch() -> bytes:
        fetched.append(1)
        return _gz_zip()

    found = LaterStdlib([NAME], fetch, str(tmp_path / "later.zip"))
    found.fetched = fetched
    sys.meta_path.insert(0, found)
    yield found
    if found in sys.meta_path:
        sys.meta_path.remove(found)
    if found.path in sys.path:
        sys.path.remove(found.path)
    for mod in [m for m in sys.modules if m.partition(".")[0] == NAME]:
        del sys.modules[mod]


def test_an_early_import_fetches_the_zip_at_once_and_only_once(finder):
    from wiggum_later_probe import sub

    assert sub.VALUE == 42
    import wiggum_later_probe

    assert wiggum_later_probe.WHERE == "later"
    assert finder.fetched == [1]
    assert finder.mounted and finder not in sys.meta_path


def test_after_the_background_load_nothing_is_fetched(finder):
    finder.mount(_gz_zip())
    import wiggum_later_probe.sub

    assert wiggum_later_probe.sub.VALUE == 42
    assert finder.fetched == []
    finder.mount(b"not even gzip")  # a second mount is a no-op


def test_other_imports_pass_by(finder):
    import json

    with pytest.raises(ModuleNotFoundError):
        __import__("wiggum_no_such_module")
    assert json.dumps(1) == "1"
    assert finder.fetched == [] and not finder.mounted


def test_a_zip_that_cannot_be_fetched_says_so_and_a_later_import_tries_again(tmp_path):
    tries: list[int] = []

    def fetch() -> bytes:
        tries.append(1)
        raise OSError("HTTP 404")

    finder = LaterStdlib([NAME], fetch, str(tmp_path / "later.zip"))
    sys.meta_path.insert(0, finder)
    try:
        for _ in range(2):
            with pytest.raises(ModuleNotFoundError, match=r"could not be loaded.*HTTP 404.*Reload"):
                __import__(NAME)
    finally:
        sys.meta_path.remove(finder)
    assert tries == [1, 1] and not finder.mounted
