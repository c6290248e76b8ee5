"""What an import reads of an archive: names as real tools wrote them, the site's
root, git folders that are not the project's history, and the history's own limit."""

from __future__ import annotations

import io
import shutil
import struct
import subprocess
import zipfile
import zlib

import pytest

from wiggum.persist import MemoryAppStorage
from wiggum.project.archive import build_zip
from wiggum.project.importing import (
    ArchiveError,
    HistoryTooLarge,
    ImportResult,
    read_entries,
    read_zip,
)
from wiggum.session.projects import import_project
from wiggum.session.stored_projects import StoredProjects
from wiggum.ui.projects import imported_text


def _zip(entries: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, data in entries.items():
            zf.writestr(name, data)
    return buf.getvalue()


@pytest.mark.skipif(shutil.which("zip") is None, reason="Info-ZIP's zip is needed")
def test_info_zip_utf8_names_without_the_flag_read_as_utf8(tmp_path):
    (tmp_path / "résumé.html").write_text("<p>CV</p>")
    subprocess.run(["zip", "-q", "cv.zip", "résumé.html"], cwd=tmp_path, check=True)
    data = (tmp_path / "cv.zip").read_bytes()
    assert not zipfile.ZipFile(io.BytesIO(data)).infolist()[0].flag_bits & 0x800
    assert read_zip(data).files == {"résumé.html": b"<p>CV</p>"}


def test_names_that_are_not_utf8_and_not_flagged_are_cp437():
    data = _zip({"cafX.txt": b"1"}).replace(b"cafX.txt", b"caf\x82.txt")  # 0x82: é in CP437
    assert read_zip(data).files == {"café.txt": b"1"}


def test_names_flagged_utf8_that_are_not_import_as_cp437_rather_than_fail():
    data = _zip({"résumé.html": b"<p>CV</p>", "index.html": b"<h1>Hi</h1>"})
    broken = data.replace("résumé".encode(), b"r\xe9!sum\xe9!")  # same length, not UTF-8
    with pytest.raises(UnicodeDecodeError):
        zipfile.ZipFile(io.BytesIO(broken))  # what Python alone does with it
    result = read_zip(broken)
    assert result.files == {"rΘ!sumΘ!.html": b"<p>CV</p>", "index.html": b"<h1>Hi</h1>"}


def test_info_zips_unicode_path_field_names_the_entry():
    raw = b"resume.html"
    field = b"\x01" + struct.pack("<L", zlib.crc32(raw)) + "résumé.html".encode()
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        info = zipfile.ZipInfo("resume.html")
        info.extra = struct.pack("<HH", 0x7075, len(field)) + field
        zf.writestr(info, b"cv")
    assert read_zip(buf.getvalue()).files == {"résumé.html": b"cv"}


def test_one_top_folder_becomes_the_top_and_the_import_says_so():
    data = _zip(
        {
            "tea-main/": b"",
            "tea-main/index.html": b"<h1>Tea</h1>",
            "tea-main/css/a.css": b"a{}",
            "__MACOSX/tea-main/._index.html": b"junk",
        }
    )
    result = read_zip(data)
    assert result.files == {"index.html": b"<h1>Tea</h1>", "css/a.css": b"a{}"}
    assert result.top_folder == "tea-main" and result.refused == []
    assert imported_text("tea-main", result) == (
        "Imported 2 files (15 B) as the new project “tea-main”. Everything was in one "
        "folder, “tea-main/”: its content is the project's top level."
    )
    # Two folders at the top, or a file beside the folder: nothing is moved.
    assert read_zip(_zip({"a/x": b"1", "b/y": b"2"})).top_folder is None
    assert read_zip(_zip({"a/x": b"1", "readme": b"2"})).top_folder is None


def test_a_folder_picked_holding_one_folder_is_treated_as_a_zip_of_it():
    result = read_entries([("picked/site/index.html", b"<h1>x</h1>"), ("picked/site/a.css", b"")])
    assert result.top_folder == "site" and set(result.files) == {"index.html", "a.css"}


def test_git_folders_that_are_not_the_projects_history_are_refused():
    result = read_zip(
        _zip(
            {
                "index.html": b"x",
                ".git/HEAD": b"ref: refs/heads/main\n",
                "vendor/lib/.git/config": b"[core]",
                "sub/.git": b"gitdir: ../.git/modules/sub\n",
                ".GIT/hooks/pre-commit": b"#!/bin/sh",
            }
        )
    )
    assert set(result.files) == {"index.html", ".git/HEAD"}
    assert {r.name: r.reason for r in result.refused} == {
        "vendor/lib/.git/config": "a git folder inside the project (another repository's history)",
        "sub/.git": "a git folder inside the project (another repository's history)",
        ".GIT/hooks/pre-commit": "a git folder inside the project (another repository's history)",
    }
    only = read_zip(_zip({"index.html": b"x", ".git": b"gitdir: /elsewhere\n"}))
    assert [r.reason for r in only.refused] == [
        "a .git file pointing to a history elsewhere (not included in the archive)"
    ]


def test_the_limits_count_the_site_not_its_history(monkeypatch):
    history = {f".git/objects/pack/p{i}.pack": b"h" * 400 for i in range(5)}
    data = build_zip({"index.html": b"x" * 50, **history})
    # 2,050 bytes in all, but the site is 50: within a 100-byte limit.
    result = read_zip(data, max_total_bytes=100, max_files=1)
    assert result.total_bytes == 50 and result.has_history
    monkeypatch.setattr("wiggum.project.importing.MAX_HISTORY_BYTES", 1000)
    with pytest.raises(HistoryTooLarge) as refused:
        read_zip(data)
    assert "import it without its history" in str(refused.value).lower()
    without = read_zip(data, with_history=False)
    assert set(without.files) == {"index.html"} and not without.has_history
    assert imported_text("tea", without).endswith(
        "Its history was left out, as you asked: a new one starts."
    )
    with pytest.raises(ArchiveError, match="content is over the import limit"):
        read_zip(data, max_total_bytes=40, with_history=False)


async def _no_project(name, result):
    raise AssertionError("nothing is made")


async def test_a_history_too_large_is_offered_without_it_and_a_strange_archive_is_said():
    async def too_large() -> ImportResult:
        raise HistoryTooLarge("Nothing was imported yet: this project's history is large.")

    offered = await import_project(too_large(), "tea", _no_project)
    assert offered.offer_without_history and offered.project is None
    assert offered.error.startswith("Nothing was imported yet")

    async def strange() -> ImportResult:
        raise UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte")

    said = await import_project(strange(), "tea", _no_project)
    assert said.error.startswith("Nothing was imported: the archive could not be read")
    assert "UnicodeDecodeError" not in said.error and not said.offer_without_history


async def test_a_history_that_cannot_be_read_is_left_out_and_said():
    async def no_browser() -> bool:
        return False

    stored = StoredProjects(MemoryAppStorage(), no_browser)
    result = read_zip(
        build_zip(
            {
                "index.html": b"<h1>Tea</h1>",
                ".git/HEAD": b"ref: refs/heads/main\n",
                ".git/refs/heads/main": b"1" * 40 + b"\n",
            }
        )
    )
    project = await stored.create_from("tea", result)
    files = stored.storage.files(project["id"])
    assert await files.list("") == ["index.html"]
    assert not result.has_history
    assert imported_text("tea", result) == (
        "Imported 1 file (12 B) as the new project “tea”. Its history (.git/) could not be "
        "read (its object 1111111 is missing from .git/), so it was left out and a new one "
        "starts."
    )
