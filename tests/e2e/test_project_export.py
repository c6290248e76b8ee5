"""Issue 12 points 1-3 in Chromium, on one booted page: Ralph builds (simulator)
-> the project downloads as a zip whose files match byte for byte and whose
``.git/`` git reads with the History panel's commits -> that zip imports as a
new project with the same files and history -> zip-slip and oversized
archives are refused with their reasons -> rename, duplicate, delete ->
persist() was asked and its answer is shown."""

from __future__ import annotations

import base64
import io
import os
import stat
import zipfile
from pathlib import Path

import pytest
from wiggum_e2e import (
    booted_page,
    configure,
    on_top,
    open_history,
    open_projects,
    ralph_builds,
    ralph_done,
    run_async,
    set_size,
    tid,
)

from tests.sim import Simulator, ToolCall, Turn

pytestmark = pytest.mark.e2e

SHOTS = Path(os.environ.get("WIGGUM_SHOTS", "/tmp/shots-export"))
HTML = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title>
<link rel="stylesheet" href="style.css"></head><body><h1>Tea shop</h1></body></html>"""
CSS = "body { background: #eef; }\n"
KEY = "sk-e2e-export-SECRET"
COMPLETION = ralph_done("Built the page.", ["index.html"])
# Counts navigator.storage.persist() calls, so the test sees that the app asked.
PERSIST_SPY = """
(() => { const s = navigator.storage; if (!s) return; const orig = s.persist.bind(s);
  window.__persistCalls = 0;
  s.persist = () => { window.__persistCalls++; return orig(); }; })();
