"""The typed quota error: the browser's ``QuotaExceededError`` in the person's words."""

from __future__ import annotations

from wiggum.fs.errors import (
    FileStoreError,
    StorageFull,
    is_quota_name,
    quota_in_text,
    quota_message,
)


def test_the_quota_names_are_recognised_and_nothing_else():
    assert is_quota_name("QuotaExceededError")
    assert is_quota_name("NS_ERROR_DOM_QUOTA_REACHED")
    for other in ("ConstraintError", "AbortError", "", None, "quotaexceedederror"):
        assert not is_quota_name(other)


def test_message_with_figures_names_use_quota_fix_and_that_nothing_was_lost():
    text = quota_message(9 * 1024**2 + 512 * 1024, 10 * 1024**2)
    assert text == (
        "The browser's storage for this page is full (9.5 MB of 10.0 MB used). Delete or "
        "download old projects in ☰ Projects, then try again. Nothing already saved was lost."
    )


def test_message_without_figures_reads_whole():
    text = quota_message()
    assert text.startswith("The browser's storage for this page is full. Delete")
    assert "(" not in text
    # an unknown quota (0) says no figures rather than "of 0 B"
    assert quota_message(10, 0) == text


def test_storage_full_is_a_store_error_whose_text_is_the_sentence():
    err = StorageFull("site/index.html", 2048, 4096)
    assert isinstance(err, FileStoreError)
    assert str(err) == quota_message(2048, 4096)
    assert "site/index.html:" not in str(err)
    assert (err.path, err.usage, err.quota) == ("site/index.html", 2048, 4096)


def test_quota_named_in_a_js_error_text():
    # what Pyodide makes of a DOMException thrown without a stack
    wrapped = (
        "Error: A value of type object with tag [object DOMException] was thrown as an error!\n"
        'String interpolation of the thrown value gives """QuotaExceededError: The quota '
        'has been exceeded.""".'
    )
    assert quota_in_text(wrapped)
    assert quota_in_text("QuotaExceededError: The quota has been exceeded.")
    assert not quota_in_text("ConstraintError: Key already exists")
    assert not quota_in_text(wrapped.replace("QuotaExceededError", "DataCloneError"))
