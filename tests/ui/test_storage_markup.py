"""The projects dialog's storage lines: each one shown or hidden as the browser answered."""

from __future__ import annotations

from wiggum.ui.markup.projects import storage
from wiggum.ui.projects import StorageView


def _by_testid(view: StorageView) -> dict[str, dict[str, str]]:
    return {
        el.attrs["data-testid"]: {**el.attrs, "text": "".join(el.children)} for el in storage(view)
    }


def test_a_known_answer_shows_persistence_and_the_warning() -> None:
    got = _by_testid(
        StorageView("Using 9 MB", persisted=False, persist="May clear", warning="Full")
    )
    assert got["storage-usage"]["text"] == "Using 9 MB" and "hidden" not in got["storage-usage"]
    assert got["storage-persist"]["data-persisted"] == "false"
    assert got["storage-persist"]["text"] == "May clear" and "hidden" not in got["storage-persist"]
    assert got["quota-warning"]["text"] == "Full" and "hidden" not in got["quota-warning"]


def test_what_the_browser_does_not_say_stays_hidden() -> None:
    got = _by_testid(StorageView("Storage use unknown", known=False))
    assert "hidden" in got["storage-persist"] and "data-persisted" not in got["storage-persist"]
    assert "hidden" in got["quota-warning"]
    assert (
        _by_testid(StorageView("x", persisted=True))["storage-persist"]["data-persisted"] == "true"
    )