"""


@pytest.fixture(scope="module")
def shared(browser, base_url):
    with booted_page(
        browser, base_url, init_script=PERSIST_SPY, mounted=True, accept_downloads=True
    ) as page:
        yield page


def raw_files(page) -> dict[str, bytes]:
    got = run_async(
        page,
        """
        import base64
        from wiggum.web.app import APP
        raw = APP.storage.files(APP.project_id)
        {p: base64.b64encode(await raw.read_bytes(p)).decode() for p in await raw.list("", recursive=True)}
        """,
    )
    return {p: base64.b64decode(b) for p, b in got.items()}


def history_messages(page) -> list[str]:
    open_history(page)
    page.locator(tid("history-item")).first.wait_for(timeout=30_000)
    loc = page.locator(f"{tid('history-item')} .history-message")
    return [loc.nth(i).text_content() for i in range(loc.count())]


def git_subjects(zip_bytes: bytes, where: Path) -> list[str]:
    from dulwich.repo import Repo

    zipfile.ZipFile(io.BytesIO(zip_bytes)).extractall(where)
    repo = Repo(str(where))
    return [e.commit.message.decode().splitlines()[0] for e in repo.get_walker()]


def row(page, name: str):
    return page.locator(tid("project-row")).filter(has_text=name).first


def shots(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for w, hgt in ((1280, 800), (1920, 1080), (390, 844)):
        set_size(page, w, hgt)
        page.wait_for_timeout(200)
        page.screenshot(path=str(SHOTS / f"{name}-{w}x{hgt}.png"))
    set_size(page, 1280, 800)


def export_the_tea_shop(page, where: Path) -> dict:
    """Ralph builds the tea shop, the person adds a binary file, the project is
    downloaded: what the page showed at each step, and the zip."""
    with Simulator() as sim:
        configure(page, sim, KEY)
        ralph_builds(
            page,
            sim,
            "Build a tea shop.",
            "Tea",
            [
                Turn(
                    "Writing.",
                    ToolCall("write_file", {"path": "index.html", "content": HTML}),
                    ToolCall("write_file", {"path": "style.css", "content": CSS}),
                ),
                Turn(COMPLETION),
            ],
        )
    built = history_messages(page)
    author = page.locator(f"{tid('history-item')} .history-author").first.text_content()
    # A binary file the person added, so bytes (not text) are compared.
    run_async(
        page,
        """
        from wiggum.web.app import APP
        await APP.coordinator.fs.write_bytes("img/logo.png", bytes(range(256)) * 3)
        (await APP.checkpoint_after_save(["img/logo.png"])).author
        """,
    )
    download_on_top = on_top(page, tid("project-download"), scroll=True)
    with page.expect_download(timeout=30_000) as info:
        page.click(tid("project-download"))
    download = info.value
    data = Path(download.path()).read_bytes()
    # After the download: it checkpoints first what is not yet in History
    # (Chief's notes written after Ralph's last checkpoint).
    messages = history_messages(page)
    held = raw_files(page)
    return {
        "built": built,
        "author": author,
        "messages": messages,
        "files": held,
        "download_on_top": download_on_top,
        "filename": download.suggested_filename,
        "zip": data,
        "subjects": git_subjects(data, where / "unzipped"),
    }


@pytest.fixture(scope="module")
def exported(shared, tmp_path_factory) -> dict:
    """The tea shop, built and downloaded once for the module (every test that
    needs it runs alone as well)."""
    return export_the_tea_shop(shared, tmp_path_factory.mktemp("export"))


def import_zip(page, name: str, data: bytes):
    """Import ``data`` as ``name`` through the projects dialog; the result line."""
    open_projects(page)
    page.set_input_files(
        tid("import-files"), files=[{"name": name, "mimeType": "application/zip", "buffer": data}]
    )
    result = page.locator(tid("import-result"))
    result.wait_for(state="visible", timeout=30_000)
    return result


@pytest.fixture
def tea_shop_imported(shared, exported) -> None:
    """A project "tea-shop" imported from the downloaded zip (imported now if the
    import test has not made it)."""
    open_projects(shared)
    if not row(shared, "tea-shop").count():
        import_zip(shared, "tea-shop.zip", exported["zip"])
        open_projects(shared)


def test_download_has_every_byte_and_the_history(exported):
    assert exported["built"]
    assert exported["author"].startswith("Ralph iteration")
    messages, held = exported["messages"], exported["files"]
    assert len(messages) >= 2
    assert ".git/HEAD" in held and "index.html" in held
    assert exported["download_on_top"]
    assert exported["filename"].endswith(".zip")
    data = exported["zip"]
    zf = zipfile.ZipFile(io.BytesIO(data))
    assert set(zf.namelist()) == set(held)
    for path, body in held.items():
        assert zf.read(path) == body, path
    assert KEY.encode() not in data
    assert all(KEY.encode() not in zf.read(n) for n in zf.namelist())
    assert exported["subjects"] == messages


def test_download_without_agent_memory_and_history(shared, exported):
    page = shared
    open_projects(page)
    page.uncheck(tid("zip-internal"))
    current = page.locator(f"{tid('project-row')}.current")
    with page.expect_download(timeout=30_000) as info:
        current.locator(tid("project-download")).click()
    names = zipfile.ZipFile(io.BytesIO(Path(info.value.path()).read_bytes())).namelist()
    assert names and not any(n.startswith((".git/", ".ralph/", ".chief/")) for n in names)
    assert "index.html" in names
    page.check(tid("zip-internal"))


def test_import_the_zip_as_a_new_project(shared, exported):
    page = shared
    result = import_zip(page, "tea-shop.zip", exported["zip"])
    assert "with its history" in result.text_content()
    assert "tea-shop" in result.text_content()
    page.wait_for_function(
        "document.querySelector('[data-testid=project-switcher]').selectedOptions[0]"
        "?.textContent === 'tea-shop'",
        timeout=30_000,
    )
    # Byte for byte, but .git/index: it is made again for the files as imported here.
    imported = raw_files(page)
    assert set(imported) == set(exported["files"])
    assert {p: d for p, d in imported.items() if p != ".git/index"} == {
        p: d for p, d in exported["files"].items() if p != ".git/index"
    }
    page.click(f"{tid('projects-dialog')} [data-action=close]")
    assert history_messages(page) == exported["messages"]


def bad_zip() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, data, mode in [
            ("index.html", b"<h1>ok</h1>", stat.S_IFREG | 0o644),
            ("../../etc/evil.sh", b"x", stat.S_IFREG | 0o644),
            ("/abs/path.txt", b"x", stat.S_IFREG | 0o644),
            ("link-to-passwd", b"/etc/passwd", stat.S_IFLNK | 0o777),
            ("con.txt", b"x", stat.S_IFREG | 0o644),
        ]:
            info = zipfile.ZipInfo(name)
            info.external_attr = mode << 16
            zf.writestr(info, data)
    return buf.getvalue()


def test_zip_slip_entries_are_refused_and_listed(shared):
    page = shared
    import_zip(page, "tricky.zip", bad_zip())
    page.locator(tid("refused-list")).wait_for(timeout=30_000)
    text = page.locator(tid("refused-list")).text_content()
    for name, why in [
        ("../../etc/evil.sh", "climbs out"),
        ("/abs/path.txt", "absolute path"),
        ("link-to-passwd", "symbolic link"),
        ("con.txt", "reserved device name"),
    ]:
        assert name in text and why in text
    assert "Imported 1 file " in page.locator(tid("import-result")).text_content()
    assert raw_files(page) == {"index.html": b"<h1>ok</h1>"}
    assert on_top(page, tid("refused-list"), scroll=True)
    shots(page, "import-refused")


def test_oversized_archive_is_refused_with_the_limit(shared):
    page = shared
    open_projects(page)
    before = len(page.locator(tid("project-row")).all())
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("huge.bin", b"\0" * (51 * 1024 * 1024))
    page.set_input_files(
        tid("import-files"),
        files=[{"name": "huge.zip", "mimeType": "application/zip", "buffer": buf.getvalue()}],
    )
    err = page.locator(tid("projects-error"))
    err.wait_for(state="visible", timeout=30_000)
    assert "Nothing was imported" in err.text_content()
    assert "50 MB" in err.text_content()
    assert len(page.locator(tid("project-row")).all()) == before


def test_rename_duplicate_delete(shared, exported, tea_shop_imported):
    page = shared
    dialog = open_projects(page)
    meta = row(page, "tea-shop").locator(tid("project-meta")).text_content()
    # the site's files are counted, not the history's objects or the agents' notes
    site = [p for p in exported["files"] if p.split("/")[0] not in (".git", ".ralph", ".chief")]
    assert meta.startswith(f"{len(site)} files · "), meta
    assert "with its history)" in meta and "changed" in meta
    shots(page, "projects-list")
    # rename
    row(page, "tea-shop").locator(tid("project-rename")).click()
    page.locator(tid("project-dialog")).wait_for(state="visible")
    page.fill(tid("project-name"), "Tea shop v2")
    page.click(tid("project-save"))
    open_projects(page)
    row(page, "Tea shop v2").wait_for(timeout=20_000)
    # duplicate
    row(page, "Tea shop v2").locator(tid("project-duplicate")).click()
    row(page, "Tea shop v2 copy").wait_for(timeout=30_000)
    copy_id = row(page, "Tea shop v2 copy").get_attribute("data-project-id")
    copied = run_async(
        page,
        f"""
        from wiggum.web.app import APP
        raw = APP.storage.files({copy_id!r})
        sorted(await raw.list("", recursive=True))
        """,
    )
    assert copied == sorted(exported["files"])
    # delete asks first
    row(page, "Tea shop v2 copy").locator(tid("project-delete")).click()
    confirm = page.locator(tid("delete-confirm"))
    confirm.wait_for(state="visible")
    assert "cannot be undone" in confirm.text_content()
    assert row(page, "Tea shop v2 copy").count() == 1
    page.click(tid("project-delete-confirm"))
    page.wait_for_function(
        "![...document.querySelectorAll('[data-testid=project-row]')]"
        ".some(r => r.textContent.includes('Tea shop v2 copy'))",
        timeout=20_000,
    )
    gone = run_async(
        page,
        f"""
        from wiggum.web.app import APP
        await APP.storage.files({copy_id!r}).list("", recursive=True)
        """,
    )
    assert gone == []
    assert dialog.is_visible()


def test_persist_asked_and_storage_shown(shared):
    page = shared
    assert page.evaluate("window.__persistCalls") >= 1
    open_projects(page)
    usage = page.locator(tid("storage-usage"))
    page.wait_for_function(
        "document.querySelector('[data-testid=storage-usage]').textContent.includes('Using')"
    )
    assert "this browser allows" in usage.text_content()
    assert "persistent" in page.locator(tid("storage-persist")).text_content()
    assert page.locator(tid("quota-warning")).is_hidden()
    # The warning under a small quota: tests/e2e/test_storage_quota.py.
