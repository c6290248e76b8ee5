"""Projects as wholes (wiggum.session.projects, wiggum.ui.projects): names, deleting, imports,
and what the projects dialog says."""

from __future__ import annotations

import pytest

from wiggum.project.importing import ArchiveError, ImportResult, Refused
from wiggum.session.projects import (
    EMPTY_PROJECT,
    NextProject,
    after_delete,
    clean_name,
    copy_name,
    import_name,
    import_project,
    left_out_folders,
    zip_name,
)
from wiggum.ui.projects import (
    StorageEstimate,
    delete_question,
    import_hint,
    imported_text,
    not_done,
    row_actions,
    row_meta,
    storage_view,
)

PROJECTS = [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}, {"id": "c", "name": "C"}]


def test_a_name_is_the_typed_text_with_single_spaces():
    assert clean_name("  My \t new\n site ") == "My new site"
    assert clean_name(" \n ") == ""
    assert copy_name("Tea shop") == "Tea shop copy"


def test_a_download_is_named_safely():
    assert zip_name("Tea shop: v2/3") == "Tea-shop--v2-3.zip"
    assert zip_name("..") == "project.zip"
    assert zip_name("ok_name-1.0") == "ok_name-1.0.zip"


def test_an_import_is_named_after_its_folder_or_zip():
    assert import_name([("index.html", "site/index.html"), ("a.css", "site/a.css")]) == "site"
    assert import_name([("Tea shop.zip", "")]) == "Tea shop"
    assert import_name([("Tea shop.ZIP", "")]) == "Tea shop"
    assert import_name([(".zip", "")]) == "Imported project"
    assert import_name([("a.html", ""), ("b.zip", "")]) == "Imported project"


def test_dropped_folders_are_named_with_the_way_that_works():
    assert left_out_folders([]) == ""
    said = left_out_folders({"zeta", "alpha"})
    assert said.startswith("Folders cannot be dropped here (alpha, zeta)")
    assert "“Import folder…”" in said


def test_deleting_another_project_opens_nothing():
    assert after_delete("b", "a", PROJECTS) is None


def test_deleting_the_open_project_opens_the_newest_other_one():
    assert after_delete("c", "c", PROJECTS) == NextProject(open_id="b")
    assert after_delete("a", "a", PROJECTS) == NextProject(open_id="c")


def test_deleting_the_last_project_makes_an_empty_one():
    assert after_delete("a", "a", PROJECTS[:1]) == NextProject(create=EMPTY_PROJECT)


def result(files: dict[str, bytes], refused: list[Refused] | None = None) -> ImportResult:
    return ImportResult(files=files, refused=refused or [])


async def test_an_import_makes_a_project_of_what_was_accepted():
    made: list[tuple[str, ImportResult]] = []

    async def reading() -> ImportResult:
        return result({"index.html": b"<h1>"})

    async def create(name: str, r: ImportResult) -> dict:
        made.append((name, r))
        return {"id": "p-new", "name": name}

    done = await import_project(reading(), "Site", create)
    assert done.project == {"id": "p-new", "name": "Site"} and done.error is None
    assert made[0][0] == "Site" and done.result is made[0][1]


async def test_an_unreadable_archive_makes_nothing_and_says_why():
    async def reading() -> ImportResult:
        raise ArchiveError("The file is not a zip archive.")

    async def create(name: str, r: ImportResult) -> dict:
        raise AssertionError("nothing is made")

    done = await import_project(reading(), "x", create)
    assert done == type(done)(error="Nothing was imported. The file is not a zip archive.")


async def test_nothing_acceptable_makes_nothing_but_lists_what_was_refused():
    refused = [Refused("../evil", "outside the project")]

    async def reading() -> ImportResult:
        return result({}, refused)

    async def create(name: str, r: ImportResult) -> dict:
        raise AssertionError("nothing is made")

    done = await import_project(reading(), "x", create)
    assert done.project is None and done.result.refused == refused
    assert done.error == "Nothing was imported: no file in it could be accepted."


async def test_a_refused_write_makes_nothing_and_names_the_reason():
    async def reading() -> ImportResult:
        return result({"a.txt": b"a"})

    async def create(name: str, r: ImportResult) -> dict:
        raise OSError()

    done = await import_project(reading(), "x", create)
    assert done.project is None and done.error == "Nothing was imported. OSError"


def test_not_done_gives_the_reason_or_the_kind_of_failure():
    assert not_done("Not done: open.", ValueError("gone")) == "Not done: open. gone"
    assert not_done("Not done: open.", ValueError()) == "Not done: open. ValueError"


def test_a_rows_meta_and_buttons():
    assert row_meta(2048, 1, 0, str) == "1 file · 2.0 KB · never changed"
    assert row_meta(10, 3, 1.5, lambda s: f"<{s}>") == "3 files · 10 B · changed <1.5>"
    # the history and the agents' notes are not the site's files, but they take room
    meta = row_meta(4200, 3, 0, str, stored=13_300)
    assert meta == "3 files · 4.1 KB (13.0 KB with its history) · never changed"
    open_, *rest = row_actions(current=True)
    assert (open_.label, open_.disabled) == ("Open (current)", True)
    assert [a.action for a in rest] == ["download", "rename", "duplicate", "delete"]
    assert not any(a.disabled for a in rest)
    assert row_actions(current=False)[0].label == "Open"


def test_what_the_storage_lines_say():
    unknown = storage_view(None)
    assert not unknown.known and "does not say" in unknown.usage
    calm = storage_view(StorageEstimate(1024, 10 * 2**30, True))
    assert calm.usage == "Using 1.0 KB of 10.0 GB this browser allows."
    assert calm.persist.startswith("Storage is persistent") and calm.warning is None
    full = storage_view(StorageEstimate(85, 100, False))
    assert full.warning.startswith("Storage is almost full (85% used).")
    assert full.persist.startswith("Storage is not persistent")
    silent = storage_view(StorageEstimate(1, 100, None))
    assert silent.persisted is None and silent.persist == ""


@pytest.mark.parametrize(("usage", "near"), [(79, False), (80, True), (0, False)])
def test_the_quota_warning_starts_at_four_fifths(usage, near):
    assert StorageEstimate(usage, 100, None).near_quota is near
    assert not StorageEstimate(5, 0, None).near_quota  # no quota said: no warning


def test_the_dialogs_other_words():
    assert delete_question("Tea").startswith("Delete “Tea” with its files, history")
    assert import_hint(2000, 10 * 2**20, 50 * 2**20) == (
        "or drop them here · up to 2000 files, 10 MB a file, 50 MB in all"
    )
    with_git = result({"index.html": b"x" * 10, ".git/HEAD": b"ref"})
    assert imported_text("Tea", with_git) == (
        "Imported 1 file (10 B) with its history as the new project “Tea”."
    )
    assert "history" not in imported_text("Tea", result({"a": b"1"}))
