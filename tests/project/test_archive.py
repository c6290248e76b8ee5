"""Zip export and import: bytes kept, history readable by git, every refusal rule."""

from __future__ import annotations

import io
import shutil
import stat
import subprocess
import zipfile

import pytest

from wiggum.fs.memory import MemoryFileStore
from wiggum.persist import MemoryAppStorage
from wiggum.project.archive import (
    build_zip,
    copy_project,
    export_project,
    project_summary,
    refusal,
    write_into,
)
from wiggum.project.history import History
from wiggum.project.importing import ArchiveError, read_entries, read_zip

BINARY = bytes(range(256)) * 4


async def built_project():
    store = MemoryFileStore({})
    await store.write_text("index.html", "<h1>Hi</h1>\n")
    await store.write_bytes("img/dot.png", BINARY)
    await store.write_text(".ralph/progress.md", "done\n")
    await store.write_text(".chief/notes.md", "plan\n")
    h = History(store)
    await h.commit("Ralph iteration 1", "Build the page")
    await store.write_text("index.html", "<h1>Hello</h1>\n")
    await h.commit("you", "Edit index.html")
    return store, h


def names(data: bytes) -> set[str]:
    return set(zipfile.ZipFile(io.BytesIO(data)).namelist())


async def test_export_keeps_every_byte_and_the_history(tmp_path):
    store, h = await built_project()
    data = await export_project(store)
    zf = zipfile.ZipFile(io.BytesIO(data))
    for path in await store.list("", recursive=True):
        assert zf.read(path) == await store.read_bytes(path)
    assert "HEAD" not in zf.namelist() and ".git/HEAD" in zf.namelist()
    zf.extractall(tmp_path)
    from dulwich.repo import Repo

    repo = Repo(str(tmp_path))
    subjects = [e.commit.message.decode().splitlines()[0] for e in repo.get_walker()]
    assert subjects == [c.message for c in await h.list()]
    if shutil.which("git"):
        out = subprocess.run(
            ["git", "-C", str(tmp_path), "log", "--format=%s"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split("\n")
        assert out[:2] == ["Edit index.html", "Build the page"]


async def test_export_can_leave_out_agent_memory_and_history():
    store, _ = await built_project()
    got = names(await export_project(store, include_internal=False))
    assert got == {"index.html", "img/dot.png"}


async def test_no_key_reaches_the_zip():
    app = MemoryAppStorage()
    secret = "sk-test-SECRET-1234567890"
    await app.put_settings({"providers": [{"api_key": secret}], "github_token": secret})
    project = await app.create_project("p")
    files = app.files(project["id"])
    await files.write_text("index.html", "<p>x</p>")
    await History(files).commit("you", "first")
    data = await export_project(files)
    zf = zipfile.ZipFile(io.BytesIO(data))
    assert all(secret.encode() not in zf.read(n) for n in zf.namelist())
    assert secret.encode() not in data


async def test_round_trip_into_a_new_project():
    store, h = await built_project()
    result = read_zip(await export_project(store))
    assert result.refused == []
    fresh = MemoryFileStore({})
    await write_into(fresh, result.files)
    for path in await store.list("", recursive=True):
        assert await fresh.read_bytes(path) == await store.read_bytes(path)
    assert [c.message for c in await History(fresh).list()] == [c.message for c in await h.list()]


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("../evil.txt", ".."),
        ("a/../../evil.txt", ".."),
        ("/etc/passwd", "absolute"),
        ("C:/x.txt", "absolute"),
        ("a\\b.txt", "backslash"),
        ("a\x00b", "NUL"),
        ("a\x07b", "control"),
        ("CON", "device"),
        ("dir/nul.txt", "device"),
        ("lpt1", "device"),
        ("trailing. ", "ends with"),
        ("x" * 1100, "too long"),
    ],
)
def test_refusal_rules(name, why):
    assert why in refusal(name)


@pytest.mark.parametrize(
    "name", ["index.html", ".git/HEAD", "a/b/c.js", "console.js", "con-tact.html", "dir/"]
)
def test_ordinary_names_pass(name):
    assert refusal(name) is None


def raw_zip(entries):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, data, mode in entries:
            info = zipfile.ZipInfo(name)
            info.external_attr = mode << 16
            zf.writestr(info, data)
    return buf.getvalue()


def test_zip_slip_symlink_and_device_entries_are_listed_and_the_rest_imported():
    data = raw_zip(
        [
            ("index.html", b"ok", stat.S_IFREG | 0o644),
            ("../../evil.sh", b"x", stat.S_IFREG | 0o644),
            ("/abs.txt", b"x", stat.S_IFREG | 0o644),
            ("link", b"/etc/passwd", stat.S_IFLNK | 0o777),
            ("fifo", b"", stat.S_IFIFO | 0o644),
            ("aux.js", b"x", stat.S_IFREG | 0o644),
        ]
    )
    result = read_zip(data)
    assert result.files == {"index.html": b"ok"}
    reasons = {r.name: r.reason for r in result.refused}
    assert set(reasons) == {"../../evil.sh", "/abs.txt", "link", "fifo", "aux.js"}
    assert reasons["link"] == "symbolic link"
    assert "device" in reasons["fifo"]


def test_zip_with_no_mode_bits_is_fine():
    assert read_zip(raw_zip([("a.txt", b"a", 0)])).files == {"a.txt": b"a"}


def test_over_the_total_limit_is_refused_with_a_reason():
    data = build_zip({"a.bin": b"0" * 600, "b.bin": b"0" * 600})
    with pytest.raises(ArchiveError, match="over the import limit"):
        read_zip(data, max_total_bytes=1000)


def test_a_file_over_the_file_limit_is_listed():
    result = read_zip(build_zip({"big.bin": b"0" * 2000, "a": b"a"}), max_file_bytes=1000)
    assert result.files == {"a": b"a"}
    assert "larger than" in result.refused[0].reason


def test_too_many_files():
    data = build_zip({f"f{i}": b"" for i in range(5)})
    with pytest.raises(ArchiveError, match="limit is 3 files"):
        read_zip(data, max_files=3)


def test_a_lying_size_is_caught_while_inflating():
    data = bytearray(build_zip({"bomb": b"\0" * 100_000}))
    # Patch the central directory's uncompressed size to 10 bytes.
    cd = data.rfind(b"PK\x01\x02")
    data[cd + 24 : cd + 28] = (10).to_bytes(4, "little")
    result_or_error = None
    try:
        result_or_error = read_zip(bytes(data), max_total_bytes=1000)
    except ArchiveError as exc:
        result_or_error = exc
    if isinstance(result_or_error, ArchiveError):
        assert "limit" in str(result_or_error)
    else:
        assert "bomb" not in result_or_error.files or len(result_or_error.files["bomb"]) <= 1000


def test_not_a_zip():
    with pytest.raises(ArchiveError, match="not a zip"):
        read_zip(b"hello")


def test_folder_entries_lose_their_common_top_folder_and_keep_the_rules():
    result = read_entries(
        [("site/index.html", b"a"), ("site/css/x.css", b"b"), ("site/../x", b"c")]
    )
    assert result.files == {"index.html": b"a", "css/x.css": b"b"}
    assert [r.name for r in result.refused] == ["site/../x"]


def test_dropped_files_keep_their_names():
    result = read_entries([("a.html", b"a"), ("b.css", b"b")])
    assert result.files == {"a.html": b"a", "b.css": b"b"}


async def test_summary_and_copy():
    store, h = await built_project()
    summary = await project_summary(store)
    paths = await store.list("", recursive=True)
    stored = sum([len(await store.read_bytes(p)) for p in paths])
    site = [p for p in paths if p.split("/")[0] not in (".git", ".ralph", ".chief")]
    assert any(p.startswith(".git/") for p in paths) and site and len(site) < len(paths)
    assert summary.site_files == len(site)
    assert summary.site_bytes == sum([len(await store.read_bytes(p)) for p in site])
    assert summary.stored_bytes == stored > summary.site_bytes
    assert summary.newest > 0
    fresh = MemoryFileStore({})
    assert await copy_project(store, fresh) == len(paths)
    assert [c.id for c in await History(fresh).list()] == [c.id for c in await h.list()]
